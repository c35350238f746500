import { Form } from 'react-admin';
import { Permission } from '../../auth/permission';
import { BulkConfirmButton } from '../../components/BulkConfirmButton';
import { ReasonField } from '../../components/ReasonField';
import { ColumnInput, M, type MovieView, TagsInput } from './shared';

const a = `${M}.action`;
const done = `${M}.notifications.batchDone`;

/** A react-admin reference picker inside the dialog, feeding the batch body. */
function PickerField({
  kind,
  set,
}: {
  kind: 'columnId' | 'tagIds';
  set: (b: Record<string, unknown>) => void;
}) {
  return (
    <Form onSubmit={() => undefined}>
      {kind === 'columnId' ? (
        <ColumnInput
          source="columnId"
          label={`${M}.filters.columnId`}
          onChange={(v) => set({ columnId: v ?? undefined })}
        />
      ) : (
        <TagsInput
          source="tagIds"
          label="resources.movie/review.fields.tagIds"
          onChange={(v) => set({ tagIds: v ?? [] })}
        />
      )}
    </Form>
  );
}

const hasReason = (b: Record<string, unknown>) => typeof b.reason === 'string' && b.reason.trim().length > 0;

/** Batch actions of the review queue: approve, reject with a reason, delete (admins). */
export function ReviewBulkActions() {
  return (
    <>
      <BulkConfirmButton
        action="approve"
        label={`${a}.approve`}
        confirm={`${a}.confirmApprove`}
        done={done}
      />
      <BulkConfirmButton
        action="reject"
        label={`${a}.reject`}
        confirm={`${a}.confirmReject`}
        done={done}
        color="warning"
        extra={(body, set) => (
          <ReasonField
            prefix={a}
            value={(body.reason as string) ?? ''}
            onChange={(reason) => set({ ...body, reason })}
          />
        )}
        ready={hasReason}
      />
      <Permission roles={['admin']}>
        <BulkConfirmButton
          action="delete"
          label={`${a}.delete`}
          confirm={`${a}.confirmDelete`}
          done={done}
          color="error"
        />
      </Permission>
    </>
  );
}

/** Batch actions of the online list. */
export function OnlineBulkActions() {
  return (
    <>
      <BulkConfirmButton
        action="offline"
        label={`${a}.offline`}
        confirm={`${a}.confirmOffline`}
        done={done}
        color="warning"
      />
      <BulkConfirmButton action="online" label={`${a}.online`} confirm={`${a}.confirmOnline`} done={done} />
      <BulkConfirmButton
        action="recommend"
        label={`${a}.recommend`}
        confirm={`${a}.confirmRecommend`}
        done={done}
      />
      <BulkConfirmButton
        action="unrecommend"
        label={`${a}.unrecommend`}
        confirm={`${a}.confirmUnrecommend`}
        done={done}
      />
      <BulkConfirmButton
        action="setColumn"
        label={`${a}.setColumn`}
        confirm={`${a}.confirmSetColumn`}
        done={done}
        extra={(_, set) => <PickerField kind="columnId" set={set} />}
        ready={(b) => typeof b.columnId === 'number'}
      />
      <BulkConfirmButton
        action="addTags"
        label={`${a}.addTags`}
        confirm={`${a}.confirmAddTags`}
        done={done}
        extra={(_, set) => <PickerField kind="tagIds" set={set} />}
        ready={(b) => Array.isArray(b.tagIds) && b.tagIds.length > 0}
      />
      <BulkConfirmButton
        action="removeTags"
        label={`${a}.removeTags`}
        confirm={`${a}.confirmRemoveTags`}
        done={done}
        extra={(_, set) => <PickerField kind="tagIds" set={set} />}
        ready={(b) => Array.isArray(b.tagIds) && b.tagIds.length > 0}
      />
      <Permission roles={['admin']}>
        <BulkConfirmButton
          action="delete"
          label={`${a}.delete`}
          confirm={`${a}.confirmDelete`}
          done={done}
          color="error"
        />
      </Permission>
    </>
  );
}

export const bulkActionsOf = (view: MovieView) =>
  view === 'review' ? <ReviewBulkActions /> : <OnlineBulkActions />;

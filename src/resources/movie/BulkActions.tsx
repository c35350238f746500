import { Form } from 'react-admin';
import { BulkConfirmButton } from '../../components/BulkConfirmButton';
import { ReviewBulkButtons } from '../../components/ReviewBulkButtons';
import { MOVIE_REVIEW, type MovieView, SECTION_MSG } from './names';
import { ColumnInput, TagsInput } from './shared';

const a = `${SECTION_MSG}.action`;
const done = `${SECTION_MSG}.notifications.batchDone`;

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
          label={`${SECTION_MSG}.filters.columnId`}
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

/** Batch actions of the review queue: approve, reject with a reason, delete (admins). */
export function ReviewBulkActions() {
  return <ReviewBulkButtons review={MOVIE_REVIEW} actions={['approve', 'reject']} />;
}

/** Batch actions of the online list. */
export function OnlineBulkActions() {
  return (
    <ReviewBulkButtons review={MOVIE_REVIEW} actions={['offline', 'online']}>
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
    </ReviewBulkButtons>
  );
}

export const bulkActionsOf = (view: MovieView) =>
  view === 'review' ? <ReviewBulkActions /> : <OnlineBulkActions />;

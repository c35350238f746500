import { Permission } from '../../auth/permission';
import { BulkConfirmButton } from '../../components/BulkConfirmButton';
import { ReasonField } from '../../components/ReasonField';
import { R } from './shared';

const a = `${R}.action`;
const done = `${R}.notifications.batchDone`;

const hasReason = (b: Record<string, unknown>) => typeof b.reason === 'string' && b.reason.trim().length > 0;

/** Batch actions of the review list, each asked first and run in one server transaction. */
export function NovelBulkActions() {
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
      <BulkConfirmButton
        action="offline"
        label={`${a}.offline`}
        confirm={`${a}.confirmOffline`}
        done={done}
        color="warning"
      />
      <BulkConfirmButton action="online" label={`${a}.online`} confirm={`${a}.confirmOnline`} done={done} />
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

import type { ReactNode } from 'react';
import { DeletePermission } from '../auth/permission';
import { BulkConfirmButton } from './BulkConfirmButton';
import { ReasonField } from './ReasonField';
import { batchQuestion, hasReason, type ReviewDecl } from './review';

const reasonInput = (
  prefix: string,
  body: Record<string, unknown>,
  set: (body: Record<string, unknown>) => void,
) => (
  <ReasonField
    prefix={prefix}
    value={(body.reason as string) ?? ''}
    onChange={(reason) => set({ ...body, reason })}
  />
);

/**
 * The batch buttons of a reviewed list: each of `actions` on the selected rows (asked first, a reason where the
 * workflow needs one, one server transaction), then `children` (the section's other batch actions), then delete
 * (admins) unless `deletable` is false.
 */
export function ReviewBulkButtons({
  review,
  actions,
  children,
  deletable = true,
}: {
  review: ReviewDecl;
  actions: readonly string[];
  children?: ReactNode;
  deletable?: boolean;
}) {
  const a = `${review.messages}.action`;
  const done = `${review.messages}.notifications.batchDone`;
  return (
    <>
      {actions.map((action) => {
        const needsReason = review.reasonRequired.includes(action);
        return (
          <BulkConfirmButton
            key={action}
            action={action}
            label={`${a}.${action}`}
            confirm={batchQuestion(review.messages, action)}
            done={done}
            color={review.warn.includes(action) ? 'warning' : 'primary'}
            extra={needsReason ? (body, set) => reasonInput(a, body, set) : undefined}
            ready={needsReason ? hasReason : undefined}
          />
        );
      })}
      {children}
      {deletable && (
        <DeletePermission>
          <BulkConfirmButton
            action="delete"
            label={`${a}.delete`}
            confirm={`${a}.confirmDelete`}
            done={done}
            color="error"
          />
        </DeletePermission>
      )}
    </>
  );
}

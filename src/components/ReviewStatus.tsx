import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { ReviewDecl, StatusColor } from './review';

const COLORS: Record<string, StatusColor> = {
  pending: 'warning',
  rejected: 'error',
  online: 'success',
  offline: 'default',
};

/** A reviewed item's status as a chip, named in the UI's language; offline (taken away) is outlined. */
export function ReviewStatusChip({ review, status }: { review: ReviewDecl; status?: string }) {
  const translate = useTranslate();
  if (!status) return null;
  const colors: Record<string, StatusColor | undefined> = { ...COLORS, ...review.statusColors };
  return (
    <Chip
      size="small"
      color={colors[status] ?? 'default'}
      variant={status === 'offline' ? 'outlined' : 'filled'}
      label={translate(`${review.statusMessages}.${status}`)}
    />
  );
}

/** The record's status chip, as a list column. */
export function ReviewStatusField({
  review,
}: {
  review: ReviewDecl;
  label?: string;
  source?: string;
  sortable?: boolean;
}) {
  const record = useRecordContext();
  return <ReviewStatusChip review={review} status={record?.status} />;
}

import { ReviewBulkButtons } from '../../components/ReviewBulkButtons';
import { NOVEL_REVIEW } from './names';

/** Batch actions of the review list, each asked first and run in one server transaction. */
export function NovelBulkActions() {
  return <ReviewBulkButtons review={NOVEL_REVIEW} actions={['approve', 'reject', 'offline', 'online']} />;
}

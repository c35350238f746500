import { Chip } from '@mui/material';
import { type AutocompleteInputProps, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import { SERIAL_STATUSES, type SerialStatus } from '../../../common/novel';
import { REVIEW_STATUSES } from '../../../common/review';
import { ColumnTreeInput } from '../../components/ColumnTreeInput';
import { ReviewStatusChip, ReviewStatusField } from '../../components/ReviewStatus';
import { COLUMN_RESOURCE, NOVEL_MSG, NOVEL_REVIEW, type NovelStatus, SECTION_MSG } from './names';

export type { SerialStatus };

export const STATUSES: readonly NovelStatus[] = REVIEW_STATUSES;
export const statusChoices = STATUSES.map((s) => ({ id: s, name: `${SECTION_MSG}.status.${s}` }));
export const serialChoices = SERIAL_STATUSES.map((s) => ({
  id: s,
  name: `${SECTION_MSG}.serial.${s}`,
}));

export const StatusChip = ({ status }: { status?: NovelStatus }) => (
  <ReviewStatusChip review={NOVEL_REVIEW} status={status} />
);
export const StatusField = (_: { label?: string; source?: string; sortable?: boolean }) => (
  <ReviewStatusField review={NOVEL_REVIEW} />
);

export function SerialField(_: { label?: string; source?: string; sortable?: boolean }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record?.serialStatus) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={record.serialStatus === 'completed' ? 'primary' : 'default'}
      label={translate(`${SECTION_MSG}.serial.${record.serialStatus}`)}
    />
  );
}

/** 1234567 → "123.5万" (zh-CN) or "1,234,567" (en-US): how word counts of novels are read. */
export function formatWords(n: number, locale: string) {
  if (locale.startsWith('zh') && n >= 10_000) return `${(n / 10_000).toFixed(1).replace(/\.0$/, '')}万`;
  return n.toLocaleString(locale);
}

/** "共 12 章，3.1万 字，前 5 章免费": a novel's chapters, words and which chapters are free. */
export function useChapterSummary() {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (novel: { chapterCount: number; wordCount: number; freeChapters: number }) => {
    const { chapterCount: chapters, freeChapters: free } = novel;
    const access = free <= 0 ? 'allPaid' : chapters > 0 && free >= chapters ? 'allFree' : 'firstFree';
    const counts = translate(`${NOVEL_MSG}.chapterSummary`, {
      chapters: chapters.toLocaleString(locale),
      words: formatWords(novel.wordCount, locale),
    });
    return `${counts}${translate(`${SECTION_MSG}.separator`)}${translate(`${NOVEL_MSG}.access.${access}`, { free })}`;
  };
}

/** One novel column: the column tree, indented and searchable (src/components/ColumnTreeInput). */
export function ColumnInput(props: Omit<AutocompleteInputProps, 'source'> & { source?: string }) {
  return <ColumnTreeInput columns={COLUMN_RESOURCE} {...props} />;
}

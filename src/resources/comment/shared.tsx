import { Chip, Link as MuiLink, Stack, type SvgIcon, Typography } from '@mui/material';
import type { ReactElement, ReactNode } from 'react';
import { FilterButton, FunctionField, List, type ListProps, TopToolbar, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { COMMENT_TARGETS, GUESTBOOK_KINDS } from '../../../common/comment';
import { REVIEW_STATUSES } from '../../../common/review';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { ListEmpty } from '../../components/ListEmpty';
import { ReviewBulkButtons } from '../../components/ReviewBulkButtons';
import type { ReviewDecl } from '../../components/review';
import { Datagrid, ListPagination } from '../../layout/listParts';
import { SECTION_MSG, userCommentsPath } from './names';

/** The review batches of both lists (delete, for admins, comes with them). */
const REVIEW_BATCH = ['approve', 'reject', 'offline', 'online'] as const;

export const statusChoices = REVIEW_STATUSES.map((s) => ({ id: s, name: `${SECTION_MSG}.status.${s}` }));
export const targetChoices = COMMENT_TARGETS.map((t) => ({ id: t, name: `${SECTION_MSG}.target.${t}` }));
export const kindChoices = GUESTBOOK_KINDS.map((k) => ({ id: k, name: `${SECTION_MSG}.kind.${k}` }));

/** Where a comment's target is edited in this admin (chapters have no page of their own outside their novel). */
const targetPath: Record<string, (id: number) => string | undefined> = {
  movie: (id) => `/movie/review/edit/${id}`,
  novel: (id) => `/novel/review/edit/${id}`,
  chapter: (id) => `/novel/chapters/edit/${id}`,
  actress: (id) => `/actress/edit/${id}`,
};

/** The target's type and title, linking to it. */
export function TargetField({ type, id, title }: { type: string; id: number; title: string | null }) {
  const translate = useTranslate();
  const to = targetPath[type]?.(id);
  return (
    <span>
      <Chip
        size="small"
        variant="outlined"
        label={translate(`${SECTION_MSG}.target.${type}`)}
        sx={{ mr: 0.5 }}
      />
      {to ? (
        <MuiLink component={Link} to={to} onClick={(e) => e.stopPropagation()}>
          {title ?? `#${id}`}
        </MuiLink>
      ) : (
        (title ?? `#${id}`)
      )}
    </span>
  );
}

/** The member (linking to all their comments), or the guest's name. */
export function AuthorField({
  userId,
  account,
  guestName,
}: {
  userId: number | null;
  account: string | null;
  guestName: string;
}) {
  const translate = useTranslate();
  if (userId === null)
    return (
      <Typography variant="body2" component="span" color="text.secondary">
        {guestName || translate(`${SECTION_MSG}.guest`)}
      </Typography>
    );
  return (
    <MuiLink component={Link} to={userCommentsPath(userId)} onClick={(e) => e.stopPropagation()}>
      {account ?? `#${userId}`}
    </MuiLink>
  );
}

/**
 * The content column of both lists: the text as shown, what the member wrote when the filter masked it, and for a
 * broken-video report the movie it names, linked.
 */
export function ContentField({ msg }: { source: string; sortable?: boolean; msg: string }) {
  const translate = useTranslate();
  return (
    <FunctionField
      source="content"
      sortable={false}
      render={(r) => (
        <Stack>
          <span>{r.content}</span>
          {r.originalContent && (
            <Typography variant="caption" color="text.secondary">
              {translate(`${msg}.fields.originalContent`)}: {r.originalContent}
            </Typography>
          )}
          {r.movieId != null && (
            <Typography variant="caption" color="text.secondary">
              <TargetField type="movie" id={r.movieId} title={r.movieTitle} />
            </Typography>
          )}
        </Stack>
      )}
    />
  );
}

/** The member column of both lists (see AuthorField). */
export function AuthorColumn(_: { source: string; sortable?: boolean; label?: string }) {
  return (
    <FunctionField
      source="userAccount"
      sortable={false}
      render={(r) => <AuthorField userId={r.userId} account={r.userAccount} guestName={r.guestName} />}
    />
  );
}

/**
 * The frame both lists share: filters, newest first, CSV of `csv`, the review batches (approve, reject, hide, show;
 * delete for admins), an empty state, and a row that opens `expand` (a comment's replies, an entry's reply box).
 */
export function ReviewedList({
  review,
  filters,
  csv,
  filename,
  emptyIcon: EmptyIcon,
  expand,
  children,
  ...list
}: {
  review: ReviewDecl;
  filters: ReactElement[];
  csv: CsvColumn[];
  filename: string;
  emptyIcon: typeof SvgIcon;
  expand: ReactElement;
  children: ReactNode;
} & Pick<ListProps, 'filter' | 'disableSyncWithLocation' | 'storeKey'>) {
  const msg = review.messages;
  return (
    <List
      resource={review.resource}
      filters={filters}
      actions={
        <TopToolbar>
          <FilterButton />
          <ExportCsvButton columns={csv} filename={filename} done={`${msg}.notifications.exported`} />
        </TopToolbar>
      }
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<ListEmpty icon={EmptyIcon} messages={msg} />}
      {...list}
    >
      <Datagrid
        rowClick="expand"
        expand={expand}
        expandSingle
        bulkActionButtons={<ReviewBulkButtons review={review} actions={REVIEW_BATCH} />}
        sx={{ '& td.column-content': { minWidth: 200, maxWidth: 420 }, '& th': { whiteSpace: 'nowrap' } }}
      >
        {children}
      </Datagrid>
    </List>
  );
}

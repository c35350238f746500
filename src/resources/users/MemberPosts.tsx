import { Card, CardContent, Link as MuiLink, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { FunctionField, ListBase, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { ReviewStatusField } from '../../components/ReviewStatus';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import {
  COMMENT_RESOURCE,
  COMMENT_REVIEW,
  commentPath,
  GUESTBOOK_RESOURCE,
  GUESTBOOK_REVIEW,
  guestbookEntryPath,
  userCommentsPath,
} from '../comment/names';
import { TargetField } from '../comment/shared';
import { USER_MSG } from './names';

const d = `${USER_MSG}.detail`;
/** A post's first words: the whole text is one click away. */
const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** A titled card of one kind of a member's posts, newest first, ten a page, each opening the post in its list. */
function Posts({
  title,
  resource,
  userId,
  empty,
  action,
  children,
}: {
  title: string;
  resource: string;
  userId: number;
  empty: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const translate = useTranslate();
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent sx={{ pb: 0 }}>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'baseline', justifyContent: 'space-between' }}>
          <Typography variant="subtitle1" component="h2">
            {translate(title)}
          </Typography>
          {action}
        </Stack>
      </CardContent>
      <ListBase
        resource={resource}
        filter={{ userId }}
        sort={{ field: 'id', order: 'DESC' }}
        perPage={10}
        disableSyncWithLocation
        storeKey={false}
      >
        <Datagrid
          bulkActionButtons={false}
          rowClick={false}
          empty={
            <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 2 }}>
              {translate(empty)}
            </Typography>
          }
        >
          {children}
        </Datagrid>
        <ListPagination />
      </ListBase>
    </Card>
  );
}

/** A member's comments (each opens in the comments list; all of them, with the ban, on /comment/view). */
export function MemberComments({ userId }: { userId: number }) {
  const translate = useTranslate();
  return (
    <Posts
      title={`${d}.comments`}
      resource={COMMENT_RESOURCE}
      userId={userId}
      empty={`${d}.noComments`}
      action={
        <MuiLink component={Link} to={userCommentsPath(userId)} variant="body2">
          {translate(`${d}.allComments`)}
        </MuiLink>
      }
    >
      <FunctionField
        source="content"
        sortable={false}
        render={(r) => (
          <MuiLink component={Link} to={commentPath(r.id)}>
            {excerpt(r.content)}
          </MuiLink>
        )}
      />
      <FunctionField
        source="targetTitle"
        sortable={false}
        render={(r) => <TargetField type={r.targetType} id={r.targetId} title={r.targetTitle} />}
      />
      <ReviewStatusField source="status" sortable={false} review={COMMENT_REVIEW} />
      <LocaleDateField source="createdAt" sortable={false} />
    </Posts>
  );
}

/** A member's guestbook entries (each opens in the guestbook list). */
export function MemberGuestbook({ userId }: { userId: number }) {
  return (
    <Posts title={`${d}.guestbook`} resource={GUESTBOOK_RESOURCE} userId={userId} empty={`${d}.noGuestbook`}>
      <FunctionField
        source="content"
        sortable={false}
        render={(r) => (
          <MuiLink component={Link} to={guestbookEntryPath(r.id)}>
            {excerpt(r.content)}
          </MuiLink>
        )}
      />
      <ReviewStatusField source="status" sortable={false} review={GUESTBOOK_REVIEW} />
      <LocaleDateField source="createdAt" sortable={false} />
    </Posts>
  );
}

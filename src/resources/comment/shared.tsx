import { Chip, Link as MuiLink, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { COMMENT_TARGETS, GUESTBOOK_KINDS } from '../../../common/comment';
import { REVIEW_STATUSES } from '../../../common/review';
import { SECTION_MSG, userCommentsPath } from './names';

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

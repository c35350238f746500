import {
  Card,
  CardContent,
  Skeleton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { RecordContextProvider, useTranslate } from 'react-admin';
import { request } from '../../api/http';
import { useOperatorName } from '../../components/OperatorName';
import { LocaleDateField } from '../../layout/listParts';
import { bansApi, USER_MSG } from './names';

const d = `${USER_MSG}.detail`;

export interface BanRecord {
  id: number;
  bannedAt: string;
  bannedBy: number | null;
  undoneAt: string | null;
  undoneBy: number | null;
  hiddenComments: number;
  hiddenGuestbook: number;
  blacklisted: string[];
}

function Operator({ id }: { id: number | null }) {
  return <>{useOperatorName(id)}</>;
}

/** Whether a ban was undone: when and by whom, or that it is in force. */
function Undone({ ban }: { ban: BanRecord }) {
  const translate = useTranslate();
  const by = useOperatorName(ban.undoneBy);
  if (!ban.undoneAt) return <>{translate(`${d}.inForce`)}</>;
  return (
    <>
      <LocaleDateField source="undoneAt" /> · {by}
    </>
  );
}

/**
 * A member's bans, newest first: when and by whom, what each hid and blacklisted, and whether it was undone. The ban
 * and its undo are run from the member's comments (`/comment/view`), where what they hide is shown.
 */
export function MemberBans({ userId, version }: { userId: number; version?: number }) {
  const translate = useTranslate();
  // Read again when the member changes (a ban or its undo bumps their version).
  const { data } = useQuery({
    queryKey: ['member-bans', userId, version],
    queryFn: () => request<{ list: BanRecord[] }>(bansApi(userId)).then((r) => r.list),
  });
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="subtitle1" component="h2" gutterBottom>
          {translate(`${d}.bans`)}
        </Typography>
        {!data ? (
          <Skeleton height={56} />
        ) : data.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {translate(`${d}.noBans`)}
          </Typography>
        ) : (
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate(`${d}.bannedAt`)}</TableCell>
                <TableCell>{translate(`${d}.bannedBy`)}</TableCell>
                <TableCell>{translate(`${d}.hidden`)}</TableCell>
                <TableCell>{translate(`${d}.blacklisted`)}</TableCell>
                <TableCell>{translate(`${d}.undone`)}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((ban) => (
                <RecordContextProvider key={ban.id} value={ban}>
                  <TableRow>
                    <TableCell>
                      <LocaleDateField source="bannedAt" />
                    </TableCell>
                    <TableCell>
                      <Operator id={ban.bannedBy} />
                    </TableCell>
                    <TableCell>
                      {translate(`${d}.hiddenCounts`, {
                        comments: ban.hiddenComments,
                        guestbook: ban.hiddenGuestbook,
                      })}
                    </TableCell>
                    <TableCell>{ban.blacklisted.join(', ') || '-'}</TableCell>
                    <TableCell>
                      <Undone ban={ban} />
                    </TableCell>
                  </TableRow>
                </RecordContextProvider>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

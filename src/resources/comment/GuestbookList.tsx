import MarkChatUnreadIcon from '@mui/icons-material/MarkChatUnread';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import {
  FunctionField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { request } from '../../api/http';
import { DayInput } from '../../components/dates';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { ReviewBulkButtons } from '../../components/ReviewBulkButtons';
import { ReviewStatusField } from '../../components/ReviewStatus';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { GUESTBOOK_API, GUESTBOOK_MSG, GUESTBOOK_RESOURCE, GUESTBOOK_REVIEW, SECTION_MSG } from './names';
import { AuthorField, kindChoices, statusChoices } from './shared';

const f = `${GUESTBOOK_MSG}.filters`;
const filters = (translate: (key: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${f}.q`)} />,
  <SelectInput key="status" source="status" choices={statusChoices} alwaysOn label={`${f}.status`} />,
  <SelectInput
    key="replied"
    source="replied"
    alwaysOn
    label={`${f}.replied`}
    choices={[
      { id: 'false', name: `${GUESTBOOK_MSG}.replied.false` },
      { id: 'true', name: `${GUESTBOOK_MSG}.replied.true` },
    ]}
  />,
  <SelectInput key="kind" source="kind" choices={kindChoices} alwaysOn label={`${f}.kind`} />,
  <DayInput key="createdFrom" source="createdFrom" label={`${f}.createdFrom`} />,
  <DayInput key="createdTo" source="createdTo" label={`${f}.createdTo`} />,
];

const field = (name: string) => `${GUESTBOOK_MSG}.fields.${name}`;
const csvColumns: CsvColumn[] = [
  { label: field('id'), value: (r) => r.id },
  { label: field('kind'), value: (r, t) => t(`${SECTION_MSG}.kind.${r.kind}`) },
  { label: field('content'), value: (r) => r.content },
  { label: field('movieTitle'), value: (r) => r.movieTitle ?? '' },
  { label: field('userAccount'), value: (r) => r.userAccount ?? r.guestName },
  { label: field('contact'), value: (r) => r.contact },
  { label: field('status'), value: (r, t) => t(`${SECTION_MSG}.status.${r.status}`) },
  { label: field('reply'), value: (r) => r.reply },
  { label: field('repliedAt'), value: (r) => r.repliedAt ?? '' },
  { label: field('createdAt'), value: (r) => r.createdAt },
];

/** The inline reply under an entry: sent with the version read (someone else's reply first is a conflict). */
function ReplyPanel() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [reply, setReply] = useState<string>(record?.reply ?? '');
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  const send = async () => {
    setBusy(true);
    try {
      await request(`/${GUESTBOOK_API}/${record.id}/reply`, {
        method: 'PUT',
        json: { reply, version: record.version },
      });
      notify(`${GUESTBOOK_MSG}.replied_done`, { type: 'success' });
      refresh();
    } catch {
      // the HTTP client has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ pl: 6, py: 1, alignItems: 'flex-start' }}>
      <TextField
        label={translate(`${GUESTBOOK_MSG}.reply`)}
        placeholder={translate(`${GUESTBOOK_MSG}.replyPlaceholder`)}
        value={reply}
        onChange={(e) => setReply(e.target.value)}
        multiline
        minRows={2}
        size="small"
        sx={{ flex: 1, maxWidth: 640 }}
        slotProps={{ htmlInput: { maxLength: 1000 } }}
      />
      <Button variant="contained" onClick={send} disabled={busy || !reply.trim()}>
        {translate(`${GUESTBOOK_MSG}.replySave`)}
      </Button>
    </Stack>
  );
}

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <MarkChatUnreadIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${GUESTBOOK_MSG}.empty`)}
      </Typography>
      <Typography variant="body2">{translate(`${GUESTBOOK_MSG}.emptyHint`)}</Typography>
    </Box>
  );
}

/** `/comment/guestbook`: messages and broken-video reports, replied or not, the inline reply, review batches, CSV. */
export function GuestbookList() {
  const translate = useTranslate();
  return (
    <List
      resource={GUESTBOOK_RESOURCE}
      filters={filters(translate)}
      actions={
        <TopToolbar>
          <ExportCsvButton
            columns={csvColumns}
            filename="guestbook"
            done={`${GUESTBOOK_MSG}.notifications.exported`}
          />
        </TopToolbar>
      }
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<Empty />}
    >
      <Datagrid
        rowClick="expand"
        expand={<ReplyPanel />}
        expandSingle
        bulkActionButtons={
          <ReviewBulkButtons review={GUESTBOOK_REVIEW} actions={['approve', 'reject', 'offline', 'online']} />
        }
        sx={{ '& td.column-content': { minWidth: 200, maxWidth: 400 } }}
      >
        <NumberField source="id" options={{ useGrouping: false }} />
        <FunctionField
          source="kind"
          sortable={false}
          render={(r) => translate(`${SECTION_MSG}.kind.${r.kind}`)}
        />
        <FunctionField
          source="content"
          sortable={false}
          render={(r) => (
            <Stack>
              <span>{r.content}</span>
              {r.movieTitle && (
                <Typography variant="caption" color="text.secondary">
                  {translate(field('movieTitle'))}: {r.movieTitle}
                </Typography>
              )}
            </Stack>
          )}
        />
        <FunctionField
          source="userAccount"
          sortable={false}
          render={(r) => <AuthorField userId={r.userId} account={r.userAccount} guestName={r.guestName} />}
        />
        <FunctionField source="contact" sortable={false} render={(r) => r.contact} />
        <ReviewStatusField source="status" sortable={false} review={GUESTBOOK_REVIEW} />
        <FunctionField source="reply" sortable={false} render={(r) => r.reply} />
        <LocaleDateField source="repliedAt" />
        <LocaleDateField source="createdAt" />
      </Datagrid>
    </List>
  );
}

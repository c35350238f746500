import MarkChatUnreadIcon from '@mui/icons-material/MarkChatUnread';
import { Button, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import {
  FunctionField,
  NumberField,
  SearchInput,
  TextInput,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin';
import { request } from '../../api/http';
import { DayInput } from '../../components/dates';
import type { CsvColumn } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { ReviewStatusField } from '../../components/ReviewStatus';
import { LocaleDateField } from '../../layout/listParts';
import { GUESTBOOK_API, GUESTBOOK_MSG, GUESTBOOK_REVIEW, SECTION_MSG } from './names';
import { AuthorColumn, ContentField, kindChoices, ReviewedList, statusChoices } from './shared';

const f = `${GUESTBOOK_MSG}.filters`;
const filters = (translate: (key: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${f}.q`)} />,
  <FilterSelectInput key="status" source="status" choices={statusChoices} alwaysOn label={`${f}.status`} />,
  <FilterSelectInput
    key="replied"
    source="replied"
    alwaysOn
    label={`${f}.replied`}
    choices={[
      { id: 'false', name: `${GUESTBOOK_MSG}.replied.false` },
      { id: 'true', name: `${GUESTBOOK_MSG}.replied.true` },
    ]}
  />,
  <FilterSelectInput key="kind" source="kind" choices={kindChoices} alwaysOn label={`${f}.kind`} />,
  <TextInput key="userId" source="userId" label={`${f}.userId`} />,
  <TextInput key="address" source="address" label={`${f}.address`} />,
  <DayInput key="createdFrom" source="createdFrom" label={`${f}.createdFrom`} />,
  <DayInput key="createdTo" source="createdTo" label={`${f}.createdTo`} />,
];

const field = (name: string) => `${GUESTBOOK_MSG}.fields.${name}`;
const csvColumns: CsvColumn[] = [
  { label: field('id'), value: (r) => r.id },
  { label: field('kind'), value: (r, t) => t(`${SECTION_MSG}.kind.${r.kind}`) },
  { label: field('content'), value: (r) => r.content },
  { label: field('originalContent'), value: (r) => r.originalContent ?? '' },
  { label: field('movieTitle'), value: (r) => r.movieTitle ?? '' },
  { label: field('userAccount'), value: (r) => r.userAccount ?? r.guestName },
  { label: field('contact'), value: (r) => r.contact },
  { label: field('address'), value: (r) => r.address },
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

/** `/comment/guestbook`: messages and broken-video reports, replied or not, the inline reply, review batches, CSV. */
export function GuestbookList() {
  const translate = useTranslate();
  return (
    <ReviewedList
      review={GUESTBOOK_REVIEW}
      filters={filters(translate)}
      csv={csvColumns}
      filename="guestbook"
      emptyIcon={MarkChatUnreadIcon}
      expand={<ReplyPanel />}
    >
      <NumberField source="id" options={{ useGrouping: false }} />
      <FunctionField
        source="kind"
        sortable={false}
        render={(r) => translate(`${SECTION_MSG}.kind.${r.kind}`)}
      />
      <ContentField source="content" msg={GUESTBOOK_MSG} />
      <AuthorColumn source="userAccount" />
      <FunctionField source="contact" sortable={false} render={(r) => r.contact} />
      <ReviewStatusField source="status" sortable={false} review={GUESTBOOK_REVIEW} />
      <FunctionField source="reply" sortable={false} render={(r) => r.reply} />
      <LocaleDateField source="repliedAt" />
      <LocaleDateField source="createdAt" />
    </ReviewedList>
  );
}

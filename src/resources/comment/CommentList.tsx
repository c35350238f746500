import ForumIcon from '@mui/icons-material/Forum';
import { Box, ListItem, ListItemText, List as MuiList, Stack, Typography } from '@mui/material';
import {
  BooleanInput,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  SelectInput,
  TextInput,
  TopToolbar,
  useGetList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DayInput } from '../../components/dates';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { ReviewBulkButtons } from '../../components/ReviewBulkButtons';
import { ReviewStatusChip, ReviewStatusField } from '../../components/ReviewStatus';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { COMMENT_MSG, COMMENT_RESOURCE, COMMENT_REVIEW, SECTION_MSG } from './names';
import { AuthorField, statusChoices, TargetField, targetChoices } from './shared';

const f = `${COMMENT_MSG}.filters`;
const filters = (translate: (key: string) => string, withUser: boolean) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${f}.q`)} />,
  <SelectInput key="status" source="status" choices={statusChoices} alwaysOn label={`${f}.status`} />,
  <SelectInput
    key="targetType"
    source="targetType"
    choices={targetChoices}
    alwaysOn
    label={`${f}.targetType`}
  />,
  <SelectInput
    key="reported"
    source="reported"
    label={`${f}.reported`}
    choices={[
      { id: 'true', name: `${COMMENT_MSG}.yesNo.true` },
      { id: 'false', name: `${COMMENT_MSG}.yesNo.false` },
    ]}
  />,
  <BooleanInput key="topLevel" source="topLevel" label={`${f}.topLevel`} />,
  ...(withUser ? [<TextInput key="userId" source="userId" label={`${f}.userId`} />] : []),
  <TextInput key="address" source="address" label={`${f}.address`} />,
  <DayInput key="createdFrom" source="createdFrom" label={`${f}.createdFrom`} />,
  <DayInput key="createdTo" source="createdTo" label={`${f}.createdTo`} />,
];

const field = (name: string) => `${COMMENT_MSG}.fields.${name}`;
const csvColumns: CsvColumn[] = [
  { label: field('id'), value: (r) => r.id },
  { label: field('content'), value: (r) => r.content },
  { label: field('originalContent'), value: (r) => r.originalContent ?? '' },
  { label: field('targetType'), value: (r, t) => t(`${SECTION_MSG}.target.${r.targetType}`) },
  { label: field('targetTitle'), value: (r) => r.targetTitle ?? '' },
  { label: field('userAccount'), value: (r) => r.userAccount ?? r.guestName },
  { label: field('address'), value: (r) => r.address },
  { label: field('status'), value: (r, t) => t(`${SECTION_MSG}.status.${r.status}`) },
  { label: field('likes'), value: (r) => r.likes },
  { label: field('reports'), value: (r) => r.reports },
  { label: field('createdAt'), value: (r) => r.createdAt },
];

/** A comment's replies, read when its row is expanded. */
function Replies() {
  const record = useRecordContext();
  const translate = useTranslate();
  const { data, isPending } = useGetList(COMMENT_RESOURCE, {
    filter: { parentId: record?.id },
    sort: { field: 'createdAt', order: 'ASC' },
    pagination: { page: 1, perPage: 100 },
  });
  if (isPending) return null;
  return (
    <Box sx={{ pl: 6, py: 1 }}>
      <Typography variant="subtitle2">{translate(`${COMMENT_MSG}.replies`)}</Typography>
      {data?.length ? (
        <MuiList dense>
          {data.map((r) => (
            <ListItem
              key={r.id}
              secondaryAction={<ReviewStatusChip review={COMMENT_REVIEW} status={r.status} />}
            >
              <ListItemText
                primary={r.content}
                secondary={<AuthorField userId={r.userId} account={r.userAccount} guestName={r.guestName} />}
              />
            </ListItem>
          ))}
        </MuiList>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {translate(`${COMMENT_MSG}.noReplies`)}
        </Typography>
      )}
    </Box>
  );
}

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <ForumIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${COMMENT_MSG}.empty`)}
      </Typography>
      <Typography variant="body2">{translate(`${COMMENT_MSG}.emptyHint`)}</Typography>
    </Box>
  );
}

/**
 * `/comment/list` (and, with `userId`, the list of `/comment/view`): filters, threads (a row opens its replies),
 * batch review actions, CSV export.
 */
export function CommentList({ userId }: { userId?: number } = {}) {
  const translate = useTranslate();
  return (
    <List
      resource={COMMENT_RESOURCE}
      filters={filters(translate, userId === undefined)}
      filter={userId === undefined ? undefined : { userId }}
      actions={
        <TopToolbar>
          <ExportCsvButton
            columns={csvColumns}
            filename="comments"
            done={`${COMMENT_MSG}.notifications.exported`}
          />
        </TopToolbar>
      }
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<Empty />}
      disableSyncWithLocation={userId !== undefined}
      storeKey={userId === undefined ? undefined : false}
    >
      <Datagrid
        rowClick="expand"
        expand={<Replies />}
        expandSingle
        bulkActionButtons={
          <ReviewBulkButtons review={COMMENT_REVIEW} actions={['approve', 'reject', 'offline', 'online']} />
        }
        sx={{ '& td.column-content': { minWidth: 200, maxWidth: 420 }, '& th': { whiteSpace: 'nowrap' } }}
      >
        <NumberField source="id" options={{ useGrouping: false }} />
        <FunctionField
          source="content"
          sortable={false}
          render={(r) => (
            <Stack>
              <span>{r.content}</span>
              {r.originalContent && (
                <Typography variant="caption" color="text.secondary">
                  {translate(field('originalContent'))}: {r.originalContent}
                </Typography>
              )}
            </Stack>
          )}
        />
        <FunctionField
          source="targetTitle"
          sortable={false}
          render={(r) => <TargetField type={r.targetType} id={r.targetId} title={r.targetTitle} />}
        />
        <FunctionField
          source="userAccount"
          sortable={false}
          render={(r) => <AuthorField userId={r.userId} account={r.userAccount} guestName={r.guestName} />}
        />
        <ReviewStatusField source="status" sortable={false} review={COMMENT_REVIEW} />
        <NumberField source="replyCount" sortable={false} />
        <NumberField source="likes" />
        <NumberField source="reports" />
        <FunctionField source="address" sortable={false} render={(r) => r.address} />
        <LocaleDateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}

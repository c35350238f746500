import ForumIcon from '@mui/icons-material/Forum';
import { Box, ListItem, ListItemText, List as MuiList, Typography } from '@mui/material';
import {
  BooleanInput,
  FunctionField,
  NumberField,
  SearchInput,
  TextInput,
  useGetList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DayInput } from '../../components/dates';
import type { CsvColumn } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { ReviewStatusChip, ReviewStatusField } from '../../components/ReviewStatus';
import { LocaleDateField } from '../../layout/listParts';
import { COMMENT_MSG, COMMENT_RESOURCE, COMMENT_REVIEW, SECTION_MSG } from './names';
import {
  AuthorColumn,
  AuthorField,
  ContentField,
  ReviewedList,
  statusChoices,
  TargetField,
  targetChoices,
} from './shared';

const f = `${COMMENT_MSG}.filters`;
const filters = (translate: (key: string) => string, withUser: boolean) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${f}.q`)} />,
  <FilterSelectInput key="status" source="status" choices={statusChoices} alwaysOn label={`${f}.status`} />,
  <FilterSelectInput
    key="targetType"
    source="targetType"
    choices={targetChoices}
    alwaysOn
    label={`${f}.targetType`}
  />,
  <FilterSelectInput
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

/**
 * `/comment/list` (and, with `userId`, the list of `/comment/view`): filters, threads (a row opens its replies),
 * batch review actions, CSV export.
 */
export function CommentList({ userId }: { userId?: number } = {}) {
  const translate = useTranslate();
  const mine = userId !== undefined;
  return (
    <ReviewedList
      review={COMMENT_REVIEW}
      filters={filters(translate, !mine)}
      csv={csvColumns}
      filename="comments"
      emptyIcon={ForumIcon}
      expand={<Replies />}
      filter={mine ? { userId } : undefined}
      disableSyncWithLocation={mine}
      storeKey={mine ? false : undefined}
    >
      <NumberField source="id" options={{ useGrouping: false }} />
      <ContentField source="content" msg={COMMENT_MSG} />
      <FunctionField
        source="targetTitle"
        sortable={false}
        render={(r) => <TargetField type={r.targetType} id={r.targetId} title={r.targetTitle} />}
      />
      <AuthorColumn source="userAccount" />
      <ReviewStatusField source="status" sortable={false} review={COMMENT_REVIEW} />
      <NumberField source="replyCount" sortable={false} />
      <NumberField source="likes" />
      <NumberField source="reports" />
      <FunctionField source="address" sortable={false} render={(r) => r.address} />
      <LocaleDateField source="createdAt" showTime />
    </ReviewedList>
  );
}

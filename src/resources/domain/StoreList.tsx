import ArchiveIcon from '@mui/icons-material/Archive';
import DeleteIcon from '@mui/icons-material/Delete';
import DnsIcon from '@mui/icons-material/Dns';
import DriveFileMoveIcon from '@mui/icons-material/DriveFileMove';
import LinkIcon from '@mui/icons-material/Link';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Box, Button, MenuItem, TextField as MuiTextField, Stack, Typography } from '@mui/material';
import {
  FunctionField,
  List,
  NumberField,
  NumberInput,
  SearchInput,
  TextField,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Link as RouterLink } from 'react-router-dom';
import { DOMAIN_STATUSES } from '../../../common/domain';
import { Permission } from '../../auth/permission';
import { BulkConfirmButton } from '../../components/BulkConfirmButton';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { SECTION_MSG, STORE_MSG } from './names';
import {
  dueWithin,
  LookalikeWarning,
  type Pool,
  poolChoices,
  roleChoices,
  StatusChip,
  statusChoices,
  usePools,
} from './shared';

const f = (name: string) => `${STORE_MSG}.fields.${name}`;

const filters = (translate: (key: string) => string, pools: Pool[] | null) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${STORE_MSG}.filters.q`)} />,
  <FilterSelectInput key="status" source="status" choices={statusChoices} alwaysOn label={f('status')} />,
  <FilterSelectInput
    key="poolId"
    source="poolId"
    choices={[{ id: 0, name: `${STORE_MSG}.filters.noPool` }, ...poolChoices(pools)]}
    alwaysOn
    label={f('poolId')}
  />,
  <FilterSelectInput key="role" source="role" choices={roleChoices} label={f('role')} />,
  <TextInput key="channel" source="channel" label={f('channel')} />,
  <TextInput key="registrar" source="registrar" label={f('registrar')} />,
  <FilterSelectInput
    key="checkOk"
    source="checkOk"
    label={f('checkOk')}
    choices={[
      { id: 'true', name: `${STORE_MSG}.check.ok` },
      { id: 'false', name: `${STORE_MSG}.check.failed` },
    ]}
  />,
  <NumberInput
    key="expiringWithin"
    source="expiringWithin"
    label={`${STORE_MSG}.filters.expiringWithin`}
    min={0}
    max={3650}
  />,
  <NumberInput
    key="certExpiringWithin"
    source="certExpiringWithin"
    label={`${STORE_MSG}.filters.certExpiringWithin`}
    min={0}
    max={3650}
  />,
];

const csvColumns = (pools: Pool[] | null): CsvColumn[] => {
  const names = new Map((pools ?? []).map((p) => [p.id, p.name]));
  return [
    { label: f('id'), value: (r) => r.id },
    { label: f('unicode'), value: (r) => r.unicode },
    { label: f('hostname'), value: (r) => r.hostname },
    { label: f('registrable'), value: (r) => r.registrable },
    { label: f('role'), value: (r, t) => t(`${SECTION_MSG}.role.${r.role}`) },
    { label: f('poolId'), value: (r) => names.get(r.poolId) ?? '' },
    { label: f('weight'), value: (r) => r.weight },
    { label: f('status'), value: (r, t) => t(`${SECTION_MSG}.status.${r.status}`) },
    { label: f('channel'), value: (r) => r.channel ?? '' },
    { label: f('registrar'), value: (r) => r.registrar },
    { label: f('expiresOn'), value: (r) => r.expiresOn ?? '' },
    { label: f('certExpiresOn'), value: (r) => r.certExpiresOn ?? '' },
    { label: f('checkError'), value: (r) => r.checkError },
    { label: f('retireReason'), value: (r) => r.retireReason },
    { label: f('createdAt'), value: (r) => r.createdAt },
  ];
};

function Actions({ pools }: { pools: Pool[] | null }) {
  return (
    <TopToolbar>
      <Button component={RouterLink} to="/domain/storeAdd" size="small" startIcon={<PlaylistAddIcon />}>
        <Label k={`${STORE_MSG}.action.import`} />
      </Button>
      <Button component={RouterLink} to="/domain/config" size="small" startIcon={<LinkIcon />}>
        <Label k={`${STORE_MSG}.action.config`} />
      </Button>
      <ExportCsvButton
        columns={csvColumns(pools)}
        filename="domains"
        max={Number.POSITIVE_INFINITY}
        done={`${STORE_MSG}.notifications.exported`}
      />
    </TopToolbar>
  );
}

/** A registration or certificate expiry day, in the error colour once it is within `warnDays` (or past). */
function DueDay({ day, warnDays }: { day: string | null; warnDays: number }) {
  return (
    <Typography variant="body2" component="span" color={dueWithin(day, warnDays) ? 'error' : undefined}>
      {day ?? ''}
    </Typography>
  );
}

/** A choice asked for in a batch's dialog (the status to set, the pool to move to). */
function DialogSelect({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}) {
  return (
    <MuiTextField
      select
      fullWidth
      size="small"
      sx={{ mt: 2 }}
      label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      {options.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {o.label}
        </MenuItem>
      ))}
    </MuiTextField>
  );
}

function Label({ k }: { k: string }) {
  return <>{useTranslate()(k)}</>;
}

function ReasonInput({
  body,
  set,
}: {
  body: Record<string, unknown>;
  set: (b: Record<string, unknown>) => void;
}) {
  const translate = useTranslate();
  return (
    <MuiTextField
      fullWidth
      size="small"
      sx={{ mt: 2 }}
      label={translate(`${STORE_MSG}.fields.reason`)}
      value={(body.reason as string) ?? ''}
      onChange={(e) => set({ ...body, reason: e.target.value })}
      slotProps={{ htmlInput: { maxLength: 256 } }}
    />
  );
}

function BulkActions({ pools }: { pools: Pool[] | null }) {
  const translate = useTranslate();
  return (
    <>
      <BulkConfirmButton
        action="status"
        label={`${STORE_MSG}.action.status`}
        confirm={`${STORE_MSG}.action.confirmStatus`}
        done={`${STORE_MSG}.notifications.batchDone`}
        icon={<SwapHorizIcon />}
        ready={(b) => Boolean(b.status)}
        extra={(body, set) => (
          <>
            <DialogSelect
              label={translate(f('status'))}
              value={(body.status as string) ?? ''}
              onChange={(status) => set({ ...body, status })}
              options={DOMAIN_STATUSES.map((st) => ({
                value: st,
                label: translate(`${SECTION_MSG}.status.${st}`),
              }))}
            />
            <ReasonInput body={body} set={set} />
          </>
        )}
      />
      <BulkConfirmButton
        action="move"
        label={`${STORE_MSG}.action.move`}
        confirm={`${STORE_MSG}.action.confirmMove`}
        done={`${STORE_MSG}.notifications.batchDone`}
        icon={<DriveFileMoveIcon />}
        ready={(b) => b.poolId !== undefined}
        extra={(body, set) => (
          <DialogSelect
            label={translate(f('poolId'))}
            value={body.poolId === undefined ? '' : String(body.poolId ?? 'none')}
            onChange={(v) => set({ ...body, poolId: v === 'none' ? null : Number(v) })}
            options={[
              { value: 'none', label: translate(`${STORE_MSG}.filters.noPool`) },
              ...(pools ?? []).map((p) => ({ value: String(p.id), label: p.name })),
            ]}
          />
        )}
      />
      <BulkConfirmButton
        action="retire"
        label={`${STORE_MSG}.action.retire`}
        confirm={`${STORE_MSG}.action.confirmRetire`}
        done={`${STORE_MSG}.notifications.batchDone`}
        icon={<ArchiveIcon />}
        color="warning"
        extra={(body, set) => <ReasonInput body={body} set={set} />}
      />
      <Permission need="domain.settings">
        <BulkConfirmButton
          action="delete"
          label="ra.action.delete"
          confirm={`${STORE_MSG}.action.confirmDelete`}
          done={`${STORE_MSG}.notifications.batchDone`}
          icon={<DeleteIcon />}
          color="error"
        />
      </Permission>
    </>
  );
}

function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ textAlign: 'center', py: 8, color: 'text.secondary', width: '100%' }} role="status">
      <DnsIcon sx={{ fontSize: 64 }} aria-hidden />
      <Typography variant="h6" component="p" color="text.primary">
        {translate(`${STORE_MSG}.empty`)}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {translate(`${STORE_MSG}.emptyHint`)}
      </Typography>
      <Button
        variant="contained"
        component={RouterLink}
        to="/domain/storeAdd"
        startIcon={<PlaylistAddIcon />}
      >
        {translate(`${STORE_MSG}.action.import`)}
      </Button>
    </Box>
  );
}

/** The store (`/domain/store`): every domain, server paging, filters on every field, batches and CSV. */
export function StoreList() {
  const translate = useTranslate();
  const { pools } = usePools();
  const names = new Map((pools ?? []).map((p) => [p.id, p.name]));
  return (
    <List
      filters={filters(translate, pools)}
      actions={<Actions pools={pools} />}
      sort={{ field: 'id', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<Empty />}
    >
      <Datagrid
        rowClick={(id) => `/domain/store/edit/${id}`}
        bulkActionButtons={<BulkActions pools={pools} />}
      >
        <TextField source="id" />
        <FunctionField
          source="hostname"
          label={f('unicode')}
          render={(r) => (
            <Stack>
              <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
                {r.unicode}
                {r.lookalike && <LookalikeWarning />}
              </Typography>
              {r.unicode !== r.hostname && (
                <Typography variant="caption" component="span" color="text.secondary">
                  {r.hostname}
                </Typography>
              )}
            </Stack>
          )}
        />
        <FunctionField source="status" render={(r) => <StatusChip status={r.status} />} />
        <FunctionField source="role" render={(r) => translate(`${SECTION_MSG}.role.${r.role}`)} />
        <FunctionField source="poolId" sortable={false} render={(r) => names.get(r.poolId) ?? '—'} />
        <NumberField source="weight" />
        <FunctionField source="channel" sortable={false} render={(r) => r.channel ?? ''} />
        <FunctionField source="expiresOn" render={(r) => <DueDay day={r.expiresOn} warnDays={30} />} />
        <FunctionField
          source="certExpiresOn"
          render={(r) => <DueDay day={r.certExpiresOn} warnDays={14} />}
        />
        <FunctionField
          source="checkedAt"
          render={(r) =>
            r.checkOk === null
              ? ''
              : translate(`${STORE_MSG}.check.${r.checkOk ? 'ok' : 'failed'}`) +
                (r.checkError ? ` · ${r.checkError}` : '')
          }
        />
        <LocaleDateField source="createdAt" />
      </Datagrid>
    </List>
  );
}

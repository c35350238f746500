import CardMembershipIcon from '@mui/icons-material/CardMembership';
import GroupsIcon from '@mui/icons-material/Groups';
import HowToRegIcon from '@mui/icons-material/HowToReg';
import PersonOffIcon from '@mui/icons-material/PersonOff';
import PersonSearchIcon from '@mui/icons-material/PersonSearch';
import { MenuItem, Link as MuiLink, TextField as MuiTextField, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  FilterButton,
  FunctionField,
  List,
  NumberField,
  SearchInput,
  TextField,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { USER_GROUPS, USER_STATUSES, VIP_STATES } from '../../../common/users';
import { Permission } from '../../auth/permission';
import { BulkConfirmButton } from '../../components/BulkConfirmButton';
import { DayInput } from '../../components/dates';
import { type CsvColumn, ExportCsvButton } from '../../components/ExportCsvButton';
import { FilterSelectInput } from '../../components/FilterSelectInput';
import { ListEmpty } from '../../components/ListEmpty';
import { Datagrid, ListPagination, LocaleDateField } from '../../layout/listParts';
import { ChannelAgentField } from '../agents/ChannelAgent';
import { USER_MSG, userDetailPath } from './names';
import { MemberStatusChip, VipChip } from './shared';

const choices = (values: readonly string[], prefix: string) =>
  values.map((v) => ({ id: v, name: `${USER_MSG}.${prefix}.${v}` }));
const f = `${USER_MSG}.filters`;
const filters = (translate: (key: string) => string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={translate(`${f}.q`)} />,
  <FilterSelectInput
    key="status"
    source="status"
    choices={choices(USER_STATUSES, 'status')}
    alwaysOn
    label={`${f}.status`}
  />,
  <FilterSelectInput
    key="group"
    source="group"
    choices={choices(USER_GROUPS, 'group')}
    alwaysOn
    label={`${f}.group`}
  />,
  <FilterSelectInput
    key="vip"
    source="vip"
    choices={choices(VIP_STATES, 'vip')}
    alwaysOn
    label={`${f}.vip`}
  />,
  <TextInput key="channel" source="channel" label={`${f}.channel`} />,
  <DayInput key="signupFrom" source="signupFrom" label={`${f}.signupFrom`} />,
  <DayInput key="signupTo" source="signupTo" label={`${f}.signupTo`} />,
];

const field = (name: string) => `${USER_MSG}.fields.${name}`;
const csvColumns: CsvColumn[] = [
  { label: field('id'), value: (r) => r.id },
  { label: field('account'), value: (r) => r.account },
  { label: field('nickname'), value: (r) => r.nickname },
  { label: field('phone'), value: (r) => r.phone },
  { label: field('email'), value: (r) => r.email },
  { label: field('group'), value: (r, t) => t(`${USER_MSG}.group.${r.group}`) },
  { label: field('vipState'), value: (r, t) => t(`${USER_MSG}.vip.${r.vipState}`) },
  { label: field('vipLevel'), value: (r) => r.vipLevel },
  { label: field('vipExpiresAt'), value: (r) => r.vipExpiresAt ?? '' },
  { label: field('points'), value: (r) => r.points },
  { label: field('status'), value: (r, t) => t(`${USER_MSG}.status.${r.status}`) },
  { label: field('signupAt'), value: (r) => r.signupAt },
  { label: field('signupAddress'), value: (r) => r.signupAddress },
  { label: field('lastLoginAt'), value: (r) => r.lastLoginAt ?? '' },
  { label: field('lastLoginAddress'), value: (r) => r.lastLoginAddress },
  { label: field('channel'), value: (r) => r.channel },
  { label: field('inviter'), value: (r) => r.inviter ?? '' },
];

function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: unknown;
  onChange: (v: string) => void;
  options: { id: string | number; name: string }[];
}) {
  return (
    <MuiTextField
      select
      fullWidth
      size="small"
      label={label}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value)}
      sx={{ mt: 2 }}
    >
      {options.map((o) => (
        <MenuItem key={o.id} value={o.id}>
          {o.name}
        </MenuItem>
      ))}
    </MuiTextField>
  );
}

function BulkActions() {
  const translate = useTranslate();
  const a = `${USER_MSG}.action`;
  const done = `${USER_MSG}.notifications.batchDone`;
  return (
    <>
      <BulkConfirmButton
        action="enable"
        label={`${a}.enable`}
        confirm={`${a}.confirmEnable`}
        done={done}
        icon={<HowToRegIcon />}
      />
      <BulkConfirmButton
        action="disable"
        label={`${a}.disable`}
        confirm={`${a}.confirmDisable`}
        done={done}
        color="warning"
        icon={<PersonOffIcon />}
      />
      <BulkConfirmButton
        action="group"
        label={`${a}.group`}
        confirm={`${a}.confirmGroup`}
        done={done}
        icon={<GroupsIcon />}
        ready={(b) => !!b.group}
        extra={(body, set) => (
          <Select
            label={translate(field('group'))}
            value={body.group}
            onChange={(group) => set({ ...body, group })}
            options={USER_GROUPS.map((g) => ({ id: g, name: translate(`${USER_MSG}.group.${g}`) }))}
          />
        )}
      />
      <Permission need="users.edit">
        <BulkConfirmButton
          action="extendVip"
          label={`${a}.extendVip`}
          confirm={`${a}.confirmExtendVip`}
          done={done}
          icon={<CardMembershipIcon />}
          ready={(b) => Number(b.days) > 0}
          extra={(body, set) => (
            <>
              <Select
                label={translate(`${a}.days`)}
                value={body.days}
                onChange={(days) => set({ ...body, days: Number(days) })}
                options={[7, 30, 90, 365].map((d) => ({ id: d, name: String(d) }))}
              />
              <Select
                label={translate(`${a}.level`)}
                value={body.level ?? 1}
                onChange={(level) => set({ ...body, level: Number(level) })}
                options={[1, 2, 3, 4, 5].map((d) => ({ id: d, name: String(d) }))}
              />
            </>
          )}
        />
      </Permission>
    </>
  );
}

/** A time with the address it came from under it (signup, last login). */
function WhenWhere({ at, address }: { at: ReactNode; address: string }) {
  return (
    <Stack>
      {at}
      {address && (
        <Typography variant="caption" color="text.secondary">
          {address}
        </Typography>
      )}
    </Stack>
  );
}

/**
 * `/users/list`: the site's members (contacts masked), filters, sorts, batches (enable, disable, group; VIP for
 * admins), CSV; a row opens the member's own page.
 */
export function UserList() {
  const translate = useTranslate();
  return (
    <List
      filters={filters(translate)}
      actions={
        <TopToolbar>
          <FilterButton />
          <ExportCsvButton
            columns={csvColumns}
            filename="members"
            done={`${USER_MSG}.notifications.exported`}
          />
        </TopToolbar>
      }
      sort={{ field: 'id', order: 'DESC' }}
      perPage={20}
      pagination={<ListPagination />}
      empty={<ListEmpty icon={PersonSearchIcon} messages={USER_MSG} />}
    >
      <Datagrid
        rowClick={(id) => userDetailPath(id)}
        bulkActionButtons={<BulkActions />}
        // fourteen columns: the checkbox column's inset given back keeps them within 1440 px in English
        sx={{ '& td': { whiteSpace: 'nowrap' }, '& td:first-of-type, & th:first-of-type': { pl: 0.75 } }}
      >
        <NumberField source="id" options={{ useGrouping: false }} />
        <TextField source="account" sortable={false} />
        <TextField source="nickname" sortable={false} />
        <TextField source="phone" sortable={false} />
        <TextField source="email" sortable={false} />
        <FunctionField
          source="group"
          sortable={false}
          render={(r) => translate(`${USER_MSG}.group.${r.group}`)}
        />
        <FunctionField
          source="vipExpiresAt"
          label={field('vipState')}
          render={(r) => <VipChip state={r.vipState} level={r.vipLevel} />}
        />
        <NumberField source="points" />
        <FunctionField
          source="status"
          sortable={false}
          render={(r) => <MemberStatusChip status={r.status} />}
        />
        <ChannelAgentField source="channel" label={field('agent')} sortable={false} />
        <FunctionField
          source="signupAt"
          render={(r) => (
            <WhenWhere
              at={<LocaleDateField source="signupAt" showTime={false} />}
              address={r.signupAddress}
            />
          )}
        />
        <FunctionField
          source="lastLoginAt"
          render={(r) => (
            <WhenWhere at={<LocaleDateField source="lastLoginAt" />} address={r.lastLoginAddress} />
          )}
        />
        <FunctionField
          source="inviter"
          sortable={false}
          render={(r) =>
            r.inviter === null ? null : (
              <MuiLink component={Link} to={userDetailPath(r.inviter)} onClick={(e) => e.stopPropagation()}>
                #{r.inviter}
              </MuiLink>
            )
          }
        />
      </Datagrid>
    </List>
  );
}

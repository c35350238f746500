import { Box, Link as MuiLink, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import {
  maxValue,
  minValue,
  NumberInput,
  required,
  SelectInput,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { MAX_POINTS, MAX_VIP_LEVEL, USER_GROUPS } from '../../../common/users';
import { InstantInput } from '../../components/dates';
import { EditPage } from '../../components/EditPage';
import { EditToolbar } from '../../components/EditToolbar';
import { LocaleDateField } from '../../layout/listParts';
import { ChannelAgentLink } from '../agents/ChannelAgent';
import { FormSection } from '../setting/shared';
import { MemberBans } from './MemberBans';
import { MemberComments, MemberGuestbook } from './MemberPosts';
import { USER_MSG, userDetailPath } from './names';
import { ResetCodeCard } from './ResetCodeCard';
import { MemberStatusChip, VipChip } from './shared';

const d = `${USER_MSG}.detail`;
const f = (name: string) => `${USER_MSG}.fields.${name}`;
const INPUT = { width: 240 };
const groupChoices = USER_GROUPS.map((g) => ({ id: g, name: `${USER_MSG}.group.${g}` }));

/** What the admin may change; the rest of the record (contacts, addresses) is never sent back. */
const transform = (data: Record<string, any>) => ({
  group: data.group,
  vipLevel: data.vipLevel,
  // A level of 0 ends the VIP: its expiry goes with it (the API refuses an expiry without a level).
  vipExpiresAt: data.vipLevel === 0 ? null : data.vipExpiresAt || null,
  points: data.points,
  version: data.version,
});

/** Label and value pairs, two columns on a wide screen. */
function Facts({ items }: { items: [string, ReactNode][] }) {
  const translate = useTranslate();
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'max-content 1fr', md: 'max-content 1fr max-content 1fr' },
        columnGap: 2,
        rowGap: 1,
        m: 0,
        alignItems: 'center',
        '& dt': { color: 'text.secondary' },
        '& dd': { m: 0, minWidth: 0, overflowWrap: 'anywhere' },
      }}
    >
      {items.map(([label, value]) => (
        <Box key={label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2">
            {translate(label)}
          </Typography>
          <Typography component="dd" variant="body2">
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** A time and the address it came from (signup, last login). */
function WhenWhere({ source, address }: { source: string; address: string }) {
  const translate = useTranslate();
  const record = useRecordContext();
  if (!record?.[source]) return <>{translate(`${d}.never`)}</>;
  return (
    <>
      <LocaleDateField source={source} /> {address && `· ${address}`}
    </>
  );
}

function Profile() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  const none = translate(`${d}.none`);
  return (
    <>
      <FormSection title={`${d}.profile`}>
        <Facts
          items={[
            [f('account'), record.account],
            [f('nickname'), record.nickname || none],
            [f('phone'), record.phone || none],
            [f('email'), record.email || none],
            [f('status'), <MemberStatusChip key="s" status={record.status} />],
            [f('vipState'), <VipChip key="v" state={record.vipState} level={record.vipLevel} />],
            [f('signupAt'), <WhenWhere key="a" source="signupAt" address={record.signupAddress} />],
            [f('lastLoginAt'), <WhenWhere key="l" source="lastLoginAt" address={record.lastLoginAddress} />],
          ]}
        />
      </FormSection>
      <FormSection title={`${d}.origin`}>
        <Facts
          items={[
            [f('agent'), record.channel ? <ChannelAgentLink key="c" code={record.channel} /> : none],
            [
              f('inviter'),
              record.inviter ? (
                <MuiLink key="i" component={Link} to={userDetailPath(record.inviter)}>
                  #{record.inviter}
                </MuiLink>
              ) : (
                none
              ),
            ],
          ]}
        />
      </FormSection>
    </>
  );
}

/** Everything about the member below the form: the password, their posts and their bans. */
function Below() {
  const record = useRecordContext();
  if (!record) return null;
  const id = Number(record.id);
  return (
    <>
      <ResetCodeCard userId={id} account={record.account} />
      <MemberComments userId={id} />
      <MemberGuestbook userId={id} />
      <MemberBans userId={id} version={record.version} />
    </>
  );
}

function DetailTitle() {
  const record = useRecordContext();
  const translate = useTranslate();
  return <>{translate(`${d}.title`, { account: record?.account ?? '' })}</>;
}

/**
 * `/users/detail/:id` (hidden, highlighting the members list): one member — profile, status, VIP, signup and last
 * login, the agent and inviter they came by — with what an admin changes (group, VIP, points; saved on the version
 * read), the password reset code, their comments and guestbook entries, and their bans. Operators read it.
 */
export function UserDetail() {
  const { id } = useParams();
  return (
    <EditPage
      key={id}
      id={id}
      title={<DetailTitle />}
      component="div"
      redirect={false}
      transform={transform}
      // members are never deleted here (disable or ban them): the API has no delete
      toolbar={<EditToolbar deletable={false} />}
      after={<Below />}
    >
      <Profile />
      <FormSection title={`${d}.membership`} hint={`${d}.membershipHint`}>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <SelectInput
            source="group"
            label={f('group')}
            choices={groupChoices}
            validate={required()}
            fullWidth={false}
            sx={INPUT}
          />
          <NumberInput
            source="vipLevel"
            label={f('vipLevel')}
            min={0}
            max={MAX_VIP_LEVEL}
            step={1}
            validate={[required(), minValue(0), maxValue(MAX_VIP_LEVEL)]}
            helperText={`${d}.vipLevelHint`}
            fullWidth={false}
            sx={INPUT}
          />
          <InstantInput
            source="vipExpiresAt"
            label={f('vipExpiresAt')}
            helperText={`${d}.vipExpiresHint`}
            fullWidth={false}
            sx={{ width: 260 }}
          />
          <NumberInput
            source="points"
            label={f('points')}
            min={0}
            max={MAX_POINTS}
            step={1}
            validate={[required(), minValue(0), maxValue(MAX_POINTS)]}
            fullWidth={false}
            sx={INPUT}
          />
        </Box>
      </FormSection>
    </EditPage>
  );
}

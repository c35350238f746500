import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import { USER_MSG } from './names';

const STATUS_COLORS = { active: 'success', disabled: 'default', banned: 'error' } as const;
const VIP_COLORS = { none: 'default', active: 'warning', expired: 'default' } as const;

/** A member's status as a chip. */
export function MemberStatusChip({ status }: { status: keyof typeof STATUS_COLORS }) {
  const translate = useTranslate();
  return (
    <Chip size="small" color={STATUS_COLORS[status]} label={translate(`${USER_MSG}.status.${status}`)} />
  );
}

/** VIP as the API read it against the clock (an expired one is outlined), with its level. */
export function VipChip({ state, level }: { state: keyof typeof VIP_COLORS; level: number }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={VIP_COLORS[state]}
      variant={state === 'expired' ? 'outlined' : 'filled'}
      label={`${translate(`${USER_MSG}.vip.${state}`)}${level ? ` · Lv${level}` : ''}`}
    />
  );
}

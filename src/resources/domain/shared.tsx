import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Chip, Tooltip } from '@mui/material';
import { useCallback, useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { DOMAIN_ROLES, DOMAIN_STATUSES, type DomainStatus } from '../../../common/domain';
import { request } from '../../api/http';
import { POOL_API, SECTION_MSG, STORE_MSG } from './names';

export const statusChoices = DOMAIN_STATUSES.map((id) => ({ id, name: `${SECTION_MSG}.status.${id}` }));
export const roleChoices = DOMAIN_ROLES.map((id) => ({ id, name: `${SECTION_MSG}.role.${id}` }));

const statusColor: Record<DomainStatus, 'success' | 'error' | 'warning' | 'default'> = {
  active: 'success',
  standby: 'default',
  blocked: 'error',
  expired: 'warning',
  retired: 'default',
};

/** A status as a coloured chip with its name (never colour alone); retired (out of service) is outlined. */
export function StatusChip({ status }: { status: DomainStatus }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      variant={status === 'retired' ? 'outlined' : 'filled'}
      color={statusColor[status] ?? 'default'}
      label={translate(`${SECTION_MSG}.status.${status}`)}
    />
  );
}

export interface Pool {
  id: number;
  name: string;
  note: string;
  version: number;
}

/** Every pool of the tenant (a few dozen at most), for choices and names; `reload` after a change. */
export function usePools() {
  const [pools, setPools] = useState<Pool[] | null>(null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    void tick; // reload() asks again
    request<{ list: Pool[] }>(POOL_API, { query: { pageSize: 100, sort: 'name' } })
      .then((r) => live && setPools(r.list))
      .catch(() => live && setPools([]));
    return () => {
      live = false;
    };
  }, [tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { pools, reload };
}

/** The pools as choices of a select input. */
export const poolChoices = (pools: Pool[] | null) => (pools ?? []).map((p) => ({ id: p.id, name: p.name }));

/** A day `YYYY-MM-DD` is within `days` of today (or past). */
export function dueWithin(day: string | null | undefined, days: number, today = new Date()) {
  if (!day) return false;
  return Date.parse(`${day}T00:00:00Z`) - today.getTime() <= days * 86_400_000;
}

/** Beside a hostname kept in punycode because it decodes to a look-alike spelling (the API's `lookalike`). */
export function LookalikeWarning() {
  const translate = useTranslate();
  const title = translate(`${STORE_MSG}.lookalike`);
  return (
    <Tooltip title={title}>
      <WarningAmberIcon
        role="img"
        aria-label={title}
        color="warning"
        fontSize="small"
        sx={{ ml: 0.5, verticalAlign: 'text-bottom' }}
      />
    </Tooltip>
  );
}

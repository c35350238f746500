import type { Logger } from '../core/logger';
import type { Db } from '../db/types';
import { purgeExpiredAudit } from '../modules/audit';

/**
 * The audit log's retention on an in-process timer: every `tickSeconds` this instance tries to claim the tenant's
 * purge (one instance of several gets it per interval, by the claim in the database) and removes the entries older
 * than the retention an admin set. Returns a stop function.
 */
export function startAuditPurgeTimer(db: Db, opts: { tenant: number; logger: Logger; tickSeconds?: number }) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      const removed = await purgeExpiredAudit(db, opts.tenant, new Date());
      if (removed) opts.logger.info({ removed }, 'audit log purge');
    } catch (err) {
      opts.logger.error({ err: (err as Error).message }, 'audit log purge failed');
    }
    if (!stopped) timer = setTimeout(tick, (opts.tickSeconds ?? 300) * 1000);
  };
  timer = setTimeout(tick, 15_000);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

import type { Logger } from '../core/logger';
import type { Db } from '../db/types';
import { claimDueSource, type RunImages, reapInterrupted, runScheduled } from '../modules/collect';
import { guardedFetch } from './outbound';

/**
 * Collection's schedule on an in-process timer: every `tickSeconds` this instance claims the next due source (one
 * instance of several gets each, by the claim in the database) and runs it to its end before looking again. Each tick
 * (the first 10 s after start) first marks failed the runs whose process stopped (`reapInterrupted`).
 * Returns a stop function.
 */
export function startCollectTimer(
  db: Db,
  opts: { tenant: number; logger: Logger; images: RunImages; tickSeconds?: number },
) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      // Runs a stopped process left running (a restart, a kill) are failed first, freeing their sources.
      const reaped = await reapInterrupted(db, new Date());
      if (reaped.length) opts.logger.warn({ runs: reaped }, 'collection runs interrupted by a stop');
      for (;;) {
        if (stopped) break;
        const source = await claimDueSource(db, new Date());
        if (!source) break;
        const runId = await runScheduled(
          { db, outbound: guardedFetch, now: () => new Date(), tenant: opts.tenant, images: opts.images },
          source,
        );
        opts.logger.info({ source: source.id, runId }, 'scheduled collection');
      }
    } catch (err) {
      opts.logger.error({ err: (err as Error).message }, 'scheduled collection failed');
    }
    if (!stopped) timer = setTimeout(tick, (opts.tickSeconds ?? 30) * 1000);
  };
  timer = setTimeout(tick, 10_000);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

import type { Logger } from '../core/logger';
import type { Db } from '../db/types';
import { claimHealthPass, type Probe, runHealthCheck } from '../modules/domain';
import { createGuardedFetch, OutboundRefused, type OutboundResolver } from './outbound';

/** How a hostname becomes an address (DNS by default; tests map names to addresses of their choosing). */
export type Resolver = (hostname: string) => Promise<string>;

/** A probe reads at most this much of an answer: it only wants the status. */
const PROBE_MAX_BYTES = 64 * 1024;

/** What the checker records for each way the guard refused (`refused: internal address` is the SSRF case). */
const REFUSAL: Record<OutboundRefused['reason'], (e: OutboundRefused) => string> = {
  address: () => 'refused: internal address',
  scheme: () => 'refused: scheme',
  redirects: () => 'refused: too many redirects',
  size: () => 'refused: answer too large',
  timeout: () => 'timeout',
  dns: (e) => `dns: ${e.message.split(': ').pop()}`,
  network: (e) => `connect: ${e.message}`,
};

/**
 * The health probe: `GET http://hostname/` through the outbound guard (server/node/outbound.ts), so a stored name
 * that DNS points inside is refused, not visited. Redirects are not followed: any HTTP answer below 500 is up; down
 * is a DNS failure, a refused or reset connection, a timeout, a 5xx or a refusal of the guard.
 */
export function nodeProbe(options: { resolve?: Resolver; port?: number } = {}): Probe {
  const single = options.resolve;
  const resolve: OutboundResolver | undefined = single
    ? async (h) => {
        const address = await single(h);
        return [{ address, family: address.includes(':') ? 6 : 4 }];
      }
    : undefined;
  const fetch = createGuardedFetch({ resolve });
  const port = options.port ?? 80;
  return async (hostname, timeoutMs, allowHosts = []) => {
    try {
      const res = await fetch(`http://${hostname}:${port}/`, {
        timeoutMs,
        maxBytes: PROBE_MAX_BYTES,
        maxRedirects: 0,
        allowHosts,
        method: 'GET',
      }).catch((err) => {
        // A redirect is an answer: the host is up.
        if (err instanceof OutboundRefused && err.reason === 'redirects') return { status: 302 };
        // More body than a probe reads is an answer too.
        if (err instanceof OutboundRefused && err.reason === 'size') return { status: 200 };
        throw err;
      });
      return res.status < 500 ? { ok: true } : { ok: false, error: `http ${res.status}` };
    } catch (err) {
      if (err instanceof OutboundRefused) return { ok: false, error: REFUSAL[err.reason](err) };
      return { ok: false, error: (err as Error).message || 'error' };
    }
  };
}

/**
 * The domain health checker on an in-process timer: every `tickSeconds` it claims the tenant's pass when the
 * interval of the settings has gone by (one instance of several gets it) and runs it. Returns a stop function.
 */
export function startDomainHealthTimer(
  db: Db,
  opts: { tenant: number; logger: Logger; probe?: Probe; tickSeconds?: number },
) {
  const probe = opts.probe ?? nodeProbe();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = async () => {
    try {
      if (await claimHealthPass(db, opts.tenant, new Date())) {
        const r = await runHealthCheck(db, { tenant: opts.tenant, now: () => new Date(), probe });
        if (r.checked) opts.logger.info({ ...r }, 'domain health check');
      }
    } catch (err) {
      opts.logger.error({ err: (err as Error).message }, 'domain health check failed');
    }
    if (!stopped) timer = setTimeout(tick, (opts.tickSeconds ?? 15) * 1000);
  };
  timer = setTimeout(tick, 5000);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

import { lookup } from 'node:dns/promises';
import { request } from 'node:http';
import type { Logger } from '../core/logger';
import type { Db } from '../db/types';
import { claimHealthPass, type Probe, runHealthCheck } from '../modules/domain';

/** How a hostname becomes an address (DNS by default; tests map names to 127.0.0.1). */
export type Resolver = (hostname: string) => Promise<string>;

const dnsResolve: Resolver = async (hostname) => (await lookup(hostname)).address;

/**
 * The health probe: resolve the hostname, then `GET /` on its address with the hostname as `Host`, within the
 * timeout. Up is any HTTP answer below 500; down is a DNS failure, a refused or reset connection, a timeout or a 5xx.
 */
export function nodeProbe(options: { resolve?: Resolver; port?: number } = {}): Probe {
  const resolve = options.resolve ?? dnsResolve;
  const port = options.port ?? 80;
  return async (hostname, timeoutMs) => {
    const deadline = AbortSignal.timeout(timeoutMs);
    let address: string;
    try {
      address = await Promise.race([
        resolve(hostname),
        new Promise<never>((_, reject) =>
          deadline.addEventListener('abort', () => reject(new Error('dns timeout')), { once: true }),
        ),
      ]);
    } catch (err) {
      return { ok: false, error: `dns: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
    }
    return new Promise((done) => {
      const req = request(
        { host: address, port, path: '/', method: 'GET', headers: { Host: hostname }, signal: deadline },
        (res) => {
          res.resume();
          const status = res.statusCode ?? 0;
          done(status < 500 ? { ok: true } : { ok: false, error: `http ${status}` });
        },
      );
      req.on('error', (err: NodeJS.ErrnoException) =>
        done({ ok: false, error: deadline.aborted ? 'timeout' : `connect: ${err.code ?? err.message}` }),
      );
      req.end();
    });
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

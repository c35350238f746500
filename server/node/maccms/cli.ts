import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig } from '../../config';
import { migrate } from '../../db/migrate';
import { openDataDir } from '../data-dir';
import { openPostgres } from '../postgres';
import { MAX_CONFIG_BYTES, parsePhpConfig, siteSettingsOf } from './php-config';
import { type MoveReport, reportMarkdown, reportSummary } from './report';
import { type KindName, moveMaccms, ONLY_NAMES } from './run';
import { openMysql } from './source';

export const USAGE = `usage: npm run migrate:maccms -- mysql://user:pass@host:3306/maccms [options]
  --prefix mac_        MacCMS's table prefix
  --tenant N           the tenant members, comments and settings go to (default: DEFAULT_TENANT, 2)
  --only vod,user,…    only these (${ONLY_NAMES.join(', ')})
  --config FILE        MacCMS's application/extra/maccms.php: site name, keywords, description, statistics code
  --report PATH        where the report goes (PATH.json and PATH.md; default ./data/maccms-report-<time>)
  --batch N            rows per batch
  --dry-run            read and check everything, write nothing
Writes to DATABASE_URL (PostgreSQL) when set, else the embedded database in DATA_DIR (./data): stop the server first.
A first move of 10,000 videos or more into an empty movie table writes them in one transaction that holds the movie
tables until it ends (stopped, it leaves no movie; run it again).`;

export interface CliArgs {
  url: string;
  prefix: string;
  tenant?: number;
  only?: KindName[];
  config?: string;
  report?: string;
  batch?: number;
  dryRun: boolean;
}

export class UsageError extends Error {}

export function parseArgs(argv: string[]): CliArgs {
  const out: CliArgs = { url: '', prefix: 'mac_', dryRun: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] =
      a.startsWith('--') && a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const int = (what: string) => {
      const v = value();
      if (!/^\d{1,9}$/.test(v) || Number(v) < 1)
        throw new UsageError(`${what} must be a whole number from 1`);
      return Number(v);
    };
    if (flag === '--dry-run') out.dryRun = true;
    else if (flag === '--prefix') out.prefix = value();
    else if (flag === '--tenant') out.tenant = int('--tenant');
    else if (flag === '--batch') out.batch = Math.min(int('--batch'), 10_000);
    else if (flag === '--config') out.config = value();
    else if (flag === '--report') out.report = value();
    else if (flag === '--only') {
      const names = value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = names.filter((n) => !(ONLY_NAMES as readonly string[]).includes(n));
      if (bad.length || !names.length)
        throw new UsageError(`--only takes ${ONLY_NAMES.join(', ')}; not ${bad.join(', ') || 'nothing'}`);
      out.only = names as KindName[];
    } else if (flag === '--help' || flag === '-h') throw new UsageError('');
    else if (!a.startsWith('-') && !out.url) out.url = a;
    else throw new UsageError(`unknown argument ${a}`);
  }
  if (!out.url) throw new UsageError('the MacCMS database URL is missing');
  if (!/^(mysql|mariadb):\/\//.test(out.url))
    throw new UsageError('the MacCMS database must be a mysql:// URL');
  if (!/^[A-Za-z0-9_]{0,32}$/.test(out.prefix))
    throw new UsageError('--prefix takes letters, digits and _ only');
  return out;
}

/** The URL as the report shows it: without its password. */
export function shownUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

export function writeReport(report: MoveReport, base: string): { json: string; md: string } {
  mkdirSync(dirname(base), { recursive: true });
  const json = `${base}.json`;
  const md = `${base}.md`;
  writeFileSync(json, `${JSON.stringify(report, null, 1)}\n`);
  writeFileSync(md, reportMarkdown(report));
  return { json, md };
}

/** `npm run migrate:maccms -- …` (server/node/maccms-cli.ts): exit code 0 done, 1 failed, 2 bad arguments. */
export async function runCli(argv: string[]) {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`${e.message ? `maccms: ${e.message}\n` : ''}${USAGE}\n`);
      process.exit(2);
    }
    throw e;
  }
  const config = loadConfig(process.env);
  let settings: Record<string, string> | undefined;
  if (args.config) {
    if (statSync(args.config).size > MAX_CONFIG_BYTES) throw new Error(`${args.config} is larger than 2 MB`);
    settings = siteSettingsOf(parsePhpConfig(readFileSync(args.config, 'utf8')));
  }
  const source = await openMysql(args.url);
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl, 2)
    : await openDataDir(config.dataDir);
  try {
    await migrate(database.db);
    const report = await moveMaccms({
      db: database.db,
      source,
      sourceName: shownUrl(args.url),
      prefix: args.prefix,
      tenant: args.tenant ?? config.defaultTenant,
      dryRun: args.dryRun,
      only: args.only,
      batchSize: args.batch,
      settings,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
    const stamp = report.startedAt.replace(/[:.]/g, '-');
    const files = writeReport(report, args.report ?? join(config.dataDir, `maccms-report-${stamp}`));
    process.stderr.write(`${reportSummary(report)}\nreport: ${files.md} and ${files.json}\n`);
  } finally {
    await source.close();
    await database.close();
  }
}

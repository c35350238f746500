import { z } from 'zod';

/**
 * Configuration from the environment, with defaults. Isomorphic: the Node entry passes `process.env`,
 * tests and demo mode pass a literal. A bad value fails with one line naming the variable.
 */
const int = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).pipe(z.number().min(min).max(max));
const hex = (bytes: number[]) =>
  z
    .string()
    .regex(/^[0-9a-fA-F]*$/, 'must be hexadecimal')
    .refine(
      (v) => bytes.includes(v.length / 2),
      `must be ${bytes.map((b) => b * 2).join(' or ')} hex digits`,
    );

const schema = z.object({
  PORT: int(1, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must have at least 8 characters').optional(),
  IMAGE_KEY: hex([16, 24, 32]).optional(),
  IMAGE_IV: hex([16]).optional(),
  SITE_SECRET_KEY: hex([32]).optional(),
  IMAGE_MAX_BYTES: int(1024, 100 * 1024 * 1024).default(5 * 1024 * 1024),
  SESSION_IDLE_HOURS: int(1, 24 * 365).default(24 * 7),
  PASSWORD_ITERATIONS: int(1000, 10_000_000).default(310_000),
  // false/no/0: no proxy; true/yes: one; a number: that many trusted proxies in front.
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|yes|no|\d{1,2})$/, 'must be true, false or the number of trusted proxies')
    .transform((v) => (v === 'true' || v === 'yes' ? 1 : v === 'false' || v === 'no' ? 0 : Number(v)))
    .default(0),
  SEED: int(0, 2_147_483_647).optional(),
  BODY_LIMIT_KB: int(1, 1024 * 1024).default(1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEFAULT_TENANT: int(1, 1_000_000).default(2),
  ROLLUP_SECONDS: int(0, 86_400).default(60),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminPassword?: string;
  imageKey?: string;
  imageIv?: string;
  /** Largest image an operator may upload (the upload route's own body limit follows it). */
  imageMaxBytes: number;
  /**
   * The key (64 hex digits) the site's server secrets are encrypted with in the database. The Node server keeps one
   * in DATA_DIR/site-secret.key when it is not set; several instances must share it (set it on each).
   */
  siteSecretKey?: string;
  sessionIdleMs: number;
  passwordIterations: number;
  /** How many reverse proxies in front are trusted to append to X-Forwarded-For (0: none, use the socket). */
  trustProxy: number;
  /** Fill an empty database with the sample data of this seed at start (demo data for a trial; never twice). */
  seed?: number;
  bodyLimitBytes: number;
  logLevel: string;
  defaultTenant: number;
  /** How often the statistics rollup runs in the server (0: never; `npm run rollup` or cron instead). */
  rollupSeconds: number;
};

export class ConfigError extends Error {}

/** Variables whose value must never appear in a message. */
const SECRETS = new Set(['ADMIN_PASSWORD', 'IMAGE_KEY', 'IMAGE_IV', 'DATABASE_URL', 'SITE_SECRET_KEY']);

export function loadConfig(env: Record<string, string | undefined>): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0]);
    // A secret is named, never echoed: the message ends up in terminals and logs.
    const shown = SECRETS.has(name) ? '' : `=${JSON.stringify(env[name])}`;
    throw new ConfigError(`Invalid configuration: ${name}${shown} ${issue.message}`);
  }
  const e = parsed.data;
  if (Boolean(e.IMAGE_KEY) !== Boolean(e.IMAGE_IV)) {
    const name = e.IMAGE_KEY ? 'IMAGE_IV' : 'IMAGE_KEY';
    throw new ConfigError(
      `Invalid configuration: ${name} must be set together with ${e.IMAGE_KEY ? 'IMAGE_KEY' : 'IMAGE_IV'}`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    adminPassword: e.ADMIN_PASSWORD,
    imageKey: e.IMAGE_KEY,
    imageIv: e.IMAGE_IV,
    imageMaxBytes: e.IMAGE_MAX_BYTES,
    siteSecretKey: e.SITE_SECRET_KEY,
    sessionIdleMs: e.SESSION_IDLE_HOURS * 3600_000,
    passwordIterations: e.PASSWORD_ITERATIONS,
    trustProxy: e.TRUST_PROXY,
    seed: e.SEED,
    bodyLimitBytes: e.BODY_LIMIT_KB * 1024,
    logLevel: e.LOG_LEVEL,
    defaultTenant: e.DEFAULT_TENANT,
    rollupSeconds: e.ROLLUP_SECONDS,
  };
}

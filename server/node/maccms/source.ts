import mysql from 'mysql2/promise';

/** A MacCMS row as read: strings as the bytes MariaDB stored (decoded by text.ts), numbers as numbers. */
export type SourceRow = Record<string, unknown>;

/** What the move reads from a MacCMS database: a table's size, and its rows in batches by primary key. */
export interface Source {
  /** Whether the table exists (an old or trimmed MacCMS may lack some). */
  has(table: string): Promise<boolean>;
  /** Rows and the highest key: for the progress line, not a promise of what the batches will hold. */
  size(table: string, pk: string): Promise<{ rows: number; maxId: number }>;
  /** Up to `limit` rows whose key is above `after`, by key: of `columns` those the table has (else all of them). */
  batch(
    table: string,
    pk: string,
    after: number,
    limit: number,
    columns?: readonly string[],
  ): Promise<SourceRow[]>;
  close(): Promise<void>;
}

const IDENT = /^[A-Za-z0-9_]{1,64}$/;

export function checkIdent(name: string, what: string): string {
  if (!IDENT.test(name)) throw new Error(`${what} "${name}" is not a plain MySQL name (letters, digits, _)`);
  return name;
}

/**
 * Opens `mysql://user:pass@host:port/db` with mysql2. Every text column comes back as its stored bytes
 * (`character_set_results = binary`), so a latin1 table holding GBK or a utf8 table holding mojibake reaches text.ts
 * as it is; nothing is decoded by a guess of the driver's. Reads are bounded by a statement timeout where the server
 * has one (MariaDB's max_statement_time).
 */
export async function openMysql(url: string): Promise<Source> {
  const u = new URL(url);
  if (u.protocol !== 'mysql:' && u.protocol !== 'mariadb:')
    throw new Error('the source must be a mysql:// URL');
  const conn = await mysql.createConnection({
    host: u.hostname,
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')),
    socketPath: u.searchParams.get('socket') ?? undefined,
    connectTimeout: 15_000,
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: true,
  });
  await conn.query('SET character_set_results = binary');
  const db = u.pathname.replace(/^\//, '');
  const tableColumns = new Map<string, Set<string>>();
  return {
    async has(table) {
      const [rows] = await conn.query(
        'SELECT 1 FROM information_schema.tables WHERE table_schema = ? AND table_name = ?',
        [decodeURIComponent(db), table],
      );
      return (rows as unknown[]).length > 0;
    },
    async size(table, pk) {
      const [rows] = await conn.query(
        `SELECT COUNT(*) AS n, COALESCE(MAX(\`${checkIdent(pk, 'key')}\`), 0) AS m FROM \`${checkIdent(table, 'table')}\``,
      );
      const r = (rows as { n: unknown; m: unknown }[])[0];
      return { rows: Number(r.n), maxId: Number(r.m) };
    },
    async batch(table, pk, after, limit, columns) {
      let list = '*';
      if (columns) {
        let has = tableColumns.get(table);
        if (!has) {
          const [rows] = await conn.query(
            'SELECT column_name AS c FROM information_schema.columns WHERE table_schema = ? AND table_name = ?',
            [decodeURIComponent(db), table],
          );
          has = new Set((rows as { c: unknown }[]).map((r) => String(r.c)));
          tableColumns.set(table, has);
        }
        const known = has;
        list = [pk, ...columns.filter((c) => c !== pk && known.has(c))]
          .map((c) => `\`${checkIdent(c, 'column')}\``)
          .join(', ');
      }
      const [rows] = await conn.query(
        `SELECT ${list} FROM \`${checkIdent(table, 'table')}\` WHERE \`${checkIdent(pk, 'key')}\` > ? ORDER BY \`${pk}\` LIMIT ?`,
        [after, limit],
      );
      return rows as SourceRow[];
    },
    close: () => conn.end(),
  };
}

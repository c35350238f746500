/**
 * Every module's Drizzle declarations, found rather than listed: each `server/modules/<name>/schema.ts`, merged in
 * path order. The drivers are given it and tests/api/schema-drift.test.ts holds it against the migrated database;
 * the queries import the tables from their module's own file. A new module's schema.ts joins by being there.
 */
const found = import.meta.glob<Record<string, unknown>>('../modules/*/schema.ts', { eager: true });

export const schema: Record<string, unknown> = Object.assign(
  {},
  ...Object.keys(found)
    .sort()
    .map((path) => found[path]),
);

/**
 * An audit entry's `changes` as rows to show: the changed fields with their value before and after, a
 * batch's ids and counts, or a route-level entry's request body. No React, so the list, its detail and the CSV read
 * the same rows.
 */
export interface AuditRecord {
  id: number;
  at: string;
  operatorId: number | null;
  operatorAccount: string;
  address: string;
  requestId: string;
  section: string;
  resource: string;
  action: string;
  recordId: string | null;
  route: string;
  changes: Record<string, unknown>;
}

export interface FieldChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields an entry changed, each with its before and after (a create has only after, a delete only before). */
export function fieldChanges(changes: Record<string, unknown>): FieldChange[] {
  const before = isObject(changes.before) ? changes.before : undefined;
  const after = isObject(changes.after) ? changes.after : undefined;
  if (!before && !after) return [];
  const names = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return names.map((field) => ({
    field,
    ...(before && field in before ? { before: before[field] } : {}),
    ...(after && field in after ? { after: after[field] } : {}),
  }));
}

/** A value as one line: strings as they are, everything else as JSON; absent as an empty string. */
export function valueText(v: unknown): string {
  if (v === undefined) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

/**
 * What an entry says in one line: the changed fields' keys (`names`, which the screen names in the operator's
 * language), a batch's count, or the route's body fields.
 */
export function summaryOf(changes: Record<string, unknown>): {
  kind: 'fields' | 'batch' | 'body' | 'none';
  text: string;
  names: string[];
} {
  const fields = fieldChanges(changes);
  const of = (names: string[]) => ({ text: names.join(', '), names });
  if (fields.length) return { kind: 'fields', ...of(fields.map((f) => f.field)) };
  if (Array.isArray(changes.ids))
    return { kind: 'batch', text: String(changes.count ?? changes.ids.length), names: [] };
  if (isObject(changes.body)) return { kind: 'body', ...of(Object.keys(changes.body)) };
  return { kind: 'none', text: '', names: [] };
}

/**
 * Query strings of the API: arrays become comma lists; undefined, null, empty strings and empty arrays are
 * dropped; dates become ISO strings; other objects are sent as JSON.
 */
export type QueryValue = unknown;

function encodeValue(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) {
    const parts = value.map(encodeValue).filter((v): v is string => v !== undefined);
    return parts.length > 0 ? parts.join(',') : undefined;
  }
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function toQueryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const encoded = encodeValue(value);
    if (encoded !== undefined) params.append(key, encoded);
  }
  return params.toString();
}

/** `path` with the query appended (after `?`, or `&` when the path already has one). */
export function withQuery(path: string, query: Record<string, QueryValue> | undefined): string {
  const qs = toQueryString(query);
  if (!qs) return path;
  return path + (path.includes('?') ? '&' : '?') + qs;
}

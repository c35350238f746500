import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context';
import { type FieldErrors, ValidationError } from './errors';

/** Deeper JSON than this is refused: no form nests so deep, and deeper values overflow JSON.stringify or jsonb. */
export const MAX_JSON_DEPTH = 32;

/** U+0000 (PostgreSQL text and jsonb cannot hold it) or a lone UTF-16 surrogate (not valid Unicode). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorable = (s: string) => s.includes('\u0000') || LONE_SURROGATE.test(s);

/**
 * Refuses, with 40000 naming the field, query parameters no route could store: strings with U+0000 or lone
 * surrogates. Runs before every route's zod schema, so a module never has to think about it. JSON bodies get the
 * same check (`checkJsonValue`) when they are read (core/body.ts), which is after the route's guards.
 */
export const inputGuard = createMiddleware<AppEnv>(async (c, next) => {
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (unstorable(key) || values.some(unstorable)) reject(key, 'field.invalid');
  }
  await next();
});

function reject(field: string, key: 'field.invalid' | 'field.tooDeep'): never {
  const fields: FieldErrors = { [field || '_']: { key } };
  throw new ValidationError(fields);
}

/**
 * Refuses strings with U+0000 or lone surrogates anywhere in a JSON value (keys included) and nesting deeper than
 * MAX_JSON_DEPTH. Walks the value without recursion, so hostile nesting cannot overflow the stack here either.
 */
export function checkJsonValue(root: unknown) {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: '', depth: 0 }];
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (unstorable(value)) reject(path, 'field.invalid');
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) reject(path, 'field.tooDeep');
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    for (const [k, v] of entries) {
      const childPath = path ? `${path}.${k}` : k;
      if (unstorable(k)) reject(path || '_', 'field.invalid');
      stack.push({ value: v, path: childPath, depth: depth + 1 });
    }
  }
}

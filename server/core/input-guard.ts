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
 * MAX_JSON_DEPTH. Walks the value without recursion, so hostile nesting cannot overflow the stack here either; a
 * field's path is written only for the one refused. `strings: false` skips the strings (the caller knows none can be
 * unstorable: see `checkJsonBytes`), leaving the depth.
 */
export function checkJsonValue(root: unknown, { strings = true }: { strings?: boolean } = {}) {
  type Item = { value: object; key: string; parent: Item | undefined; depth: number };
  const pathOf = (item: Item | undefined, key?: string) => {
    const keys = key === undefined ? [] : [key];
    for (let i = item; i?.parent; i = i.parent) keys.push(i.key);
    return keys.reverse().join('.');
  };
  if (typeof root === 'string') {
    if (strings && unstorable(root)) reject('', 'field.invalid');
    return;
  }
  if (root === null || typeof root !== 'object') return;
  const stack: Item[] = [{ value: root, key: '', parent: undefined, depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (item.depth >= MAX_JSON_DEPTH) reject(pathOf(item), 'field.tooDeep');
    const value = item.value as Record<string, unknown>;
    const keys = Array.isArray(value) ? undefined : Object.keys(value);
    const n = keys ? keys.length : (value as unknown as unknown[]).length;
    for (let j = 0; j < n; j++) {
      const k = keys ? keys[j] : String(j);
      if (strings && keys && unstorable(k)) reject(pathOf(item) || '_', 'field.invalid');
      const v = keys ? value[k] : (value as unknown as unknown[])[j];
      if (typeof v === 'string') {
        if (strings && unstorable(v)) reject(pathOf(item, k), 'field.invalid');
      } else if (v !== null && typeof v === 'object')
        stack.push({ value: v, key: k, parent: item, depth: item.depth + 1 });
    }
  }
}

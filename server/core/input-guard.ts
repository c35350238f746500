import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context';
import { type FieldErrors, ValidationError } from './errors';

/** Deeper JSON than this is refused: no form nests so deep, and deeper values overflow JSON.stringify or jsonb. */
export const MAX_JSON_DEPTH = 32;

/** U+0000 (PostgreSQL text and jsonb cannot hold it) or a lone UTF-16 surrogate (not valid Unicode). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const unstorable = (s: string) => s.includes('\u0000') || LONE_SURROGATE.test(s);

const jsonType = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * Refuses, with 40000 naming the field, input no route could store: strings with U+0000 or lone surrogates
 * (in the query, or anywhere in a JSON body, keys included) and JSON nested deeper than MAX_JSON_DEPTH.
 * Runs before every route's zod schema, so a module never has to think about it. A body that is not JSON is
 * left to the route's validator, which answers 40000 itself.
 */
export const inputGuard = createMiddleware<AppEnv>(async (c, next) => {
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (unstorable(key) || values.some(unstorable)) reject(key, 'field.invalid');
  }
  if (c.req.raw.body && jsonType.test(c.req.header('content-type') ?? '')) {
    let body: unknown;
    let parsed = false;
    try {
      body = await c.req.json();
      parsed = true;
    } catch (err) {
      if (!(err instanceof SyntaxError)) throw err;
    }
    if (parsed) checkJson(body);
  }
  await next();
});

function reject(field: string, key: 'field.invalid' | 'field.tooDeep'): never {
  const fields: FieldErrors = { [field || '_']: { key } };
  throw new ValidationError(fields);
}

/** Walks the value without recursion, so hostile nesting cannot overflow the stack here either. */
function checkJson(root: unknown) {
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

import type { z } from '@hono/zod-openapi';
import { type FieldErrors, ValidationError } from './errors';
import { enumParams, type MessageKey, type Params } from './i18n';

/**
 * Turns zod issues into field → message key, so `msg` and `data.fields` are in the user's language.
 * `input` is the value that was validated: zod 4 leaves the offending value out of its issues, and it tells a
 * missing field ("required") from one of the wrong type.
 */
export function zodFieldErrors(error: z.ZodError, input?: unknown): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.length ? issue.path.join('.') : '_';
    if (fields[path]) continue;
    fields[path] = issueMessage(issue as any, input);
  }
  return fields;
}

/** The value at `path` inside `input`, or undefined when any step is missing. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: any = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = v[key as any];
  }
  return v;
}

function issueMessage(issue: any, input: unknown): { key: MessageKey; params?: Params } {
  switch (issue.code) {
    case 'invalid_type':
      return (issue.input ?? valueAt(input, issue.path)) === undefined
        ? { key: 'field.required' }
        : { key: 'field.type', params: { expected: String(issue.expected) } };
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? { key: 'field.tooLong', params: { max: Number(issue.maximum) } }
        : { key: 'field.range' };
    case 'too_small':
      if ((issue.origin === 'string' || issue.origin === 'array') && Number(issue.minimum) === 1)
        return { key: 'field.required' };
      return issue.origin === 'string' || issue.origin === 'array'
        ? { key: 'field.tooShort', params: { min: Number(issue.minimum) } }
        : { key: 'field.range' };
    case 'invalid_value':
      return { key: 'field.enum', params: enumParams(issue.values ?? []) };
    case 'unrecognized_keys':
      return { key: 'field.unknown' };
    case 'custom':
      if (issue.params?.key) return { key: issue.params.key, params: issue.params.params };
      return { key: 'field.invalid' };
    default:
      return { key: 'field.invalid' };
  }
}

export function throwValidation(error: z.ZodError, input?: unknown): never {
  throw new ValidationError(zodFieldErrors(error, input));
}

import type { z } from '@hono/zod-openapi';
import { type FieldErrors, ValidationError } from './errors';
import type { MessageKey, Params } from './i18n';

/** Turns zod issues into field → message key, so `msg` and `data.fields` are in the user's language. */
export function zodFieldErrors(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.length ? issue.path.join('.') : '_';
    if (fields[path]) continue;
    fields[path] = issueMessage(issue as any);
  }
  return fields;
}

function issueMessage(issue: any): { key: MessageKey; params?: Params } {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
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
      return { key: 'field.enum', params: { values: (issue.values ?? []).join(', ') } };
    case 'unrecognized_keys':
      return { key: 'field.unknown' };
    case 'custom':
      if (issue.params?.key) return { key: issue.params.key, params: issue.params.params };
      return { key: 'field.invalid' };
    default:
      return { key: 'field.invalid' };
  }
}

export function throwValidation(error: z.ZodError): never {
  throw new ValidationError(zodFieldErrors(error));
}

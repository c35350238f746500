import { z } from '@hono/zod-openapi';
import { Code, type Envelope } from '../../common/codes';
import type { AppContext } from './context';
import { type ApiError, ValidationError } from './errors';
import { fieldLabel, fieldMessage, translate } from './i18n';

/** Answer a success: `{code: 20000, msg, data}`. */
export function ok<T>(c: AppContext, data: T) {
  return c.json({ code: Code.OK, msg: translate(c.get('locale'), 'ok'), data } satisfies Envelope<T>, 200);
}

/** The envelope for a handled failure; HTTP 200 because the admin treats a non-OK status as a transport error. */
export function errorEnvelope(c: AppContext, err: ApiError): Envelope {
  const locale = c.get('locale') ?? 'zh-CN';
  let data = err.data;
  let msg = translate(locale, err.key, err.params);
  if (err instanceof ValidationError) {
    const fields: Record<string, string> = {};
    for (const [field, { key, params }] of Object.entries(err.fields))
      fields[field] = fieldMessage(locale, field, key, params);
    data = { fields };
    const first = Object.entries(err.fields)[0];
    if (first) {
      const [path, { label }] = first;
      const name = label ? translate(locale, label) : fieldLabel(locale, path);
      msg = translate(locale, 'invalid.field', { field: name, message: fields[path] });
    }
  }
  const body: Envelope = { code: err.code, msg, data };
  if (err.errCode !== undefined) body.errCode = err.errCode;
  return body;
}

/** The OpenAPI schema of a success envelope around `data`. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(Code.OK), msg: z.string(), data });
}

/** The `responses` block every route declares: the envelope, always HTTP 200. */
export function jsonResponse<T extends z.ZodType>(data: T, description = 'Envelope `{code, msg, data}`') {
  return {
    200: { description, content: { 'application/json': { schema: envelopeOf(data) } } },
  } as const;
}

/** A required JSON request body. A missing or non-JSON content type is refused with 40000. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } } as const;
}

import { Code, ERR_SESSION_INVALID } from '../../common/codes';
import type { MessageKey, Params } from './i18n';

/**
 * A handled outcome other than success. Thrown anywhere in a handler; the app's error handler turns it
 * into the envelope `{code, msg, data}` with HTTP 200, `msg` translated into the request's locale.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly params: Params = {},
    readonly data: unknown = null,
    readonly errCode?: number,
  ) {
    super(key);
  }
}

/**
 * `fields` maps a field path to a message key (translated on the way out). `label` names the field where its key
 * means something else than elsewhere (a column move's `to` is the target column, a period's `to` its end date).
 */
export type FieldErrors = Record<string, { key: MessageKey; params?: Params; label?: MessageKey }>;

/** Bad fields: 40000 by default; a value another record already holds is 40900 (a conflict) with the same shape. */
export class ValidationError extends ApiError {
  constructor(
    readonly fields: FieldErrors,
    code: number = Code.INVALID,
  ) {
    super(code, 'invalid');
  }
}

export const notFound = () => new ApiError(Code.NOT_FOUND, 'notFound');
export const forbidden = () => new ApiError(Code.FORBIDDEN, 'forbidden');
export const conflict = () => new ApiError(Code.CONFLICT, 'conflict');
export const invalidField = (field: string, key: MessageKey, params?: Params, label?: MessageKey) =>
  new ValidationError({ [field]: { key, params, label } });
export const accountDisabled = () =>
  new ApiError(Code.FORBIDDEN, 'accountDisabled', {}, null, ERR_SESSION_INVALID);

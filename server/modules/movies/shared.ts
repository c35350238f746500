/**
 * The helpers the movies module grew (query fields, reference checks, the retrying transaction…) now live in
 * `server/core/shared.ts` for every module; this keeps the old import path working.
 */
export * from '../../core/shared';

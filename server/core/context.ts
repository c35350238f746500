import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Config } from '../config';
import type { Db } from '../db/types';
import type { Clock } from './clock';
import type { ApiError } from './errors';
import type { Locale } from './i18n';
import type { ImageStorage } from './image-storage';
import type { Logger } from './logger';
import type { OutboundFetch } from './outbound';

/** The operator behind the request's session (set by `requireSession`). */
export interface SessionOperator {
  id: number;
  account: string;
  nickname: string;
  avatar: string;
  /** The role's name: the built-ins `admin` and `user`, or a custom role. */
  role: string;
  /** What the role allows (`<section>.<action>`), as read with the session: the guards of core/auth.ts ask it. */
  permissions: ReadonlySet<string>;
  sessionId: number;
}

/** What the app is built from: everything platform-specific comes in here, so the app itself is isomorphic. */
export interface AppDeps {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** The caller's network address (the Node entry reads the socket; tests and demo mode pass a constant). */
  clientAddress: (c: Context) => string;
  /** Uploaded images (encrypted bytes): files in Node, IndexedDB in demo mode, memory in tests. */
  images: ImageStorage;
  /** Country and province of an address from an offline database (Node: ip2region); without it, "unknown". */
  region?: (address: string) => { country: string; province: string };
  /**
   * The MD5 of a text in hex (Node: `crypto.hash`): the ingestion hashes visitors and addresses with it; without it
   * (demo mode, the tests' default), SQL does (`zg_hash64`, `zg_hll_reg`), with the same result.
   */
  md5?: (text: string) => string;
  /**
   * Fetches from the internet through the outbound guard (Node: server/node/outbound.ts): collection reads resource
   * sites with it. Without it (demo mode) collection says it needs the server.
   */
  outbound?: OutboundFetch;
}

/**
 * How a request's `Admin-Token` becomes the operator behind it (or the envelope error that says why not). The
 * operators module provides it (`ServerModule.authenticate`) and the app sets it on every request, so the guards of
 * `core/auth.ts` ask the context instead of importing a module.
 */
export type Authenticate = (c: Context<AppEnv>, token: string | undefined) => Promise<SessionOperator>;

/**
 * A request body's size limit and the error that refuses it (core/body.ts enforces it). Declared here, beside the
 * request's variables that carry it, so that the context's types depend on nothing that depends on them.
 */
export interface BodyLimit {
  maxBytes: number;
  refuse: () => ApiError;
}

/** Every permission the modules declare and those of the built-in `user` (common/permissions.ts `catalogOf`). */
export interface PermissionCatalog {
  all: readonly string[];
  user: readonly string[];
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    authenticate: Authenticate;
    /** The permissions the mounted modules declare: built-in roles are resolved against it. */
    permissions: PermissionCatalog;
    locale: Locale;
    requestId: string;
    operator: SessionOperator;
    /** The body limit in force (core/body.ts): the app's, or the route's own. */
    bodyLimit: BodyLimit;
    /** Set when the body was refused (too large, not UTF-8, unstorable): the answer, whatever followed. */
    bodyRefusal?: ApiError;
    /** The module whose mount point holds the path: the audit log's section (core/audit.ts). */
    auditSection?: string;
    /** The route writes its own audit entries (`auditedRoute`): no route-level entry for it. */
    auditExplicit?: boolean;
    /** An audit entry was written for this request (core/audit.ts). */
    auditWritten?: boolean;
  };
}

export type AppContext = Context<AppEnv>;
export type Module = OpenAPIHono<AppEnv>;

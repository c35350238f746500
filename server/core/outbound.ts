/**
 * The outbound guard's interface (the guard itself is Node code: server/node/outbound.ts), so isomorphic modules
 * can be handed it through the app's deps. Demo mode runs in a browser and has none: what needs it says so.
 */
export interface OutboundOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Internal hosts an admin allowed: hostnames (`*.corp.example` for its subdomains) or IPs/CIDRs. */
  allowHosts?: readonly string[];
  maxRedirects?: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'HEAD';
}

export interface OutboundAnswer {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** The final URL after redirects. */
  url: string;
  ms: number;
}

export type OutboundFetch = (url: string, options: OutboundOptions) => Promise<OutboundAnswer>;

export const OUTBOUND_REASONS = [
  'scheme',
  'address',
  'dns',
  'size',
  'timeout',
  'redirects',
  'network',
] as const;
export type OutboundReason = (typeof OUTBOUND_REASONS)[number];

/** The guard's refusal reason of an error (its `OutboundRefused`), read by shape so this file imports no Node code. */
export function refusalOf(err: unknown): OutboundReason | undefined {
  const reason = (err as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' && (OUTBOUND_REASONS as readonly string[]).includes(reason)
    ? (reason as OutboundReason)
    : undefined;
}

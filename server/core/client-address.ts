/**
 * The client's address from X-Forwarded-For behind `trusted` reverse proxies (TRUST_PROXY): each proxy appends the
 * address it saw, so the entry `trusted` places from the right is the one the outermost trusted proxy saw — the
 * rightmost one nobody but a trusted proxy wrote. Entries further left are whatever the client sent and count for
 * nothing. Undefined when no proxy is trusted or the header is missing (then the socket's address is used).
 */
export function forwardedClient(header: string | undefined, trusted: number): string | undefined {
  if (trusted <= 0 || !header) return undefined;
  const entries = header
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!entries.length) return undefined;
  return entries[Math.max(0, entries.length - trusted)];
}

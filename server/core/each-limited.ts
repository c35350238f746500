/**
 * `fn` over `items`, at most `limit` at a time (at least one), in order of start: for outbound work (health probes,
 * collected covers) that must not open a connection per item at once.
 */
export async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
}

/**
 * MacCMS's notations for lists and dates kept as one text, read the same by the MacCMS move (server/node/maccms)
 * and by collection (server/modules/collect).
 */

/** A list MacCMS keeps as one text: names split on ASCII or full-width commas, slashes and the like; empty and repeated ones dropped. */
export function splitList(s: string): string[] {
  const seen = new Set<string>();
  for (const piece of s.split(/[,，、/／|;；]/)) {
    const name = piece.trim();
    if (name) seen.add(name);
  }
  return [...seen];
}

/** A MacCMS date (`1990-01-02`, time after it ignored) as `YYYY-MM-DD`, or null when it is none (or before 1900). */
export function dateOf(s: string): string | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(s.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  if (Number.isNaN(d.getTime()) || +m[1] < 1900 || d.getUTCMonth() !== +m[2] - 1) return null;
  return d.toISOString().slice(0, 10);
}

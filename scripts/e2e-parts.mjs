// How `npm test` deals the end-to-end files between its two lanes (scripts/test.mjs).

/**
 * Seconds each end-to-end file took in a full run: only to deal the parts evenly. A new file counts
 * 30 s until it is measured; a wrong figure costs balance, never a test.
 */
export const E2E_SECONDS = {
  settings: 91,
  // alone: 94 s on a calm machine, 250 s at a load of 20 on two cores (a second server is started and filled first)
  collect: 100,
  movies: 62,
  novels: 62,
  actresses: 60,
  forms: 60,
  shell: 60,
  stats: 56,
  lists: 48,
  ads: 37,
  'review-queue': 27,
  domains: 22,
  'review-toolbar': 21,
  comments: 21,
  agents: 18,
  demo: 10,
  start: 25,
  server: 1,
};
export const PART_SECONDS = 130;

/**
 * The end-to-end files (`names`: file names in tests/e2e) dealt into parts of about PART_SECONDS (each a list of files): the longest file first, each
 * to the part with the least so far; the parts in order of their size.
 */
export function e2eParts(names, partSeconds = PART_SECONDS) {
  const files = names
    .map((f) => ({ file: `tests/e2e/${f}`, s: E2E_SECONDS[f.replace(/\.test\.ts$/, '')] ?? 30 }))
    .sort((a, b) => b.s - a.s);
  const total = files.reduce((sum, f) => sum + f.s, 0);
  const parts = Array.from({ length: Math.max(1, Math.round(total / partSeconds)) }, () => ({
    files: [],
    s: 0,
  }));
  for (const f of files) {
    const part = parts.reduce((least, p) => (p.s < least.s ? p : least));
    part.files.push(f.file);
    part.s += f.s;
  }
  return parts
    .filter((p) => p.files.length)
    .sort((a, b) => b.s - a.s)
    .map((p) => p.files);
}

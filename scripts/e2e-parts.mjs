// How `npm test` deals the end-to-end files between its two lanes (scripts/test.mjs).

/**
 * Seconds each end-to-end file took, run alone on a quiet machine (one vitest run of every file): only to deal the
 * parts evenly. A new file counts 30 s until it is measured; a wrong figure costs balance, never a test.
 */
export const E2E_SECONDS = {
  settings: 95,
  layout: 87,
  shell: 66,
  novels: 63,
  movies: 60,
  stats: 54,
  actresses: 54,
  forms: 52,
  collect: 42,
  ads: 40,
  'review-queue': 29,
  comments: 29,
  lists: 26,
  domains: 25,
  audit: 25,
  start: 24,
  'review-toolbar': 22,
  agents: 20,
  demo: 14,
  maccms: 7,
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

/** The move's report: per MacCMS table what was read, created, updated, left unchanged, skipped or failed, and why. */

export type Outcome = 'skipped' | 'failed' | 'cut' | 'fixed' | 'note';

export interface ReportLine {
  /** The MacCMS row's key (0 for a line about the whole table). */
  id: number;
  outcome: Outcome;
  /** A stable reason key (listed in REASONS). */
  reason: string;
  detail?: string;
}

export interface TableReport {
  table: string;
  /** Rows in the table when the move started. */
  total: number;
  read: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
  seconds: number;
  lines: ReportLine[];
  /** Lines past the kept maximum: counted, not kept (a report of a million bad rows stays small). */
  linesOmitted: number;
}

export interface MoveReport {
  source: string;
  tenant: number;
  dryRun: boolean;
  startedAt: string;
  finishedAt: string;
  tables: TableReport[];
  settings: Record<string, string>;
}

/** Reasons, as the readable report words them. */
export const REASONS: Record<string, string> = {
  tableMissing: 'table absent in this MacCMS database',
  noHome: 'no home here: not moved',
  notSelected: 'not in --only',
  emptyName: 'empty name or title',
  emptyContent: 'empty content',
  kindNotMoved: 'a MacCMS type or target kind that has no home here (topic, role, website, manga…)',
  columnMissing: 'its type (column) was not moved: filed under no column',
  duplicateName: 'a sibling column of that name exists: merged into it',
  accountTaken: 'account already used by another member of this tenant',
  lookalike:
    "account looks like another member's (one folded key): moved without the key, so it can log in but does not count in look-alike checks",
  orphanTarget: 'what it comments on is not moved (deleted in MacCMS?)',
  orphanParent: 'the comment it replies to is not moved',
  memberGone: 'its member is not moved: kept as a guest under the name it showed',
  brokenVideoGone: 'the video it reports is not moved: kept as a message',
  zeroDate: 'no date in MacCMS (0 / 0000-00-00): the move time is used',
  utf8Mojibake: 'UTF-8 text stored through a latin1 connection (mojibake): decoded again as UTF-8',
  gbkMojibake: 'GBK text stored through a latin1 connection (mojibake): decoded again as GBK',
  gbk: 'GBK bytes: decoded as GBK',
  badUtf8: 'bytes that are neither UTF-8 nor GBK: each bad sequence became U+FFFD',
  controls: 'control characters removed',
  tooLong: 'longer than the field here: cut',
  badUrl: 'not an http(s) URL or site path: left out',
  urlTooLong: 'URL longer than 512 characters: left out',
  html: 'HTML passed through the sanitizer (scripts, styles and unknown tags removed)',
  episodes: 'play list pieces left out',
  noEpisodes: 'no playable episode',
  sourceCreated:
    'video source created for this line code, with an empty base URL: set it under Movies › Sources',
  lineWithoutCode: "a play line without a code: put on source 'maccms'",
  legacyPassword: 'MacCMS password hash kept as a legacy hash (verified once at the next login)',
  error: 'write failed',
};

export function emptyTable(table: string, total = 0): TableReport {
  return {
    table,
    total,
    read: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    failed: 0,
    seconds: 0,
    lines: [],
    linesOmitted: 0,
  };
}

const MAX_LINES = 10_000;

export function addLine(t: TableReport, line: ReportLine) {
  if (t.lines.length < MAX_LINES) t.lines.push(line);
  else t.linesOmitted++;
}

const n = (v: number) => v.toLocaleString('en-US');

/** The report as Markdown: a table of counts, then each table's lines grouped by reason. */
export function reportMarkdown(r: MoveReport): string {
  const out = [
    `# MacCMS move${r.dryRun ? ' (dry run: nothing written)' : ''}`,
    '',
    `Source ${r.source}, tenant ${r.tenant}, ${r.startedAt} → ${r.finishedAt}.`,
    '',
    '| table | total | read | created | updated | unchanged | skipped | failed | seconds |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.tables.map(
      (t) =>
        `| ${t.table} | ${n(t.total)} | ${n(t.read)} | ${n(t.created)} | ${n(t.updated)} | ${n(t.unchanged)} | ${n(t.skipped)} | ${n(t.failed)} | ${t.seconds.toFixed(1)} |`,
    ),
  ];
  if (Object.keys(r.settings).length)
    out.push('', '## Site settings', '', ...Object.keys(r.settings).map((k) => `- ${k}`));
  for (const t of r.tables) {
    if (!t.lines.length) continue;
    out.push('', `## ${t.table}`, '');
    const byReason = new Map<string, ReportLine[]>();
    for (const l of t.lines) {
      const key = `${l.outcome}: ${REASONS[l.reason] ?? l.reason}`;
      byReason.set(key, [...(byReason.get(key) ?? []), l]);
    }
    for (const [key, lines] of byReason) {
      out.push(`- ${key} (${n(lines.length)})`);
      for (const l of lines.slice(0, 200))
        out.push(`  - ${l.id ? `#${l.id}` : 'table'}${l.detail ? `: ${l.detail.replace(/\s+/g, ' ')}` : ''}`);
      if (lines.length > 200) out.push(`  - … ${n(lines.length - 200)} more in the JSON report`);
    }
    if (t.linesOmitted) out.push(`- … ${n(t.linesOmitted)} more lines not kept`);
  }
  return `${out.join('\n')}\n`;
}

/** The closing summary printed on stderr: one line per table. */
export function reportSummary(r: MoveReport): string {
  return r.tables
    .map(
      (t) =>
        `${t.table}: read ${n(t.read)}, created ${n(t.created)}, updated ${n(t.updated)}, unchanged ${n(t.unchanged)}, skipped ${n(t.skipped)}, failed ${n(t.failed)}`,
    )
    .join('\n');
}

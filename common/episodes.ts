/**
 * Episodes in MacCMS's notation, the one resource sites, MacCMS databases and MacCMS sites collecting from us speak:
 * `vod_play_from` names the source lines joined by `$$$` (`m3u8$$$mp4`), and `vod_play_url` holds each line's
 * episodes in the same order, joined by `$$$`, each line `name$url#name$url`. Collection, the MacCMS move, the provide
 * API and the movie form's paste all read and write it here, so one reading of the odd cases holds everywhere.
 *
 * What real answers carry besides the plain form, and how it is read:
 * - a line's episodes separated by line breaks instead of `#` (some sites), or both;
 * - empty pieces from doubled or trailing separators (`a$u##b$u#`): skipped, not episodes;
 * - an episode without a name (`url` alone): a nameless episode, shown as the main feature (正片);
 * - a name holding `$` itself: the URL is what follows the last `$`, so names keep theirs;
 * - fewer URL lines than source names, or more: the extra names or lines are reported, never paired wrongly.
 */

/** At most this many source lines per movie and episodes per line: bounds what a remote answer can make us store. */
export const MAX_LINES = 20;
export const MAX_EPISODES = 2000;
export const MAX_EPISODE_NAME = 64;
export const MAX_EPISODE_URL = 1024;
/** A source line's code (MacCMS's player code: `m3u8`, `youku`, `dplayer`…). */
export const MAX_LINE_CODE = 32;
/**
 * A video source's code, as our sources are the lines' codes: what the notation can carry (no spaces, `$` or `#`, at
 * most MAX_LINE_CODE), so a source made by collection or the MacCMS move from a code like `qq.com` can be saved back
 * through its own form.
 */
export const SOURCE_CODE_PATTERN = /^[^\s$#]{1,32}$/;

export const LINE_SEPARATOR = '$$$';
export const EPISODE_SEPARATOR = '#';
export const NAME_SEPARATOR = '$';

export interface Episode {
  /** '' for a nameless episode (the main feature). */
  name: string;
  url: string;
}

export interface PlayLine {
  /** The line's source code as the remote names it (`vod_play_from`), '' when the remote named none. */
  code: string;
  episodes: Episode[];
}

/** Why a piece was not taken: a stable key the UI and reports translate (`episodes.problem.<reason>`). */
export type EpisodeProblemReason =
  | 'noUrl'
  | 'badUrl'
  | 'urlTooLong'
  | 'nameTooLong'
  | 'tooManyEpisodes'
  | 'tooManyLines'
  | 'lineWithoutCode'
  | 'codeWithoutLine'
  | 'badCode';

export interface EpisodeProblem {
  /** 0-based line index in the input. */
  line: number;
  /** 0-based piece index within the line, or -1 for a problem of the whole line. */
  piece: number;
  /** The offending text, cut to 80 characters for a report. */
  text: string;
  reason: EpisodeProblemReason;
}

export interface ParsedEpisodes<T> {
  value: T;
  problems: EpisodeProblem[];
}

const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);

/**
 * An episode URL as we store it: an absolute http(s) URL, or a path on the line's source (no scheme, no spaces).
 * Anything else (`javascript:`, `data:`, text with spaces) is refused: a remote site's answer is not trusted.
 */
export function episodeUrlOk(url: string): boolean {
  if (/^https?:\/\/[^\s/?#]+[^\s]*$/i.test(url)) return true;
  return !/^[a-z][a-z0-9+.-]*:/i.test(url) && !/\s/.test(url) && url.length > 0;
}

/**
 * One line's episodes: `name$url#name$url` (line breaks also separate episodes). `line` numbers the problems.
 * Bad pieces are reported and left out; the good ones keep their order.
 */
export function parseEpisodeList(text: string, line = 0): ParsedEpisodes<Episode[]> {
  const episodes: Episode[] = [];
  const problems: EpisodeProblem[] = [];
  const pieces = text.split(/#|\r?\n|\r/);
  let piece = -1;
  for (const raw of pieces) {
    piece += 1;
    const item = raw.trim();
    if (!item) continue;
    const cut = item.lastIndexOf(NAME_SEPARATOR);
    const name = (cut >= 0 ? item.slice(0, cut) : '').trim();
    const url = (cut >= 0 ? item.slice(cut + 1) : item).trim();
    const problem = (reason: EpisodeProblemReason) =>
      problems.push({ line, piece, text: clip(item), reason });
    if (!url) problem('noUrl');
    else if (url.length > MAX_EPISODE_URL) problem('urlTooLong');
    else if (!episodeUrlOk(url)) problem('badUrl');
    else if ([...name].length > MAX_EPISODE_NAME) problem('nameTooLong');
    else if (episodes.length >= MAX_EPISODES) {
      problem('tooManyEpisodes');
      break;
    } else episodes.push({ name, url });
  }
  return { value: episodes, problems };
}

/**
 * `vod_play_from` + `vod_play_url` → lines. A line without episodes is dropped (reported only when it had pieces
 * that failed), a URL line without a code keeps code '' and is reported, a code without a URL line is reported.
 */
export function parsePlayLines(from: string, url: string): ParsedEpisodes<PlayLine[]> {
  const codes = from.trim() ? from.split(LINE_SEPARATOR).map((c) => c.trim()) : [];
  const bodies = url.trim() ? url.split(LINE_SEPARATOR) : [];
  const lines: PlayLine[] = [];
  const problems: EpisodeProblem[] = [];
  const count = Math.max(codes.length, bodies.length);
  for (let i = 0; i < count; i++) {
    const code = codes[i] ?? '';
    const body = bodies[i];
    if (body === undefined) {
      if (code) problems.push({ line: i, piece: -1, text: clip(code), reason: 'codeWithoutLine' });
      continue;
    }
    if (lines.length >= MAX_LINES) {
      problems.push({ line: i, piece: -1, text: clip(code || body), reason: 'tooManyLines' });
      break;
    }
    if (code.length > MAX_LINE_CODE || /[\s$#]/.test(code)) {
      problems.push({ line: i, piece: -1, text: clip(code), reason: 'badCode' });
      continue;
    }
    const parsed = parseEpisodeList(body, i);
    problems.push(...parsed.problems);
    if (!parsed.value.length) continue;
    if (!code) problems.push({ line: i, piece: -1, text: clip(body), reason: 'lineWithoutCode' });
    lines.push({ code, episodes: parsed.value });
  }
  return { value: lines, problems };
}

/**
 * One line's episodes in MacCMS's notation. Separators inside a name would break the reading, so they go; inside a
 * URL they are percent-encoded (`#` → `%23`, `$` → `%24`, white space), which a player reads as the same address.
 */
export function formatEpisodeList(episodes: readonly Episode[]): string {
  return episodes
    .map((e) => {
      const name = e.name.replace(/[$#\r\n]+/g, ' ').trim();
      const url = e.url.replace(/[$#\s]/g, (ch) => encodeURIComponent(ch));
      return name ? `${name}${NAME_SEPARATOR}${url}` : url;
    })
    .join(EPISODE_SEPARATOR);
}

/** Lines → `{from, url}`: what `vod_play_from` and `vod_play_url` carry. */
export function formatPlayLines(lines: readonly PlayLine[]): { from: string; url: string } {
  return {
    from: lines.map((l) => l.code).join(LINE_SEPARATOR),
    url: lines.map((l) => formatEpisodeList(l.episodes)).join(LINE_SEPARATOR),
  };
}

/** The MacCMS move's pure parts: its command line, the maccms.php reader, text decoding, the report's text. */
import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { MAX_MOVIE_DESCRIPTION } from '../../common/movie';
import { parseArgs, shownUrl } from '../../server/node/maccms/cli';
import {
  actorKind,
  artKind,
  commentKind,
  gbookKind,
  typeKind,
  userKind,
  vodKind,
} from '../../server/node/maccms/kinds';
import { PhpConfigError, parsePhpConfig, siteSettingsOf } from '../../server/node/maccms/php-config';
import { emptyTable, reportMarkdown } from '../../server/node/maccms/report';
import { decodeText, ipv4, splitList, unixTime } from '../../server/node/maccms/text';
import { prepareCtx } from '../fixtures/maccms/ctx';

describe('command line', () => {
  it('reads the URL and options, and refuses bad ones by name', () => {
    expect(
      parseArgs([
        'mysql://u:p@h:3306/m',
        '--prefix',
        'cms_',
        '--tenant=3',
        '--only',
        'vod,user',
        '--dry-run',
      ]),
    ).toEqual({
      url: 'mysql://u:p@h:3306/m',
      prefix: 'cms_',
      tenant: 3,
      only: ['vod', 'user'],
      dryRun: true,
    });
    expect(() => parseArgs([])).toThrow('the MacCMS database URL is missing');
    expect(() => parseArgs(['postgres://x/y'])).toThrow('must be a mysql:// URL');
    expect(() => parseArgs(['mysql://h/m', '--only', 'vod,movies'])).toThrow('not movies');
    expect(() => parseArgs(['mysql://h/m', '--tenant', '0'])).toThrow('--tenant must be a whole number');
    expect(() => parseArgs(['mysql://h/m', '--prefix', 'mac_`; drop'])).toThrow('--prefix takes letters');
    expect(() => parseArgs(['mysql://h/m', '--bogus'])).toThrow('unknown argument --bogus');
    expect(() => parseArgs(['mysql://h/m', '--config'])).toThrow('--config needs a value');
  });

  it('never shows the password', () => {
    expect(shownUrl('mysql://root:s3cret@db:3306/maccms')).toBe('mysql://root:***@db:3306/maccms');
  });
});

describe('maccms.php', () => {
  const file = `<?php
// settings
return array (
  'db' => array ( 'type' => 'mysql', 'port' => '3306', 'part_size' => 20971520, ),
  'site' =>
  array (
    'site_name' => '我的影院',
    'site_keywords' => '电影,电视剧',
    'site_description' => "It's \\"quoted\\"\\n",
    'site_tj' => '<script src=\\'https://stat.example/s.js\\'></script>',
    'install_dir' => '/',
    'flags' => [true, false, null, 1.5],
  ),
);`;

  it('reads the array literal and picks the settings that have a home', () => {
    const c = parsePhpConfig(file);
    expect(c.db).toEqual({ type: 'mysql', port: '3306', part_size: 20971520 });
    expect((c.site as any).flags).toEqual({ 0: true, 1: false, 2: null, 3: 1.5 });
    expect(siteSettingsOf(c)).toEqual({
      siteName: '我的影院',
      siteKeywords: '电影,电视剧',
      siteDescription: 'It\'s "quoted"\n',
      statisticsCode: "<script src='https://stat.example/s.js'></script>",
    });
  });

  it('refuses what PHP would have to run, and bounds its work', () => {
    expect(() => parsePhpConfig("<?php return array('a' => system('id'));")).toThrow(PhpConfigError);
    expect(() => parsePhpConfig("<?php return array('a' => $x);")).toThrow(
      'a value PHP would have to run at line 1',
    );
    expect(() => parsePhpConfig("<?php return array('a' => 'open")).toThrow('an unclosed string');
    expect(() => parsePhpConfig(`<?php return ${'array('.repeat(40)}${')'.repeat(40)};`)).toThrow(
      'nested too deep',
    );
    expect(() => parsePhpConfig(`<?php return '${'x'.repeat(3 * 1024 * 1024)}';`)).toThrow('larger than');
  });
});

describe('text as MacCMS stored it', () => {
  it('takes UTF-8 as it is and decodes mojibake, GBK and broken bytes, saying which', () => {
    expect(decodeText(Buffer.from('长安 Café', 'utf8'))).toEqual({ text: '长安 Café', fixes: [] });
    expect(decodeText(Buffer.from(Buffer.from('庆余年', 'utf8').toString('latin1'), 'utf8'))).toEqual({
      text: '庆余年',
      fixes: ['utf8Mojibake'],
    });
    expect(decodeText(Buffer.from(iconv.encode('甄嬛传', 'gbk').toString('latin1'), 'utf8'))).toEqual({
      text: '甄嬛传',
      fixes: ['gbkMojibake'],
    });
    expect(decodeText(iconv.encode('网站很好', 'gbk'))).toEqual({ text: '网站很好', fixes: ['gbk'] });
    expect(decodeText(Buffer.from([0x41, 0xff, 0x42]))).toEqual({ text: 'A\ufffdB', fixes: ['badUtf8'] });
    expect(decodeText(Buffer.from('a\u0000b\u0007c\n', 'utf8'))).toEqual({
      text: 'abc\n',
      fixes: ['controls'],
    });
    expect(decodeText(Buffer.from('x\u0000', 'utf8')).fixes).toEqual(['controls']); // twice in a row: no stale state
    // Bytes that are not UTF-8 are read as GBK when they are GBK (a Chinese CMS); Latin-1 that is not GBK is said.
    expect(decodeText(Buffer.from('Café', 'latin1'))).toEqual({ text: 'Caf\ufffd', fixes: ['badUtf8'] });
  });

  it('reads zero dates, addresses and lists', () => {
    expect(unixTime(0)).toBeNull();
    expect(unixTime('0000-00-00')).toBeNull();
    expect(unixTime(1600000000)?.toISOString()).toBe('2020-09-13T12:26:40.000Z');
    expect(ipv4(16909060)).toBe('1.2.3.4');
    expect(ipv4(0)).toBe('');
    expect(splitList('甲,乙/乙，丙、 ,丁')).toEqual(['甲', '乙', '丙', '丁']);
  });
});

describe('report', () => {
  it('groups each table’s lines by reason', () => {
    const t = emptyTable('mac_vod', 2);
    t.lines.push(
      { id: 5, outcome: 'skipped', reason: 'emptyName' },
      { id: 0, outcome: 'note', reason: 'x', detail: 'y' },
    );
    const md = reportMarkdown({
      source: 'mysql://h/m',
      tenant: 2,
      dryRun: true,
      startedAt: 'a',
      finishedAt: 'b',
      tables: [t],
      settings: {},
    });
    expect(md).toContain('# MacCMS move (dry run: nothing written)');
    expect(md).toContain('| mac_vod | 2 | 0 | 0 | 0 | 0 | 0 | 0 | 0.0 |');
    expect(md).toContain('- skipped: empty name or title (1)\n  - #5');
    expect(md).toContain('- note: x (1)\n  - table: y');
  });
});

describe('a movie description', () => {
  const ctx = prepareCtx();
  it('moves whole up to what the movie form saves; a longer one is cut to it, sanitized, and reported', () => {
    const kind = vodKind();
    const row = (content: string) => ({ vod_id: 1, vod_name: '片', vod_content: content, vod_play_url: '' });
    const fits = `<p>${'长'.repeat(MAX_MOVIE_DESCRIPTION - 7)}</p>`;
    const whole = kind.prepare(row(fits), ctx);
    expect(whole.value?.description).toBe(fits);
    expect(whole.lines.filter((l) => l.outcome === 'cut')).toEqual([]);
    // `&` becomes `&amp;` in the sanitizer: a MEDIUMTEXT far under MacCMS's bound can outgrow ours.
    const cut = kind.prepare(row(`<p>${'&'.repeat(MAX_MOVIE_DESCRIPTION)}</p>`), ctx);
    expect(cut.value?.description.length).toBeLessThanOrEqual(MAX_MOVIE_DESCRIPTION);
    expect(cut.value?.description.startsWith('<p>&amp;&amp;')).toBe(true);
    expect(cut.lines).toContainEqual({
      id: 1,
      outcome: 'cut',
      reason: 'tooLong',
      detail: `vod_content to ${MAX_MOVIE_DESCRIPTION} characters`,
    });
  });
});

describe('columns read from MariaDB', () => {
  it('every MacCMS column kinds.ts reads is among the columns a kind asks for', () => {
    // Whatever branch reads it: a row field (`row.vod_hits`, `r.user_pid`) or a field named to a reader (`textOf(row,
    // 'vod_name'`, `memberOf(row, 'comment_name'`). A column left out would read as absent, silently.
    const text = readFileSync('server/node/maccms/kinds.ts', 'utf8');
    const read = new Set(
      [...text.matchAll(/\b(?:row|r)\.([a-z]+_[a-z_]+)|\(row, '([a-z]+_[a-z_]+)'/g)].map((m) => m[1] ?? m[2]),
    );
    expect(read.size).toBeGreaterThan(80);
    const kinds = [typeKind(), actorKind(), vodKind(), artKind(), userKind(), commentKind(), gbookKind()];
    const asked = new Set(kinds.flatMap((k) => [k.pk, ...k.columns]));
    expect([...read].filter((c) => !asked.has(c))).toEqual([]);
    for (const k of kinds) expect(k.columns).toContain(k.pk);
  });
});

// A TXT novel import on the embedded database (issue #4): a generated 10 MB novel (UTF-8, then the same text in
// GB18030) goes through the API in-process (app.request with a multipart body, no HTTP): the dry run, then the import
// that appends every chapter in one transaction. PGlite on a data directory, as `npm start` runs it.
// Target: the import of a 10 MB file in under 10 s.
//
//   npm run bench -- novel-import
//   BENCH_IMPORT_MB=10 (size of the generated file)  BENCH_RUNS=3 (imports per encoding, each into a new novel)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverModules } from './_server.mjs';
import { loadLine, percentile } from './_timing.mjs';

const MB = Number(process.env.BENCH_IMPORT_MB ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ADMIN_PASSWORD = 'bench-admin-1';

const { load, close: closeModules } = await serverModules();
const { createApp } = await load('/server/app.ts');
const { loadConfig } = await load('/server/config.ts');
const { systemClock } = await load('/server/core/clock.ts');
const { silentLogger } = await load('/server/core/logger.ts');
const { memoryImageStorage } = await load('/server/core/image-storage.ts');
const { migrate } = await load('/server/db/migrate.ts');
const { openPglite } = await load('/server/db/pglite.ts');
const { ensureFirstAdmin } = await load('/server/modules/operators/index.ts');

/** A seeded PRNG (mulberry32), so every run imports the same novel. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NUMERALS = '零一二三四五六七八九';
/** 1234 → 一千二百三十四 (headings as Chinese novels write them). */
function chineseNumber(n) {
  if (n < 10) return NUMERALS[n];
  const units = ['', '十', '百', '千'];
  const digits = String(n).split('').map(Number);
  let out = '';
  digits.forEach((d, i) => {
    const unit = units[digits.length - 1 - i];
    if (d) out += (d === 1 && unit === '十' && i === 0 ? '' : NUMERALS[d]) + unit;
    else if (!out.endsWith('零') && i < digits.length - 1) out += '零';
  });
  return out.replace(/零+$/, '');
}

const PEOPLE = ['少年', '老者', '掌柜', '书生', '剑客', '姑娘', '师父', '船夫', '将军', '店小二'];
const PLACES = ['山门', '长街', '渡口', '古寺', '城楼', '竹林', '雪原', '江畔', '书院', '集市'];
const ACTS = [
  '推开了那扇旧木门',
  '望着远处的灯火出神',
  '把信折好藏进袖中',
  '听见风里传来钟声',
  '握紧了手中的剑',
];

/** A novel of about `mb` megabytes of UTF-8: a title page, then chapters of 2,000–4,000 characters. */
function generateNovel(mb) {
  const r = rng(42);
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const parts = ['《长夜行》\n作者：佚名\n\n内容简介：一部为基准测试生成的小说。\n'];
  let bytes = Buffer.byteLength(parts[0]);
  for (let i = 1; bytes < mb * 1024 * 1024; i++) {
    const paragraphs = [];
    const target = 2000 + Math.floor(r() * 2000);
    for (let chars = 0; chars < target; ) {
      const p = `　　${Array.from({ length: 3 + Math.floor(r() * 4) }, () => `${pick(PEOPLE)}在${pick(PLACES)}${pick(ACTS)}`).join('，')}。`;
      paragraphs.push(p);
      chars += p.length;
    }
    const chapter = `\n第${chineseNumber(i)}章 ${pick(PLACES)}${pick(['夜话', '风起', '重逢', '惊变'])}\n\n${paragraphs.join('\n\n')}\n`;
    parts.push(chapter);
    bytes += Buffer.byteLength(chapter);
  }
  return parts.join('');
}

/** GB18030 bytes of a text (Node encodes UTF-8 only): the two-byte table read back through TextDecoder. */
function gb18030(text) {
  const bytes = [];
  for (let lead = 0x81; lead <= 0xfe; lead++)
    for (let trail = 0x40; trail <= 0xfe; trail++) if (trail !== 0x7f) bytes.push(lead, trail);
  const chars = [...new TextDecoder('gb18030').decode(new Uint8Array(bytes))];
  const table = new Map();
  chars.forEach((ch, i) => {
    if (!table.has(ch)) table.set(ch, [bytes[2 * i], bytes[2 * i + 1]]);
  });
  const out = [];
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (code < 0x80) out.push(code);
    else out.push(...table.get(ch));
  }
  return new Uint8Array(out);
}

const dir = mkdtempSync(join(tmpdir(), 'zhanggui-bench-import-'));
try {
  const database = await openPglite(dir);
  const config = loadConfig({ ADMIN_PASSWORD, PASSWORD_ITERATIONS: '1000', LOG_LEVEL: 'silent' });
  await migrate(database.db);
  await ensureFirstAdmin(database.db, config);
  const app = createApp({
    db: database.db,
    config,
    clock: systemClock,
    logger: silentLogger,
    clientAddress: () => 'bench',
    images: memoryImageStorage(),
  });
  const call = async (path, init = {}) => {
    const res = await app.request(path, init);
    const body = await res.json();
    if (body.code !== 20000) throw new Error(`${path}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };
  const { token } = await call('/app/admin/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }),
  });
  const headers = { 'Admin-Token': token };
  const form = (bytes) => {
    const f = new FormData();
    f.append('file', new Blob([bytes], { type: 'text/plain' }), 'novel.txt');
    return f;
  };

  const t0 = performance.now();
  const text = generateNovel(MB);
  const files = { 'utf-8': new TextEncoder().encode(text), gb18030: gb18030(text) };
  console.log(
    `generated in ${Math.round(performance.now() - t0)} ms: ${[...text].length.toLocaleString('en')} characters; ` +
      `UTF-8 ${(files['utf-8'].length / 1048576).toFixed(1)} MB, GB18030 ${(files.gb18030.length / 1048576).toFixed(1)} MB`,
  );
  console.log(`${loadLine()}, PGlite on ${dir}\n`);

  const results = [];
  for (const [encoding, bytes] of Object.entries(files)) {
    for (let run = 1; run <= RUNS; run++) {
      const novel = await call('/app/admin/novel/novels', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `基准 ${encoding} ${run}` }),
      });
      const p0 = performance.now();
      const preview = await call(`/app/admin/novel/novels/${novel.id}/import/preview`, {
        method: 'POST',
        headers,
        body: form(bytes),
      });
      const previewMs = performance.now() - p0;
      const i0 = performance.now();
      const done = await call(`/app/admin/novel/novels/${novel.id}/import`, {
        method: 'POST',
        headers,
        body: form(bytes),
      });
      const importMs = performance.now() - i0;
      if (preview.encoding !== encoding || done.chapterCount !== preview.chapters.length)
        throw new Error(`unexpected answer: ${JSON.stringify({ preview: preview.encoding, done })}`);
      results.push({
        encoding,
        run,
        previewMs,
        importMs,
        chapters: done.chapterCount,
        words: done.wordCount,
      });
      console.log(
        `${encoding.padEnd(8)} run ${run}: dry run ${Math.round(previewMs).toLocaleString('en').padStart(6)} ms, ` +
          `import ${Math.round(importMs).toLocaleString('en').padStart(6)} ms ` +
          `(${done.chapterCount.toLocaleString('en')} chapters, ${done.wordCount.toLocaleString('en')} words)`,
      );
    }
  }
  const worst = Math.max(...results.map((r) => r.importMs));
  const median = (xs) => percentile(xs, 50);
  console.log(
    `\nimport of a ${MB} MB file on PGlite: median ${(median(results.map((r) => r.importMs)) / 1000).toFixed(2)} s, ` +
      `worst ${(worst / 1000).toFixed(2)} s (target < 10 s) ${worst < 10_000 ? 'OK' : 'MISSED'}`,
  );
  await database.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
  await closeModules();
}

// The MacCMS move at size (issue #51): a private MariaDB (tests/fixtures/maccms/mariadb.ts) holding BENCH_MACCMS_ROWS
// mac_vod rows of 20 episodes each (two source lines), moved by the built command (dist/server/maccms.js, as
// `npm run migrate:maccms` runs it) into a new embedded database, then moved again (nothing changed: every row read
// and found unchanged). Prints and writes bench/results/maccms.json: rows/s of mac_vod for each run and the command's
// peak resident memory (VmHWM, read from /proc while it runs) and CPU seconds (a figure the machine's other load moves
// less than the rows/s). Then the same into PostgreSQL when BENCH_DATABASE_URL names a server (a database made for the
// run and dropped after), with the CPU seconds of the server processes serving it. Target: at least 2,000 rows/s
// on the first run, memory bounded.
//
//   npm run bench -- maccms
//   BENCH_MACCMS_ROWS=100000
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
//   BENCH_MACCMS_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"   Node options for the command (to profile it)
//   BENCH_MACCMS_CHECKOUT=/path/to/other/checkout   run that checkout's built command (before/after figures)
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureBuilt, serverModules } from './_server.mjs';

const ROWS = Number(process.env.BENCH_MACCMS_ROWS ?? 100_000);
const EPISODES = 20;
const TARGET = 2000;

ensureBuilt();
const { load, close: closeModules } = await serverModules();
const { startMariadb, mariadbInstalled } = await load('/tests/fixtures/maccms/mariadb.ts');
if (!mariadbInstalled) {
  console.log('maccms bench: skipped, mariadbd is not installed');
  process.exit(0);
}
const maria = await startMariadb();
const dir = mkdtempSync(join(tmpdir(), 'zg-maccms-bench-'));
try {
  const c = maria.conn;
  await c.query(
    "INSERT INTO mac_type (type_id, type_name, type_mid, type_extend) VALUES (1, '电影', 1, ''), (2, '剧集', 1, '')",
  );
  const t0 = performance.now();
  const PER = 1000;
  for (let from = 1; from <= ROWS; from += PER) {
    const values = [];
    for (let id = from; id < Math.min(from + PER, ROWS + 1); id++) {
      const eps = (host) =>
        Array.from(
          { length: EPISODES / 2 },
          (_, e) => `第${e + 1}集$https://${host}.example/v/${id}/${e + 1}.m3u8`,
        ).join('#');
      values.push([
        id,
        1 + (id % 2),
        `剧集 ${id} 号`,
        1,
        '古装,悬疑',
        `演员${id % 5000},演员${(id * 7) % 5000}`,
        `https://img.example/${id}.jpg`,
        id % 10_000,
        `<p>第 ${id} 部的简介</p>`,
        'm3u8$$$mp4',
        `${eps('a')}$$$${eps('b')}`,
        1_600_000_000 + id,
        '',
        '',
        '',
      ]);
    }
    await c.query(
      `INSERT INTO mac_vod (vod_id, type_id, vod_name, vod_status, vod_tag, vod_actor, vod_pic, vod_hits, vod_content,
        vod_play_from, vod_play_url, vod_time_add, vod_down_url, vod_plot_name, vod_plot_detail) VALUES ?`,
      [values],
    );
  }
  const loadS = (performance.now() - t0) / 1000;
  console.log(`MariaDB: ${ROWS.toLocaleString('en-US')} mac_vod rows loaded in ${loadS.toFixed(1)} s`);

  const move = async (label, database, databaseUrl) => {
    const report = join(dir, `report-${database}-${label}`);
    const child = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_MACCMS_ARGS?.split(' ').filter(Boolean) ?? []),
        join(process.env.BENCH_MACCMS_CHECKOUT ?? '.', 'dist/server/maccms.js'),
        maria.url,
        '--only',
        'type,vod',
        '--report',
        report,
      ],
      {
        env: { ...process.env, DATA_DIR: join(dir, `data-${database}`), DATABASE_URL: databaseUrl },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    let peakKb = 0;
    let cpuTicks = 0;
    // PostgreSQL's side: the CPU of the server processes serving this database (the command's connections).
    const serverTicks = new Map();
    const watcher = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null;
    await watcher?.connect();
    const ticksOf = (pid) => {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return Number(f[11]) + Number(f[12]);
    };
    const serverPoll = watcher
      ? setInterval(async () => {
          try {
            const { rows } = await watcher.query(
              'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
            );
            for (const { pid } of rows)
              serverTicks.set(pid, Math.max(serverTicks.get(pid) ?? 0, ticksOf(pid)));
          } catch {}
        }, 200)
      : null;
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
        // utime and stime: fields 14 and 15 of /proc/PID/stat (after the command's parenthesised name).
        const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        cpuTicks = Number(f[11]) + Number(f[12]);
      } catch {}
    }, 100);
    const code = await new Promise((r) => child.once('exit', r));
    clearInterval(poll);
    if (serverPoll) clearInterval(serverPoll);
    await watcher?.end();
    if (code !== 0) throw new Error(`maccms exited with ${code}: ${err.slice(-2000)}`);
    const r = JSON.parse(readFileSync(`${report}.json`, 'utf8'));
    const vod = r.tables.find((t) => t.table === 'mac_vod');
    const commandCpuSeconds = cpuTicks / 100;
    const serverCpuSeconds = watcher ? [...serverTicks.values()].reduce((a, b) => a + b, 0) / 100 : 0;
    return {
      database,
      run: label,
      rows: vod.read,
      created: vod.created,
      unchanged: vod.unchanged,
      seconds: Number(vod.seconds.toFixed(1)),
      rowsPerSecond: Math.round(vod.read / vod.seconds),
      peakRssMb: Math.round(peakKb / 1024),
      // Clock ticks are 100 a second on Linux.
      commandCpuSeconds: Number(commandCpuSeconds.toFixed(1)),
      // Read every 200 ms while the command runs (a connection's last moments may be missed): at least this much.
      serverCpuSeconds: watcher ? Number(serverCpuSeconds.toFixed(1)) : null,
      // The figure the machine's other load moves least: CPU seconds (the command's and PostgreSQL's) per 1,000 rows,
      // the command's start (and, on a first embedded run, the creation of its database) included.
      cpuSecondsPer1000Rows: Number((((commandCpuSeconds + serverCpuSeconds) * 1000) / vod.read).toFixed(3)),
      loadavg: loadavg().map((x) => Number(x.toFixed(2))),
    };
  };
  const runs = [await move('first', 'pglite', ''), await move('again', 'pglite', '')];
  const admin = process.env.BENCH_DATABASE_URL;
  if (admin) {
    const name = `zg_bench_maccms_${process.pid}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`create database ${name}`);
    try {
      const u = new URL(admin);
      u.pathname = `/${name}`;
      runs.push(
        await move('first', 'postgresql', u.toString()),
        await move('again', 'postgresql', u.toString()),
      );
    } finally {
      await client.query(`drop database if exists ${name}`);
      await client.end();
    }
  }
  const result = {
    when: new Date().toISOString(),
    rows: ROWS,
    episodesPerRow: EPISODES,
    cpus: cpus().length,
    loadavg: loadavg().map((x) => Number(x.toFixed(2))),
    runs,
    targetRowsPerSecond: TARGET,
  };
  console.log(
    '| database | run | rows | created | unchanged | seconds | rows/s | peak RSS MB | command CPU s | PostgreSQL CPU s | CPU s / 1,000 rows | load |',
  );
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const x of result.runs)
    console.log(
      `| ${x.database} | ${x.run} | ${x.rows} | ${x.created} | ${x.unchanged} | ${x.seconds} | ${x.rowsPerSecond} | ${x.peakRssMb} | ${x.commandCpuSeconds} | ${x.serverCpuSeconds ?? '–'} | ${x.cpuSecondsPer1000Rows} | ${x.loadavg[0]} |`,
    );
  for (const x of result.runs.filter((r) => r.run === 'first'))
    console.log(
      `${x.database}: target ≥ ${TARGET} rows/s ${x.rowsPerSecond >= TARGET ? 'met' : 'NOT met'} (load average ${x.loadavg.join(', ')} on ${result.cpus} CPUs)`,
    );
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/maccms.json', `${JSON.stringify(result, null, 2)}\n`);
} catch (e) {
  console.error(`maccms bench: ${String(e.message).slice(0, 500)}`);
  process.exitCode = 1;
} finally {
  await maria.close();
  rmSync(dir, { recursive: true, force: true });
  await closeModules();
}

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { rowsOf } from '../../server/db/migrate';
import { nameContains } from '../../server/modules/actresses/model';
import { startApi, type TestApi, USER_PASSWORD } from './harness';
import { okData } from './movies-helpers';

/** Issue #4, actresses: profile rules, search over names and aliases, filters, sorts, batches, optimistic locking. */
let api: TestApi;
let admin: string;
let user: string;
const ids: Record<string, number> = {};
const idOf = (name: string) => ids[name];

const A = '/app/admin/actresses';
const list = async (query: string) => okData(api.call('GET', `${A}?${query}`, { token: user }), query);
const names = async (query: string) => ((await list(query)).list as { name: string }[]).map((a) => a.name);
const sorted = (a: string[]) => [...a].sort();
const create = (body: Record<string, unknown>, token = user) =>
  okData(api.call('POST', A, { token, body }), `create ${JSON.stringify(body)}`);

/** name, aliases, region, debut year, visible, tags, sort weight */
const PEOPLE: [string, string[], string | null, number | null, boolean, string[], number][] = [
  ['林若溪', ['Lin Ruoxi', '小溪'], 'cn', 2015, true, ['清纯', '人气'], 5],
  ['苏若兰', ['Su Ruolan'], 'tw', 2018, true, ['气质'], 0],
  ['佐藤美月', ['Mizuki Sato', 'MIZUKI'], 'jp', 2020, true, ['人气'], 50],
  ['沈静怡', [], 'hk', 2012, false, [], 0],
  ['Anna Lee', ['安娜'], 'us', null, true, ['新人'], 10],
  ['100%_若', ['per_cent'], null, 2022, true, [], 0],
];

beforeAll(async () => {
  api = await startApi();
  admin = await api.login();
  await api.createOperator(admin, { account: 'casting' });
  user = await api.login('casting', USER_PASSWORD);
  for (const [name, aliases, region, debutYear, visible, tags, sortWeight] of PEOPLE) {
    api.clock.advance(86_400_000); // one a day: the later, the newer
    ids[name] = (await create({ name, aliases, region, debutYear, visible, tags, sortWeight })).id;
  }
});
afterAll(() => api.close());

describe('profile', () => {
  test('create stores every field, trims and de-duplicates aliases and tags, drops an alias equal to the name', async () => {
    const a = await create({
      name: '  叶晓月 ',
      aliases: ['Ye Xiaoyue', ' Ye Xiaoyue', '叶晓月', 'Luna'],
      avatar: '/upload/2026/05/0123456789abcdef0123456789abcdef.jpg',
      birthday: '1999-02-28',
      height: 165,
      region: 'cn',
      debutYear: 2019,
      biography: '简介',
      tags: ['甜美', '甜美 ', '知性'],
      visible: false,
      sortWeight: 7,
    });
    expect(a).toMatchObject({
      name: '叶晓月',
      aliases: ['Ye Xiaoyue', 'Luna'],
      avatar: '/upload/2026/05/0123456789abcdef0123456789abcdef.jpg',
      birthday: '1999-02-28',
      height: 165,
      region: 'cn',
      debutYear: 2019,
      biography: '简介',
      tags: ['甜美', '知性'],
      visible: false,
      sortWeight: 7,
      movieCount: 0,
      version: 1,
    });
    expect(a).not.toHaveProperty('searchGrams');
    expect(await okData(api.call('GET', `${A}/${a.id}`, { token: user }))).toEqual(a);
    const bare = await create({ name: 'X' });
    expect(bare).toMatchObject({
      aliases: [],
      avatar: '',
      birthday: null,
      height: null,
      region: null,
      debutYear: null,
      tags: [],
      visible: true,
      sortWeight: 0,
    });
    await okData(
      api.call('POST', `${A}/batch`, { token: admin, body: { action: 'delete', ids: [a.id, bare.id] } }),
    );
  });

  test('bad fields are 40000 naming the field, in the request language', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '   ' }, 'name'],
      [{ name: 'x'.repeat(65) }, 'name'],
      [{ aliases: [''] }, 'aliases.0'],
      [{ aliases: Array.from({ length: 21 }, (_, i) => `a${i}`) }, 'aliases'],
      [{ tags: ['x'.repeat(33)] }, 'tags.0'],
      [{ height: 99 }, 'height'],
      [{ height: 170.5 }, 'height'],
      [{ region: 'mars' }, 'region'],
      [{ debutYear: 1899 }, 'debutYear'],
      [{ birthday: '2001-02-29' }, 'birthday'],
      [{ birthday: '2027-01-01' }, 'birthday'],
      [{ sortWeight: 1e9 }, 'sortWeight'],
      [{ visible: 'yes' }, 'visible'],
    ];
    for (const [patch, field] of cases) {
      const r = await api.call('POST', A, { token: user, body: { name: 'ok', ...patch } });
      expect(r.body.code, JSON.stringify(patch)).toBe(40000);
      expect(Object.keys(r.body.data.fields), JSON.stringify(patch)).toEqual([field]);
    }
    const future = await api.call('POST', A, {
      token: user,
      body: { name: 'ok', birthday: '2026-06-30' },
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(future.body.msg).toBe('Birthday: The birthday cannot be after today');
    const [{ n }] = await api.query<{ n: number }>(
      sql`select count(*)::int as n from actresses where name = 'ok'`,
    );
    expect(n).toBe(0);
  });

  test('update: a stale version is 40900 and writes nothing; the right one bumps it; a missing id is 40400', async () => {
    const id = idOf('苏若兰');
    const before = await okData(api.call('GET', `${A}/${id}`, { token: user }));
    const saved = await okData(
      api.call('PUT', `${A}/${id}`, {
        token: user,
        body: { version: before.version, height: 168, aliases: ['Su Ruolan', '苏若兰', 'Lan'] },
      }),
    );
    expect(saved).toMatchObject({ height: 168, aliases: ['Su Ruolan', 'Lan'], version: before.version + 1 });
    const stale = await api.call('PUT', `${A}/${id}`, {
      token: user,
      body: { version: before.version, height: 150 },
    });
    expect(stale.body.code).toBe(40900);
    expect((await okData(api.call('GET', `${A}/${id}`, { token: user }))).height).toBe(168);
    const missing = await api.call('PUT', `${A}/999999`, { token: user, body: { version: 1, height: 150 } });
    expect(missing.body.code).toBe(40400);
    expect((await api.call('GET', `${A}/999999`, { token: user })).body.code).toBe(40400);
    await okData(
      api.call('PUT', `${A}/${id}`, {
        token: user,
        body: { version: saved.version, aliases: ['Su Ruolan'] },
      }),
    );
  });
});

describe('search', () => {
  test('Chinese: two characters and one, in the name or in an alias', async () => {
    expect(sorted(await names(`q=${encodeURIComponent('若溪')}`))).toEqual(['林若溪']);
    expect(sorted(await names(`q=${encodeURIComponent('若')}`))).toEqual(
      sorted(['林若溪', '苏若兰', '100%_若']),
    );
    expect(await names(`q=${encodeURIComponent('小溪')}`)).toEqual(['林若溪']);
    expect(await names(`q=${encodeURIComponent('安娜')}`)).toEqual(['Anna Lee']);
    expect(await names(`q=${encodeURIComponent('美月')}`)).toEqual(['佐藤美月']);
    expect(await names(`q=${encodeURIComponent('溪苏')}`)).toEqual([]);
  });

  test('Latin: any case, in the name or in an alias; never across two names; wildcards are literal', async () => {
    expect(await names('q=mizuki')).toEqual(['佐藤美月']);
    expect(await names('q=RUOXI')).toEqual(['林若溪']);
    expect(await names('q=anna%20l')).toEqual(['Anna Lee']);
    expect(sorted(await names('q=lee'))).toEqual(['Anna Lee']);
    // "Ruoxi" + "小溪" must not make "xi小" match: grams never span two names.
    expect(await names(`q=${encodeURIComponent('xi小')}`)).toEqual([]);
    expect(await names(`q=${encodeURIComponent('%_')}`)).toEqual(['100%_若']);
    expect(await names('q=_')).toEqual(['100%_若']);
    expect(await names('q=r_c')).toEqual(['100%_若']); // the alias per_cent, literally
    expect((await list('q=%20%20')).total).toBe(PEOPLE.length); // blank is no filter
  });

  test('the search is served by the GIN index over the name grams (no sequential scan needed)', async () => {
    const plan = await api.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const r = await tx.execute(sql`explain select id from actresses where ${nameContains('若溪')}`);
      return rowsOf<Record<string, string>>(r)
        .map((row) => Object.values(row)[0])
        .join('\n');
    });
    expect(plan).toContain('actresses_search_grams');
    const grams = await api.query<{ g: string[] }>(sql`select zg_name_grams('若溪', array['Ab']) as g`);
    expect(sorted(grams[0].g)).toEqual(sorted(['若', '溪', '若溪', 'a', 'b', 'ab']));
  });

  test('the autocomplete is the list with q and a small page, most works first', async () => {
    const r = await list(`q=${encodeURIComponent('若')}&pageSize=10&sort=movieCount&order=desc`);
    expect(r.total).toBe(3);
    expect(r.list.length).toBe(3);
  });

  test('getMany: ids=… reads exactly those, whatever the page size', async () => {
    const wanted = [idOf('林若溪'), idOf('Anna Lee')];
    expect(sorted(await names(`ids=${wanted.join(',')}&pageSize=10`))).toEqual(
      sorted(['林若溪', 'Anna Lee']),
    );
    expect((await api.call('GET', `${A}?ids=1,x`, { token: user })).body.code).toBe(40000);
  });
});

describe('filters and sorts', () => {
  test('region, debut year range (inclusive), visible, tag', async () => {
    expect(await names('region=jp')).toEqual(['佐藤美月']);
    expect(sorted(await names('debutFrom=2015&debutTo=2020'))).toEqual(
      sorted(['林若溪', '苏若兰', '佐藤美月']),
    );
    expect(sorted(await names('debutFrom=2020'))).toEqual(sorted(['佐藤美月', '100%_若']));
    expect(await names('debutTo=2012')).toEqual(['沈静怡']);
    expect(await names('visible=false')).toEqual(['沈静怡']);
    expect((await list('visible=true')).total).toBe(PEOPLE.length - 1);
    expect(sorted(await names(`tag=${encodeURIComponent('人气')}`))).toEqual(sorted(['林若溪', '佐藤美月']));
    expect(await names(`tag=${encodeURIComponent('人气')}&region=jp&visible=true`)).toEqual(['佐藤美月']);
  });

  test('bad filters, sorts and page sizes are 40000 naming the parameter', async () => {
    for (const [query, field] of [
      ['debutFrom=2020&debutTo=2010', 'debutTo'],
      ['debutFrom=1800', 'debutFrom'],
      ['region=mars', 'region'],
      ['visible=maybe', 'visible'],
      ['sort=searchGrams', 'sort'],
      ['sort=biography', 'sort'],
      ['order=up', 'order'],
      ['pageSize=7', 'pageSize'],
      ['nickname=x', 'nickname'],
    ]) {
      const r = await api.call('GET', `${A}?${query}`, { token: user });
      expect(r.body.code, query).toBe(40000);
      expect(Object.keys(r.body.data.fields), query).toEqual([field]);
    }
  });

  test('sorts: newest, name, sort weight, debut year (unknown years last), id tie-break', async () => {
    expect(await names('sort=createdAt&order=desc')).toEqual([...PEOPLE.map((p) => p[0])].reverse());
    expect((await names('sort=sortWeight&order=desc')).slice(0, 3)).toEqual([
      '佐藤美月',
      'Anna Lee',
      '林若溪',
    ]);
    // The database's collation orders names (Chinese ones too); the list follows it, not the ids.
    const collated = await api.query<{ name: string }>(sql`select name from actresses order by name, id`);
    expect(await names('sort=name&order=asc')).toEqual(collated.map((r) => r.name));
    expect(collated.map((r) => r.name)).not.toEqual(PEOPLE.map((p) => p[0]));
    const byDebut = await names('sort=debutYear&order=desc');
    expect(byDebut[0]).toBe('100%_若');
    expect(byDebut.at(-1)).toBe('Anna Lee');
    const pages = [
      ...(await names('sort=sortWeight&order=desc&pageSize=10&page=1')),
      ...(await names('sort=sortWeight&order=desc&pageSize=10&page=2')),
    ];
    expect(new Set(pages).size).toBe(pages.length);
  });
});

describe('batch', () => {
  test('hide then show: one transaction answering how many changed; versions move', async () => {
    const some = [idOf('林若溪'), idOf('沈静怡')];
    const hid = await okData(
      api.call('POST', `${A}/batch`, { token: user, body: { action: 'hide', ids: some } }),
    );
    expect(hid).toEqual({ changed: 1 }); // 沈静怡 was hidden already
    expect(sorted(await names('visible=false'))).toEqual(sorted(['林若溪', '沈静怡']));
    const shown = await okData(
      api.call('POST', `${A}/batch`, { token: user, body: { action: 'show', ids: some } }),
    );
    expect(shown).toEqual({ changed: 2 });
    const [{ version }] = await api.query<{ version: number }>(
      sql`select version from actresses where id = ${idOf('林若溪')}`,
    );
    expect(version).toBe(3);
    await okData(
      api.call('POST', `${A}/batch`, { token: user, body: { action: 'hide', ids: [idOf('沈静怡')] } }),
    );
  });

  test('all or nothing: one unknown id is 40400 naming it, and nothing changes', async () => {
    const r = await api.call('POST', `${A}/batch`, {
      token: user,
      body: { action: 'hide', ids: [idOf('林若溪'), 987654] },
    });
    expect(r.body.code).toBe(40400);
    expect(r.body.msg).toContain('987654');
    expect(await names('visible=false')).toEqual(['沈静怡']);
    const bad = await api.call('POST', `${A}/batch`, { token: user, body: { action: 'promote', ids: [1] } });
    expect(bad.body.code).toBe(40000);
  });

  test('batch delete is for admins; a user gets 40300 and nothing goes', async () => {
    const r = await api.call('POST', `${A}/batch`, {
      token: user,
      body: { action: 'delete', ids: [idOf('苏若兰')] },
    });
    expect(r.body.code).toBe(40300);
    expect((await list('')).total).toBe(PEOPLE.length);
    expect((await api.call('DELETE', `${A}/${idOf('苏若兰')}`, { token: user })).body.code).toBe(40300);
  });
});

// @vitest-environment jsdom
/**
 * The agents screens (issue #16) over the real API in-process (PGlite): events go in through the public ingestion,
 * the rollup runs, and the stat shows each agent's figures, its commission and its quality flags; one agent's page
 * shows its days and its settlements.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import { sql } from 'drizzle-orm';
import type { ReactNode } from 'react';
import { ResourceContextProvider } from 'react-admin';
import { expect, test, vi } from 'vitest';
import { builtinPermissions } from '../../src/auth/catalog';
import { sections } from '../../src/resources';
import { AgentEdit } from '../../src/resources/agents/AgentEdit';
import { AgentStat } from '../../src/resources/agents/AgentStat';
import { AGENT_RESOURCE } from '../../src/resources/agents/names';
import { promotionLink } from '../../src/resources/agents/PromotionLink';
import { USER_RESOURCE } from '../../src/resources/users/names';
import { UserList } from '../../src/resources/users/UserList';
import { apiPaths } from '../../src/routes/build';
import { flattenRoutes, matchRoute, menuFor } from '../../src/routes/table';
import type { TestApi } from '../api/harness';
import { okData } from '../api/movies-helpers';
import { siteDoor } from '../api/site-door';
import { inProcessApi } from './in-process-api';
import { mountScreen } from './mount';

vi.setConfig({ testTimeout: 60_000 });

let api: TestApi;
let token: string;
let farm: number;
let xinghe: number;
let n = 0;
// The harness clock is 2026-06-01T08:00Z: 16:00 in Shanghai, so "today" is 2026-06-01.
const event = (over: Record<string, unknown>) => ({
  id: `ui-agents-${++n}`,
  type: 'pageview',
  time: '2026-06-01T07:00:00Z',
  domain: 'www.agents.example',
  path: '/',
  visitor: `v${n}`,
  ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  ip: `120.24.${n % 200}.68`,
  ...over,
});

inProcessApi(async (started, admin) => {
  api = started;
  token = admin;
  const create = (body: Record<string, unknown>) =>
    okData(api.call('POST', '/app/admin/agents', { token, body }));
  xinghe = (await create({ name: '星河联盟', channel: 'xinghe', model: 'share', rate: 30 })).id;
  farm = (await create({ name: '刷量工作室', channel: 'farm', model: 'signup', rate: 2 })).id;
  // Signups and recharges come signed by the site's server.
  const door = await siteDoor(api, token);
  const send = (events: unknown[]) => door.signed('/app/site/events', { events });
  const sent = await send([
    event({ visitor: 'p1', channel: 'xinghe' }),
    event({ visitor: 'p1', type: 'signup', time: '2026-06-01T07:10:00Z' }),
    event({ visitor: 'p1', type: 'recharge', amount: 200, time: '2026-06-01T07:20:00Z' }),
    // Twenty signups from one address: the flag shows with its figures.
    ...Array.from({ length: 20 }, (_, i) =>
      event({
        visitor: `f${i}`,
        channel: 'farm',
        type: 'signup',
        ip: '10.1.1.1',
        time: '2026-05-31T07:00:00Z',
      }),
    ),
  ]);
  expect(sent.body.data.rejected).toEqual([]);
  await okData(api.call('POST', '/app/admin/stats/rollup', { token }));
  await okData(
    api.call('POST', `/app/admin/agents/stat/${farm}/settlements`, {
      token,
      body: { from: '2026-05-30', to: '2026-05-31', note: '五月末' },
    }),
  );
});

const mount = (node: ReactNode, url: string, path = '/agents/stat/:agentId?') =>
  mountScreen(node, { url, path });
const cells = (text: string) =>
  within(screen.getByText(text).closest('tr') as HTMLElement)
    .getAllByRole('cell')
    .map((c) => c.textContent);

test('the section declares SPEC.md’s routes: the list, the stat of all or one, the hidden edit page', () => {
  const routes = flattenRoutes(sections);
  expect(
    menuFor(sections, builtinPermissions('user'))
      .find((s) => s.path === '/agents')
      ?.items.map((i) => i.path),
  ).toEqual(['/agents/list', '/agents/stat']);
  expect(matchRoute(routes, '/agents/edit/3')).toMatchObject({
    hideInMenu: true,
    activeMenu: '/agents/list',
  });
  expect(matchRoute(routes, '/agents/stat/3')).toMatchObject({
    hideInMenu: true,
    activeMenu: '/agents/stat',
  });
  expect(apiPaths(sections)).toMatchObject({
    'agents/list': 'admin/agents',
    'agents/stat': 'admin/agents/stat',
    'agents/stat/daily': 'admin/agents/stat/daily',
  });
});

test('every agent: figures, commission by its model, the totals row and a quality flag with its figures', async () => {
  mount(<AgentStat />, '/agents/stat');
  await screen.findByText('星河联盟');
  // code, quality, visitors, signups, new payers, amount, commission, settled, unsettled (addresses, page views,
  // conversion, recharges and ARPU are hidden until the operator shows them)
  expect(cells('星河联盟')).toEqual([
    'xinghe',
    '样本不足',
    '1',
    '1',
    '1',
    '200.00',
    '60.00',
    '0.00',
    '60.00',
  ]);
  // 20 signups today from one address: flagged, the figures behind it said.
  const flag = within(screen.getByText('刷量工作室').closest('tr') as HTMLElement).getByText('同 IP 注册');
  expect(flag.closest('[aria-label]')?.getAttribute('aria-label')).toBe(
    '20 个注册中有 20 个与同日其他注册共用 IP',
  );
  // totals: 21 signups, commission 60 + 20 × 2
  const totals = within(screen.getByTestId('totals'))
    .getAllByRole('cell')
    .map((c) => c.textContent);
  expect(totals[3]).toBe('21');
  expect(totals[6]).toBe('100.00');
});

test('one agent: its days, settled days marked, its settlements', async () => {
  mount(<AgentStat />, `/agents/stat/${farm}`);
  await screen.findByText('刷量工作室（farm）每日统计');
  const table = await screen.findByRole('table', { name: '结算记录' });
  expect(within(table).getByText('2026-05-30 – 2026-05-31')).toBeTruthy();
  expect(within(table).getByText('40.00')).toBeTruthy(); // 20 signups × 2
  expect(within(table).getByText('五月末')).toBeTruthy();
});

test('the promotion link: a bound active domain, else the main domain with the code; in both spellings', () => {
  const bound = [{ id: 1, hostname: 'a.example.com', status: 'standby', role: 'channel' }];
  const same = (link: string) => ({ ascii: link, unicode: link });
  expect(promotionLink('k1', bound, { hostname: 'www.site.example' })).toEqual(
    same('https://www.site.example/?channel=k1'),
  );
  expect(promotionLink('k1', [{ ...bound[0], status: 'active' }], null)).toEqual(
    same('https://a.example.com/'),
  );
  expect(promotionLink('k 1', [], null)).toBeNull();
  // an internationalised host: read in Unicode, copied in either spelling
  expect(
    promotionLink(
      'k1',
      [{ ...bound[0], hostname: 'xn--7-ok2dj9y.cn', unicode: '阅读7.cn', status: 'active' }],
      null,
    ),
  ).toEqual({ ascii: 'https://xn--7-ok2dj9y.cn/', unicode: 'https://阅读7.cn/' });
});

test('an internationalised host: the link reads in Unicode, and copies in the spelling the operator picks', async () => {
  await okData(
    api.call('POST', '/app/admin/domain/domains/import', {
      token,
      body: { text: '阅读7.cn', status: 'active', role: 'channel' },
    }),
  );
  const [domain] = (await okData(api.call('GET', '/app/admin/domain/domains?q=xn--7-ok2dj9y', { token })))
    .list;
  await okData(api.call('PUT', `/app/admin/agents/${xinghe}/domains`, { token, body: { ids: [domain.id] } }));
  const writeText = vi.fn(async () => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  mount(
    <ResourceContextProvider value={AGENT_RESOURCE}>
      <AgentEdit />
    </ResourceContextProvider>,
    `/agents/edit/${xinghe}`,
    '/agents/edit/:id',
  );
  const link = await screen.findByTestId('promotion-link');
  await within(link).findByText('https://阅读7.cn/');
  expect(screen.getByRole('radio', { name: '中文域名（Unicode）' })).toHaveProperty('checked', true);
  // the bound domain's chip reads in Unicode too
  expect(await screen.findByRole('button', { name: /阅读7\.cn/ })).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: '复制链接' }));
  expect(writeText).toHaveBeenLastCalledWith('https://阅读7.cn/');
  fireEvent.click(screen.getByRole('radio', { name: 'Punycode（xn--，仅 ASCII）' }));
  expect(link.textContent).toBe('https://xn--7-ok2dj9y.cn/');
  fireEvent.click(screen.getByRole('button', { name: '复制链接' }));
  expect(writeText).toHaveBeenLastCalledWith('https://xn--7-ok2dj9y.cn/');
});

test('a member’s channel code names its agent, linked to the agent’s stat; a code no agent has stays as it is', async () => {
  await api.query(sql`insert into site_users (tenant, account, channel)
    values (2, 'ui-agent-member', 'xinghe'), (2, 'ui-stray-member', 'nobody')`);
  mount(
    <ResourceContextProvider value={USER_RESOURCE}>
      <UserList />
    </ResourceContextProvider>,
    '/users/list',
    '/users/list',
  );
  const row = (await screen.findByText('ui-agent-member')).closest('tr') as HTMLElement;
  const link = await within(row).findByRole('link', { name: '星河联盟' });
  expect(link.getAttribute('href')).toMatch(/^\/agents\/stat\/\d+$/);
  expect(link.getAttribute('title')).toBe('渠道码 xinghe：代理 星河联盟 的统计');
  expect(screen.getByRole('columnheader', { name: '代理' })).toBeTruthy();
  const stray = screen.getByText('ui-stray-member').closest('tr') as HTMLElement;
  expect(within(stray).getByText('nobody')).toBeTruthy();
  expect(within(stray).queryByRole('link')).toBeNull();
});

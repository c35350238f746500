import type { TestApi } from './harness';

export const ADS = '/app/admin/ad/ads';
export const POSITIONS = '/app/admin/ad/positions';
export const ADVERTISERS = '/app/admin/ad/advertisers';

/** Makes a position (and an advertiser) to hang materials on; answers their ids. */
export async function adFixture(
  api: TestApi,
  token: string,
  key = `pos_${Math.random().toString(36).slice(2, 8)}`,
) {
  const p = await api.call('POST', POSITIONS, { token, body: { name: `位置 ${key}`, key, type: 'image' } });
  if (p.body.code !== 20000) throw new Error(JSON.stringify(p.body));
  const a = await api.call('POST', ADVERTISERS, { token, body: { name: `广告主 ${key}` } });
  if (a.body.code !== 20000) throw new Error(JSON.stringify(a.body));
  return { positionId: p.body.data.id as number, advertiserId: a.body.data.id as number };
}

export const material = (
  fx: { positionId: number; advertiserId: number },
  over: Record<string, unknown> = {},
) => ({
  title: '横幅 A',
  type: 'image',
  creative: '/upload/2026/06/0123456789abcdef0123456789abcdef.png',
  landingUrl: 'https://shop.example.com/landing?x=1',
  positionId: fx.positionId,
  advertiserId: fx.advertiserId,
  startAt: '2026-05-01T00:00:00Z',
  endAt: '2026-07-01T00:00:00Z',
  pricing: 'cpm',
  price: 10,
  ...over,
});

export async function createAd(api: TestApi, token: string, body: Record<string, unknown>) {
  const r = await api.call('POST', ADS, { token, body });
  if (r.body.code !== 20000) throw new Error(JSON.stringify(r.body));
  return r.body.data as Record<string, any>;
}

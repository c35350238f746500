import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ACTRESS_BIOGRAPHY } from '../../common/actresses';
import { actorKind } from '../../server/node/maccms/kinds';
import { prepareCtx } from '../fixtures/maccms/ctx';
import { startApi, type TestApi } from './harness';

/**
 * The MacCMS move writes no more than the admin API accepts: an actress biography (common/actresses.ts
 * MAX_ACTRESS_BIOGRAPHY, one bound for both) moved at its longest is saved again as the form sends it back.
 */
const ctx = prepareCtx();
const actor = (o: Record<string, unknown>) => ({ actor_id: 7, actor_name: '林青', actor_time_add: 1, ...o });

describe('an actress biography', () => {
  let api: TestApi;
  let admin: string;
  beforeAll(async () => {
    api = await startApi();
    admin = await api.login();
  });
  afterAll(() => api.close());

  it('moves whole up to the bound; a longer one is cut to it (never inside a character) and reported', () => {
    const kind = actorKind();
    const fits = kind.prepare(actor({ actor_content: `<p>${'传'.repeat(MAX_ACTRESS_BIOGRAPHY)}</p>` }), ctx);
    expect(fits.value?.biography).toBe('传'.repeat(MAX_ACTRESS_BIOGRAPHY));
    expect(fits.lines).toEqual([]);
    // An emoji (two UTF-16 units) across the bound: left out whole.
    const long = `${'传'.repeat(MAX_ACTRESS_BIOGRAPHY - 1)}😀${'传'.repeat(10)}`;
    const cut = kind.prepare(actor({ actor_content: `<p>${long}</p>` }), ctx);
    expect(cut.value?.biography).toBe('传'.repeat(MAX_ACTRESS_BIOGRAPHY - 1));
    expect(cut.lines).toEqual([
      {
        id: 7,
        outcome: 'cut',
        reason: 'tooLong',
        detail: `actor_content to ${MAX_ACTRESS_BIOGRAPHY} characters`,
      },
    ]);
    const blurb = kind.prepare(
      actor({ actor_content: ' ', actor_blurb: 'x'.repeat(MAX_ACTRESS_BIOGRAPHY + 1) }),
      ctx,
    );
    expect(blurb.value?.biography).toHaveLength(MAX_ACTRESS_BIOGRAPHY);
    expect(blurb.lines.map((l) => l.detail)).toEqual([`actor_blurb to ${MAX_ACTRESS_BIOGRAPHY} characters`]);
  });

  it('the longest one the move writes is saved again through the API; one character more is refused by name', async () => {
    const biography = actorKind().prepare(
      actor({ actor_content: '传'.repeat(MAX_ACTRESS_BIOGRAPHY + 5) }),
      ctx,
    ).value?.biography as string;
    expect(biography).toHaveLength(MAX_ACTRESS_BIOGRAPHY);
    const made = await api.call('POST', '/app/admin/actresses', {
      token: admin,
      body: { name: '长简介', biography },
    });
    expect(made.body.code).toBe(20000);
    const read = await api.call('GET', `/app/admin/actresses/${made.body.data.id}`, { token: admin });
    expect(read.body.data.biography).toBe(biography);
    const again = await api.call('PUT', `/app/admin/actresses/${made.body.data.id}`, {
      token: admin,
      body: { ...read.body.data, name: '长简介二' },
    });
    expect(again.body.code).toBe(20000);
    const tooLong = await api.call('PUT', `/app/admin/actresses/${made.body.data.id}`, {
      token: admin,
      body: { ...again.body.data, biography: `${biography}x` },
      headers: { 'Accept-Language': 'en-US' },
    });
    expect(tooLong.body.code).toBe(40000);
    expect(Object.keys(tooLong.body.data.fields)).toEqual(['biography']);
    expect(tooLong.body.msg).toContain('Biography');
  });
});

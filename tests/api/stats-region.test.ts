import { createRequire } from 'node:module';
import IP2Region from 'ip2region';
import { expect, test } from 'vitest';
import { ip2regionLookup } from '../../server/node/region';

/** Issue #12: the Node server's region lookup reads ip2region's databases shipped in the npm package (offline). */
test('an address gives its country and province; private, local and malformed ones are unknown', () => {
  const region = ip2regionLookup();
  expect(region('120.24.78.68')).toEqual({ country: '中国', province: '广东省' });
  expect(region('240e:3b7:3272:d8d0:db09:c067:8d59:539e')).toMatchObject({ country: '中国' });
  expect(region('1.2.3.4').country).toBe('美国');
  for (const a of ['10.0.0.1', '127.0.0.1', '::1', 'garbage', ''])
    expect(region(a)).toEqual({ country: 'unknown', province: 'unknown' });
});

test('IPv4 addresses, looked up in the database directly, get what the library itself answers', () => {
  const region = ip2regionLookup();
  const lib = new IP2Region();
  let seed = 12;
  const rnd = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  const addresses = ['0.0.0.0', '255.255.255.255', '1.0.0.0', '223.255.255.255', '120.24.78.68'];
  for (let i = 0; i < 20_000; i++)
    addresses.push([rnd() >>> 24, rnd() >>> 24, rnd() >>> 24, rnd() >>> 24].join('.'));
  for (const a of addresses) {
    const r = lib.search(a);
    expect(region(a), a).toEqual({
      country: r?.country || 'unknown',
      province: r?.province || 'unknown',
    });
  }
});

test("the module as Node's own import gives it to the built server (its CommonJS exports) works too", () => {
  const exportsObject = createRequire(import.meta.url)('ip2region');
  expect(typeof exportsObject).toBe('object'); // what `import IP2Region from 'ip2region'` is in Node, unbundled
  const region = ip2regionLookup(exportsObject);
  expect(region('120.24.78.68')).toEqual({ country: '中国', province: '广东省' });
  expect(region('240e:3b7:3272:d8d0:db09:c067:8d59:539e')).toMatchObject({ country: '中国' });
});

test('an address looked up again is answered from what the lookup kept, not from the database', () => {
  let searches = 0;
  class Counted {
    search(address: string) {
      searches++;
      return { country: `c-${address}`, province: 'p' };
    }
  }
  const region = ip2regionLookup(Counted); // no IPv4 data of its own: every address goes to `search`
  expect(region('1.1.1.1')).toEqual({ country: 'c-1.1.1.1', province: 'p' });
  expect(region('2.2.2.2').country).toBe('c-2.2.2.2');
  const again = region('1.1.1.1');
  expect(again).toEqual({ country: 'c-1.1.1.1', province: 'p' });
  again.country = 'changed'; // a caller's copy: what is kept stays
  expect(region('1.1.1.1').country).toBe('c-1.1.1.1');
  expect(searches).toBe(2);
});

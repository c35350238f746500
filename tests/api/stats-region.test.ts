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

test('a region record is decoded once for the addresses it holds, and each caller gets its own copy', () => {
  const region = ip2regionLookup();
  const first = region('120.24.78.68');
  first.country = 'changed'; // a caller's copy: the record decoded stays
  expect(region('120.24.78.68')).toEqual({ country: '中国', province: '广东省' });
  expect(region('120.24.78.69')).toEqual({ country: '中国', province: '广东省' });
});

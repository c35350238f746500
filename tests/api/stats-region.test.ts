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

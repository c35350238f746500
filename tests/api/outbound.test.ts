import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allowListed, internalAddress, internalHostname, parseIPv4 } from '../../common/hosts';
import { createGuardedFetch, guardedFetch, OutboundRefused } from '../../server/node/outbound';

/**
 * Issue #48: the outbound guard. A real listener on 127.0.0.1 counts the requests that reach it; names are mapped
 * to addresses by an injected resolver (as DNS would answer), so nothing here depends on the machine's DNS.
 */
let server: Server;
let port: number;
let hits: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.headers.host} ${req.url}`);
    if (req.url === '/to-loopback') {
      res.writeHead(302, { location: `http://127.0.0.1:${port}/inside` }).end();
    } else if (req.url === '/to-name') {
      res.writeHead(301, { location: `http://rebound.example.com:${port}/inside` }).end();
    } else if (req.url === '/loop') {
      res.writeHead(302, { location: '/loop' }).end();
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // No content-length: the cap works while streaming.
      const chunk = Buffer.alloc(16 * 1024, 97);
      let sent = 0;
      const more = () => {
        while (sent < 4 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once('drain', more);
        }
        res.end();
      };
      more();
    } else if (req.url === '/trickle') {
      res.writeHead(200);
      const t = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(t));
    } else {
      res.end('hello');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** DNS as an attacker would have it: every name answers the loopback address. */
const toLoopback = createGuardedFetch({ resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
/** A name answering a public address and a loopback one. */
const mixed = createGuardedFetch({
  resolve: async () => [
    { address: '93.184.215.14', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
});
const opts = { timeoutMs: 5000, maxBytes: 1024 * 1024 };

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundRefused);
    return (err as OutboundRefused).reason;
  }
  throw new Error('not refused');
}

describe('addresses of the inside', () => {
  test('refused in every notation', () => {
    for (const ip of [
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f000001',
      '0x7f.1',
      '0177.0.0.1',
      '017700000001',
      '0',
      '0.0.0.0',
      '10.1.2.3',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '192.0.0.192',
      '198.18.0.1',
      '192.0.2.1',
      '203.0.113.9',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '[::1]',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b:1::1',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '2001:db8::1',
      '2001::1',
    ])
      expect(internalAddress(ip), ip).toBe(true);
  });

  test('public addresses pass', () => {
    for (const ip of [
      '8.8.8.8',
      '93.184.215.14',
      '1.1.1.1',
      '::ffff:8.8.8.8',
      '2606:4700::1111',
      '2002:808:808::',
    ])
      expect(internalAddress(ip), ip).toBe(false);
  });

  test('agrees with ipaddr.js on the ranges it names', () => {
    // ipaddr.js's own ranges (everything but `unicast` is not the public internet) as a second opinion.
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 5000; i++) {
      const ip = [rnd() % 256, rnd() % 256, rnd() % 256, rnd() % 256].join('.');
      const range = ipaddr.parse(ip).range();
      if (range !== 'unicast') expect(internalAddress(ip), `${ip} ${range}`).toBe(true);
    }
    for (const v6 of ['fe80::1', 'fc00::', 'ff00::1', '::1', '::', '2001:db8::', '64:ff9b::1'])
      expect(ipaddr.parse(v6).range()).not.toBe('unicast');
  });

  test('loose IPv4 notations read as the URL parser reads them', () => {
    expect(parseIPv4('127.1')).toEqual([127, 0, 0, 1]);
    expect(parseIPv4('0x7f.0.0.1')).toEqual([127, 0, 0, 1]);
    expect(parseIPv4('2130706433')).toEqual([127, 0, 0, 1]);
    expect(parseIPv4('10.1')).toEqual([10, 0, 0, 1]);
    expect(parseIPv4('256.0.0.1')).toBeNull();
    expect(parseIPv4('example')).toBeNull();
    expect(new URL(`http://0177.1/`).hostname).toBe('127.0.0.1');
  });
});

describe('names of the inside', () => {
  test('refused', () => {
    for (const h of [
      'localhost',
      'foo.localhost',
      'printer.local',
      'x.svc.cluster.local',
      'metadata.google.internal',
      'metadata.google.internal.',
      'a.127.0.0.1.nip.io',
      '127.0.0.1.nip.io',
      '10.0.0.5.sslip.io',
      '127-0-0-1.sslip.io',
      'app-192-168-1-10.nip.io',
      '7f000001.nip.io',
      'a.2130706433.xip.io',
      '--1.sslip.io',
      'fe80--1.sslip.io',
      'router.lan',
      'nas.home.arpa',
      '1.0.0.127.in-addr.arpa',
      '[::1]',
      '2130706433',
    ])
      expect(internalHostname(h), h).toBe(true);
  });

  test('ordinary names pass, numbers in them too', () => {
    for (const h of [
      'example.com',
      '163.com',
      '360.cn',
      '4399.com',
      'www.58.com',
      '中文.cn',
      'xn--fiq228c.cn',
      'a.8.8.8.8.nip.io',
      'cdn-2024-01.example.com',
      'deadbeef.example.com',
      'local.example.com',
      'internal-tools.example.com',
    ])
      expect(internalHostname(h), h).toBe(false);
  });

  test('allow-list: hostnames, subdomains, addresses and CIDRs', () => {
    const list = [
      'intranet.example.com',
      '*.corp.example',
      '10.0.0.0/8',
      '127.0.0.1',
      'fd00::/8',
      'not a host!',
    ];
    expect(allowListed('intranet.example.com', list)).toBe(true);
    expect(allowListed('a.b.corp.example', list)).toBe(true);
    expect(allowListed('corp.example.evil.com', list)).toBe(false);
    expect(allowListed('10.200.3.4', list)).toBe(true);
    expect(allowListed('11.0.0.1', list)).toBe(false);
    expect(allowListed('127.0.0.1', list)).toBe(true);
    expect(allowListed('127.0.0.2', list)).toBe(false);
    expect(allowListed('fd12::1', list)).toBe(true);
    expect(allowListed('intranet.example.com.evil.com', list)).toBe(false);
  });
});

describe('guardedFetch', () => {
  test('a name resolving to 127.0.0.1 never reaches the listener', async () => {
    hits = [];
    expect(await refusal(toLoopback(`http://intranet.example.com:${port}/`, opts))).toBe('address');
    expect(await refusal(mixed(`http://intranet.example.com:${port}/`, opts))).toBe('address');
    expect(await refusal(guardedFetch(`http://localhost:${port}/`, opts))).toBe('address');
    expect(await refusal(guardedFetch(`http://foo.localhost:${port}/`, opts))).toBe('address');
    expect(await refusal(guardedFetch(`http://127.1:${port}/`, opts))).toBe('address');
    expect(await refusal(guardedFetch(`http://2130706433:${port}/`, opts))).toBe('address');
    expect(await refusal(guardedFetch(`http://[::ffff:127.0.0.1]:${port}/`, opts))).toBe('address');
    expect(await refusal(guardedFetch(`http://a.127.0.0.1.nip.io:${port}/`, opts))).toBe('address');
    expect(hits).toEqual([]);
  });

  test('only http(s)', async () => {
    for (const u of [
      'file:///etc/passwd',
      'ftp://example.com/',
      'gopher://example.com/',
      'data:,x',
      'not a url',
    ])
      expect(await refusal(guardedFetch(u, opts)), u).toBe('scheme');
  });

  test('an allow-listed host is reached, by address or by name', async () => {
    hits = [];
    const byIp = await guardedFetch(`http://127.0.0.1:${port}/`, { ...opts, allowHosts: ['127.0.0.1'] });
    expect(byIp.status).toBe(200);
    expect(new TextDecoder().decode(byIp.body)).toBe('hello');
    const byName = await toLoopback(`http://intranet.example.com:${port}/x`, {
      ...opts,
      allowHosts: ['intranet.example.com'],
    });
    expect(byName).toMatchObject({ status: 200, url: `http://intranet.example.com:${port}/x` });
    const byCidr = await toLoopback(`http://other.example.com:${port}/`, {
      ...opts,
      allowHosts: ['127.0.0.0/8'],
    });
    expect(byCidr.status).toBe(200);
    expect(hits).toEqual([
      `127.0.0.1:${port} /`,
      `intranet.example.com:${port} /x`,
      `other.example.com:${port} /`,
    ]);
  });

  test('every redirect hop is checked again', async () => {
    hits = [];
    // The first hop is allowed (by name); its redirect to the loopback address is not.
    const allowHosts = ['start.example.com'];
    expect(
      await refusal(toLoopback(`http://start.example.com:${port}/to-loopback`, { ...opts, allowHosts })),
    ).toBe('address');
    expect(
      await refusal(toLoopback(`http://start.example.com:${port}/to-name`, { ...opts, allowHosts })),
    ).toBe('address');
    expect(hits).toEqual([`start.example.com:${port} /to-loopback`, `start.example.com:${port} /to-name`]);
    expect(
      await refusal(
        toLoopback(`http://start.example.com:${port}/loop`, { ...opts, allowHosts, maxRedirects: 3 }),
      ),
    ).toBe('redirects');
    expect(hits.length).toBe(2 + 4);
  });

  test('redirects within the allowed hosts are followed to the final URL', async () => {
    const r = await guardedFetch(`http://127.0.0.1:${port}/to-loopback`, {
      ...opts,
      allowHosts: ['127.0.0.1'],
    });
    expect(r).toMatchObject({ status: 200, url: `http://127.0.0.1:${port}/inside` });
  });

  test('the answer is capped while it streams', async () => {
    const allowHosts = ['127.0.0.1'];
    expect(
      await refusal(guardedFetch(`http://127.0.0.1:${port}/big`, { ...opts, maxBytes: 100_000, allowHosts })),
    ).toBe('size');
    const small = await guardedFetch(`http://127.0.0.1:${port}/`, { ...opts, maxBytes: 5, allowHosts });
    expect(small.body.length).toBe(5);
  });

  test('a server that trickles forever is cut at the time cap', async () => {
    expect(
      await refusal(
        guardedFetch(`http://127.0.0.1:${port}/trickle`, {
          timeoutMs: 300,
          maxBytes: 1 << 20,
          allowHosts: ['127.0.0.1'],
        }),
      ),
    ).toBe('timeout');
  });

  test('a name that does not resolve is a dns refusal', async () => {
    const nx = createGuardedFetch({
      resolve: async () => {
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(await refusal(nx('http://nx.example.com/', opts))).toBe('dns');
  });
});

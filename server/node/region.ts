import { isIPv4 } from 'node:net';
import IP2RegionModule from 'ip2region';
import { UNKNOWN } from '../modules/statistics/events';

type Region = { country: string; province: string };

/** The IPv4 database as ip2region 2.x holds it (fields private in its types, stable in its code). */
interface Ipv4Db {
  data: Buffer;
  firstIndexPtr: number;
  totalBlocks: number;
}

const isIpv4Db = (x: any): x is Ipv4Db =>
  x && Buffer.isBuffer(x.data) && Number.isInteger(x.firstIndexPtr) && Number.isInteger(x.totalBlocks);

/**
 * Country and province of an address from ip2region's offline databases, shipped inside the npm package (IPv4 and
 * IPv6; nothing is downloaded). Opened on the first lookup (about 11 MB read), never at start.
 *
 * IPv4 addresses (nearly all of them) are looked up here, in the library's own data, with the library's binary
 * search: its `search` builds a debug string at each step and splits the record again for every address, which made
 * it the costliest part of ingesting an event. A record is decoded once (cached by its position: a few thousand).
 * Addresses are not kept here: the ingestion keeps those that come again, with their hashes (ingest.ts
 * `addressesOf`); a second memo of the same addresses only doubled the work of the many that come once.
 * tests/api/stats-region.test.ts checks both give the same answer.
 */
export function ip2regionLookup(module: unknown = IP2RegionModule) {
  // A CommonJS module compiled from ES modules: Node's `import` gives its whole `exports` (the class is `.default`),
  // bundlers and Vite the class itself. The built server used to call `exports` as the class, which threw on every
  // address: every region was 'unknown', at the cost of an exception per event.
  const IP2Region = ((module as { default?: unknown }).default ?? module) as typeof IP2RegionModule;
  let db: IP2RegionModule | undefined;
  let v4: Ipv4Db | null | undefined;
  let blocksOf: Int32Array | undefined;
  const records = new Map<number, Region>();
  const unknown = (): Region => ({ country: UNKNOWN, province: UNKNOWN });
  const library = (address: string): Region => {
    const r = db!.search(address);
    return { country: r?.country || UNKNOWN, province: r?.province || UNKNOWN };
  };
  const lookup = (address: string): Region => {
    try {
      db ??= new IP2Region();
      if (v4 === undefined) {
        const ipv4 = (db as unknown as { ipv4?: unknown }).ipv4;
        v4 = isIpv4Db(ipv4) ? ipv4 : null;
      }
      if (!v4 || !isIPv4(address)) return library(address);
      const o = address.split('.');
      const prefix = +o[0] * 256 + +o[1];
      const ip = prefix * 65536 + +o[2] * 256 + +o[3];
      const { data, firstIndexPtr } = v4;
      blocksOf ??= prefixBlocks(v4);
      // The blocks that can hold the address, those its first 16 bits fall in (all of them where none does).
      const first = blocksOf[prefix * 2];
      let low = first < 0 ? 0 : first;
      let high = first < 0 ? v4.totalBlocks : blocksOf[prefix * 2 + 1];
      let ptr = 0;
      while (low <= high) {
        const mid = (low + high) >> 1;
        const pos = firstIndexPtr + mid * 12;
        if (ip < data.readUInt32LE(pos)) high = mid - 1;
        else if (ip > data.readUInt32LE(pos + 4)) low = mid + 1;
        else {
          ptr = data.readUInt32LE(pos + 8);
          break;
        }
      }
      if (ptr === 0) return unknown();
      let hit = records.get(ptr);
      if (!hit) {
        const at = ptr & 0x00ffffff;
        // City id (4 bytes), then "country|area|province|city|isp", "0" for none.
        const f = data.toString('utf8', at + 4, at + ((ptr >>> 24) & 0xff)).split('|');
        hit = {
          country: (f[0] !== '0' ? f[0] : '') || UNKNOWN,
          province: (f[2] !== '0' ? f[2] : '') || UNKNOWN,
        };
        records.set(ptr, hit);
      }
      return { country: hit.country, province: hit.province };
    } catch {
      return unknown();
    }
  };
  return lookup;
}

/**
 * Per 16-bit prefix of an IPv4 address, the first and the last of the database's blocks (sorted ranges) that overlap
 * it (-1: none): a lookup searches those few, not the 700,000 or so (20 steps). Made once, in one pass over the blocks.
 */
function prefixBlocks({ data, firstIndexPtr, totalBlocks }: Ipv4Db): Int32Array {
  const blocks = new Int32Array(65536 * 2).fill(-1);
  for (let i = 0; i < totalBlocks; i++) {
    const pos = firstIndexPtr + i * 12;
    const last = data.readUInt32LE(pos + 4) >>> 16;
    for (let p = data.readUInt32LE(pos) >>> 16; p <= last; p++) {
      if (blocks[p * 2] < 0) blocks[p * 2] = i;
      blocks[p * 2 + 1] = i;
    }
  }
  return blocks;
}

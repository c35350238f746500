import IP2Region from 'ip2region';
import { UNKNOWN } from '../modules/statistics/events';

/**
 * Country and province of an address from ip2region's offline databases, shipped inside the npm package (IPv4 and
 * IPv6; nothing is downloaded). Opened on the first lookup (about 11 MB read), never at start.
 */
export function ip2regionLookup() {
  let db: IP2Region | undefined;
  return (address: string) => {
    try {
      db ??= new IP2Region();
      const r = db.search(address);
      return { country: r?.country || UNKNOWN, province: r?.province || UNKNOWN };
    } catch {
      return { country: UNKNOWN, province: UNKNOWN };
    }
  };
}

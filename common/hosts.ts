/**
 * Which hosts a server-side fetch must never reach: the names and addresses of the inside (loopback,
 * private and link-local networks, cloud metadata, cluster-internal names) in every notation a URL parser or a
 * wildcard DNS service (nip.io, sslip.io) accepts. Pure so that the forms refuse such a name when it is typed and the
 * outbound guard (server/node/outbound.ts) refuses the addresses DNS answers with the same rules.
 */

/** Names that only mean something inside a network (RFC 6761/6762/8375, cloud and cluster conventions). */
const INTERNAL_SUFFIXES = [
  'localhost',
  'local',
  'internal',
  'localdomain',
  'home.arpa',
  'arpa',
  'intranet',
  'lan',
];

/** One part of a loose IPv4 literal as the WHATWG URL parser reads it: 0x hex, 0-prefixed octal, else decimal. */
function ipv4Part(s: string): number | null {
  let n: number;
  if (/^0x[0-9a-f]*$/i.test(s)) n = s.length === 2 ? 0 : Number.parseInt(s.slice(2), 16);
  else if (/^0[0-7]+$/.test(s)) n = Number.parseInt(s.slice(1), 8);
  else if (/^(0|[1-9]\d*)$/.test(s)) n = Number(s);
  else return null;
  return s.length > 40 ? null : n;
}

/**
 * An IPv4 literal in any notation browsers and Node accept (`127.0.0.1`, `127.1`, `2130706433`, `0x7f.1`,
 * `0177.0.0.1`) → its 4 bytes, or null when `s` is not one.
 */
export function parseIPv4(s: string): number[] | null {
  const parts = s.replace(/\.$/, '').split('.');
  if (parts.length < 1 || parts.length > 4 || parts.some((p) => p === '')) return null;
  const nums = parts.map(ipv4Part);
  if (nums.some((n) => n === null)) return null;
  const ns = nums as number[];
  const last = ns[ns.length - 1];
  if (ns.slice(0, -1).some((n) => n > 255) || last >= 256 ** (5 - ns.length)) return null;
  let value = last;
  for (let i = 0; i < ns.length - 1; i++) value += ns[i] * 256 ** (3 - i);
  return [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
}

/** An IPv6 literal (brackets, zone and an IPv4 tail allowed) → its 16 bytes, or null. */
export function parseIPv6(input: string): number[] | null {
  let s = input.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!s.includes(':') || !/^[0-9a-f:.]+$/i.test(s)) return null;
  let tail: number[] = [];
  const v4 = s.match(/:(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    if (!/^(\d{1,3})(\.\d{1,3}){3}$/.test(v4[1])) return null;
    tail = v4[1].split('.').map(Number);
    if (tail.some((b) => b > 255)) return null;
    s = `${s.slice(0, -v4[1].length)}0:0`;
  } else if (s.includes('.')) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const group = (h: string) => (h === '' ? [] : h.split(':'));
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const words = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (words.some((w) => !/^[0-9a-f]{1,4}$/i.test(w))) return null;
  const bytes = words.flatMap((w) => {
    const n = Number.parseInt(w, 16);
    return [n >> 8, n & 255];
  });
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** Inside `base/bits` (both as bytes of the same length)? */
function within(bytes: number[], base: number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const bit = 7 - (i % 8);
    if (((bytes[i >> 3] >> bit) & 1) !== (((base[i >> 3] ?? 0) >> bit) & 1)) return false;
  }
  return true;
}

/** IPv4 ranges that are not the public internet (IANA special-purpose registry). */
const V4_REFUSED: [number[], number][] = [
  [[0, 0, 0, 0], 8], // "this network", 0.0.0.0
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // carrier-grade NAT (Alibaba's metadata 100.100.100.200 is here)
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local (the cloud metadata address 169.254.169.254)
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments (Oracle's metadata 192.0.0.192)
  [[192, 0, 2, 0], 24], // documentation
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // documentation
  [[203, 0, 113, 0], 24], // documentation
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, broadcast
];

/** IPv6 ranges refused inside the global unicast block 2000::/3 (everything outside it is refused). */
const V6_REFUSED: [number[], number][] = [
  [[0x20, 0x01, 0x00, 0x00], 32], // Teredo (carries an IPv4 address, obfuscated)
  [[0x20, 0x01, 0x00, 0x02], 48], // benchmarking
  [[0x20, 0x01, 0x00, 0x10], 28], // ORCHID
  [[0x20, 0x01, 0x00, 0x20], 28], // ORCHIDv2
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x3f, 0xff], 20], // documentation (RFC 9637)
];

const refusedV4 = (b: number[]) => V4_REFUSED.some(([base, bits]) => within(b, base, bits));

/** An IPv6 address that carries an IPv4 one (mapped, compatible, SIIT, NAT64, 6to4) → that address, else null. */
function embeddedV4(b: number[]): number[] | null {
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0)))
    return b.slice(12);
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return b.slice(12); // ::ffff:0:a.b.c.d
  if (within(b, [0, 0x64, 0xff, 0x9b], 96)) return b.slice(12); // NAT64 64:ff9b::/96
  if (b[0] === 0x20 && b[1] === 0x02) return b.slice(2, 6); // 6to4 2002::/16
  return null;
}

/** Is this address (as bytes: 4 or 16) one a server-side fetch must not reach? */
export function refusedAddressBytes(b: number[]): boolean {
  if (b.length === 4) return refusedV4(b);
  const v4 = embeddedV4(b);
  if (v4) return refusedV4(v4) || b.slice(0, 12).every((x) => x === 0); // ::/96 itself is not routed
  if (!within(b, [0x20], 3)) return true; // not global unicast: ::1, fc00::/7, fe80::/10, ff00::/8, 64:ff9b:1::/48…
  return V6_REFUSED.some(([base, bits]) => within(b, base, bits));
}

/** An IP literal (any IPv4 notation, IPv6 with or without brackets) → its bytes, or null when it is not one. */
export function parseIP(s: string): number[] | null {
  return parseIPv6(s) ?? parseIPv4(s);
}

/** Is `ip` (a literal) an address of the inside? Not an IP literal at all: false. */
export function internalAddress(ip: string): boolean {
  const b = parseIP(ip.trim().toLowerCase());
  return b !== null && refusedAddressBytes(b);
}

/** Addresses a wildcard DNS name carries (`a.127.0.0.1.nip.io`, `127-0-0-1.sslip.io`, `7f000001.nip.io`, `--1.sslip.io`). */
function embeddedAddresses(labels: string[]): number[][] {
  const found: number[][] = [];
  const dec = (l: string) => /^\d{1,3}$/.test(l) && Number(l) <= 255;
  for (let i = 0; i + 4 <= labels.length; i++) {
    const four = labels.slice(i, i + 4);
    if (four.every(dec)) found.push(four.map(Number));
  }
  for (const label of labels) {
    for (const m of label.matchAll(/(?:^|[^\d])(\d{1,3})-(\d{1,3})-(\d{1,3})-(\d{1,3})(?=$|[^\d])/g)) {
      const bytes = m.slice(1, 5).map(Number);
      if (bytes.every((n) => n <= 255)) found.push(bytes);
    }
    const hex = label.match(/(?:^|-)([0-9a-f]{8})$/);
    if (hex) found.push(parseIPv4(`0x${hex[1]}`)!);
    // A whole number as an address (2130706433 is 127.0.0.1); short numbers are names (163.com, 360.cn).
    if (/^\d{9,10}$/.test(label)) {
      const v = parseIPv4(label);
      if (v) found.push(v);
    }
    if (label.includes('--') && /^[0-9a-f-]+$/.test(label)) {
      const v6 = parseIPv6(label.replace(/-/g, ':'));
      if (v6) found.push(v6);
    }
  }
  return found;
}

/**
 * Does this hostname (or IP literal) name the inside? `localhost` and `*.localhost`, `*.local` (so
 * `*.svc.cluster.local`), `*.internal` (so `metadata.google.internal`), `*.localdomain`, `*.home.arpa`, `*.arpa`,
 * `*.intranet`, `*.lan`, single-label names, IP literals of refused ranges in any notation, and names carrying such an
 * address the way wildcard DNS services read them. A public name answers false; DNS can still point it inside,
 * which only the outbound guard's check at connect time catches.
 */
export function internalHostname(name: string): boolean {
  const host = name
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '');
  if (!host) return true;
  const ip = parseIP(host);
  if (ip) return refusedAddressBytes(ip);
  if (host.includes(':')) return true; // not a name and not an address
  const labels = host.split('.');
  if (labels.length < 2) return true;
  if (INTERNAL_SUFFIXES.some((s) => host === s || host.endsWith(`.${s}`))) return true;
  return embeddedAddresses(labels).some(refusedAddressBytes);
}

/** One allow-list entry read: an IP range (`10.0.0.0/8`, `10.1.2.3`, `fd00::/8`) or a hostname (`*.corp.example`). */
type AllowEntry = { net: number[]; bits: number } | { host: string; subdomains: boolean };

/** Reads an allow-list entry, or null when it is neither a hostname nor an IP/CIDR (the settings form says so). */
export function parseAllowEntry(entry: string): AllowEntry | null {
  const s = entry.trim().toLowerCase();
  if (!s || s.length > 300) return null;
  const [addr, bitsText, extra] = s.split('/');
  if (extra !== undefined) return null;
  const net = parseIP(addr);
  if (net) {
    const max = net.length * 8;
    const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : -1;
    return bits >= 0 && bits <= max ? { net, bits } : null;
  }
  if (bitsText !== undefined) return null;
  const subdomains = s.startsWith('*.');
  const host = s.replace(/^\*\./, '').replace(/\.$/, '');
  if (!/^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/.test(host)) return null;
  return { host, subdomains };
}

/** Is this hostname or address on the allow-list (hostname entries match names, IP/CIDR entries addresses)? */
export function allowListed(hostOrIp: string, list: readonly string[]): boolean {
  const h = hostOrIp
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  const ip = parseIP(h);
  for (const raw of list) {
    const e = parseAllowEntry(raw);
    if (!e) continue;
    if ('net' in e) {
      if (ip && ip.length === e.net.length && within(ip, e.net, e.bits)) return true;
    } else if (!ip && (h === e.host || (e.subdomains && h.endsWith(`.${e.host}`)))) return true;
  }
  return false;
}

const EAST_ASIAN_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;

/** The scripts of a label's letters (digits, hyphens and marks belong to none). */
function scriptsOf(label: string): Set<string> {
  const found = new Set<string>();
  for (const ch of label) {
    if (!/\p{L}/u.test(ch)) continue;
    if (/\p{Script=Latin}/u.test(ch)) found.add(/[a-z]/i.test(ch) ? 'ascii' : 'latin');
    else if (EAST_ASIAN_SCRIPT.test(ch)) found.add('cjk');
    else if (/\p{Script=Cyrillic}/u.test(ch)) found.add('cyrillic');
    else if (/\p{Script=Greek}/u.test(ch)) found.add('greek');
    else found.add('other');
  }
  return found;
}

/**
 * Should this hostname (in Unicode) be shown in punycode with a warning? When a label mixes Latin with another
 * alphabet (`pаypal`, Cyrillic а), or is written wholly in another alphabet with letters that all look Latin
 * (`аррӏе`: Cyrillic, folded by `fold` to `apple`): the spoofing shapes of UTS #39. Chinese, Japanese and Korean,
 * with or without Latin letters and digits (`中文.cn`, `京东shop.com`), are shown as they are.
 */
export function confusableHostname(unicodeHost: string, fold: (s: string) => string): boolean {
  for (const label of unicodeHost.split('.')) {
    if (/^\p{ASCII}*$/u.test(label)) continue;
    const s = scriptsOf(label);
    const latin = s.has('ascii') || s.has('latin');
    const others = [...s].filter((x) => x !== 'ascii' && x !== 'latin' && x !== 'cjk');
    if (others.length > 1 || (latin && others.length)) return true;
    if (others.length === 1 && !s.has('cjk') && /^[a-z0-9-]+$/.test(fold(label))) return true;
  }
  return false;
}

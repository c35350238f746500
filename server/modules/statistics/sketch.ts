/**
 * HyperLogLog (precision 14: 16,384 registers, standard error 0.81 %) for unique visitors, searchers, viewers and
 * addresses over any period without raw events: the rollup stores one sketch per row (built in SQL, migration 0010:
 * `zg_hash64`, `zg_hll_reg`, `zg_hll_entry`, `zg_hll_pack`), a report merges the rows of its period here (the
 * register-wise maximum) and estimates. Stored forms:
 * - sparse, 3 bytes per non-zero register (index big-endian in 2 bytes, then rank), in index order;
 * - dense, exactly 16,384 bytes (one rank per register); 16,384 is not a multiple of 3, so the length tells which;
 * - gaps (`encodeGaps`, migration 0095: the agents' pre-merged blocks, read by the thousand per stat): the byte 0x80
 *   (a sparse sketch starts with an index's high byte, below 64), then 2 bytes per non-zero register in index order,
 *   big-endian `gap << 6 | rank` where gap (1–1023) is the distance from the previous register (the first from -1);
 *   a longer distance is spent 1023 at a time in units of rank 0 (`0xffc0`). A third fewer bytes than sparse; dense
 *   when it would not be shorter (an odd length never equals 16,384).
 *
 * The estimator is Ertl's improved raw estimator (arXiv:1702.01284, algorithm 6): no bias tables,
 * accurate from 0 to billions.
 */

export const P = 14;
export const M = 1 << P;
const Q = 64 - P; // bits left for the rank
const MAX_RANK = Q + 1;

export type Registers = Uint8Array;

export const emptyRegisters = (): Registers => new Uint8Array(M);

const GAPS = 0x80;
const MAX_GAP = 1023;

/** Is a stored sketch in the gap form? */
export const isGaps = (s: Uint8Array) => s.length !== M && (s.length & 1) === 1 && s[0] === GAPS;

/** Folds a stored sketch (any form) into `into`, register-wise maximum. */
export function mergeInto(into: Registers, stored: Uint8Array | null | undefined): Registers {
  if (!stored || stored.length === 0) return into;
  if (stored.length === M) {
    for (let i = 0; i < M; i++) if (stored[i] > into[i]) into[i] = stored[i];
    return into;
  }
  if (isGaps(stored)) {
    for (let o = 1, idx = -1; o + 1 < stored.length; o += 2) {
      idx += (stored[o] << 2) | (stored[o + 1] >> 6);
      const r = stored[o + 1] & 63;
      if (r > into[idx & (M - 1)]) into[idx & (M - 1)] = r;
    }
    return into;
  }
  for (let o = 0; o + 2 < stored.length; o += 3) {
    const idx = ((stored[o] << 8) | stored[o + 1]) & (M - 1);
    const r = stored[o + 2];
    if (r > into[idx]) into[idx] = r;
  }
  return into;
}

/** The merge of several stored sketches. */
export function merge(stored: Iterable<Uint8Array | null | undefined>): Registers {
  const into = emptyRegisters();
  for (const s of stored) mergeInto(into, s);
  return into;
}

/** The register (index, rank) a 64-bit hash falls in: the same as `zg_hll_reg` in SQL. */
export function registerOf(hash: bigint): { index: number; rank: number } {
  const h = BigInt.asUintN(64, hash);
  const index = Number(h >> BigInt(Q));
  let w = h & ((1n << BigInt(Q)) - 1n);
  let rank = MAX_RANK;
  if (w) {
    rank = 1;
    for (let bit = 1n << BigInt(Q - 1); !(w & bit); bit >>= 1n) rank++;
    w = 0n;
  }
  return { index, rank };
}

/** Adds a hashed value to registers (tests and synthetic data; the rollup does this in SQL). */
export function add(registers: Registers, hash: bigint): Registers {
  const { index, rank } = registerOf(hash);
  if (rank > registers[index]) registers[index] = rank;
  return registers;
}

/** The stored form of registers: sparse when that is shorter, dense otherwise (as `zg_hll_pack`). */
export function encode(registers: Registers): Uint8Array {
  let n = 0;
  for (let i = 0; i < M; i++) if (registers[i]) n++;
  if (n * 3 >= M) return registers.slice();
  const out = new Uint8Array(n * 3);
  let o = 0;
  for (let i = 0; i < M; i++) {
    if (!registers[i]) continue;
    out[o++] = i >> 8;
    out[o++] = i & 0xff;
    out[o++] = registers[i];
  }
  return out;
}

// Where the gap form is written before it is copied out at its length (its first byte always the marker).
const gapsOut = new Uint8Array(M);
gapsOut[0] = GAPS;

/** The gap form of registers (see above): dense when that is not longer, empty for no register. */
export function encodeGaps(registers: Registers): Uint8Array {
  const out = gapsOut;
  let o = 1;
  let prev = -1;
  for (let i = 0; i < M; i++) {
    const r = registers[i];
    if (!r) continue;
    let gap = i - prev;
    prev = i;
    for (; gap > MAX_GAP; gap -= MAX_GAP) {
      if (o + 2 >= M) return registers.slice();
      out[o++] = 0xff;
      out[o++] = 0xc0;
    }
    if (o + 2 >= M) return registers.slice();
    out[o++] = gap >> 2;
    out[o++] = ((gap & 3) << 6) | r;
  }
  return o === 1 ? new Uint8Array(0) : out.slice(0, o);
}

function sigma(x: number): number {
  if (x === 1) return Number.POSITIVE_INFINITY;
  let y = 1;
  let z = x;
  for (;;) {
    x *= x;
    const before = z;
    z += x * y;
    y += y;
    if (z === before) return z;
  }
}

function tau(x: number): number {
  if (x === 0 || x === 1) return 0;
  let y = 1;
  let z = 1 - x;
  for (;;) {
    x = Math.sqrt(x);
    const before = z;
    y *= 0.5;
    z -= (1 - x) ** 2 * y;
    if (z === before) return z / 3;
  }
}

/** The estimate from the histogram of register values (`c[k]` registers hold rank k). */
function estimateFromCounts(c: number[]): number {
  if (c[0] === M) return 0;
  let z = M * tau(1 - c[MAX_RANK] / M);
  for (let k = Q; k >= 1; k--) z = 0.5 * (z + c[k]);
  z += M * sigma(c[0] / M);
  return Math.round(M ** 2 / (2 * Math.LN2) / z);
}

/** The estimated number of distinct values behind the registers, rounded. */
export function estimate(registers: Registers): number {
  const c = new Array<number>(MAX_RANK + 1).fill(0);
  for (let i = 0; i < M; i++) c[registers[i]]++;
  return estimateFromCounts(c);
}

// Scratch registers for merging sparse sketches: only the registers touched are read and cleared again, so the
// estimate over small sketches (an agent's days) costs their size, not 16,384 per estimate.
const scratch = new Uint8Array(M);
const touched = new Uint16Array(M);

/**
 * A stored sketch as a driver returns a `bytea`: bytes (node-postgres, PGlite) or PostgreSQL's `\\x…` text; or as
 * `encode(…, 'base64')` gives it (a read of thousands of sketches: a third fewer characters than hex, decoded without
 * a string per byte pair, which is most of what node-postgres spends on a bytea); else null.
 */
export function storedSketch(v: unknown): Uint8Array | null {
  if (v instanceof Uint8Array) return v;
  if (typeof v !== 'string' || !v) return null;
  if (v.startsWith('\\x')) return Uint8Array.from(Buffer.from(v.slice(2), 'hex'));
  const b = Buffer.from(v, 'base64');
  return b.length ? b : null;
}

/** The estimate over several stored sketches (a report's period): the same as `estimate(merge(stored))`. */
export function estimateStored(stored: Iterable<Uint8Array | null | undefined>): number {
  const list = Array.isArray(stored) ? (stored as (Uint8Array | null | undefined)[]) : [...stored];
  if (list.some((s) => s?.length === M)) return estimate(merge(list));
  let n = 0;
  const put = (idx: number, r: number) => {
    if (r === 0) return;
    if (scratch[idx] === 0) touched[n++] = idx;
    if (r > scratch[idx]) scratch[idx] = r;
  };
  for (const s of list) {
    if (!s) continue;
    if (isGaps(s))
      for (let o = 1, idx = -1; o + 1 < s.length; o += 2) {
        idx += (s[o] << 2) | (s[o + 1] >> 6);
        put(idx & (M - 1), s[o + 1] & 63);
      }
    else for (let o = 0; o + 2 < s.length; o += 3) put(((s[o] << 8) | s[o + 1]) & (M - 1), s[o + 2]);
  }
  const c = new Array<number>(MAX_RANK + 1).fill(0);
  c[0] = M - n;
  for (let k = 0; k < n; k++) {
    c[scratch[touched[k]]]++;
    scratch[touched[k]] = 0;
  }
  return estimateFromCounts(c);
}

/** The registers of a sparse or gap-form sketch in stored order, as (index << 6 | rank) values; rank 0 skipped. */
function entries(s: Uint8Array): number[] {
  const out: number[] = [];
  if (isGaps(s))
    for (let o = 1, idx = -1; o + 1 < s.length; o += 2) {
      idx += (s[o] << 2) | (s[o + 1] >> 6);
      if (s[o + 1] & 63) out.push(((idx & (M - 1)) << 6) | (s[o + 1] & 63));
    }
  else
    for (let o = 0; o + 2 < s.length; o += 3)
      if (s[o + 2]) out.push(((((s[o] << 8) | s[o + 1]) & (M - 1)) << 6) | s[o + 2]);
  return out;
}

/**
 * The gap form of the merge of two stored sketches (any forms), the same bytes as `encodeGaps(merge([a, b]))`: two
 * sparse ones (their registers in index order, as stored) are merged as sorted lists, without 16,384 registers.
 */
export function mergeStored(a: Uint8Array | null | undefined, b: Uint8Array | null | undefined): Uint8Array {
  const x = a ?? new Uint8Array(0);
  const y = b ?? new Uint8Array(0);
  const slow = () => encodeGaps(merge([x, y]));
  if (x.length === M || y.length === M) return slow();
  const ex = entries(x);
  const ey = entries(y);
  const out = gapsOut;
  let o = 1;
  let i = 0;
  let j = 0;
  let last = -1;
  while (i < ex.length || j < ey.length) {
    const kx = i < ex.length ? ex[i] >> 6 : M;
    const ky = j < ey.length ? ey[j] >> 6 : M;
    const k = kx < ky ? kx : ky;
    let r = 0;
    if (kx === k) r = ex[i++] & 63;
    if (ky === k) r = Math.max(r, ey[j++] & 63);
    // Not in index order: not a stored sketch as the rollup writes them.
    if (k <= last) return slow();
    let gap = k - last;
    last = k;
    for (; gap > MAX_GAP; gap -= MAX_GAP) {
      if (o + 2 >= M) return slow();
      out[o++] = 0xff;
      out[o++] = 0xc0;
    }
    if (o + 2 >= M) return slow();
    out[o++] = gap >> 2;
    out[o++] = ((gap & 3) << 6) | r;
  }
  return o === 1 ? new Uint8Array(0) : out.slice(0, o);
}

/**
 * HyperLogLog (precision 14: 16,384 registers, standard error 0.81 %) for unique visitors, searchers, viewers and
 * addresses over any period without raw events: the rollup stores one sketch per row (built in SQL:
 * `zg_hash64`, `zg_hll_reg`, `zg_hll_entry`, `zg_hll_pack`), a report merges the rows of its period here (the
 * register-wise maximum) and estimates. One stored form, as `zg_hll_pack` writes it (`encode` here): 3 bytes per
 * non-zero register (index big-endian in 2 bytes, then rank) in index order, or, when that is not shorter, exactly
 * 16,384 bytes (one rank per register); 16,384 is not a multiple of 3, so the length tells which.
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

/** The registers of the merge of several stored sketches (register-wise maximum). */
export function merge(stored: Iterable<Uint8Array | null | undefined>): Registers {
  for (const s of stored) shared.add(s);
  return shared.registers();
}

/**
 * The register of a 64-bit hash given as its 16 hex digits (or more: the MD5 in hex, whose first 16 are `zg_hash64`),
 * as `zg_hll_reg` stores it: `index << 6 | rank`, the top 14 bits picking the register and the rank the position of
 * the first 1 in the other 50 bits (51 when they are all 0). The ingestion's hasher (`md5`) and `registerOf` use it.
 */
export function hexRegister(hex: string): number {
  const hi = Number.parseInt(hex.slice(0, 8), 16);
  const lo = Number.parseInt(hex.slice(8, 16), 16);
  const rest = hi & 0x3ffff; // the 18 bits of the high word below the index
  const rank = rest ? Math.clz32(rest) - 13 : lo ? 19 + Math.clz32(lo) : MAX_RANK;
  return ((hi >>> (32 - P)) << 6) | rank;
}

/** The register (index, rank) a 64-bit hash falls in: the same as `zg_hll_reg` in SQL. */
export function registerOf(hash: bigint): { index: number; rank: number } {
  const reg = hexRegister(BigInt.asUintN(64, hash).toString(16).padStart(16, '0'));
  return { index: reg >> 6, rank: reg & 63 };
}

/** Adds a hashed value to registers (tests and synthetic data; the rollup does this in SQL). */
export function add(registers: Registers, hash: bigint): Registers {
  const { index, rank } = registerOf(hash);
  if (rank > registers[index]) registers[index] = rank;
  return registers;
}

/** Writes a register as the sparse stored form's triple at `o`: its index big-endian in 2 bytes, then its rank. */
function putTriple(out: Uint8Array, o: number, index: number, rank: number) {
  out[o] = index >> 8;
  out[o + 1] = index & 0xff;
  out[o + 2] = rank;
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
    putTriple(out, o, i, registers[i]);
    o += 3;
  }
  return out;
}

/** Registers listed as `index << 6 | rank`, one an index, as the array of every register's rank. */
export function denseOf(list: readonly number[]): Registers {
  const dense = emptyRegisters();
  for (const reg of list) dense[reg >> 6] = reg & 63;
  return dense;
}

/** The stored form of registers listed as `index << 6 | rank`, one an index, in index order (as `encode`). */
export function encodeList(list: readonly number[]): Uint8Array {
  if (list.length * 3 >= M) return denseOf(list);
  const out = new Uint8Array(list.length * 3);
  for (let k = 0; k < list.length; k++) putTriple(out, 3 * k, list[k] >> 6, list[k] & 63);
  return out;
}

// Scratch for the indexes of non-zero registers.
const nonZero = new Uint16Array(M);

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

// Four histograms of 64 ranks, one for each of four neighbouring registers (`countRanks`, `maxInto`); room after the
// last for any byte, so that no count is lost off the end (a rank is at most MAX_RANK, 51).
const LANES = new Int32Array(3 * 64 + 256);

/**
 * Counts the ranks of all 16,384 registers of `x` into `c` (`c[k]`: how many hold rank k). Four histograms, one per
 * neighbouring register, then added: in one, each increment waits for the one before when neighbouring registers
 * share a rank, and with four histograms 256 bytes apart they interfere less than nearer ones.
 */
function countRanks(c: number[], x: Uint8Array): number[] {
  const h = LANES.fill(0);
  for (let i = 0; i < M; i += 4) {
    h[x[i]]++;
    h[64 + x[i + 1]]++;
    h[128 + x[i + 2]]++;
    h[192 + x[i + 3]]++;
  }
  return addLanes(c, h);
}

/**
 * Writes the higher of each register of `x` and `y` into `out` (which may be `x`), their union's, and counts its ranks
 * into `c` as `countRanks` does. The higher of two ranks without a branch (y + max(x − y, 0)): a branch would be
 * mispredicted as often as not where the two sketches differ.
 */
function maxInto(out: Uint8Array, c: number[], x: Uint8Array, y: Uint8Array): number[] {
  const h = LANES.fill(0);
  for (let i = 0; i < M; i += 4) {
    let d = x[i] - y[i];
    let r = y[i] + (d & ~(d >> 31));
    out[i] = r;
    h[r]++;
    d = x[i + 1] - y[i + 1];
    r = y[i + 1] + (d & ~(d >> 31));
    out[i + 1] = r;
    h[64 + r]++;
    d = x[i + 2] - y[i + 2];
    r = y[i + 2] + (d & ~(d >> 31));
    out[i + 2] = r;
    h[128 + r]++;
    d = x[i + 3] - y[i + 3];
    r = y[i + 3] + (d & ~(d >> 31));
    out[i + 3] = r;
    h[192 + r]++;
  }
  return addLanes(c, h);
}

const addLanes = (c: number[], h: Int32Array) => {
  for (let k = 0; k <= MAX_RANK; k++) c[k] = h[k] + h[64 + k] + h[128 + k] + h[192 + k];
  return c;
};

/**
 * The registers of a framed value (`Union.addFramed`) that holds one full sketch and nothing else, as a plain view
 * (the driver's value may be a Buffer: the loops then meet one kind of array); else null.
 */
function oneFullFrame(v: unknown): Uint8Array | null {
  if (Array.isArray(v)) {
    const s = v.length === 1 ? (v[0] as Uint8Array | null) : null;
    return s?.length === M ? new Uint8Array(s.buffer, s.byteOffset, M) : null;
  }
  const b = v as Uint8Array | null | undefined;
  if (b?.length !== M + 4 || ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0 !== M) return null;
  return new Uint8Array(b.buffer, b.byteOffset + 4, M);
}

/** Raises each of `registers` to the rank of a full stored sketch's register where that is higher (in place). */
export function raiseTo(registers: Registers, full: Uint8Array): Registers {
  for (let i = 0; i < M; i++) {
    const d = full[i] - registers[i];
    registers[i] += d & ~(d >> 31);
  }
  return registers;
}

/** The estimated number of distinct values behind the registers, rounded. */
export function estimate(registers: Registers): number {
  return estimateFromCounts(countRanks(new Array<number>(MAX_RANK + 1), registers));
}

// Node's own decoders where there is a Node (the server); plain loops in the browser (demo mode has no `Buffer`).
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Bytes as hex text (Node's encoder where there is one; `plain` forces the loop, as demo mode has it). */
export function toHex(bytes: Uint8Array, plain = !NodeBuffer): string {
  if (!plain && NodeBuffer)
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex');
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX_PAIRS[bytes[i]];
  return out;
}

/**
 * Decodes a `bytea`'s hex text (`\\x…`) into `out` from its start, returning the bytes written (`out` must hold half
 * the text's length). Without Node's `Buffer` (demo mode in the browser, or `plain`: tests), a plain loop.
 */
export function decodeInto(text: string, out: Uint8Array, plain = !NodeBuffer): number {
  if (!text.startsWith('\\x')) return 0;
  if (!plain && NodeBuffer)
    return NodeBuffer.from(out.buffer, out.byteOffset, out.length).write(text.slice(2), 'hex');
  let n = 0;
  for (let i = 2; i + 1 < text.length; i += 2) out[n++] = Number.parseInt(text.slice(i, i + 2), 16);
  return n;
}

/** Whether a stored value (none: empty) holds exactly these bytes: a sketch written again only when it changed. */
export function sameBytes(stored: Uint8Array | null | undefined, bytes: Uint8Array): boolean {
  if ((stored?.length ?? 0) !== bytes.length) return false;
  if (stored) for (let i = 0; i < bytes.length; i++) if (stored[i] !== bytes[i]) return false;
  return true;
}

/** A stored sketch as a driver returns a `bytea`: bytes (node-postgres, PGlite) or PostgreSQL's `\\x…` text; else null. */
export function storedSketch(v: unknown): Uint8Array | null {
  if (v instanceof Uint8Array) return v;
  if (typeof v !== 'string' || !v) return null;
  const out = new Uint8Array(v.length >> 1);
  const n = decodeInto(v, out);
  return n ? out.subarray(0, n) : null;
}

/**
 * Stored sketches copied one after another into one growing buffer, for a read of thousands of them
 * (`eachRowWithBytes`): each row is garbage once copied, and each sketch is folded later by where it lies
 * (`Union.add(arena.bytes, start, end)`; `bytes` may move while it grows, so read it after the last `put`).
 */
export class SketchArena {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  private static spare: SketchArena | undefined;
  /** An empty arena: the one last given back (its buffer already grown to a read's size), or a new one. */
  static take(): SketchArena {
    const arena = SketchArena.spare ?? new SketchArena();
    SketchArena.spare = undefined;
    arena.length = 0;
    return arena;
  }
  /** Gives the arena back for the next read (one is held, up to 64 MB); nothing may read its bytes after. */
  release() {
    if (this.bytes.length <= 1 << 26) SketchArena.spare = this;
  }
  /** Appends a stored sketch's bytes (a `bytea` as `eachRowWithBytes` reads it); returns where it starts (it ends at `length`). */
  put(v: Uint8Array | null): number {
    const start = this.length;
    if (v) {
      this.reserve(v.length);
      this.bytes.set(v, start);
      this.length += v.length;
    }
    return start;
  }
  private reserve(n: number) {
    if (this.length + n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.length + n, 2 * this.bytes.length));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}
// The histogram an estimate counts into (estimates do not overlap: each runs to its end at once).
const histogram = new Array<number>(MAX_RANK + 1).fill(0);

// A merged sketch's indexes in runs of 64 (256 runs): a register is looked up within its run (`MergedSketch.starts`).
const BUCKET_BITS = 6;
const BUCKETS = M >> BUCKET_BITS;

/**
 * A union held for later estimates (`Union.merged`): its non-zero registers in index order, and the histogram; or, when
 * a third or more of the registers are set (a domain's visitors), all 16,384 of them (`dense`), which is smaller than
 * indexes and ranks and read without a search.
 */
export interface MergedSketch {
  indexes: Uint16Array;
  ranks: Uint8Array;
  /** Where each run of 64 register indexes starts in `indexes` (`starts[b]` for indexes `64·b` on; 257 entries). */
  starts: Uint16Array;
  /** `counts[k]`: how many of the 16,384 registers hold rank k. */
  counts: Int32Array;
  /** Every register, in place of `indexes`, `ranks` and `starts` (left empty) when the union is this full. */
  dense?: Uint8Array;
}
const NO_INDEXES = new Uint16Array(0);
const NO_RANKS = new Uint8Array(0);

/**
 * A union of stored sketches being built, estimated at the end: sparse sketches touch only
 * their registers, which are counted and cleared again by `estimate`, so the union of small sketches (an agent's
 * pieces) costs their size, not 16,384 registers; a dense one switches the union to every register. One union serves
 * any number of estimates in turn (each `estimate` leaves it empty).
 */
export class Union {
  private readonly regs = new Uint8Array(M);
  private readonly touched = new Uint16Array(M);
  private n = 0;
  private dense = false;

  /** Folds in a stored sketch, or the bytes `s[from, to)` of a larger buffer holding one. */
  add(s: Uint8Array | null | undefined, from = 0, to = s?.length ?? 0): this {
    if (!s || to <= from) return this;
    const regs = this.regs;
    const len = to - from;
    if (len === M) {
      this.dense = true;
      raiseTo(regs, s.subarray(from, to));
      return this;
    }
    const touched = this.touched;
    let n = this.n;
    for (let o = from; o + 2 < to; o += 3) {
      const i = ((s[o] << 8) | s[o + 1]) & (M - 1);
      const r = s[o + 2];
      if (r === 0) continue;
      if (regs[i] === 0) touched[n++] = i;
      if (r > regs[i]) regs[i] = r;
    }
    this.n = n;
    return this;
  }

  /**
   * Folds in every sketch of a group: a framed value, sketches each after its length (four bytes, big-endian), as the
   * reports' SQL sends a group's sketches (`int4send(length(s)) || s`, concatenated: one bytea, which the drivers parse
   * natively, where a bytea[] is parsed element by element), merged where they lie; or the group's stored sketches
   * as a list (read row by row, `Framed`).
   */
  addFramed(v: unknown): this {
    if (!v) return this;
    if (Array.isArray(v)) {
      for (const s of v as Uint8Array[]) this.add(s);
      return this;
    }
    const b = v as Uint8Array;
    for (let o = 0; o + 4 <= b.length; ) {
      const n = ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
      this.add(b, o + 4, Math.min(o + 4 + n, b.length));
      o += 4 + n;
    }
    return this;
  }

  /**
   * Everything added since the last estimate as a merged sketch (its registers in index order and the histogram of all
   * 16,384), for estimates over it and a few more sketches later (`estimateWith`); the union is empty again after.
   */
  merged(): MergedSketch {
    const counts = new Int32Array(MAX_RANK + 1);
    let n = this.n;
    if (this.dense) {
      n = 0;
      for (let i = 0; i < M; i++) if (this.regs[i]) nonZero[n++] = i;
    }
    if (n * 3 >= M) {
      const dense = this.regs.slice();
      counts.set(countRanks(histogram, dense));
      this.regs.fill(0);
      this.n = 0;
      this.dense = false;
      return { indexes: NO_INDEXES, ranks: NO_RANKS, starts: NO_INDEXES, counts, dense };
    }
    const indexes = this.dense ? nonZero.slice(0, n) : this.touched.slice(0, n).sort();
    const ranks = new Uint8Array(indexes.length);
    for (let k = 0; k < indexes.length; k++) {
      ranks[k] = this.regs[indexes[k]];
      counts[ranks[k]]++;
      this.regs[indexes[k]] = 0;
    }
    counts[0] = M - indexes.length;
    const starts = new Uint16Array(BUCKETS + 1);
    for (let k = 0, b = 0; b <= BUCKETS; b++) {
      while (k < indexes.length && indexes[k] >> BUCKET_BITS < b) k++;
      starts[b] = k;
    }
    this.n = 0;
    this.dense = false;
    return { indexes, ranks, counts, starts };
  }

  /**
   * `addMerged(base).addFramed(v).merged()` (the union empty before): with `v` holding nothing, `base` itself (merged
   * sketches are never changed); with `v` one full sketch and `base` full (a busy domain's late day over its older
   * days), in one pass.
   */
  mergedWithFramed(v: unknown, base: MergedSketch | undefined): MergedSketch {
    if (base && !this.dense && this.n === 0) {
      if (!(v as Uint8Array | null | undefined)?.length) return base;
      const full = base.dense && oneFullFrame(v);
      if (full) {
        const dense = new Uint8Array(M);
        const counts = new Int32Array(MAX_RANK + 1);
        counts.set(maxInto(dense, histogram, full, base.dense!));
        return { indexes: NO_INDEXES, ranks: NO_RANKS, starts: NO_INDEXES, counts, dense };
      }
    }
    if (base) this.addMerged(base);
    return this.addFramed(v).merged();
  }

  /** Folds in a merged sketch (`merged`). */
  addMerged(base: MergedSketch): this {
    const regs = this.regs;
    if (base.dense) {
      raiseTo(regs, base.dense);
      this.dense = true;
      return this;
    }
    const { indexes, ranks } = base;
    const touched = this.touched;
    let n = this.n;
    for (let k = 0; k < indexes.length; k++) {
      const i = indexes[k];
      if (regs[i] === 0) touched[n++] = i;
      if (ranks[k] > regs[i]) regs[i] = ranks[k];
    }
    this.n = n;
    return this;
  }

  /**
   * The estimate of the union of `base` and everything added since the last estimate, which costs what was added,
   * not the base sketch's size: each register added is looked up in `base` and moves the histogram if it is higher.
   * The union is empty again after.
   */
  estimateWith(base: MergedSketch | undefined): number {
    if (!base) return this.estimate();
    if (this.dense && base.dense) {
      // Both full: one pass, register by register (a domain's days over a base period).
      maxInto(this.regs, histogram, this.regs, base.dense);
      this.regs.fill(0);
      this.n = 0;
      this.dense = false;
      return estimateFromCounts(histogram);
    }
    if (this.dense) return this.addMerged(base).estimate();
    const c = histogram;
    for (let k = 0; k <= MAX_RANK; k++) c[k] = base.counts[k];
    if (base.dense) {
      const d = base.dense;
      for (let k = 0; k < this.n; k++) {
        const i = this.touched[k];
        const r = this.regs[i];
        this.regs[i] = 0;
        if (r > d[i]) {
          c[d[i]]--;
          c[r]++;
        }
      }
      this.n = 0;
      return estimateFromCounts(c);
    }
    const { indexes, ranks, starts } = base;
    for (let k = 0; k < this.n; k++) {
      const i = this.touched[k];
      const r = this.regs[i];
      this.regs[i] = 0;
      let lo = starts[i >> BUCKET_BITS];
      let hi = starts[(i >> BUCKET_BITS) + 1] - 1;
      let was = 0;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (indexes[mid] < i) lo = mid + 1;
        else if (indexes[mid] > i) hi = mid - 1;
        else {
          was = ranks[mid];
          break;
        }
      }
      if (r > was) {
        c[was]--;
        c[r]++;
      }
    }
    this.n = 0;
    return estimateFromCounts(c);
  }

  /**
   * `addFramed(v).estimateWith(base)`, in one pass when the union is empty, `v` one full sketch and `base` full (a busy
   * domain's day over its base older days): the higher of each register counted where they lie.
   */
  estimateFramedWith(v: unknown, base: MergedSketch | undefined): number {
    const full = base?.dense && !this.dense && this.n === 0 && oneFullFrame(v);
    if (full) {
      // Written into the union's registers (empty, and emptied again), counted as they are written.
      maxInto(this.regs, histogram, full, base!.dense!);
      this.regs.fill(0);
      return estimateFromCounts(histogram);
    }
    return this.addFramed(v).estimateWith(base);
  }

  /** All 16,384 registers of everything added since the last estimate; the union is empty again after. */
  registers(): Registers {
    const out = this.regs.slice();
    if (this.dense) this.regs.fill(0);
    else for (let k = 0; k < this.n; k++) this.regs[this.touched[k]] = 0;
    this.n = 0;
    this.dense = false;
    return out;
  }

  /** The estimate of everything added since the last estimate; the union is empty again after. */
  estimate(): number {
    const c = histogram.fill(0);
    const regs = this.regs;
    if (this.dense) {
      countRanks(c, regs);
      regs.fill(0);
    } else {
      c[0] = M - this.n;
      for (let k = 0; k < this.n; k++) {
        c[regs[this.touched[k]]]++;
        regs[this.touched[k]] = 0;
      }
    }
    this.n = 0;
    this.dense = false;
    return estimateFromCounts(c);
  }
}

const shared = new Union();

/** The estimate over several stored sketches (a report's period): the same as `estimate(merge(stored))`. */
export function estimateStored(stored: Iterable<Uint8Array | null | undefined>): number {
  for (const s of stored) shared.add(s);
  return shared.estimate();
}

/** The estimate of a framed value's sketches merged (`Union.addFramed`). */
export const estimateFramed = (v: unknown): number => shared.addFramed(v).estimate();

/**
 * The stored form of the merge of two stored sketches, the same bytes as `encode(merge([a, b]))`: two sparse ones
 * (their registers in index order, as stored) are merged as sorted lists, without 16,384 registers.
 */
export function mergeStored(a: Uint8Array | null | undefined, b: Uint8Array | null | undefined): Uint8Array {
  const x = a ?? new Uint8Array(0);
  const y = b ?? new Uint8Array(0);
  const slow = () => encode(merge([x, y]));
  if (x.length === M || y.length === M) return slow();
  const out = new Uint8Array(x.length + y.length);
  let o = 0;
  let i = 0;
  let j = 0;
  let last = -1;
  while (i + 2 < x.length || j + 2 < y.length) {
    const kx = i + 2 < x.length ? ((x[i] << 8) | x[i + 1]) & (M - 1) : M;
    const ky = j + 2 < y.length ? ((y[j] << 8) | y[j + 1]) & (M - 1) : M;
    const k = kx < ky ? kx : ky;
    let r = 0;
    if (kx === k) {
      r = x[i + 2];
      i += 3;
    }
    if (ky === k) {
      r = Math.max(r, y[j + 2]);
      j += 3;
    }
    // Not in index order: not a stored sketch as the rollup writes them.
    if (k <= last) return slow();
    last = k;
    if (r === 0) continue;
    putTriple(out, o, k, r);
    o += 3;
  }
  return o >= M ? slow() : out.slice(0, o);
}

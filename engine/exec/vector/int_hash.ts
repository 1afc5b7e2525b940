/**
 * An open-addressing hash table from a pair of int32 values to a dense id (0, 1, 2, ... in
 * first-insertion order), in typed arrays: the one structure behind every vectorized grouping
 * step. A pair serves all key shapes without boxing: (previous group id, next key's id) folds
 * multi-column keys, (high word, low word) is a LONG or TIMESTAMP, the two words of a DOUBLE's
 * bits are a DOUBLE, (value, 0) is an INT, (group id, value id) is one DISTINCT pair.
 *
 * A JS Map over numbers or strings costs 30-100 ns a row here; a probe of these arrays costs a
 * few, and a batch is mapped in one monomorphic loop (`mapBatch`).
 */
/** Side of the first direct-index rectangle of small pairs (64K entries, 256 KB). */
const DIRECT = 256;
/**
 * Largest direct rectangle (2M entries, 8 MB), and at most this many entries per pair held:
 * the rectangle widens for the folds of larger id ranges (GROUP BY qty, symbol: 10000 x 100
 * ids, 330K groups) once the pairs held make it no more than a few times the hash's 24 bytes
 * a pair.
 */
const DIRECT_MAX = 1 << 21;
const DIRECT_PER_PAIR = 64;

export class IntPairHash {
  #mask: number;
  #a: Int32Array;
  #b: Int32Array;
  #id: Int32Array;
  /**
   * Ids of pairs (a, b) with a in [0, #rows) and b in [0, 2^#shift), at (a << #shift) + b
   * (-1: not seen yet); DIRECT x DIRECT at first, widened by `#widen`.
   */
  #direct?: Int32Array;
  #rows = DIRECT;
  #shift = 8;
  /** The largest a and b written into the rectangle (-1: none yet). */
  #heldA = -1;
  #heldB = -1;
  /** The pair count at the last refused widening (0: none). */
  #refusedAt = 0;
  size = 0;
  /** Pairs held by the hash (the others are in the direct rectangle only). */
  #hashed = 0;

  constructor(capacity = 1024) {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    this.#mask = cap - 1;
    this.#a = new Int32Array(cap);
    this.#b = new Int32Array(cap);
    this.#id = new Int32Array(cap).fill(-1);
  }

  /** Bytes held, for the statement's memory budget. */
  get bytes(): number {
    return this.#id.length * 12 + (this.#direct ? this.#direct.length * 4 : 0);
  }

  /** The id of (a, b), inserting it with the next id when new. */
  idOf(a: number, b: number): number {
    const d = this.#direct, shift = this.#shift;
    const small = d !== undefined && a >>> 0 < this.#rows && b >>> 0 < 1 << shift;
    if (small) {
      const id = d[(a << shift) + b];
      if (id >= 0) return id;
    }
    if (this.#hashed * 2 >= this.#mask) this.#grow();
    const mask = this.#mask, ka = this.#a, kb = this.#b, ids = this.#id;
    let h = hash(a, b) & mask;
    for (;;) {
      const id = ids[h];
      if (id < 0) {
        if (small) {
          this.#held(a, b);
          return d[(a << shift) + b] = this.size++;
        }
        ka[h] = a;
        kb[h] = b;
        ids[h] = this.size;
        this.#hashed++;
        return this.size++;
      }
      if (ka[h] === a && kb[h] === b) {
        if (small) {
          this.#held(a, b);
          d[(a << shift) + b] = id;
        }
        return id;
      }
      h = (h + 1) & mask;
    }
  }

  /**
   * out[i] = id of (a[i], b ? b[i] : 0) for i < n. The table grows when an insert would pass
   * half full, not ahead for a whole batch: growing for 64K possible inserts made a table of
   * 100 groups 256K slots wide, each probe a cache miss.
   */
  mapBatch(a: Int32Array, b: Int32Array | undefined, n: number, out: Int32Array): void {
    let mask = this.#mask, ka = this.#a, kb = this.#b, ids = this.#id;
    // Pairs of two small non-negative ints (folded ids of low-cardinality keys, small INT
    // values such as hour(ts) or qty % 7) are found by direct index: one read, no hashing. The
    // table only caches the hash's ids, so both routes give the same id.
    this.#direct ??= new Int32Array(DIRECT * DIRECT).fill(-1);
    if (b !== undefined && this.size >= this.#refusedAt * 2) this.#widenFor(a, b, n);
    const direct = this.#direct, rows = this.#rows, shift = this.#shift, width = 1 << shift;
    let size = this.size;
    let i = 0;
    // The leading rows whose pairs the direct rectangle already holds (all of them, once the
    // groups of a low-cardinality fold have been seen), in a loop without the probe; the loop
    // below takes the rest from the first row that needs it.
    if (b !== undefined) {
      for (; i < n; i++) {
        const x = a[i], y = b[i];
        const id = x >>> 0 < rows && y >>> 0 < width ? direct[(x << shift) + y] : -1;
        if (id < 0) break;
        out[i] = id;
      }
    }
    // The previous row's pair and id: runs of one key (sorted or bucketed times, repeated
    // values) skip the hash.
    let px = 0, py = 0, pid = -1;
    for (; i < n; i++) {
      const x = a[i], y = b === undefined ? 0 : b[i];
      if (x === px && y === py && pid >= 0) {
        out[i] = pid;
        continue;
      }
      px = x;
      py = y;
      const small = x >>> 0 < rows && y >>> 0 < width;
      if (small) {
        const id = direct[(x << shift) + y];
        if (id >= 0) {
          out[i] = pid = id;
          continue;
        }
      }
      let h = hash(x, y) & mask;
      for (;;) {
        const id = ids[h];
        if (id < 0) {
          // A new pair inside the rectangle lives there only: the hash keeps the pairs outside
          // it (and those inserted before it widened), so it neither fills nor grows for them.
          if (small) {
            direct[(x << shift) + y] = size;
            if (x > this.#heldA) this.#heldA = x;
            if (y > this.#heldB) this.#heldB = y;
            out[i] = pid = size++;
            break;
          }
          if ((this.#hashed + 1) * 2 >= mask) {
            this.#grow();
            mask = this.#mask, ka = this.#a, kb = this.#b, ids = this.#id;
            h = hash(x, y) & mask;
            continue;
          }
          ka[h] = x;
          kb[h] = y;
          ids[h] = size;
          this.#hashed++;
          out[i] = pid = size++;
          break;
        }
        if (ka[h] === x && kb[h] === y) {
          if (small) {
            direct[(x << shift) + y] = id;
            if (x > this.#heldA) this.#heldA = x;
            if (y > this.#heldB) this.#heldB = y;
          }
          out[i] = pid = id;
          break;
        }
        h = (h + 1) & mask;
      }
    }
    this.size = size;
  }

  #held(a: number, b: number): void {
    if (a > this.#heldA) this.#heldA = a;
    if (b > this.#heldB) this.#heldB = b;
  }

  /** Widens the rectangle, before a batch, to the batch's pairs when they are small enough. */
  #widenFor(a: Int32Array, b: Int32Array, n: number): void {
    // The batch's largest pair values, when none is negative (a DOUBLE's or LONG's words
    // rarely are all non-negative and small: they stay with the hash).
    let mx = 0, my = 0;
    for (let i = 0; i < n; i++) {
      const x = a[i], y = b[i];
      if (x > mx) mx = x;
      if (y > my) my = y;
      if ((x | y) < 0) return;
    }
    if (mx >= this.#rows || my >= 1 << this.#shift) this.#widen(mx, my, this.size);
  }

  /**
   * Widens the rectangle to hold pairs up to (x, y) when the result stays within DIRECT_MAX
   * entries and DIRECT_PER_PAIR per pair (`size`: the pairs held). A
   * refusal stands until the pairs double, as the allowed area grows with them.
   */
  #widen(x: number, y: number, size: number): boolean {
    if (x >= DIRECT_MAX || y >= DIRECT_MAX) {
      this.#refusedAt = Math.max(this.size, 1);
      return false;
    }
    // The new rectangle covers (x, y) and the pairs the old one holds, and no more: a side is
    // not kept at its old length when only the other grows (the first rectangle is 256 x 256,
    // and 10000 qty ids x 100 symbol ids then asked 16384 x 256, past DIRECT_MAX, where
    // 16384 x 128 fits).
    const fits = (x: number, y: number) => {
      let rows = 1, shift = 0;
      while (rows <= x) rows *= 2;
      while (1 << shift <= y) shift++;
      const area = rows * (1 << shift);
      return area <= DIRECT_MAX && area <= DIRECT_PER_PAIR * Math.max(size, 4096);
    };
    // Refused on (x, y) alone: the held pairs are not scanned (a refusal repeats per doubling).
    if (!fits(x, y)) {
      this.#refusedAt = Math.max(this.size, 1);
      return false;
    }
    const old = this.#direct!, oldShift = this.#shift, oldWidth = 1 << oldShift;
    // The largest pair values the rectangle holds (tracked as they are written; scanning the
    // old rectangle for them cost a pass over up to 8 MB per widening).
    const heldX = Math.max(0, this.#heldA), heldY = Math.max(0, this.#heldB);
    let rows = 1, shift = 0;
    while (rows <= Math.max(x, heldX)) rows *= 2;
    while (1 << shift <= Math.max(y, heldY)) shift++;
    const area = rows * (1 << shift);
    if (area > DIRECT_MAX || area > DIRECT_PER_PAIR * Math.max(size, 4096)) {
      this.#refusedAt = Math.max(this.size, 1);
      return false;
    }
    const next = new Int32Array(area).fill(-1), width = Math.min(oldWidth, 1 << shift);
    for (let r = 0; r < Math.min(this.#rows, rows); r++) {
      next.set(old.subarray(r << oldShift, (r << oldShift) + width), r << shift);
    }
    this.#direct = next;
    this.#rows = rows;
    this.#shift = shift;
    // The largest rectangle: later batches need not look for wider pairs.
    if (area === DIRECT_MAX) this.#refusedAt = Infinity;
    return true;
  }

  #grow(): void {
    const oa = this.#a, ob = this.#b, oid = this.#id;
    const cap = oid.length * 2;
    const mask = cap - 1;
    const ka = new Int32Array(cap), kb = new Int32Array(cap), ids = new Int32Array(cap).fill(-1);
    for (let i = 0; i < oid.length; i++) {
      const id = oid[i];
      if (id < 0) continue;
      let h = hash(oa[i], ob[i]) & mask;
      while (ids[h] >= 0) h = (h + 1) & mask;
      ka[h] = oa[i];
      kb[h] = ob[i];
      ids[h] = id;
    }
    this.#a = ka;
    this.#b = kb;
    this.#id = ids;
    this.#mask = mask;
  }
}

/** Mixes both words so that sequential keys (ids, timestamps) spread over the table. */
function hash(a: number, b: number): number {
  let h = Math.imul(a ^ Math.imul(b, 0x85ebca6b), 0x9e3779b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/**
 * The set of (group id, value id) pairs seen by a DISTINCT aggregate (count(DISTINCT x),
 * sum(DISTINCT x), ...): for each pair of a batch, whether it is new. Only membership is needed,
 * not a dense id per pair, so while the ids are small the pairs are bits of a rectangle
 * (group << shift | value): 100 symbols x 10,000 qty values are 2M bits, 256 KB that stay in
 * the L2 cache, where IntPairHash's direct rectangle of int32 ids is 8 MB and a cache miss a
 * row (count_distinct(qty) GROUP BY symbol spent 60% of its time there). Past the rectangle's
 * limits the pairs move into an IntPairHash, where a pair is new when it gets the next id.
 */
import { IntPairHash } from "./int_hash.ts";

/** Largest rectangle: 2^28 bits (32 MB). */
const BITS_MAX = 1 << 28;
/**
 * Bits allowed per pair held (64 bytes, where the hash takes 24 and its direct rectangle up to
 * 256), counted from at least 2^16 pairs: sparse rectangles go to the hash.
 */
const BITS_PER_PAIR = 512;
const PAIRS_FLOOR = 1 << 16;

export class PairSet {
  /** Pairs held. */
  size = 0;
  /** Bit (a << #shift) + b of the pair (a, b); undefined once the pairs moved to #hash. */
  #bits?: Int32Array = new Int32Array(1 << 13);
  /** a < 2^#rowBits, b < 2^#shift (#shift >= 5: a row is whole 32-bit words). */
  #rowBits = 8;
  #shift = 8;
  /** The largest a and b held (-1: none). */
  #maxA = -1;
  #maxB = -1;
  #hash?: IntPairHash;
  #ids = new Int32Array(0);

  /** Bytes held, for the statement's memory budget. */
  get bytes(): number {
    return this.#bits ? this.#bits.length * 4 : this.#hash!.bytes;
  }

  /**
   * out[i] = 1 when (a[i], b[i]) is seen for the first time (earlier rows of the batch count),
   * else 0, for i < n; ids are non-negative. Returns the number of new pairs.
   */
  markNew(a: Int32Array, b: Int32Array, n: number, out: Uint8Array): number {
    if (this.#bits) {
      let mx = this.#maxA, my = this.#maxB;
      for (let i = 0; i < n; i++) {
        const x = a[i], y = b[i];
        if (x > mx) mx = x;
        if (y > my) my = y;
      }
      if (mx >= 1 << this.#rowBits || my >= 1 << this.#shift) this.#reshape(mx, my);
      if (mx > this.#maxA) this.#maxA = mx;
      if (my > this.#maxB) this.#maxB = my;
    }
    const bits = this.#bits;
    if (!bits) return this.#markHashed(a, b, n, out);
    const shift = this.#shift;
    let fresh = 0;
    for (let i = 0; i < n; i++) {
      const at = (a[i] << shift) + b[i], w = at >>> 5, bit = 1 << (at & 31);
      const word = bits[w];
      if ((word & bit) !== 0) {
        out[i] = 0;
        continue;
      }
      bits[w] = word | bit;
      out[i] = 1;
      fresh++;
    }
    this.size += fresh;
    return fresh;
  }

  /** A rectangle holding pairs up to (x, y), or the hash when it would be too large. */
  #reshape(x: number, y: number): void {
    let rowBits = this.#rowBits, shift = this.#shift;
    while (1 << rowBits <= x) rowBits++;
    while (1 << shift <= y) shift++;
    const area = 2 ** (rowBits + shift);
    if (area > BITS_MAX || area > BITS_PER_PAIR * Math.max(this.size, PAIRS_FLOOR)) return this.#toHash();
    const old = this.#bits!, oldShift = this.#shift, rowWords = 1 << (oldShift - 5);
    const next = new Int32Array(area / 32);
    for (let r = 0; r <= this.#maxA; r++) {
      next.set(old.subarray(r * rowWords, (r + 1) * rowWords), r << (shift - 5));
    }
    this.#bits = next;
    this.#rowBits = rowBits;
    this.#shift = shift;
  }

  /** Moves the pairs held into the hash, for good. */
  #toHash(): void {
    const bits = this.#bits!, shift = this.#shift, hash = new IntPairHash(this.size);
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w];
      while (word !== 0) {
        const low = word & -word, at = w * 32 + 31 - Math.clz32(low);
        hash.idOf(at >>> shift, at & ((1 << shift) - 1));
        word ^= low;
      }
    }
    this.#hash = hash;
    this.#bits = undefined;
  }

  #markHashed(a: Int32Array, b: Int32Array, n: number, out: Uint8Array): number {
    if (this.#ids.length < n) this.#ids = new Int32Array(n);
    const ids = this.#ids, hash = this.#hash!;
    const before = hash.size;
    let next = before;
    hash.mapBatch(a, b, n, ids);
    for (let i = 0; i < n; i++) {
      if (ids[i] === next) {
        out[i] = 1;
        next++;
      } else out[i] = 0;
    }
    this.size = hash.size;
    return next - before;
  }
}

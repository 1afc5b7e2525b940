/**
 * The pseudo-random generator behind the rnd_* functions (spec/sql.md §16.2): QuestDB's `Rnd`
 * (xorshift128+), seeded per query and reseeded by `long_sequence(n, s0, s1)`. The generator
 * matches QuestDB's; whether a function draws exactly as QuestDB's does depends on the function.
 */
import type { RandomSource } from "./registry_types.ts";

const INT_MAX = 2147483647;
const TWO32 = 2 ** 32;

/**
 * QuestDB's `Rnd` bit for bit: Java's signed 64-bit arithmetic (`>>` keeps the sign), nextDouble
 * from 26 + 27 of the upper 48 bits, nextInt(bound) as `nextPositiveInt() % bound`. So
 * `long_sequence(n, s0, s1)` draws what QuestDB draws from the same seeds (row-generator.md:
 * `rnd_double()` of `long_sequence(2, 128349234, 4327897)` is 0.8251337821991485, then
 * 0.2714941145110299). The 64-bit state is held as 32-bit halves (a BigInt state cost ~200 ns a
 * rnd_double); tests/engine/functions/random_source_test.ts checks it against a BigInt reference.
 */
class QuestRnd implements RandomSource {
  // s0 and s1 as high (signed) and low (unsigned) 32-bit halves.
  private s0h = 0;
  private s0l = 0;
  private s1h = 0;
  private s1l = 0;
  // The last draw's halves.
  private rh = 0;
  private rl = 0;

  constructor(seed0: bigint, seed1: bigint) {
    this.reseed(seed0, seed1);
  }

  reseed(s0: bigint, s1: bigint): void {
    const a = BigInt.asIntN(64, s0);
    let b = BigInt.asIntN(64, s1);
    // The all-zero state is a fixed point of xorshift; nudge it.
    if (a === 0n && b === 0n) b = -0x61c8864680b583ebn;
    this.s0h = Number(BigInt.asIntN(32, a >> 32n));
    this.s0l = Number(BigInt.asUintN(32, a));
    this.s1h = Number(BigInt.asIntN(32, b >> 32n));
    this.s1l = Number(BigInt.asUintN(32, b));
  }

  /** One xorshift128+ step; the result's halves go to rh/rl. */
  private step(): void {
    let l1h = this.s0h, l1l = this.s0l;
    const l0h = this.s1h, l0l = this.s1l;
    this.s0h = l0h;
    this.s0l = l0l;
    // l1 ^= l1 << 23
    const shh = (l1h << 23) | (l1l >>> 9), shl = (l1l << 23) >>> 0;
    l1h = l1h ^ shh;
    l1l = (l1l ^ shl) >>> 0;
    // s1 = l1 ^ l0 ^ (l1 >> 17) ^ (l0 >> 26), arithmetic shifts
    const a17h = l1h >> 17, a17l = ((l1l >>> 17) | (l1h << 15)) >>> 0;
    const b26h = l0h >> 26, b26l = ((l0l >>> 26) | (l0h << 6)) >>> 0;
    this.s1h = l1h ^ l0h ^ a17h ^ b26h;
    this.s1l = (l1l ^ l0l ^ a17l ^ b26l) >>> 0;
    // result = s1 + l0 (wrapping)
    const lo = this.s1l + l0l;
    this.rl = lo >>> 0;
    this.rh = (this.s1h + l0h + (lo >= TWO32 ? 1 : 0)) | 0;
  }

  nextLong(): bigint {
    this.step();
    return BigInt.asIntN(64, (BigInt(this.rh) << 32n) | BigInt(this.rl));
  }

  nextDouble(): number {
    // (x & MASK48) >> 22 and >> 21 of two draws: 26 and 27 bits.
    this.step();
    const hi = (this.rh & 0xffff) * 1024 + (this.rl >>> 22);
    this.step();
    const lo = (this.rh & 0xffff) * 2048 + (this.rl >>> 21);
    return (hi * 2 ** 27 + lo) * 2 ** -53;
  }

  nextInt(bound: number): number {
    // QuestDB's nextPositiveInt() % bound; wider bounds (time ranges, IPv4) scale a double.
    if (bound > INT_MAX) return Math.floor(this.nextDouble() * bound);
    this.step();
    // nextPositiveInt: Integer.MIN_VALUE becomes MAX_VALUE.
    const n = this.rl | 0;
    return (n > 0 ? n : n === -2147483648 ? 2147483647 : -n) % bound;
  }
}

/**
 * Creates a random source. Without seeds it is seeded from the clock, as QuestDB seeds each
 * query; with seeds the sequence is reproducible.
 */
export function createRandom(seed0?: bigint, seed1?: bigint): RandomSource {
  const now = BigInt(Date.now());
  const jitter = BigInt(Math.floor(performance.now() * 1000));
  return new QuestRnd(seed0 ?? now * 0x9e3779b1n, seed1 ?? (jitter ^ (now << 20n)));
}

/** Uniform bigint in `range` (both bounds inclusive) from a random source. */
export function randomBigIntInRange(r: RandomSource, range: { lo: bigint; hi: bigint }): bigint {
  const { lo, hi } = range;
  const span = hi - lo + 1n;
  if (span <= 0n) return lo;
  if (span <= 1n << 53n) return lo + BigInt(r.nextInt(Number(span)));
  const u = BigInt.asUintN(64, r.nextLong());
  return lo + (u % span);
}

/**
 * The pseudo-random generator behind the rnd_* functions (spec/sql.md §16.2): QuestDB's `Rnd`
 * (xorshift128+), seeded per query and reseeded by `long_sequence(n, s0, s1)`. The generator
 * matches QuestDB's; whether a function draws exactly as QuestDB's does depends on the function.
 */
import type { RandomSource } from "./registry_types.ts";

const MASK48 = (1n << 48n) - 1n;
const INT_MAX = 2147483647;

/**
 * QuestDB's `Rnd` bit for bit: Java's signed 64-bit arithmetic (`>>` keeps the sign), nextDouble
 * from 26 + 27 of the upper 48 bits, nextInt(bound) as `nextPositiveInt() % bound`. So
 * `long_sequence(n, s0, s1)` draws what QuestDB draws from the same seeds (row-generator.md:
 * `rnd_double()` of `long_sequence(2, 128349234, 4327897)` is 0.8251337821991485, then
 * 0.2714941145110299).
 */
class QuestRnd implements RandomSource {
  private s0 = 0n;
  private s1 = 0n;

  constructor(seed0: bigint, seed1: bigint) {
    this.reseed(seed0, seed1);
  }

  reseed(s0: bigint, s1: bigint): void {
    this.s0 = BigInt.asIntN(64, s0);
    this.s1 = BigInt.asIntN(64, s1);
    // The all-zero state is a fixed point of xorshift; nudge it.
    if (this.s0 === 0n && this.s1 === 0n) this.s1 = -0x61c8864680b583ebn;
  }

  nextLong(): bigint {
    let l1 = this.s0;
    const l0 = this.s1;
    this.s0 = l0;
    l1 = BigInt.asIntN(64, l1 ^ (l1 << 23n));
    this.s1 = l1 ^ l0 ^ (l1 >> 17n) ^ (l0 >> 26n);
    return BigInt.asIntN(64, this.s1 + l0);
  }

  nextDouble(): number {
    const hi = Number((this.nextLong() & MASK48) >> 22n);
    const lo = Number((this.nextLong() & MASK48) >> 21n);
    return (hi * 2 ** 27 + lo) * 2 ** -53;
  }

  nextInt(bound: number): number {
    // QuestDB's nextPositiveInt() % bound; wider bounds (time ranges, IPv4) scale a double.
    if (bound > INT_MAX) return Math.floor(this.nextDouble() * bound);
    const n = Number(BigInt.asIntN(32, this.nextLong()));
    return Math.abs(n > 0 ? n : -n) % bound;
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

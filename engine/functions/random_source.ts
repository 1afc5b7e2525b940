/**
 * The pseudo-random generator behind the rnd_* functions (spec/sql.md §16.2): xorshift128+, the
 * algorithm of QuestDB's `Rnd`, seeded per query and reseeded by `long_sequence(n, s0, s1)`.
 * Bit-exact agreement with QuestDB's sequences is a P2 goal, not a promise of this file.
 */
import type { RandomSource } from "./registry_types.ts";

const MASK64 = (1n << 64n) - 1n;

class XorShift128Plus implements RandomSource {
  private s0 = 0n;
  private s1 = 0n;

  constructor(seed0: bigint, seed1: bigint) {
    this.reseed(seed0, seed1);
  }

  reseed(s0: bigint, s1: bigint): void {
    this.s0 = s0 & MASK64;
    this.s1 = s1 & MASK64;
    // The all-zero state is a fixed point of xorshift; nudge it.
    if (this.s0 === 0n && this.s1 === 0n) this.s1 = 0x9e3779b97f4a7c15n;
  }

  /** The next 64 bits as an unsigned bigint (QuestDB's Rnd.nextLong, unsigned view). */
  private next(): bigint {
    let l1 = this.s0;
    const l0 = this.s1;
    this.s0 = l0;
    l1 = (l1 ^ (l1 << 23n)) & MASK64;
    this.s1 = l1 ^ l0 ^ (l1 >> 17n) ^ (l0 >> 26n);
    return (this.s1 + l0) & MASK64;
  }

  nextLong(): bigint {
    return BigInt.asIntN(64, this.next());
  }

  nextDouble(): number {
    return Number(this.next() >> 11n) / 2 ** 53;
  }

  nextInt(bound: number): number {
    return Math.floor(this.nextDouble() * bound);
  }
}

/**
 * Creates a random source. Without seeds it is seeded from the clock, as QuestDB seeds each
 * query; with seeds the sequence is reproducible.
 */
export function createRandom(seed0?: bigint, seed1?: bigint): RandomSource {
  const now = BigInt(Date.now());
  const jitter = BigInt(Math.floor(performance.now() * 1000));
  return new XorShift128Plus(seed0 ?? now * 0x9e3779b1n, seed1 ?? (jitter ^ (now << 20n)));
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

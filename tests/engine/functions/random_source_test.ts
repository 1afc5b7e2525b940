/**
 * The rnd_* generator (engine/functions/random_source.ts) keeps its 64-bit xorshift128+ state
 * in 32-bit halves; this checks every draw kind against a BigInt transcription of QuestDB's
 * `Rnd` (Java signed 64-bit arithmetic) over many seeds, including negative and zero ones.
 */
import assert from "node:assert/strict";
import { createRandom } from "../../../engine/functions/random_source.ts";

/** QuestDB's Rnd with BigInt state: the reference. */
class ReferenceRnd {
  s0: bigint;
  s1: bigint;
  constructor(a: bigint, b: bigint) {
    this.s0 = BigInt.asIntN(64, a);
    this.s1 = BigInt.asIntN(64, b);
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
    const mask = (1n << 48n) - 1n;
    const hi = Number((this.nextLong() & mask) >> 22n);
    const lo = Number((this.nextLong() & mask) >> 21n);
    return (hi * 2 ** 27 + lo) * 2 ** -53;
  }
  nextInt(bound: number): number {
    const n = Number(BigInt.asIntN(32, this.nextLong()));
    return Math.abs(n > 0 ? n : -n) % bound;
  }
}

const SEEDS: [bigint, bigint][] = [
  [0n, 0n],
  [128349234n, 4327897n],
  [-559038737n, -555433747n],
  [-1n, 1n],
  [0x7fffffffffffffffn, -0x8000000000000000n],
  [123456789012345n, -987654321098765n],
];

Deno.test("the 32-bit-halves generator draws QuestDB's Rnd sequence for every draw kind", () => {
  for (const [a, b] of SEEDS) {
    const fast = createRandom(a, b), ref = new ReferenceRnd(a, b);
    for (let i = 0; i < 3000; i++) {
      const kind = i % 4;
      if (kind === 0) assert.equal(fast.nextLong(), ref.nextLong(), `long ${i} of ${a},${b}`);
      else if (kind === 1) assert.equal(fast.nextDouble(), ref.nextDouble(), `double ${i} of ${a},${b}`);
      else {assert.equal(
          fast.nextInt(kind === 2 ? 1000 : INT_BOUND),
          ref.nextInt(kind === 2 ? 1000 : INT_BOUND),
        );}
    }
  }
});

const INT_BOUND = 2147483647;

Deno.test("rnd_double of QuestDB's documented seeds", () => {
  const r = createRandom(128349234n, 4327897n);
  assert.equal(r.nextDouble(), 0.8251337821991485);
  assert.equal(r.nextDouble(), 0.2714941145110299);
});

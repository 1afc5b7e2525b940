/**
 * approx_count_distinct's estimate, computed the way QuestDB's HyperLogLog++ computes it
 * (ApproxCountDistinct{Long,Int,IPv4}GroupByFunction): each value is hashed with the 64-bit
 * half of Murmur3 x64_128 (seed 95967); while the distinct 25-bit hash prefixes fit in the
 * memory of the dense registers the sketch is sparse and its estimate is linear counting over
 * 2^25 registers, after that it is 2^precision registers holding the longest run of leading
 * zeros, estimated by linear counting below QuestDB's per-precision threshold and by the raw
 * HyperLogLog estimate above it, less HLL++'s empirical bias (hyperloglog_bias.ts: the mean of
 * the 6 nearest sampled raw estimates' biases) while that estimate is at most 5 * 2^precision.
 *
 * The sketch depends only on the set of distinct values, so the aggregate keeps that set and
 * estimates once at the end.
 */
import { BIASES, RAW_ESTIMATES } from "./hyperloglog_bias.ts";

const MASK64 = (1n << 64n) - 1n;
const SEED = 95967n;
const C1 = 0x87c37b91114253d5n;
const C2 = 0x4cf5ad432745937fn;
const SPARSE_PRECISION = 25;
/** QuestDB's BiasCorrectionData.THRESHOLD_DATA, precision 4 to 18. */
const THRESHOLDS = [10, 20, 40, 80, 220, 400, 900, 1800, 3100, 6500, 15500, 20000, 50000, 120000, 350000];

function fmix64(h: bigint): bigint {
  h = ((h ^ (h >> 33n)) * 0xff51afd7ed558ccdn) & MASK64;
  h = ((h ^ (h >> 33n)) * 0xc4ceb9fe1a85ec53n) & MASK64;
  return h ^ (h >> 33n);
}

/** QuestDB's Hash.murmur3ToLong: `key` as an unsigned 64-bit value of `size` bytes (8 or 4). */
export function murmur3ToLong(key: bigint, size: 4 | 8): bigint {
  let k1 = (key * C1) & MASK64;
  k1 = ((k1 << 31n) | (k1 >> 33n)) & MASK64;
  k1 = (k1 * C2) & MASK64;
  let h1 = SEED ^ k1 ^ BigInt(size);
  let h2 = SEED ^ BigInt(size);
  h1 = (h1 + h2) & MASK64;
  h2 = (h2 + h1) & MASK64;
  return (fmix64(h1) + fmix64(h2)) & MASK64;
}

/** Leading zeros of a 64-bit value (0 to 64). */
function clz64(x: bigint): number {
  const hi = Number(x >> 32n);
  return hi !== 0 ? Math.clz32(hi) : 32 + Math.clz32(Number(x & 0xffffffffn));
}

/** The estimate for a set of 64-bit hashes at `precision` (4 to 18). */
export function estimateCardinality(hashes: Iterable<bigint>, precision: number): number {
  const m = 1 << precision;
  // A sparse entry is 4 bytes; the sparse set may use the dense form's bytes less its header.
  const sparseMax = Math.max((9 + m - 24) >> 2, 0);
  const all = [...hashes];
  if (sparseMax > 0) {
    const prefixes = new Set<number>();
    for (const h of all) prefixes.add(Number(h >> BigInt(64 - SPARSE_PRECISION)));
    if (prefixes.size < sparseMax) {
      const n = 2 ** SPARSE_PRECISION;
      return Math.round(n * Math.log(n / (n - prefixes.size)));
    }
  }
  const registers = new Uint8Array(m);
  const p = BigInt(precision), shift = BigInt(64 - precision), mark = 1n << (p - 1n);
  for (const h of all) {
    const idx = Number(h >> shift);
    const rho = clz64(((h << p) & MASK64) | mark) + 1;
    if (registers[idx] < rho) registers[idx] = rho;
  }
  let sum = 0, empty = 0;
  for (const r of registers) {
    sum += 2 ** -r;
    if (r === 0) empty++;
  }
  if (empty > 0) {
    const h = m * Math.log(m / empty);
    if (h < THRESHOLDS[precision - 4]) return Math.round(h);
  }
  const alpha = m === 16 ? 0.673 : m === 32 ? 0.697 : m === 64 ? 0.709 : 0.7213 / (1 + 1.079 / m);
  const raw = alpha * m * m * (1 / sum);
  return Math.round(raw <= 5 * m ? raw - bias(raw, precision - 4) : raw);
}

/** The mean bias of the 6 sampled raw estimates nearest `estimate` (QuestDB's estimateBias). */
function bias(estimate: number, row: number): number {
  const raws = RAW_ESTIMATES[row], biases = BIASES[row];
  // The last sample at or below the estimate (the first when none is), as Arrays.binarySearch gives.
  let lo = 0, hi = raws.length - 1, nearest = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (raws[mid] < estimate) lo = mid + 1;
    else if (raws[mid] > estimate) hi = mid - 1;
    else {
      nearest = mid;
      break;
    }
  }
  if (nearest < 0) nearest = Math.max(lo - 1, 0);
  let left = nearest, right = nearest + 1;
  for (let i = 0; i < 5; i++) {
    if (left - 1 < 0) right++;
    else if (right === raws.length) left--;
    else if (estimate - raws[left - 1] < raws[right] - estimate) left--;
    else right++;
  }
  let total = 0;
  for (let i = left; i < right; i++) total += biases[i];
  return total / 6;
}

/**
 * The bytes QuestDB hashes for an approx_count_distinct argument of type `tag`: 4 for the INT
 * form (BYTE, SHORT, INT) and the IPv4 form, 8 for the LONG form (LONG, DATE, TIMESTAMP);
 * undefined for the types counted exactly.
 */
export function sketchBytes(tag: string): 4 | 8 | undefined {
  if (tag === "INT" || tag === "SHORT" || tag === "BYTE" || tag === "IPV4") return 4;
  if (tag === "LONG" || tag === "DATE" || tag === "TIMESTAMP" || tag === "TIMESTAMP_NS") return 8;
  return undefined;
}

/** The estimate for a group's distinct non-NULL integer values (0 for none). */
export function approxCountDistinct(values: Iterable<unknown>, bytes: 4 | 8, precision: number): bigint {
  const mask = bytes === 4 ? 0xffffffffn : MASK64;
  const hashes: bigint[] = [];
  for (const v of values) hashes.push(murmur3ToLong(BigInt(v as number | bigint) & mask, bytes));
  return hashes.length === 0 ? 0n : BigInt(estimateCardinality(hashes, precision));
}

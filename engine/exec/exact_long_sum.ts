/**
 * The true sum of LONG values from the WASM kernels' statistics. The kernels sum 64-bit integers
 * in 64 bits, so their sums wrap as QuestDB's sum() does; avg() divides the true sum. The true
 * sum of n values in [min, max] lies in [n * min, n * max]: when that interval is narrower than
 * 2^64 (any realistic data) the wrapped sum names exactly one value in it. Wider ones (values
 * near +-2^62) are summed again from their rows by the caller.
 */

const TWO_64 = 1n << 64n;

/** LONG's NULL: never part of a sum. */
export const LONG_NULL_BIG = -(2n ** 63n);

/** The true sum, or undefined when [n * min, n * max] is 2^64 wide or wider. */
export function exactLongSum(n: bigint, wrapped: bigint, min: bigint, max: bigint): bigint | undefined {
  if (n === 0n) return 0n;
  if (n * (max - min) >= TWO_64) return undefined;
  const lo = n * min;
  return lo + BigInt.asUintN(64, wrapped - lo);
}

/**
 * The true sum of the non-NULL values among `values`: all of them, or the rows `sel` lists,
 * and only those whose `keep(row)` holds when given (one group's rows).
 */
export function sumLongRows(
  values: BigInt64Array,
  sel?: Int32Array,
  keep?: (row: number) => boolean,
): bigint {
  let sum = 0n;
  const n = sel ? sel.length : values.length;
  for (let i = 0; i < n; i++) {
    const row = sel ? sel[i] : i;
    const v = values[row];
    if (v !== LONG_NULL_BIG && (!keep || keep(row))) sum += v;
  }
  return sum;
}

/**
 * Scalar functions over DOUBLE arrays (spec/sql.md §22.5). Each returns NULL for a NULL array
 * argument; NULL (NaN) elements are skipped where the spec says "finite".
 */
import { SqlError } from "../base/errors.ts";
import { arrayType, type ColumnType, isNumeric, T } from "../base/types.ts";
import { DoubleArray } from "../base/double_array.ts";
import type { Value } from "../base/values.ts";
import { isNullType, noMatch, scalar, toDouble } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

function isArray(a: BoundArg | undefined, dims?: number): boolean {
  return a !== undefined && a.type.tag === "ARRAY" && (dims === undefined || a.type.dims === dims);
}

function isNum(a: BoundArg | undefined): boolean {
  return a !== undefined && (isNumeric(a.type) || isNullType(a.type));
}

/** A function of one array returning a DOUBLE computed from its finite elements. */
function reduce(name: string, f: (xs: number[], all: Float64Array) => number | null): ScalarFunction {
  return scalar(name, (args) => {
    if (args.length !== 1 || !isArray(args[0])) return noMatch(name, args);
    return {
      returns: T.DOUBLE,
      eval: ([a]) => {
        if (a === null) return null;
        const data = (a as DoubleArray).data;
        const xs: number[] = [];
        for (const x of data) if (Number.isFinite(x)) xs.push(x);
        const r = f(xs, data);
        return r === null || !Number.isFinite(r) ? null : r;
      },
    };
  });
}

function sum(xs: number[]): number {
  // Kahan summation keeps long arrays exact to the last bits.
  let s = 0, c = 0;
  for (const x of xs) {
    const y = x - c, t = s + y;
    c = (t - s) - y;
    s = t;
  }
  return s;
}

function variance(xs: number[], sample: boolean): number | null {
  const n = xs.length;
  if (n === 0 || (sample && n < 2)) return null;
  const mean = sum(xs) / n;
  let m2 = 0;
  for (const x of xs) m2 += (x - mean) * (x - mean);
  return m2 / (sample ? n - 1 : n);
}

/** A function of one array returning an array of the same type. */
function mapArray(
  name: string,
  f: (a: DoubleArray, rest: Value[]) => DoubleArray,
  extra = 0,
): ScalarFunction {
  return scalar(name, (args) => {
    if (args.length < 1 || args.length > 1 + extra || !isArray(args[0])) return noMatch(name, args);
    return {
      returns: args[0].type,
      eval: ([a, ...rest]) => (a === null ? null : f(a as DoubleArray, rest)),
    };
  });
}

/** Applies `f` to every innermost run of `a` (its last dimension), in place on a copy. */
function perRow(a: DoubleArray, f: (row: Float64Array) => void): DoubleArray {
  const out = a.data.slice();
  const n = a.shape.length === 0 ? 0 : a.shape[a.shape.length - 1];
  if (n > 0) { for (let at = 0; at < out.length; at += n) f(out.subarray(at, at + n)); }
  return new DoubleArray(a.shape, out);
}

function sortRow(row: Float64Array, descending: boolean, nullsFirst: boolean): void {
  const xs = Array.from(row);
  const vals = xs.filter((x) => !Number.isNaN(x)).sort((p, q) => (descending ? q - p : p - q));
  const nulls = xs.length - vals.length;
  const out = nullsFirst
    ? [...new Array(nulls).fill(NaN), ...vals]
    : [...vals, ...new Array(nulls).fill(NaN)];
  row.set(out);
}

function transpose(a: DoubleArray): DoubleArray {
  const dims = a.shape.length;
  const shape = [...a.shape].reverse();
  const out = new Float64Array(a.data.length);
  const src = a.strides();
  const idx = new Array(dims).fill(0);
  for (let o = 0; o < out.length; o++) {
    // idx runs over the output shape; the source index is idx reversed.
    let at = 0;
    for (let d = 0; d < dims; d++) at += idx[d] * src[dims - 1 - d];
    out[o] = a.data[at];
    for (let d = dims - 1; d >= 0; d--) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
  return new DoubleArray(shape, out);
}

/** QuestDB's search functions take 1-D arrays only and say so at the array argument. */
function checkOneDim(a: BoundArg): void {
  if (a.type.tag === "ARRAY" && (a.type.dims ?? 1) !== 1) {
    throw new SqlError("array is not one-dimensional", a.pos);
  }
}

/** Numbers.DOUBLE_TOLERANCE: QuestDB's search functions match elements within it. */
const DOUBLE_TOLERANCE = 1e-10;

function bindPosition(args: BoundArg[]): ScalarBinding | string {
  if (args.length === 2 && isNum(args[1])) checkOneDim(args[0]);
  if (args.length !== 2 || !isArray(args[0], 1) || !isNum(args[1])) return noMatch("array_position", args);
  // A constant NULL searched for and not found gives QuestDB's INT NULL + 1, -2147483647
  // (DoubleArrayPositionFunctionFactory's ArrayPositionConstNullFunc; ArrayOperationsTest).
  const constNull = args[1].constant && (args[1].value ?? null) === null;
  return {
    returns: T.INT,
    eval: ([a, x]) => {
      if (a === null) return null;
      const data = (a as DoubleArray).data, v = toDouble(x);
      for (let i = 0; i < data.length; i++) {
        if (v === null ? Number.isNaN(data[i]) : Math.abs(data[i] - v) <= DOUBLE_TOLERANCE) return i + 1;
      }
      return constNull ? -2147483647 : null;
    },
  };
}

function bindInsertionPoint(args: BoundArg[]): ScalarBinding | string {
  if (args.length >= 2 && args.length <= 3 && isNum(args[1])) checkOneDim(args[0]);
  if (
    args.length < 2 || args.length > 3 || !isArray(args[0], 1) || !isNum(args[1]) ||
    (args.length === 3 && args[2].type.tag !== "BOOLEAN")
  ) return noMatch("insertion_point", args);
  return {
    returns: T.INT,
    eval: ([a, x, ahead]) => {
      if (a === null) return null;
      const v = toDouble(x);
      if (v === null) return null;
      const data = (a as DoubleArray).data, n = data.length;
      // QuestDB's binary search answers "found at 0" for an empty array (ArrayOperationsTest).
      if (n === 0) return ahead === true ? 1 : 2;
      const desc = n > 1 && data[0] > data[n - 1];
      const before = (e: number) => {
        // true when `v` goes after element `e`
        if (ahead === true) return desc ? e > v : e < v;
        return desc ? e >= v : e <= v;
      };
      let lo = 0, hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (before(data[mid])) lo = mid + 1;
        else hi = mid;
      }
      return lo + 1;
    },
  };
}

function bindDimLength(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isArray(args[0]) || !isNum(args[1])) return noMatch("dim_length", args);
  const dims = args[0].type.dims ?? 1;
  return {
    returns: T.INT,
    eval: ([a, d]) => {
      const k = toDouble(d);
      if (a === null || k === null) return null;
      if (k < 1 || k > dims) {
        throw new SqlError(`array dimension out of bounds [dim=${k}, nDims=${dims}]`, args[1].pos);
      }
      return (a as DoubleArray).shape[k - 1];
    },
  };
}

function bindMatmul(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isArray(args[0]) || !isArray(args[1])) return noMatch("matmul", args);
  // QuestDB's texts, at the argument (ArrayTest#testMatrixMultiplyInvalid).
  if (args[0].type.dims !== 2) throw new SqlError("left array is not two-dimensional", args[0].pos);
  if (args[1].type.dims !== 2) throw new SqlError("right array is not two-dimensional", args[1].pos);
  return {
    returns: arrayType(2),
    eval: ([x, y]) => {
      if (x === null || y === null) return null;
      const a = x as DoubleArray, b = y as DoubleArray;
      const [n, m] = a.shape, [m2, p] = b.shape;
      if (m !== m2) {
        throw new SqlError("left array row length doesn't match right array column length", args[0].pos);
      }
      const out = new Float64Array(n * p);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < p; j++) {
          let s = 0;
          for (let k = 0; k < m; k++) s += a.data[i * m + k] * b.data[k * p + j];
          out[i * p + j] = Number.isFinite(s) ? s : NaN;
        }
      }
      return new DoubleArray([n, p], out);
    },
  };
}

function bindDotProduct(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 2 || !isArray(args[0]) || !isArray(args[1])) return noMatch("dot_product", args);
  return {
    returns: T.DOUBLE,
    eval: ([x, y]) => {
      if (x === null || y === null) return null;
      const a = x as DoubleArray, b = y as DoubleArray;
      if (a.data.length !== b.data.length || a.shape.some((n, d) => n !== b.shape[d])) {
        throw new SqlError("arrays have different shapes");
      }
      let s = 0;
      for (let i = 0; i < a.data.length; i++) {
        const p = a.data[i] * b.data[i];
        if (Number.isFinite(p)) s += p;
      }
      return s;
    },
  };
}

function bindFlatten(args: BoundArg[]): ScalarBinding | string {
  if (args.length !== 1 || !isArray(args[0])) return noMatch("flatten", args);
  return {
    returns: arrayType(1),
    eval: (
      [a],
    ) => (a === null ? null : new DoubleArray([(a as DoubleArray).data.length], (a as DoubleArray).data)),
  };
}

function bindShift(args: BoundArg[]): ScalarBinding | string {
  if (
    args.length < 2 || args.length > 3 || !isArray(args[0]) || !isNum(args[1]) || (args[2] && !isNum(args[2]))
  ) {
    return noMatch("shift", args);
  }
  return {
    returns: args[0].type,
    eval: ([a, n, fill]) => {
      if (a === null) return null;
      const k = toDouble(n);
      if (k === null) return null;
      const f = toDouble(fill ?? null) ?? NaN;
      return perRow(a as DoubleArray, (row) => {
        const copy = row.slice();
        for (let i = 0; i < row.length; i++) {
          const from = i - Math.trunc(k);
          row[i] = from >= 0 && from < row.length ? copy[from] : f;
        }
      });
    },
  };
}

/** Which arguments of a function are arrays, so a placeholder there is typed DOUBLE[] while preparing. */
export function arrayArgumentHint(name: string, index: number): ColumnType | undefined {
  if (index === 0 && ARRAY_FIRST.has(name)) return arrayType(name === "matmul" ? 2 : 1);
  if (index === 1 && (name === "matmul" || name === "dot_product")) {
    return arrayType(name === "matmul" ? 2 : 1);
  }
  return undefined;
}

export const ARRAY_FUNCTIONS: ScalarFunction[] = [
  // NULL when no element is finite, an empty array too (QuestDB's ArrayScalarTest
  // #testReducersPreserveNullEmptyAndStridedValues: array_sum(ARRAY[]::DOUBLE[]) is null).
  reduce("array_sum", (xs) => (xs.length === 0 ? null : sum(xs))),
  reduce("array_avg", (xs) => (xs.length === 0 ? null : sum(xs) / xs.length)),
  reduce("array_min", (xs) => (xs.length === 0 ? null : Math.min(...xs))),
  reduce("array_max", (xs) => (xs.length === 0 ? null : Math.max(...xs))),
  reduce("array_stddev_samp", (xs) => {
    const v = variance(xs, true);
    return v === null ? null : Math.sqrt(v);
  }),
  // One finite element has deviation 0 here, unlike array_stddev_samp's NULL
  // (DoubleArrayStdDevFunctionFactoryTest#testSingleElement).
  reduce("array_stddev", (xs) => {
    const v = xs.length === 1 ? 0 : variance(xs, true);
    return v === null ? null : Math.sqrt(v);
  }),
  reduce("array_stddev_pop", (xs) => {
    const v = variance(xs, false);
    return v === null ? null : Math.sqrt(v);
  }),
  // An INT, 0 for a NULL array (QuestDB's DoubleArrayCountFunctionFactory; ArrayScalarTest).
  scalar("array_count", (args) => {
    if (args.length !== 1 || !isArray(args[0])) return noMatch("array_count", args);
    return {
      returns: T.INT,
      eval: ([a]) => {
        if (a === null) return 0;
        let n = 0;
        for (const x of (a as DoubleArray).data) if (Number.isFinite(x)) n++;
        return n;
      },
    };
  }),
  scalar("array_cum_sum", (args) => {
    if (args.length !== 1 || !isArray(args[0])) return noMatch("array_cum_sum", args);
    return {
      returns: arrayType(1),
      eval: ([a]) => {
        // An empty array has no running sum: NULL (ArrayOperationsTest).
        if (a === null || (a as DoubleArray).data.length === 0) return null;
        const data = (a as DoubleArray).data;
        const out = new Float64Array(data.length);
        let s = 0;
        for (let i = 0; i < data.length; i++) out[i] = s += Number.isFinite(data[i]) ? data[i] : 0;
        return new DoubleArray([out.length], out);
      },
    };
  }),
  scalar("array_position", bindPosition),
  scalar("insertion_point", bindInsertionPoint),
  scalar("dim_length", bindDimLength),
  scalar("flatten", bindFlatten),
  mapArray("transpose", transpose),
  scalar("matmul", bindMatmul),
  scalar("dot_product", bindDotProduct),
  scalar("shift", bindShift),
  mapArray("array_reverse", (a) => perRow(a, (row) => row.reverse())),
  sortFlagsConstant(mapArray("array_sort", (a, [desc, nullsFirst]) => {
    const d = desc === true;
    return perRow(
      a,
      (row) => sortRow(row, d, nullsFirst === undefined || nullsFirst === null ? d : nullsFirst === true),
    );
  }, 2)),
];

const ARRAY_FIRST = new Set(ARRAY_FUNCTIONS.map((f) => f.name));

/**
 * array_sort's order flags are constants (bind variables included): a per-row flag matches no
 * overload (QuestDB's ArrayScalarTest: `array_sort(a, id > 0)` fails at the function name).
 */
function sortFlagsConstant(f: ScalarFunction): ScalarFunction {
  return scalar(f.name, (args) => {
    if (args.slice(1).some((a) => !a.constant && !a.param)) return noMatch(f.name, args);
    return f.bind(args);
  });
}

/** Array functions QuestDB declares more than once (by argument count): a mismatch names no argument. */
const OVERLOADED = new Set(["array_sort", "shift", "insertion_point", "dot_product", "round"]);

/**
 * The error for an untyped `ARRAY[]` (no element, no cast) passed as argument `index` of an array
 * function, undefined when `name` takes no array. QuestDB types the bare literal as an array of
 * no element type, which matches no `DOUBLE[]` parameter (ArrayScalarTest
 * #testValidationAndNativeConstantFailureCleanup: `array_sum(ARRAY[])` fails at its `[`).
 */
export function untypedEmptyArrayArg(name: string, index: number, types: string[]): string | undefined {
  if (!ARRAY_FIRST.has(name) && name !== "round") return undefined;
  if (OVERLOADED.has(name)) {
    return `there is no matching function \`${name}\` with the argument types: (${types.join(", ")})`;
  }
  return `argument type mismatch for function \`${name}\` at #${index + 1} expected: DOUBLE, actual: ARRAY`;
}

/**
 * Arrays built at run time (spec/sql.md §22.5), as QuestDB's BuildArrayFunctionFactory and
 * ArrayElem*FunctionFactory behave:
 *
 * - `array_build(n, size, f1 [, … fn])`: `n` fillers make `n` rows of `size` elements (a
 *   DOUBLE[] when n = 1, else DOUBLE[][]). `size` is a number or a 1-D array whose element
 *   count is used; a scalar filler repeats, a 1-D array filler is copied (NULL-padded or cut).
 * - `array_elem_min/max/sum/avg(a1, a2 [, …])`: element-wise over arrays of one dimension
 *   count; the result's shape is the largest extent along each dimension; NULL arrays and NULL
 *   elements are skipped at each position, all NULL there gives NULL; sum and avg add with
 *   Kahan compensation.
 */
import { SqlError } from "../base/errors.ts";
import { arrayType, isNumeric, typeName } from "../base/types.ts";
import { DoubleArray } from "../base/double_array.ts";
import type { Value } from "../base/values.ts";
import { ARRAY_ELEMENTS_MAX } from "./array_ops.ts";
import { isNullType, noMatch, scalar, toDouble } from "./_util.ts";
import type { BoundArg, ScalarBinding, ScalarFunction } from "./registry_types.ts";

/** Elements along one dimension (QuestDB's limit, 2^28 - 1). */
const SIZE_MAX = 268_435_455;

const isNum = (a: BoundArg) => isNumeric(a.type) || isNullType(a.type);
const isArrayOf = (a: BoundArg, dims: number) => a.type.tag === "ARRAY" && a.type.dims === dims;

function bindArrayBuild(args: BoundArg[]): ScalarBinding | string {
  if (args.length < 3) return "array_build requires at least 3 arguments";
  const [nArg, sizeArg, ...fillers] = args;
  if (!nArg.constant || !isNumeric(nArg.type) || nArg.type.tag === "DOUBLE" || nArg.type.tag === "FLOAT") {
    throw new SqlError("nArrays must be an integer constant", nArg.pos);
  }
  const n = Number(nArg.value);
  if (!Number.isInteger(n) || n < 1 || n > SIZE_MAX) throw new SqlError("nArrays out of range", nArg.pos);
  if (args.length !== n + 2) {
    return `array_build with nArrays=${n} requires ${n + 2} arguments, got ${args.length}`;
  }
  if (sizeArg.type.tag === "ARRAY" && !isArrayOf(sizeArg, 1)) {
    throw new SqlError("size array argument must be DOUBLE[]", sizeArg.pos);
  }
  if (sizeArg.type.tag !== "ARRAY" && !isNum(sizeArg)) return noMatch("array_build", args);
  for (const f of fillers) {
    if (f.type.tag === "ARRAY" && !isArrayOf(f, 1)) {
      throw new SqlError("filler array argument must be DOUBLE[]", f.pos);
    }
    if (f.type.tag !== "ARRAY" && !isNum(f)) return noMatch("array_build", args);
  }
  return {
    returns: arrayType(n === 1 ? 1 : 2),
    eval: ([, size, ...values]) => {
      const m = sizeOf(size);
      if (m === null) return null;
      if (m < 0) throw new SqlError(`size must not be negative [size=${m}]`);
      if (m > SIZE_MAX) throw new SqlError(`size exceeds maximum [size=${m}, max=${SIZE_MAX}]`);
      if (n * m > ARRAY_ELEMENTS_MAX) {
        throw new SqlError(`array element count exceeds max [count=${n * m}, max=${ARRAY_ELEMENTS_MAX}]`);
      }
      const data = new Float64Array(n * m);
      values.forEach((v, r) => fillRow(data.subarray(r * m, (r + 1) * m), v));
      return new DoubleArray(n === 1 ? [m] : [n, m], data);
    },
  };
}

/** The element count asked for: a number, or the count of a 1-D array's elements. */
function sizeOf(v: Value): number | null {
  if (v === null) return null;
  if (v instanceof DoubleArray) return v.data.length;
  const x = toDouble(v);
  return x === null || Number.isNaN(x) ? null : Math.trunc(x);
}

function fillRow(row: Float64Array, v: Value): void {
  if (v instanceof DoubleArray) {
    const k = Math.min(row.length, v.data.length);
    row.set(v.data.subarray(0, k));
    row.fill(NaN, k);
    return;
  }
  const x = toDouble(v);
  row.fill(x === null ? NaN : x);
}

export type Combine = (acc: { s: number; c: number; n: number; best: number }, x: number) => void;

/** One element-wise function over two or more arrays of the same dimension count. */
function elementWise(
  name: string,
  combine: Combine,
  result: (acc: { s: number; n: number; best: number }) => number,
) {
  return scalar(name, (args) => {
    if (args.length < 2) return noMatch(name, args);
    const first = args.find((a) => a.type.tag === "ARRAY")?.type;
    if (!first || first.tag !== "ARRAY") return noMatch(name, args);
    const dims = { ...first, dims: first.dims ?? 1 };
    for (const a of args) {
      if (isNullType(a.type)) continue;
      if (a.type.tag !== "ARRAY") return noMatch(name, args);
      // At the function name (AbstractDoubleArrayElemFunctionTest#testNDimsMismatch1dPlus2d).
      if (a.type.dims !== dims.dims) {
        return `arrays must have the same number of dimensions [expected=${typeName(dims)}, actual=${
          typeName(a.type)
        }]`;
      }
    }
    return {
      returns: arrayType(dims.dims),
      eval: (vals) =>
        elementWiseOf(vals.filter((v): v is DoubleArray => v instanceof DoubleArray), combine, result),
    };
  });
}

export function elementWiseOf(
  arrays: DoubleArray[],
  combine: Combine,
  result: (acc: { s: number; n: number; best: number }) => number,
): DoubleArray | null {
  if (arrays.length === 0) return null;
  const dims = arrays[0].shape.length;
  const shape = new Array<number>(dims).fill(0);
  for (const a of arrays) for (let d = 0; d < dims; d++) shape[d] = Math.max(shape[d], a.shape[d]);
  const count = shape.reduce((p, x) => p * x, 1);
  if (count > ARRAY_ELEMENTS_MAX) {
    throw new SqlError(`array element count exceeds max [count=${count}, max=${ARRAY_ELEMENTS_MAX}]`);
  }
  const out = new Float64Array(count);
  const strides = new DoubleArray(shape, out).strides();
  const accs = Array.from({ length: count }, () => ({ s: 0, c: 0, n: 0, best: NaN }));
  for (const a of arrays) {
    const own = a.strides();
    // Each element of `a` lands at the same index tuple of the output.
    for (let i = 0; i < a.data.length; i++) {
      const x = a.data[i];
      if (Number.isNaN(x)) continue;
      let rest = i, at = 0;
      for (let d = 0; d < dims; d++) {
        const k = Math.floor(rest / own[d]);
        rest -= k * own[d];
        at += k * strides[d];
      }
      combine(accs[at], x);
    }
  }
  for (let i = 0; i < count; i++) out[i] = accs[i].n === 0 ? NaN : result(accs[i]);
  return new DoubleArray(shape, out);
}

export const kahan: Combine = (acc, x) => {
  const y = x - acc.c, t = acc.s + y;
  acc.c = (t - acc.s) - y;
  acc.s = t;
  acc.n++;
};

/** Per element: how a value joins the position's state, and what the state gives. */
export const ELEMENT_WISE: Record<
  string,
  { combine: Combine; result: (acc: { s: number; n: number; best: number }) => number }
> = {
  array_elem_min: {
    combine: (acc, x) => {
      if (acc.n++ === 0 || x < acc.best) acc.best = x;
    },
    result: (acc) => acc.best,
  },
  array_elem_max: {
    combine: (acc, x) => {
      if (acc.n++ === 0 || x > acc.best) acc.best = x;
    },
    result: (acc) => acc.best,
  },
  array_elem_sum: { combine: kahan, result: (acc) => acc.s },
  array_elem_avg: { combine: kahan, result: (acc) => acc.s / acc.n },
};

/**
 * `asum/aavg/amin/amax(a, b, ...)`: QuestDB's flat element-wise forms (DoubleArrayAsumFunctionFactory
 * and its test): every argument a DOUBLE[] read in row-major order, a 1-D result as long as the
 * longest, NULL elements skipped, a position only NULLs reach NULL; no non-empty array, NULL.
 */
function flatElementWise(name: string, of: keyof typeof ELEMENT_WISE) {
  const { combine, result } = ELEMENT_WISE[of];
  return scalar(name, (args) => {
    if (args.length < 2) return `${name} requires at least 2 arguments`;
    for (const a of args) if (a.type.tag !== "ARRAY") throw new SqlError("expected DOUBLE[] argument", a.pos);
    return {
      returns: arrayType(1),
      eval: (vals) => {
        const flat = vals.filter((v): v is DoubleArray => v instanceof DoubleArray && v.data.length > 0)
          .map((v) => new DoubleArray([v.data.length], v.data));
        return elementWiseOf(flat, combine, result);
      },
    };
  });
}

export const ARRAY_BUILD_FUNCTIONS: ScalarFunction[] = [
  scalar("array_build", bindArrayBuild),
  ...Object.entries(ELEMENT_WISE).map(([name, f]) => elementWise(name, f.combine, f.result)),
  flatElementWise("asum", "array_elem_sum"),
  flatElementWise("aavg", "array_elem_avg"),
  flatElementWise("amin", "array_elem_min"),
  flatElementWise("amax", "array_elem_max"),
];

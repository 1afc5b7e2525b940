/**
 * Element-wise arithmetic and equality of DOUBLE arrays (spec/sql.md §22.4), and the element
 * access / slicing / constructor evaluators the binder uses for `arr[...]` and `ARRAY[...]`
 * (§22.2, §22.3). Arrays are immutable values: every operation builds a new one.
 */
import { SqlError } from "../base/errors.ts";
import { arrayType, type ColumnType, isNumeric, T } from "../base/types.ts";
import { arraysEqual, DoubleArray } from "../base/double_array.ts";
import type { Value } from "../base/values.ts";
import { isNullType, toDouble } from "./_util.ts";
import type { BoundArg, ScalarBinding } from "./registry_types.ts";

/** Most elements one array value may hold (`cairo.max.array.element.count`, §22.1). */
export const ARRAY_ELEMENTS_MAX = 10_000_000;

const OPS: Record<string, (a: number, b: number) => number> = {
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
};

function sameShape(a: DoubleArray, b: DoubleArray): boolean {
  return a.shape.length === b.shape.length && a.shape.every((n, d) => n === b.shape[d]);
}

/** Normalises NaN-producing results (Inf, NaN) to NULL elements, as DOUBLE does (§2.1). */
function finite(x: number): number {
  return Number.isFinite(x) ? x : NaN;
}

/**
 * `a op b` where at least one side is an array: same-shape arrays element by element, an
 * array with a scalar broadcast (§22.4 recommendation). Undefined when no array is involved.
 */
export function bindArrayArith(op: string, args: BoundArg[]): ScalarBinding | string | undefined {
  const [a, b] = [args[0].type, args[1].type];
  if (a.tag !== "ARRAY" && b.tag !== "ARRAY") return undefined;
  const f = OPS[op];
  if (!f) return `operator ${op} is not supported for arrays`;
  const scalarOk = (t: ColumnType) => isNumeric(t) || isNullType(t);
  if (a.tag === "ARRAY" && b.tag === "ARRAY") {
    // QuestDB's texts, at the left operand (ArrayTest#testBasicArithmeticInvalid).
    if (a.dims !== b.dims) {
      throw new SqlError(
        `arrays have different number of dimensions [nDimsLeft=${a.dims}, nDimsRight=${b.dims}]`,
        args[0].pos,
      );
    }
    return {
      returns: a,
      eval: ([x, y]) => {
        if (x === null || y === null) return null;
        const l = x as DoubleArray, r = y as DoubleArray;
        if (!sameShape(l, r)) {
          throw new SqlError(
            `arrays have different shapes [leftShape=[${l.shape.join(",")}], rightShape=[${
              r.shape.join(",")
            }]]`,
            args[0].pos,
          );
        }
        const out = new Float64Array(l.data.length);
        for (let i = 0; i < out.length; i++) out[i] = finite(f(l.data[i], r.data[i]));
        return new DoubleArray(l.shape, out);
      },
    };
  }
  const arrayFirst = a.tag === "ARRAY";
  if (!scalarOk(arrayFirst ? b : a)) return `operator ${op} needs an array and a number`;
  return {
    returns: arrayFirst ? a : b,
    eval: ([x, y]) => {
      const arr = (arrayFirst ? x : y) as DoubleArray | null, s = toDouble(arrayFirst ? y : x);
      if (arr === null) return null;
      const v = s === null ? NaN : s;
      const out = new Float64Array(arr.data.length);
      for (let i = 0; i < out.length; i++) {
        out[i] = finite(arrayFirst ? f(arr.data[i], v) : f(v, arr.data[i]));
      }
      return new DoubleArray(arr.shape, out);
    },
  };
}

/** `=`/`!=` with an array on either side: shape and elements, NULL elements equal (§22.4). */
export function bindArrayEquality(op: string, args: BoundArg[]): ScalarBinding | string | undefined {
  const [a, b] = [args[0].type, args[1].type];
  if (a.tag !== "ARRAY" && b.tag !== "ARRAY") return undefined;
  if (op !== "=" && op !== "!=") return `operator ${op} is not supported for arrays`;
  if (!(a.tag === "ARRAY" || isNullType(a)) || !(b.tag === "ARRAY" || isNullType(b))) {
    return `cannot compare an array with a non-array value`;
  }
  const eq = op === "=";
  // Arrays of different dimension counts are never equal, NULL or not, and neither is anything
  // with a NULL constant; two NULL values are (ArrayOperationsTest
  // #testSearchAndEqualityPreserveNullsShapesAndSlices: a NULL `a` has a=a true, a=NULL::DOUBLE[]
  // and a=m false).
  const nullConst = args.some((x) => x.constant && (x.value ?? null) === null);
  if (nullConst || (a.tag === "ARRAY" && b.tag === "ARRAY" && (a.dims ?? 1) !== (b.dims ?? 1))) {
    return { returns: T.BOOLEAN, eval: () => !eq };
  }
  return {
    returns: T.BOOLEAN,
    eval: ([x, y]) => {
      if (x === null || y === null) return (x === null && y === null) === eq;
      return arraysEqual(x as DoubleArray, y as DoubleArray) === eq;
    },
  };
}

/** Unary minus of an array. */
export function negArray(t: ColumnType): ScalarBinding {
  return {
    returns: t,
    eval: ([x]) => {
      if (x === null) return null;
      const a = x as DoubleArray;
      return new DoubleArray(a.shape, a.data.map((v) => -v));
    },
  };
}

/**
 * `ARRAY[e1, …]`: scalars make a 1-D array; arrays of equal shape gain a dimension. `types`
 * are the element types (numbers, NULL, or arrays of one dimensionality).
 */
export function constructArray(types: ColumnType[], pos: number): ScalarBinding {
  const nested = types.find((t) => t.tag === "ARRAY");
  if (nested) {
    for (const t of types) {
      if (!(t.tag === "ARRAY" && t.dims === nested.dims) && !isNullType(t)) {
        throw new SqlError("array elements must have the same shape", pos);
      }
    }
    return {
      returns: arrayType((nested.dims ?? 1) + 1),
      eval: (args) => {
        const parts = args as (DoubleArray | null)[];
        const first = parts.find((p) => p !== null);
        if (!first) return null;
        const inner = first.data.length;
        const out = new Float64Array(inner * parts.length).fill(NaN);
        parts.forEach((p, i) => {
          if (p === null) return;
          if (!sameShape(p, first)) throw new SqlError("array elements must have the same shape", pos);
          out.set(p.data, i * inner);
        });
        return new DoubleArray([parts.length, ...first.shape], out);
      },
    };
  }
  for (const t of types) {
    if (!isNumeric(t) && !isNullType(t) && t.tag !== "DECIMAL") {
      throw new SqlError(`array elements must be numbers [found=${t.tag}]`, pos);
    }
  }
  return {
    returns: arrayType(1),
    eval: (args) => {
      const out = new Float64Array(args.length);
      args.forEach((v, i) => {
        const d = toDouble(v);
        out[i] = d === null ? NaN : d;
      });
      return new DoubleArray([args.length], out);
    },
  };
}

/** One selector of `arr[...]`: an index, or a range `lo:hi` (hi absent = to the end). */
export interface Selector {
  range: boolean;
  hasHi: boolean;
  /** Where the selector starts in the SQL text (its errors point there). */
  pos?: number;
  /** A range's `:` (its bounds' errors point there). */
  colon?: number;
}

/** A 1-based index or bound where a negative one counts back from the end (-1: the last, n). */
function fromEnd(i: number, n: number): number {
  return i < 0 ? n + 1 + i : i;
}

/**
 * QuestDB refuses a zero slice bound at the `:` (ArrayAccessTest
 * #testCompileDiagnosticsAndDiscardedNativeChildrenRecover: `array slice bounds must be non-zero
 * [dim=1, lowerBound=0, upperBound=2]`).
 */
function checkSliceBounds(s: Selector, d: number, lo: number, hi: number | undefined, pos: number): void {
  if (lo !== 0 && hi !== 0) return;
  const bounds = hi === undefined ? `lowerBound=${lo}` : `lowerBound=${lo}, upperBound=${hi}`;
  throw new SqlError(
    `array slice bounds must be non-zero [dim=${d + 1}, ${bounds}]`,
    s.colon ?? s.pos ?? pos,
  );
}

/**
 * `arr[s1, s2, …]` (§22.3): integer selectors drop their dimension, ranges keep it. The
 * evaluator's arguments are the array, then per selector its index (or lo, then hi if given).
 */
export function accessArray(t: ColumnType, selectors: Selector[], pos: number): ScalarBinding {
  const dims = t.dims ?? 1;
  if (selectors.length > dims) {
    throw new SqlError(`too many array access arguments [nDims=${dims}, nArgs=${selectors.length}]`, pos);
  }
  const kept = dims - selectors.filter((s) => !s.range).length;
  const returns = kept === 0 ? T.DOUBLE : arrayType(kept);
  return {
    returns,
    eval: (args) => {
      const a = args[0] as DoubleArray | null;
      if (a === null) return null;
      const strides = a.strides();
      // Per dimension: the kept range [lo, hi) or a fixed index (range of 1, dropped).
      const los: number[] = [], his: number[] = [], keep: boolean[] = [];
      let k = 1;
      for (let d = 0; d < dims; d++) {
        const s = selectors[d];
        const n = a.shape[d];
        if (!s) {
          los.push(0), his.push(n), keep.push(true);
          continue;
        }
        const lo = toDouble(args[k++]);
        const hiV = s.range && s.hasHi ? toDouble(args[k++]) : undefined;
        if (lo === null || hiV === null) return null;
        const i = Math.trunc(lo);
        if (s.range) {
          const hiRaw = hiV === undefined ? undefined : Math.trunc(hiV);
          checkSliceBounds(s, d, i, hiRaw, pos);
          // Negative bounds count from the end (-1 is the last element; hi stays exclusive).
          const from = Math.min(Math.max(fromEnd(i, n) - 1, 0), n);
          const hi = hiRaw === undefined ? n + 1 : fromEnd(hiRaw, n);
          const to = Math.max(from, Math.min(hi - 1, n));
          los.push(from), his.push(to), keep.push(true);
          continue;
        }
        if (i === 0) throw new SqlError(`array index must be non-zero [dim=${d + 1}, index=0]`, s.pos ?? pos);
        const at = fromEnd(i, n);
        if (at < 1 || at > n) {
          // Out of bounds: a NULL element, or an empty sub-array.
          if (kept === 0) return null;
          return DoubleArray.empty(kept);
        }
        los.push(at - 1), his.push(at), keep.push(false);
      }
      const shape: number[] = [];
      for (let d = 0; d < dims; d++) if (keep[d]) shape.push(his[d] - los[d]);
      const total = shape.reduce((x, y) => x * y, 1);
      if (kept === 0) {
        let at = 0;
        for (let d = 0; d < dims; d++) at += los[d] * strides[d];
        const x = a.data[at];
        return Number.isFinite(x) ? x : null;
      }
      const out = new Float64Array(total);
      const idx = los.slice();
      for (let o = 0; o < total; o++) {
        let at = 0;
        for (let d = 0; d < dims; d++) at += idx[d] * strides[d];
        out[o] = a.data[at];
        for (let d = dims - 1; d >= 0; d--) {
          if (++idx[d] < his[d]) break;
          idx[d] = los[d];
        }
      }
      return new DoubleArray(total === 0 ? shape.map(() => 0) : shape, out);
    },
  };
}

export function isArrayValue(v: Value): v is DoubleArray {
  return v instanceof DoubleArray;
}

/**
 * Expressions of two or three SYMBOL columns and nothing else that varies by row
 * (`concat(symbol, '-', side)`, `symbol || side = 'BTC-USDbuy'`), batch at a time (issue #16):
 * as symbol_text.ts does for one column, the row path evaluates the expression once per tuple of
 * dictionary codes (NULL included), over a probe batch holding every tuple, and each row takes
 * its tuple's answer. Tuples are numbered (code1 + 1) * stride1 + (code2 + 1) * stride2 + ...,
 * NULL as digit 0; sets of dictionaries with more than TUPLES_MAX tuples keep the row path.
 */
import type { Batch, SymbolDict, Value, Vector } from "../../base/values.ts";
import { type BoundExpr, walkBound } from "../../plan/bound.ts";
import { setTextOrigin } from "./symbol_cast.ts";
import { TextListDict } from "./symbol_text.ts";

type Column = Extract<BoundExpr, { kind: "column" }>;

/** Most tuples a table covers (a row-path call each when built). */
const TUPLES_MAX = 1 << 16;

/**
 * The 2 or 3 distinct SYMBOL columns `e` reads, when it reads nothing else that changes from row
 * to row (no other column, correlated subquery or non-deterministic call); else undefined.
 */
export function symbolColumnsOf(e: BoundExpr): Column[] | undefined {
  const cols: Column[] = [];
  let ok = true;
  walkBound(e, (x) => {
    if (x.kind === "column") {
      if (x.type.tag !== "SYMBOL") ok = false;
      else if (!cols.some((c) => c.index === x.index)) cols.push(x);
    } else if (x.kind === "param" && x.outer !== undefined) ok = false;
    else if ((x.kind === "subquery" || x.kind === "inSubquery" || x.kind === "exists") && x.outer?.length) {
      ok = false;
    } else if (x.kind === "call" && x.binding.deterministic === false) ok = false;
  });
  return ok && cols.length >= 2 && cols.length <= 3 ? cols : undefined;
}

/** The tuple numbering of one set of dictionaries and the probe batch of all its tuples. */
interface Tuples {
  dicts: SymbolDict[];
  sizes: number[];
  /** Stride of each column's digit. */
  strides: number[];
  probe: Batch;
}

/** The batch's dictionaries of `cols`, or undefined when one is missing or they are too many tuples. */
function dictsOf(b: Batch, cols: Column[]): SymbolDict[] | undefined {
  const dicts: SymbolDict[] = [];
  let tuples = 1;
  for (const c of cols) {
    const v = b.columns[c.index];
    if (!v?.dict || !(v.data instanceof Int32Array)) return undefined;
    dicts.push(v.dict);
    tuples *= v.dict.size + 1;
  }
  return tuples <= TUPLES_MAX ? dicts : undefined;
}

function same(t: Tuples | undefined, dicts: SymbolDict[]): boolean {
  return t !== undefined && dicts.every((d, k) => t.dicts[k] === d && t.sizes[k] === d.size);
}

function tuplesOf(b: Batch, cols: Column[], dicts: SymbolDict[]): Tuples {
  const sizes = dicts.map((d) => d.size);
  const strides: number[] = [];
  let count = 1;
  for (let k = cols.length - 1; k >= 0; k--) {
    strides[k] = count;
    count *= sizes[k] + 1;
  }
  const columns: Batch["columns"] = [];
  cols.forEach((c, k) => {
    const codes = new Int32Array(count);
    for (let t = 0; t < count; t++) codes[t] = Math.floor(t / strides[k]) % (sizes[k] + 1) - 1;
    columns[c.index] = { type: b.columns[c.index].type, data: codes, dict: dicts[k] };
  });
  return { dicts, sizes, strides, probe: { rowCount: count, columns } };
}

/** out[i] = the tuple number of row i (for i < n). */
function tupleIndexes(b: Batch, cols: Column[], strides: number[], out: Int32Array): void {
  const n = b.rowCount;
  const k0 = b.columns[cols[0].index].data as Int32Array, s0 = strides[0];
  const k1 = b.columns[cols[1].index].data as Int32Array, s1 = strides[1];
  for (let i = 0; i < n; i++) {
    const a = k0[i], c = k1[i];
    out[i] = (a < 0 ? 0 : a + 1) * s0 + (c < 0 ? 0 : c + 1) * s1;
  }
  if (cols.length === 3) {
    const k2 = b.columns[cols[2].index].data as Int32Array;
    for (let i = 0; i < n; i++) {
      const c = k2[i];
      out[i] += c < 0 ? 0 : c + 1;
    }
  }
}

/**
 * The batch form of text-valued `e` over SYMBOL columns `cols`, given the row path's evaluator:
 * undefined for a batch whose columns lack dictionaries or hold too many tuples, or when some
 * tuple's evaluation fails (the caller then evaluates the rows, raising only their errors).
 */
export function symbolTupleTextVector(
  e: BoundExpr,
  cols: Column[],
  rowValue: (b: Batch, i: number) => unknown,
): (b: Batch) => Vector | undefined {
  let tuples: Tuples | undefined;
  // The texts per tuple as a dictionary (GROUP BY keys over the vector take ids per tuple).
  let dict: TextListDict | null = null;
  return (b) => {
    const dicts = dictsOf(b, cols);
    if (!dicts) return undefined;
    if (!same(tuples, dicts)) {
      tuples = tuplesOf(b, cols, dicts);
      const texts: (string | null)[] = new Array(tuples.probe.rowCount);
      try {
        for (let t = 0; t < texts.length; t++) {
          const x = rowValue(tuples.probe, t);
          if (x !== null && typeof x !== "string") throw new Error("not a text");
          texts[t] = x;
        }
        dict = new TextListDict(texts);
      } catch {
        // A tuple no row holds may fail where the rows would not: those dictionaries go by row.
        dict = null;
      }
    }
    if (!dict) return undefined;
    const n = b.rowCount, idx = new Int32Array(n), texts = dict.texts;
    tupleIndexes(b, cols, tuples!.strides, idx);
    const data = new Array<Value>(n);
    for (let i = 0; i < n; i++) data[i] = texts[idx[i]];
    setTextOrigin(data, idx, dict);
    return { type: e.type, data };
  };
}

/** A tuple table's entries, by the row path on the probe batch; throws where one cannot be had. */
type Fill<T> = (probe: Batch) => T;

/** A per-batch table over `cols` filled by `fill`, with the strides left in `strides`. */
function tupleTable<T>(
  cols: Column[],
  fill: Fill<T>,
  strides: Float64Array,
): (b: Batch) => T | undefined {
  let tuples: Tuples | undefined;
  let table: T | null = null;
  return (b) => {
    const dicts = dictsOf(b, cols);
    if (!dicts) return undefined;
    if (!same(tuples, dicts)) {
      tuples = tuplesOf(b, cols, dicts);
      try {
        table = fill(tuples.probe);
      } catch {
        // A tuple no row holds may fail where the rows would not: those dictionaries go by row.
        table = null;
      }
    }
    if (table === null) return undefined;
    tuples!.strides.forEach((s, k) => strides[k] = s);
    return table;
  };
}

const SAFE = 2 ** 53;

/**
 * A per-batch table of numeric expression `value` over `cols` (by tuple number, NaN for NULL),
 * as symbolTuplePredicate's; undefined also where some tuple's value is a LONG past 2^53.
 */
export function symbolTupleValues(
  cols: Column[],
  value: (b: Batch, i: number) => unknown,
  strides: Float64Array,
): (b: Batch) => Float64Array | undefined {
  return tupleTable(cols, (probe) => {
    const t = new Float64Array(probe.rowCount);
    for (let i = 0; i < t.length; i++) {
      const x = value(probe, i);
      if (x === null || x === undefined) t[i] = NaN;
      else if (typeof x === "bigint") {
        if (x >= BigInt(SAFE) || x <= -BigInt(SAFE)) throw new Error("past 2^53");
        t[i] = Number(x);
      } else if (typeof x === "number") t[i] = Number.isFinite(x) ? x : NaN;
      else throw new Error("not a number");
    }
    return t;
  }, strides);
}

/**
 * A per-batch table for predicate `pred` over `cols` (1 where true, by tuple number), and the
 * strides the loop numbers tuples with, written into `strides` when the table is built; the
 * table is undefined where symbolTupleTextVector's is.
 */
export function symbolTuplePredicate(
  cols: Column[],
  pred: (b: Batch, i: number) => boolean,
  strides: Float64Array,
): (b: Batch) => Uint8Array | undefined {
  return tupleTable(cols, (probe) => {
    const t = new Uint8Array(probe.rowCount);
    for (let i = 0; i < t.length; i++) t[i] = pred(probe, i) ? 1 : 0;
    return t;
  }, strides);
}

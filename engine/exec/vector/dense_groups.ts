/**
 * Dense keys (issue #16): a parallel hash aggregation or DISTINCT (hash_parallel.ts) whose keys
 * all have a small domain known before a row is read (a SYMBOL's codes, a BOOLEAN, hour(ts) and
 * the other date parts, `x % 7` of an integer) groups a morsel in ONE generated loop per batch:
 * each row's keys are computed, turned into slots (0 for NULL) and combined by multiplication
 * into one index of a direct table from composite slot to group id, and every aggregate of the
 * row's group is updated in the same loop. The general path took a pass per key expression,
 * per key mapping (KeyIds), per fold of two keys (IntPairHash), per computed argument and per
 * aggregate: ~7 passes at 3-8 ns a row each.
 *
 * The answer is the general path's, partial for partial: groups in first-appearance order, the
 * same NULL rules (agg_states.ts: NULL arguments skipped, non-finite doubles are NULL), the same
 * additions in the same order, integer sums exact (their double parts are flushed into bigints
 * every 2^20 rows, LONG values split into two words first). A batch whose values leave the
 * loop's exact range (a LONG past 2^53) makes `add` answer false: the worker then groups the
 * whole morsel the general way.
 *
 * The choice is made at plan time (`denseShapeOf`, shown by EXPLAIN as `dense keys`); the slot
 * counts come from the snapshot each execution reads (a SYMBOL's size). A table whose symbols
 * grew past DENSE_SLOTS_MAX since a cached plan chose this runs the general path.
 */
import { type ColumnType, T } from "../../base/types.ts";
import {
  allocVectorData,
  type Batch,
  INT_NULL,
  LONG_NULL,
  type Value,
  type VectorData,
  writeValue,
} from "../../base/values.ts";
import { type BoundExpr, walkBound } from "../../plan/bound.ts";
import { compileFusedLoop, type FusedRun, type FusedVar } from "./batch_expr.ts";
import { timeFieldRuns } from "./time_field_runs.ts";
import type { NativeFn } from "./agg_states.ts";

/** Largest product of the keys' slot counts grouped densely (a 1 MB Int32Array per morsel). */
export const DENSE_SLOTS_MAX = 1 << 18;

/** Rows after which the double parts of integer sums move into bigints (as agg_states.ts). */
const FLUSH_ROWS = 1 << 20;

/**
 * How one key's value becomes its slot: "sym" code c -> c + 1, "bool" false/true -> 1/2,
 * "int" v in [lo, hi] -> v - lo + 1; NULL -> 0. `slots` counts slot 0.
 */
export interface DenseKey {
  how: "sym" | "bool" | "int";
  lo: number;
  slots: number;
}

/** Date parts of a TIMESTAMP the batch loops compute, with their ranges. */
const PART_RANGES: Record<string, [number, number]> = {
  hour: [0, 23],
  minute: [0, 59],
  second: [0, 59],
  day_of_week: [1, 7],
  day_of_week_sunday_first: [1, 7],
  month: [1, 12],
  day: [1, 31],
};
const INTEGER_TAGS = new Set(["BYTE", "SHORT", "INT", "LONG"]);
/** Largest `%` divisor whose remainders make a dense key. */
const MOD_MAX = 4096;

/**
 * The dense form of a grouping key, or undefined. `symbolSize` gives a SYMBOL column's
 * dictionary size (scan column index).
 */
export function denseKeyOf(x: BoundExpr, symbolSize: (col: number) => number): DenseKey | undefined {
  const tag = x.type.tag;
  if (x.kind === "column") {
    if (tag === "SYMBOL") return { how: "sym", lo: 0, slots: symbolSize(x.index) + 1 };
    if (tag === "BOOLEAN") return { how: "bool", lo: 0, slots: 3 };
    if (tag === "BYTE") return { how: "int", lo: -128, slots: 257 };
    if (tag === "SHORT") return { how: "int", lo: -32768, slots: 65537 };
    return undefined;
  }
  if (x.kind !== "call") return undefined;
  const range = PART_RANGES[x.name];
  if (range && x.args.length === 1 && x.args[0].type.tag === "TIMESTAMP" && tag === "INT") {
    return { how: "int", lo: range[0], slots: range[1] - range[0] + 2 };
  }
  if (x.name === "%" && x.args.length === 2 && (tag === "INT" || tag === "LONG")) {
    const [a, b] = x.args;
    const c = b.kind === "const" ? (typeof b.value === "bigint" ? Number(b.value) : b.value) : undefined;
    if (
      INTEGER_TAGS.has(a.type.tag) && INTEGER_TAGS.has(b.type.tag) && typeof c === "number" &&
      Number.isInteger(c) && c >= 1 && c <= MOD_MAX
    ) {
      // An integer's remainder by c lies in (-c, c).
      return { how: "int", lo: 1 - c, slots: 2 * c };
    }
  }
  return undefined;
}

/** One aggregate as the fused loop sees it. */
export interface DenseAgg {
  fn: NativeFn;
  arg?: BoundExpr;
  /** The FILTER clause. */
  filter?: BoundExpr;
  returns: ColumnType;
  /** The partial value is a 64-bit integer (BigInt64Array). */
  wide: boolean;
}

/** The partial of one morsel, as hash_parallel.ts HashPartial (without count(DISTINCT)). */
export interface DensePartial {
  groups: number;
  keys: VectorData[];
  counts: Float64Array[];
  values: (Float64Array | BigInt64Array | undefined)[];
  distinct: undefined[];
}

const FUSED_FNS = new Set<NativeFn>(["count*", "count", "sum", "avg", "min", "max"]);

/** Whether a sum over this argument type is an exact integer sum (agg_states.ts). */
function integerSum(arg: BoundExpr): boolean {
  return arg.type.tag !== "DOUBLE" && arg.type.tag !== "FLOAT";
}

/** An integer argument that may pass int32 (its words are split before summing). */
function longArg(arg: BoundExpr): boolean {
  return !["INT", "SHORT", "BYTE"].includes(arg.type.tag);
}

/**
 * The grouping of one morsel through the fused loop. Construct per morsel; undefined from
 * `create` when the keys or aggregates have no fused form.
 */
export class DenseGroups {
  readonly #run: { all: FusedRun; withSel: FusedRun };
  /**
   * The loop reading date-part keys of ascending timestamps as filled columns: built at the
   * first batch that has them (null: no such key), not for grouping that never sees one.
   */
  #runs: RunKeys | null | undefined;
  readonly #params: readonly unknown[];
  readonly #dense: Int32Array;
  readonly #first: Int32Array;
  readonly #groups = new Int32Array(1);
  readonly #X: unknown[];
  readonly #counts: Float64Array[] = [];
  readonly #main: (Float64Array | undefined)[] = [];
  readonly #hi: (Float64Array | undefined)[] = [];
  readonly #big: (bigint[] | undefined)[] = [];
  #rowsSinceFlush = 0;

  private constructor(
    readonly keys: BoundExpr[],
    readonly dense: DenseKey[],
    readonly aggs: DenseAgg[],
    run: { all: FusedRun; withSel: FusedRun },
    maxGroups: number,
    params: readonly unknown[],
  ) {
    this.#run = run;
    this.#params = params;
    let slots = 1;
    for (const d of dense) slots *= d.slots;
    this.#dense = new Int32Array(slots).fill(-1);
    const cap = Math.min(slots, maxGroups);
    this.#first = new Int32Array(cap);
    this.#X = [this.#dense, this.#first, this.#groups];
    for (const a of aggs) {
      const cnt = new Float64Array(cap);
      this.#counts.push(cnt);
      this.#X.push(cnt);
      let main: Float64Array | undefined, hi: Float64Array | undefined;
      if (a.fn === "sum" || a.fn === "avg") main = new Float64Array(cap);
      if (a.fn === "min") main = new Float64Array(cap).fill(Infinity);
      if (a.fn === "max") main = new Float64Array(cap).fill(-Infinity);
      if (a.fn === "sum" && integerSum(a.arg!) && longArg(a.arg!)) hi = new Float64Array(cap);
      this.#main.push(main);
      this.#hi.push(hi);
      this.#big.push(a.fn === "sum" && integerSum(a.arg!) ? [] : undefined);
      this.#X.push(main, hi);
    }
  }

  /**
   * The fused grouping of these keys and aggregates, or undefined when some part has none.
   * `maxGroups` bounds the groups (a morsel's rows): the per-group arrays are allocated once.
   */
  static create(
    keys: BoundExpr[],
    dense: DenseKey[],
    aggs: DenseAgg[],
    params: readonly unknown[],
    maxGroups: number,
  ): DenseGroups | undefined {
    const run = fusedLoopOf(keys, dense, aggs, params);
    return run && new DenseGroups(keys, dense, aggs, run, Math.max(1, maxGroups), params);
  }

  /** Groups the rows of `b` (`sel[0..count)` when given); false: a row needs the row path. */
  add(b: Batch, sel?: Int32Array, count?: number): boolean {
    if (this.#runs === undefined && b.columns.some((v) => v?.ascending)) {
      this.#runs = runKeysOf(this.keys, this.dense, this.aggs, this.#params) ?? null;
    }
    const filled = this.#runs ? withRunColumns(this.#runs, b) : undefined;
    const run = filled ? this.#runs!.run : this.#run;
    const on = filled ?? b;
    const n = sel ? run.withSel(on, this.#X, sel, count) : run.all(on, this.#X);
    if (n < 0) return false;
    this.#rowsSinceFlush += n;
    if (this.#rowsSinceFlush >= FLUSH_ROWS) this.#flush();
    return true;
  }

  /** The int64 total of integer sum `a` for group g (flushed bigint part and double parts). */
  #exactSum(a: number, g: number): bigint {
    const lo = this.#main[a]!, hi = this.#hi[a], big = this.#big[a]!;
    return BigInt.asIntN(64, (big[g] ?? 0n) + BigInt(lo[g]) + (hi ? BigInt(hi[g]) * 4294967296n : 0n));
  }

  #flush(): void {
    this.#rowsSinceFlush = 0;
    const groups = this.#groups[0];
    this.#big.forEach((big, a) => {
      if (!big) return;
      const lo = this.#main[a]!, hi = this.#hi[a];
      for (let g = 0; g < groups; g++) {
        if (lo[g] === 0 && (!hi || hi[g] === 0)) continue;
        big[g] = (big[g] ?? 0n) + BigInt(lo[g]) + (hi ? BigInt(hi[g]) * 4294967296n : 0n);
        lo[g] = 0;
        if (hi) hi[g] = 0;
      }
    });
  }

  /** The morsel's groups: key values in slot form decoded, per aggregate its partial state. */
  partial(): DensePartial {
    const groups = this.#groups[0];
    const first = this.#first;
    const strides: number[] = new Array(this.dense.length);
    for (let k = this.dense.length - 1, s = 1; k >= 0; k--) {
      strides[k] = s;
      s *= this.dense[k].slots;
    }
    const keys = this.dense.map((d, k) => {
      const t = this.keys[k].type;
      if ((t.tag === "INT" && d.how === "int") || (t.tag === "SYMBOL" && d.how === "sym")) {
        // The common keys (date parts, INT remainders, symbol codes) straight into their words.
        const out = new Int32Array(groups);
        const nul = t.tag === "SYMBOL" ? -1 : INT_NULL, off = d.how === "sym" ? -1 : d.lo - 1;
        const stride = strides[k], slots = d.slots;
        for (let g = 0; g < groups; g++) {
          const q = Math.floor(first[g] / stride) % slots;
          out[g] = q === 0 ? nul : q + off;
        }
        return out;
      }
      const values: Value[] = new Array(groups);
      for (let g = 0; g < groups; g++) {
        const q = Math.floor(first[g] / strides[k]) % d.slots;
        values[g] = q === 0 ? null : d.how === "sym" ? q - 1 : d.how === "bool" ? q === 2 : q - 1 + d.lo;
        if (values[g] !== null && (t.tag === "LONG" || t.tag === "DATE" || t.tag === "TIMESTAMP")) {
          values[g] = BigInt(values[g] as number);
        }
      }
      return dataOf(t, values);
    });
    const counts: Float64Array[] = [];
    const values: (Float64Array | BigInt64Array | undefined)[] = [];
    this.aggs.forEach((a, i) => {
      const main = this.#main[i];
      const cnt = this.#counts[i].slice(0, groups);
      if (a.fn === "min" || a.fn === "max") {
        // 1 for a group with a value: min/max partials need only whether there was one.
        for (let g = 0; g < groups; g++) cnt[g] = main![g] - main![g] === 0 ? 1 : 0;
      }
      counts.push(cnt);
      if (!main) {
        values.push(undefined);
        return;
      }
      if (a.fn === "avg") {
        const out = new Float64Array(groups);
        for (let g = 0; g < groups; g++) out[g] = cnt[g] === 0 ? NaN : main[g];
        values.push(out);
        return;
      }
      const big = this.#big[i];
      if (a.wide && !big) {
        // min/max of LONG-like values, exact doubles below 2^53: written as their two words
        // (a BigInt per group cost more than the rest of the partial).
        const out = new BigInt64Array(groups), w = new Int32Array(out.buffer);
        for (let g = 0; g < groups; g++) {
          const v = main[g];
          const hi = cnt[g] === 0 ? -2147483648 : Math.floor(v / 4294967296);
          w[2 * g] = cnt[g] === 0 ? 0 : v - hi * 4294967296;
          w[2 * g + 1] = hi;
        }
        values.push(out);
        return;
      }
      const hi = this.#hi[i];
      if (a.wide && big) {
        // Integer sums: as two words straight from the doubles while the total is below 2^53
        // and nothing was flushed (the common case), through a bigint otherwise.
        const out = new BigInt64Array(groups), w = new Int32Array(out.buffer);
        for (let g = 0; g < groups; g++) {
          const t = main[g] + (hi ? hi[g] * 4294967296 : 0);
          if (cnt[g] !== 0 && big[g] === undefined && t < 9007199254740992 && t > -9007199254740992) {
            const h = Math.floor(t / 4294967296);
            w[2 * g] = t - h * 4294967296;
            w[2 * g + 1] = h;
          } else out[g] = cnt[g] === 0 ? LONG_NULL : this.#exactSum(i, g);
        }
        values.push(out);
        return;
      }
      const out = a.wide ? new BigInt64Array(groups) : new Float64Array(groups);
      for (let g = 0; g < groups; g++) {
        let v: number | bigint | null;
        if (cnt[g] === 0) v = null;
        else if (big) {
          const total = this.#exactSum(i, g);
          v = total === LONG_NULL ? null : total;
        } else if (a.fn === "sum") v = Number.isFinite(main[g]) ? main[g] : null;
        else v = main[g];
        if (a.wide) (out as BigInt64Array)[g] = v === null ? LONG_NULL : BigInt(v);
        else (out as Float64Array)[g] = v === null ? NaN : Number(v);
      }
      values.push(out);
    });
    return { groups, keys, counts, values, distinct: this.aggs.map(() => undefined) };
  }
}

/** Scalar key values as vector data of type `t`; SYMBOL values are codes (-1: NULL). */
function dataOf(t: ColumnType, values: Value[]): VectorData {
  if (t.tag === "SYMBOL") return Int32Array.from(values, (v) => v === null ? -1 : v as number);
  const d = allocVectorData(t, values.length);
  for (let i = 0; i < values.length; i++) writeValue(t, d, i, values[i]);
  return d;
}

/**
 * Date-part keys of a TIMESTAMP column (`hour(ts)`): when the batch's timestamps are ascending
 * (a designated timestamp), time_field_runs.ts fills each key's values run by run, and a second
 * loop reads them as INT columns past the batch's own (`base + k`) instead of computing every
 * row's field; any other batch runs the loop that computes them.
 */
interface RunKeys {
  run: { all: FusedRun; withSel: FusedRun };
  base: number;
  fills: { k: number; col: number; fill: (b: Batch, out: Int32Array) => boolean }[];
}

function runKeysOf(
  keys: BoundExpr[],
  dense: DenseKey[],
  aggs: DenseAgg[],
  params: readonly unknown[],
): RunKeys | undefined {
  const fills = keys.flatMap((key, k) => {
    const fill = timeFieldRuns(key);
    const col = key.kind === "call" ? key.args[0] : undefined;
    return fill && col?.kind === "column" ? [{ k, col: col.index, fill }] : [];
  });
  if (!fills.length) return undefined;
  // Past every column the job's expressions read: the filled columns shadow none of them.
  let base = 0;
  for (const e of [...keys, ...aggs.flatMap((a) => [a.arg, a.filter])]) {
    if (e) walkBound(e, (x) => x.kind === "column" && (base = Math.max(base, x.index + 1)));
  }
  const asColumns = keys.map((key, k): BoundExpr =>
    fills.some((f) => f.k === k) ? { kind: "column", type: key.type, index: base + k } : key
  );
  const run = fusedLoopOf(asColumns, dense, aggs, params);
  return run && { run, base, fills };
}

/** The filled keys' arrays, one per run key, reused batch after batch. */
const runBuffers: Int32Array[] = [];

/** `b` with each run key's values as an INT column at `base + k`, or undefined: not ascending. */
function withRunColumns(r: RunKeys, b: Batch): Batch | undefined {
  if (!r.fills.every((f) => b.columns[f.col]?.ascending)) return undefined;
  const columns = b.columns.slice();
  for (const [i, f] of r.fills.entries()) {
    // Shared by every grouping on this heap: the loop reads the filled keys before add returns.
    if ((runBuffers[i]?.length ?? 0) < b.rowCount) runBuffers[i] = new Int32Array(Math.max(b.rowCount, 1024));
    const out = runBuffers[i].subarray(0, b.rowCount);
    if (!f.fill(b, out)) return undefined;
    columns[r.base + f.k] = { type: T.INT, data: out };
  }
  return { rowCount: b.rowCount, columns };
}

/**
 * The generated loop: per row the keys' slots, their composite index into the direct table
 * `zd` (new groups get the next id and record their composite slot in `zf`), then each
 * aggregate's update. State arrays arrive in X in the constructor's order.
 */
function fusedLoopOf(
  keys: BoundExpr[],
  dense: DenseKey[],
  aggs: DenseAgg[],
  params: readonly unknown[],
): { all: FusedRun; withSel: FusedRun } | undefined {
  if (!aggs.every((a) => FUSED_FNS.has(a.fn) && (a.fn === "count*") === !a.arg)) return undefined;
  const args = aggs.flatMap((a) => a.arg ? [a.arg] : []);
  const filters = aggs.flatMap((a) => a.filter ? [a.filter] : []);
  let fitted = true;
  const run = compileFusedLoop([...keys, ...args, ...filters], params, (vars: FusedVar[]) => {
    const head = ["const zd = X[0], zf = X[1], zG = X[2];", "let zn = zG[0];"];
    const row: string[] = [];
    dense.forEach((d, k) => {
      const { v, repr } = vars[k];
      if ((d.how === "sym") !== (repr === "sym") || (d.how === "bool") !== (repr === "bool")) fitted = false;
      const slot = d.how === "sym"
        ? `${v} < 0 ? 0 : ${v} + 1`
        : d.how === "bool"
        ? `${v} ? 2 : 1`
        : `${v} !== ${v} ? 0 : ${v} - ${d.lo - 1}`;
      row.push(`const zq${k} = ${slot};`);
      // A value outside the domain (none is expected) goes the general way, as a LONG past 2^53.
      row.push(`if (zq${k} >>> 0 >= ${d.slots} || zq${k} !== (zq${k} | 0)) return -1;`);
    });
    let composite = dense.length ? "zq0" : "0";
    for (let k = 1; k < dense.length; k++) composite = `(${composite}) * ${dense[k].slots} + zq${k}`;
    row.push(`const zs = ${composite};`);
    row.push("let zg = zd[zs];");
    row.push("if (zg < 0) { zg = zn++; zd[zs] = zg; zf[zg] = zs; }");
    let argAt = keys.length, filterAt = keys.length + args.length;
    aggs.forEach((a, i) => {
      const x = 3 + 3 * i;
      head.push(`const zc${i} = X[${x}], zm${i} = X[${x + 1}], zh${i} = X[${x + 2}];`);
      // A FILTER clause guards the aggregate's whole update (NULL conditions are false).
      const f = a.filter ? vars[filterAt++] : undefined;
      if (f && f.repr !== "bool") fitted = false;
      const guard = (code: string) => f ? `if (${f.v}) { ${code} }` : code;
      if (a.fn === "count*") {
        row.push(guard(`zc${i}[zg]++;`));
        return;
      }
      const { v, repr } = vars[argAt++];
      if (repr !== "num") fitted = false;
      let update = "";
      switch (a.fn) {
        case "count":
          break;
        case "avg":
          update = `zm${i}[zg] += ${v};`;
          break;
        case "sum":
          update = integerSum(a.arg!) && longArg(a.arg!)
            // Exact below 2^53: the high word's double, the low word's remainder.
            ? `const zw${i} = Math.floor(${v} / 4294967296); zm${i}[zg] += ${v} - zw${i} * 4294967296; zh${i}[zg] += zw${i};`
            : `zm${i}[zg] += ${v};`;
          break;
        case "min":
          // The first value wins ties, as the accumulator's strict comparison does.
          update = `if (${v} < zm${i}[zg]) zm${i}[zg] = ${v};`;
          break;
        case "max":
          update = `if (${v} > zm${i}[zg]) zm${i}[zg] = ${v};`;
          break;
      }
      if (a.fn === "min" || a.fn === "max") {
        // No count kept: the loop's values are finite (NaN for NULL fails both comparisons), so
        // a group saw a value exactly when its extreme left the infinite start (partial()).
        row.push(guard(update));
        return;
      }
      row.push(guard(`if (${v} === ${v}) { ${update} zc${i}[zg]++; }`));
    });
    return { head: head.join("\n  "), row: row.join("\n    "), tail: "zG[0] = zn;" };
  });
  return fitted ? run : undefined;
}

/** The slot count of dense keys (their product), or Infinity past DENSE_SLOTS_MAX. */
export function denseSlots(dense: DenseKey[]): number {
  let n = 1;
  for (const d of dense) {
    n *= d.slots;
    if (n > DENSE_SLOTS_MAX) return Infinity;
  }
  return n;
}

/**
 * The window functions of spec/sql.md §12.2 over one partition whose rows are already in
 * ORDER BY order: ranking, offsets (lag/lead), frame values (first/last/nth_value) and
 * aggregates over ROWS or RANGE frames. Rows with equal ORDER BY values are distinct rows,
 * as in QuestDB (a running sum changes on every row). Cumulative frames add rows as they
 * enter; sliding sum/avg/count add and subtract; other sliding aggregates recompute.
 *
 * A partition can hold every row of a large input: each function gives the event loop turns
 * (`Turns`, pace) every few hundred rows or frame steps, so a 1M-row partition does not hold
 * other clients for hundreds of milliseconds (issue #17) and cancel and timeouts stop it.
 */
import type { Value } from "../base/values.ts";
import { SqlError } from "../base/errors.ts";
import { windowPercentile } from "../functions/aggregate_quantile.ts";
import { lookupAggregate } from "../functions/registry.ts";
import type { AggregateBinding } from "../functions/registry_types.ts";
import type { WindowCall } from "../plan/plan_node.ts";
import { type ExecContext, pace, PACE_ROWS, paceDue } from "./exec_context.ts";
import { emaPartition } from "./window_ema.ts";
import { bucketSelectPartition } from "./window_bucket_select.ts";
import { firstAbove as firstAboveOf, firstAtLeast as firstAtLeastOf } from "./window_frames.ts";

export interface PartitionInput {
  /** Values of the first ORDER BY expression, by input row (RANGE frames). */
  order?: Value[];
  /** True when two input rows have equal ORDER BY values. */
  peer(a: number, b: number): boolean;
  /** Argument values by input row. */
  args: Value[][];
  /** Results by input row. */
  out: Value[];
  ctx: ExecContext;
}

/** Counts work (rows, frame steps) and answers whether a turn of the event loop is due. */
class Turns {
  #work = 0;
  constructor(readonly ctx: ExecContext) {}

  /** Adds `work` units; every PACE_ROWS units, whether the time slice is used up. */
  due(work = 1): boolean {
    this.#work += work;
    if (this.#work < PACE_ROWS) return false;
    this.#work = 0;
    return paceDue(this.ctx);
  }

  turn(): Promise<void> {
    return pace(this.ctx);
  }
}

export async function computePartition(w: WindowCall, rows: number[], p: PartitionInput): Promise<void> {
  const t = new Turns(p.ctx);
  switch (w.name) {
    case "row_number":
      for (let k = 0; k < rows.length; k++) {
        if (t.due()) await t.turn();
        p.out[rows[k]] = BigInt(k + 1);
      }
      return;
    case "rank":
    case "dense_rank":
    case "percent_rank":
    case "cume_dist":
      return await ranks(w.name, rows, p, t);
    case "ntile":
      return ntile(Number(p.args[0][rows[0]]), rows, p.out);
    case "lag":
    case "lead":
      return await offsets(w, rows, p, t);
    case "ema":
      return await emaPartition(w, rows, p, t);
    case "minmax":
    case "m4":
    case "lttb":
    case "uniform":
    case "cadence":
    case "sdt":
      return bucketSelectPartition(w, rows, p);
  }
  const frames = await frameBounds(w, rows, p.order, t);
  if (w.name === "first_value" || w.name === "last_value" || w.name === "nth_value") {
    return await frameValues(w, rows, frames, p, t);
  }
  await aggregateOverFrames(w, rows, frames, p, t);
}

async function ranks(name: string, rows: number[], p: PartitionInput, t: Turns): Promise<void> {
  const m = rows.length;
  let rank = 0, dense = 0;
  for (let k = 0; k < m; k++) {
    if (t.due()) await t.turn();
    if (k === 0 || !p.peer(rows[k - 1], rows[k])) {
      rank = k + 1;
      dense++;
    }
    if (name === "rank") p.out[rows[k]] = BigInt(rank);
    else if (name === "dense_rank") p.out[rows[k]] = BigInt(dense);
    else if (name === "percent_rank") p.out[rows[k]] = m === 1 ? 0 : (rank - 1) / (m - 1);
  }
  if (name !== "cume_dist") return;
  for (let k = 0; k < m;) {
    if (t.due()) await t.turn();
    let end = k;
    while (end + 1 < m && p.peer(rows[k], rows[end + 1])) end++;
    for (let j = k; j <= end; j++) p.out[rows[j]] = (end + 1) / m;
    k = end + 1;
  }
}

function ntile(n: number, rows: number[], out: Value[]): void {
  const m = rows.length;
  const base = Math.floor(m / n), extra = m % n;
  let k = 0;
  for (let bucket = 1; bucket <= n && k < m; bucket++) {
    const size = base + (bucket <= extra ? 1 : 0);
    for (let j = 0; j < size; j++) out[rows[k++]] = BigInt(bucket);
  }
}

/** lag/lead(x [, offset [, default]]) with RESPECT or IGNORE NULLS; frames do not apply. */
async function offsets(w: WindowCall, rows: number[], p: PartitionInput, t: Turns): Promise<void> {
  const [xs, offs, defs] = p.args;
  const offset = offs ? Number(offs[rows[0]] ?? 1) : 1;
  const dir = w.name === "lag" ? -1 : 1;
  const m = rows.length;
  if (!w.ignoreNulls) {
    for (let k = 0; k < m; k++) {
      if (t.due()) await t.turn();
      const j = k + dir * offset;
      p.out[rows[k]] = j >= 0 && j < m ? xs[rows[j]] : defs ? defs[rows[k]] : null;
    }
    return;
  }
  // Positions of non-NULL values; the answer is the offset-th of them before (after) k.
  const present: number[] = [];
  for (let k = 0; k < m; k++) if (xs[rows[k]] !== null) present.push(k);
  let at = 0;
  for (let k = 0; k < m; k++) {
    if (t.due()) await t.turn();
    while (at < present.length && present[at] < k) at++;
    if (offset === 0) {
      p.out[rows[k]] = xs[rows[k]];
      continue;
    }
    const idx = dir < 0 ? at - offset : (at < present.length && present[at] === k ? at + 1 : at) + offset - 1;
    p.out[rows[k]] = idx >= 0 && idx < present.length ? xs[rows[present[idx]]] : defs ? defs[rows[k]] : null;
  }
}

interface Frames {
  lo: Int32Array;
  hi: Int32Array;
  /** Every frame starts at the partition's first row. */
  fromStart: boolean;
  excludeCurrent: boolean;
}

function asNumber(v: Value): number {
  if (v === null) return -Infinity;
  return typeof v === "bigint" ? Number(v) : (v as number);
}

/** Inclusive frame bounds per position (lo > hi = empty). */
async function frameBounds(
  w: WindowCall,
  rows: number[],
  order: Value[] | undefined,
  t: Turns,
): Promise<Frames> {
  const m = rows.length;
  const lo = new Int32Array(m), hi = new Int32Array(m);
  const { start, end, unit } = w.frame;
  const desc = w.orderBy[0]?.desc ?? false;
  const ranged = unit === "range" && order !== undefined &&
    (start.offset !== undefined || end.offset !== undefined);
  const vals = ranged ? rows.map((r) => (desc ? -asNumber(order![r]) : asNumber(order![r]))) : [];
  // RANGE bounds search `vals` (ascending after the sign flip) as window_frames.ts does.
  const firstAtLeast = (v: number) => firstAtLeastOf(vals, m, v);
  const firstAbove = (v: number) => firstAboveOf(vals, m, v);
  const bound = (b: { kind: string; offset?: number | bigint }, k: number, isEnd: boolean): number => {
    switch (b.kind) {
      case "unboundedPreceding":
        return 0;
      case "unboundedFollowing":
        return m - 1;
      case "currentRow":
        return k;
      case "preceding":
        if (!ranged) return k - Number(b.offset ?? 0);
        // An end bound takes the rows equal to it too (WindowExcludeCurrentRowTest).
        return isEnd
          ? firstAbove(vals[k] - Number(b.offset ?? 0)) - 1
          : firstAtLeast(vals[k] - Number(b.offset ?? 0));
      default:
        if (!ranged) return k + Number(b.offset ?? 0);
        return isEnd
          ? firstAbove(vals[k] + Number(b.offset ?? 0)) - 1
          : firstAtLeast(vals[k] + Number(b.offset ?? 0));
    }
  };
  for (let k = 0; k < m; k++) {
    if (t.due()) await t.turn();
    lo[k] = Math.max(0, bound(start, k, false));
    hi[k] = Math.min(m - 1, bound(end, k, true));
  }
  return { lo, hi, fromStart: start.kind === "unboundedPreceding", excludeCurrent: w.frame.excludeCurrent };
}

async function frameValues(
  w: WindowCall,
  rows: number[],
  f: Frames,
  p: PartitionInput,
  t: Turns,
): Promise<void> {
  const xs = p.args[0];
  const nth = w.name === "nth_value" ? Number(p.args[1]?.[rows[0]] ?? 1) : 1;
  for (let k = 0; k < rows.length; k++) {
    // A frame's scan stops at its nth value: counted as one step, most frames stop at once.
    if (t.due()) await t.turn();
    let picked: Value = null;
    let seen = 0;
    const first = w.name !== "last_value";
    const from = first ? f.lo[k] : f.hi[k], to = first ? f.hi[k] : f.lo[k], step = first ? 1 : -1;
    for (let j = from; first ? j <= to : j >= to; j += step) {
      if (f.excludeCurrent && j === k) continue;
      const v = xs[rows[j]];
      if (w.ignoreNulls && v === null) continue;
      if (++seen === nth) {
        picked = v;
        break;
      }
    }
    p.out[rows[k]] = picked;
  }
}

function toResult(w: WindowCall, v: Value): Value {
  if (v === null) return null;
  if (w.type.tag === "DOUBLE" && typeof v !== "number") return Number(v);
  return v;
}

async function aggregateOverFrames(
  w: WindowCall,
  rows: number[],
  f: Frames,
  p: PartitionInput,
  t: Turns,
): Promise<void> {
  const m = rows.length;
  const argsOf = (j: number) => p.args.map((a) => a[rows[j]]);
  // DECIMAL sums and averages stay exact through the aggregate's accumulator below.
  const exact = w.type.tag === "DECIMAL";
  if ((w.name === "sum" || w.name === "avg" || w.name === "count") && !f.excludeCurrent && !exact) {
    return await slidingSum(w, rows, f, p, t);
  }
  if (
    (w.name === "min" || w.name === "max") && !f.excludeCurrent && !f.fromStart &&
    w.args[0]?.type.tag === "DOUBLE" && await slidingExtreme(w.name === "max", rows, f, p, t)
  ) return;
  const bound = bindingFor(w);
  if (!bound) throw new Error(`window aggregate ${w.name} cannot be bound`);
  const realBinding = exact && (w.name === "sum" || w.name === "avg")
    ? decimalOverflowChecked(w, bound)
    : bound;
  if (f.fromStart && !f.excludeCurrent) {
    // Cumulative: frames only grow, so rows are added once.
    const acc = realBinding.create();
    let added = -1;
    for (let k = 0; k < m; k++) {
      if (t.due()) await t.turn();
      while (added < f.hi[k]) acc.add(argsOf(++added));
      p.out[rows[k]] = f.hi[k] < f.lo[k] ? emptyResult(w) : toResult(w, acc.result());
    }
    return;
  }
  for (let k = 0; k < m; k++) {
    // Each frame is aggregated afresh: its length is the work done.
    if (t.due(Math.max(1, f.hi[k] - f.lo[k] + 1))) await t.turn();
    const acc = realBinding.create();
    let any = false;
    for (let j = f.lo[k]; j <= f.hi[k]; j++) {
      if (f.excludeCurrent && j === k) continue;
      acc.add(argsOf(j));
      any = true;
    }
    p.out[rows[k]] = any ? toResult(w, acc.result()) : emptyResult(w);
  }
}

/**
 * min/max of DOUBLE over frames whose bounds never move back (ROWS and RANGE frames): a
 * monotonic deque of row positions, each row entering and leaving once, instead of a fresh
 * accumulator over every frame. Among equal extremes the earliest stays in front, which is the
 * value the accumulator's strict comparison keeps. Answers false (nothing written) when some
 * bound moves back.
 */
async function slidingExtreme(
  max: boolean,
  rows: number[],
  f: Frames,
  p: PartitionInput,
  t: Turns,
): Promise<boolean> {
  const m = rows.length;
  for (let k = 1; k < m; k++) if (f.lo[k] < f.lo[k - 1] || f.hi[k] < f.hi[k - 1]) return false;
  const xs = p.args[0];
  const deque = new Int32Array(m);
  let head = 0, tail = 0, entered = -1;
  for (let k = 0; k < m; k++) {
    if (t.due()) await t.turn();
    const lo = f.lo[k], hi = f.hi[k];
    while (entered < hi) {
      const j = ++entered;
      const v = xs[rows[j]] as number | null;
      if (v === null) continue;
      // Later equal values stay behind earlier ones.
      while (tail > head) {
        const back = xs[rows[deque[tail - 1]]] as number;
        if (max ? back < v : back > v) tail--;
        else break;
      }
      deque[tail++] = j;
    }
    while (tail > head && deque[head] < lo) head++;
    p.out[rows[k]] = hi < lo || tail === head ? null : xs[rows[deque[head]]];
  }
  return true;
}

/** The largest magnitude a DECIMAL accumulator holds: 76 digits. */
const DECIMAL_ACC_LIMIT = 10n ** 76n;

/**
 * A DECIMAL sum or average whose running sum leaves 76 digits fails, as QuestDB's Decimal256
 * accumulator does: 'sum aggregation failed' / 'avg aggregation failed' at the argument
 * (WindowDecimalFunctionTest#testSumDecimal256OverflowAtAdd, #testAvgDecimal256OverflowAtAdd).
 */
function decimalOverflowChecked(w: WindowCall, b: AggregateBinding): AggregateBinding {
  return {
    ...b,
    create: () => {
      const acc = b.create();
      let sum = 0n;
      return {
        result: () => acc.result(),
        add: (args: Value[]) => {
          const v = args[0];
          if (typeof v === "bigint") {
            sum += v;
            if (sum >= DECIMAL_ACC_LIMIT || sum <= -DECIMAL_ACC_LIMIT) {
              throw new SqlError(
                `${w.name} aggregation failed: Overflow in addition: result exceeds maximum precision`,
                w.argPos ?? w.pos ?? 0,
              );
            }
          }
          acc.add(args);
        },
      };
    },
  };
}

/** The binding the planner chose is not kept on the plan; rebind with the argument types. */
const bindings = new WeakMap<WindowCall, AggregateBinding | undefined>();
function bindingFor(w: WindowCall): AggregateBinding | undefined {
  if (bindings.has(w)) return bindings.get(w);
  const b = (windowPercentile(w.name) ?? lookupAggregate(w.name))?.bind(
    w.args.map((a) => ({
      type: a.type,
      constant: a.kind === "const",
      value: a.kind === "const" ? a.value : undefined,
      pos: 0,
    })),
    { distinct: false, star: w.args.length === 0 },
  );
  const binding = typeof b === "string" ? undefined : b;
  bindings.set(w, binding);
  return binding;
}

function emptyResult(w: WindowCall): Value {
  return w.name === "count" ? 0n : null;
}

/** sum/avg/count over moving frames: add entering rows, subtract leaving ones. */
async function slidingSum(
  w: WindowCall,
  rows: number[],
  f: Frames,
  p: PartitionInput,
  t: Turns,
): Promise<void> {
  const xs = p.args[0];
  const star = xs === undefined;
  let sum = 0, count = 0, curLo = 0, curHi = -1;
  const valueAt = (j: number) => (star ? 1 : xs[rows[j]]);
  for (let k = 0; k < rows.length; k++) {
    if (t.due()) await t.turn();
    const lo = f.lo[k], hi = f.hi[k];
    if (lo > curHi) {
      sum = 0;
      count = 0;
      curLo = lo;
      curHi = lo - 1;
    }
    while (curHi < hi) {
      const v = valueAt(++curHi);
      if (v !== null) {
        sum += Number(v);
        count++;
      }
    }
    while (curLo < lo) {
      const v = valueAt(curLo++);
      if (v !== null) {
        sum -= Number(v);
        count--;
      }
    }
    let r: Value;
    if (w.name === "count") r = BigInt(hi < lo ? 0 : count);
    else if (hi < lo || count === 0) r = null;
    else r = w.name === "sum" ? sum : sum / count;
    p.out[rows[k]] = r;
  }
}

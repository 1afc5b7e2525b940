/**
 * ASOF, LT and SPLICE JOIN execution (spec/sql.md §11.3–§11.5) as a forward merge of two
 * inputs sorted by their designated timestamps: the right cursor only ever moves forward,
 * and the latest right row per key is remembered, so each side is read once and nothing is
 * sorted. ASOF takes right rows with ts <= the left ts, LT those with ts < it; on equal
 * timestamps the last stored right row wins. TOLERANCE drops matches older than the bound.
 */
import {
  allocVectorData,
  type Batch,
  readValue,
  type Value,
  type Vector,
  writeValue,
} from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { normKey } from "../plan/bind_expr.ts";
import { RowBuffer, rowOf } from "./batch_util.ts";
import { charge, checkCancelled, type ExecContext, rowBytes } from "./exec_context.ts";
import { runAsofColumnar } from "./asof_join_columnar.ts";

/** ASOF/LT run by the columnar merge (asof_join_columnar.ts); false: the row-at-a-time one below. */
const COLUMNAR = true;

type AsofNode = Extract<PlanNode, { kind: "asof" }>;
type Runner = (n: PlanNode, ctx: ExecContext) => AsyncGenerator<Batch>;

/** A row cursor over a stream of batches. */
class Cursor {
  batch: Batch | undefined;
  row = 0;
  #it: AsyncIterator<Batch>;
  constructor(source: AsyncGenerator<Batch>, readonly tsIndex: number) {
    this.#it = source[Symbol.asyncIterator]();
  }
  /** Moves to a valid row (loading batches as needed); false at the end. */
  async ready(): Promise<boolean> {
    while (!this.batch || this.row >= this.batch.rowCount) {
      const r = await this.#it.next();
      if (r.done) {
        this.batch = undefined;
        return false;
      }
      this.batch = r.value;
      this.row = 0;
    }
    return true;
  }
  get ts(): bigint {
    return (this.batch!.columns[this.tsIndex].data as BigInt64Array)[this.row];
  }
}

interface Match {
  batch: Batch;
  row: number;
  ts: bigint;
}

function keyOf(b: Batch, i: number, keys: number[]): unknown {
  if (keys.length === 0) return 0;
  if (keys.length === 1) return normKey(readValue(b.columns[keys[0]], i));
  return keys.map((k) => String(normKey(readValue(b.columns[k], i)))).join("\u0001");
}

export function runAsofJoin(n: AsofNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  if (n.type === "splice") return runSplice(n, ctx, run);
  return COLUMNAR ? runAsofColumnar(n, ctx, run) : runAsof(n, ctx, run);
}

async function* runAsof(n: AsofNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const right = new Cursor(run(n.right, ctx), n.rightTs);
  const strict = n.type === "lt";
  const tolerance = n.toleranceTicks;
  const latest = new Map<unknown, Match>();
  const rightTypes = n.right.columns.map((c) => c.type);
  let rightDone = false;
  for await (const lb of run(n.left, ctx)) {
    checkCancelled(ctx);
    const lts = lb.columns[n.leftTs].data as BigInt64Array;
    const matches: (Match | undefined)[] = new Array(lb.rowCount);
    for (let i = 0; i < lb.rowCount; i++) {
      const t = lts[i];
      while (!rightDone) {
        if (!(await right.ready())) {
          rightDone = true;
          break;
        }
        const rt = right.ts;
        if (strict ? rt >= t : rt > t) break;
        const key = keyOf(right.batch!, right.row, n.rightKeys);
        if (!latest.has(key)) charge(ctx, rowBytes(1, rightTypes.length));
        latest.set(key, {
          batch: right.batch!,
          row: right.row,
          ts: rt,
        });
        right.row++;
      }
      const m = latest.get(keyOf(lb, i, n.leftKeys));
      matches[i] = m && (tolerance === undefined || t - m.ts <= tolerance) ? m : undefined;
    }
    const columns: Vector[] = [...lb.columns];
    rightTypes.forEach((type, c) => {
      const data = allocVectorData(type, lb.rowCount);
      for (let i = 0; i < lb.rowCount; i++) {
        const m = matches[i];
        if (m) writeValue(type, data, i, readValue(m.batch.columns[c], m.row));
      }
      columns.push({ type, data });
    });
    yield { rowCount: lb.rowCount, columns };
  }
}

/** Per join key, the last two rows read from each side (QuestDB's splice join map value). */
interface SpliceEntry {
  masterPrev?: Value[];
  masterNext?: Value[];
  slavePrev?: Value[];
  slaveNext?: Value[];
}

/**
 * SPLICE: rows of either side paired with the other side's prevailing row, following QuestDB's
 * SpliceJoinLightRecordCursor step for step (its results are what conformance pins): each side
 * keeps one row read ahead, already recorded in the key map; the side with the smaller timestamp
 * leads and is paired with the other side's previous row for its key (the other side's newest row
 * when that side is exhausted). On equal timestamps with the same key the two current rows pair;
 * with different keys the left row leads and the right row is passed over (QuestDB's dual record
 * is overwritten before it is returned). Both sides then advance.
 */
async function* runSplice(n: AsofNode, ctx: ExecContext, run: Runner): AsyncGenerator<Batch> {
  const left = new Cursor(run(n.left, ctx), n.leftTs);
  const right = new Cursor(run(n.right, ctx), n.rightTs);
  const leftWidth = n.left.columns.length, rightWidth = n.right.columns.length;
  const entries = new Map<unknown, SpliceEntry>();
  const buffer = new RowBuffer(n.columns.map((c) => c.type));
  const nulls = (w: number) => new Array<Value>(w).fill(null);
  const entryOf = (k: unknown): SpliceEntry => {
    let e = entries.get(k);
    if (!e) {
      // Each key's entry is held to the end: distinct keys are charged.
      charge(ctx, rowBytes(1, leftWidth + rightWidth));
      entries.set(k, e = {});
    }
    return e;
  };
  const END = 0x7fffffffffffffffn;
  let fetchMaster = true, fetchSlave = true, hasMaster = false, hasSlave = false;
  let masterTs = END, slaveTs = END;
  let masterRow: Value[] = [], slaveRow: Value[] = [];
  let masterEntry: SpliceEntry = {}, slaveEntry: SpliceEntry = {};
  const masterLeads = () => {
    const s = hasSlave ? masterEntry.slavePrev : masterEntry.slaveNext;
    buffer.push([...masterRow, ...(s ?? nulls(rightWidth))]);
  };
  const slaveLeads = () => {
    const m = hasMaster ? slaveEntry.masterPrev : slaveEntry.masterNext;
    buffer.push([...(m ?? nulls(leftWidth)), ...slaveRow]);
  };
  for (;;) {
    checkCancelled(ctx);
    if (fetchMaster) {
      hasMaster = await left.ready();
      if (hasMaster) {
        masterRow = rowOf(left.batch!, left.row);
        masterEntry = entryOf(keyOf(left.batch!, left.row, n.leftKeys));
        masterEntry.masterPrev = masterEntry.masterNext;
        masterEntry.masterNext = masterRow;
        masterTs = left.ts;
        left.row++;
      } else masterTs = END;
    }
    if (fetchSlave) {
      hasSlave = await right.ready();
      if (hasSlave) {
        slaveRow = rowOf(right.batch!, right.row);
        slaveEntry = entryOf(keyOf(right.batch!, right.row, n.rightKeys));
        slaveEntry.slavePrev = slaveEntry.slaveNext;
        slaveEntry.slaveNext = slaveRow;
        slaveTs = right.ts;
        right.row++;
      } else slaveTs = END;
    }
    if (masterTs < slaveTs) {
      masterLeads();
      fetchMaster = true;
      fetchSlave = false;
    } else if (masterTs > slaveTs) {
      slaveLeads();
      fetchMaster = false;
      fetchSlave = true;
    } else {
      if (!hasMaster && !hasSlave) break;
      if (masterEntry === slaveEntry) buffer.push([...masterRow, ...slaveRow]);
      else masterLeads();
      fetchMaster = fetchSlave = true;
    }
    if (buffer.full) yield buffer.take();
  }
  if (buffer.rows.length) yield buffer.take();
}

/**
 * INNER, LEFT, RIGHT, FULL and CROSS joins: a hash join on the equality keys (NULL matches
 * NULL, spec/sql.md §11.2), a nested loop otherwise. Output keeps left-input order, and for
 * each left row the right rows in their order; unmatched right rows (RIGHT/FULL) come last.
 */
import type { Batch, Value } from "../base/values.ts";
import { nullValueOf } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { normKey } from "../plan/bind_expr.ts";
import { batchToRows, RowBuffer, rowsToBatch } from "./batch_util.ts";
import { compilePredicate } from "./compile_expr.ts";
import {
  charge,
  checkCancelled,
  type ExecContext,
  pace,
  PACE_MASK,
  paceDue,
  rowBytes,
} from "./exec_context.ts";

type JoinNode = Extract<PlanNode, { kind: "join" }>;

/** Pairs formed between two event-loop turns. */
const PAIR_SLICE = 4096;

function keyOf(row: Value[], cols: number[]): unknown {
  if (cols.length === 1) return normKey(row[cols[0]]);
  return cols.map((c) => String(normKey(row[c]))).join("\u0001");
}

export async function* runJoin(
  n: JoinNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const rightRows: Value[][] = [];
  for await (const b of right) {
    checkCancelled(ctx);
    // The build side plus its index entry per row.
    charge(ctx, rowBytes(b.rowCount, n.right.columns.length + 1));
    for (const r of batchToRows(b)) rightRows.push(r);
  }
  const leftWidth = n.left.columns.length;
  const types = n.columns.map((c) => c.type);
  const leftNulls = n.left.columns.map((c) => nullValueOf(c.type));
  const rightNulls = n.right.columns.map((c) => nullValueOf(c.type));
  const leftKeys = n.equi.map((k) => k[0]);
  const rightKeyCols = n.equi.map((k) => k[1] - leftWidth);
  let index: Map<unknown, number[]> | undefined;
  if (n.equi.length > 0) {
    index = new Map();
    for (let i = 0; i < rightRows.length; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      const k = keyOf(rightRows[i], rightKeyCols);
      const list = index.get(k);
      if (list) list.push(i);
      else index.set(k, [i]);
    }
  }
  const all = rightRows.map((_, i) => i);
  const cond = n.condition ? compilePredicate(n.condition, ctx) : undefined;
  const matchedRight = new Uint8Array(rightRows.length);
  const out = new RowBuffer(types);
  const keepLeft = n.type === "left" || n.type === "full";
  // One left row can pair with the whole build side: candidates go in slices, and the event
  // loop gets its turns between slices, not only between source batches, or a cross join holds
  // every other client (and cancel requests) for its whole run.
  let work = 0;
  for await (const b of left) {
    checkCancelled(ctx);
    for (const lrow of batchToRows(b)) {
      const candidates = index ? index.get(keyOf(lrow, leftKeys)) ?? [] : all;
      let matched = false;
      for (let from = 0; from < candidates.length || from === 0; from += PAIR_SLICE) {
        const slice = candidates.length > PAIR_SLICE ? candidates.slice(from, from + PAIR_SLICE) : candidates;
        let pairs = slice.map((ri) => ({ ri, row: [...lrow, ...rightRows[ri]] }));
        if (cond && pairs.length) {
          const pb = rowsToBatch(types, pairs.map((p) => p.row));
          pairs = pairs.filter((_, i) => cond(pb, i));
        }
        for (const p of pairs) {
          matchedRight[p.ri] = 1;
          out.push(p.row);
        }
        matched ||= pairs.length > 0;
        if (out.full) yield out.take();
        work += slice.length + 1;
        if (work >= PAIR_SLICE) {
          work = 0;
          await pace(ctx);
        }
        if (candidates.length === 0) break;
      }
      if (!matched && keepLeft) out.push([...lrow, ...rightNulls]);
      if (out.full) yield out.take();
    }
  }
  if (n.type === "right" || n.type === "full") {
    for (let i = 0; i < rightRows.length; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      if (!matchedRight[i]) out.push([...leftNulls, ...rightRows[i]]);
      if (out.full) yield out.take();
    }
  }
  if (out.rows.length) yield out.take();
}

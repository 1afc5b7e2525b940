/**
 * Sort: materialises its input and orders it by key columns (NULLs first ascending, §4.5; a
 * DOUBLE/FLOAT NULL last, as value_compare.ts says). Stable.
 */
import type { Batch, Value } from "../base/values.ts";
import { compareValues } from "../functions/operators.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { batchToRows, rowsToBatches } from "./batch_util.ts";
import { charge, checkCancelled, type ExecContext, rowBytes } from "./exec_context.ts";
import { sortPaced } from "./paced_sort.ts";

type SortNode = Extract<PlanNode, { kind: "sort" }>;

export async function* runSort(
  n: SortNode,
  input: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const rows: Value[][] = [];
  for await (const b of input) {
    checkCancelled(ctx);
    charge(ctx, rowBytes(b.rowCount, n.columns.length));
    for (const r of batchToRows(b)) rows.push(r);
  }
  const keys = n.keys.map((k) => ({ ...k, type: n.columns[k.index].type }));
  const sorted = await sortPaced(rows, (a, b) => {
    for (const k of keys) {
      const c = compareValues(a[k.index], b[k.index], k.type);
      if (c !== 0) return k.desc ? -c : c;
    }
    return 0;
  }, ctx);
  yield* rowsToBatches(n.columns.map((c) => c.type), sorted);
}

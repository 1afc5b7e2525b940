/**
 * The columns an UPDATE or DELETE reads to evaluate its WHERE and SET expressions: only those
 * the expressions reference (plan/prune_columns.ts `uses`). Before, both read
 * every column of each partition they scan; a STRING column of 3M rows took ~1.7 s to decode
 * on the main thread in one piece for `UPDATE t SET d = 0 WHERE x % 3 = 0`.
 */
import type { ColumnType } from "../base/types.ts";
import type { Value, Vector } from "../base/values.ts";
import type { TableSnapshot } from "../storage/api.ts";

/**
 * Rows [0, rows) of partition `p` for the columns in `used`; every other column is an empty
 * placeholder of its type (the compiled expressions never read it).
 */
export function readUsed(
  snap: TableSnapshot,
  p: number,
  types: ColumnType[],
  used: Set<number>,
  rows: number,
): Promise<Vector[]> {
  return Promise.all(
    types.map((type, c) =>
      used.has(c) ? snap.read(p, c, 0, rows) : Promise.resolve({ type, data: [] as Value[] })
    ),
  );
}

/**
 * The child process of crash_test.ts: appends batches to table `crash` under the root given
 * as argument, forever, until the parent SIGKILLs it. It prints `ready <rows>` once open,
 * `start <rows>` before each append (the row count if it commits) and `ack <rows>` after each
 * append resolves. Row `id` holds the values `crashRow(id)` gives, so the parent can check
 * every value exactly.
 */
import { T } from "../../../engine/base/types.ts";
import { openStorage } from "../../../engine/storage/mod.ts";
import { tableDef } from "./_helpers.ts";

/** One second per id from 2024-01-01, and every 97th row two hours early (an out-of-order merge). */
export function crashRow(id: number): { ts: bigint; v: number; s: string | null; k: string } {
  const base = 1_704_067_200_000_000n + BigInt(id) * 1_000_000n;
  return {
    ts: id % 97 === 0 && id > 0 ? base - 7_200_000_000n : base,
    v: id * 0.5,
    s: id % 5 === 0 ? null : `s${id}`,
    k: `k${id % 7}`,
  };
}

export const CRASH_TABLE = tableDef("crash", [["ts", T.TIMESTAMP], ["id", T.LONG], ["v", T.DOUBLE], [
  "s",
  T.VARCHAR,
], ["k", T.SYMBOL]], {
  ts: "ts",
  partitionBy: "HOUR",
});

if (import.meta.main) {
  const storage = await openStorage(Deno.args[0]);
  const table = storage.table("crash") ?? await storage.createTable(CRASH_TABLE);
  const snap = table.snapshot();
  let rows = snap.rowCount;
  snap.release();
  console.log(`ready ${rows}`);
  for (;;) {
    const n = 1 + Math.floor(Math.random() * 3000);
    const ts = new BigInt64Array(n), id = new BigInt64Array(n), v = new Float64Array(n);
    const s: (string | null)[] = [], k: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = crashRow(rows + i);
      ts[i] = r.ts;
      id[i] = BigInt(rows + i);
      v[i] = r.v;
      s.push(r.s);
      k.push(r.k);
    }
    console.log(`start ${rows + n}`);
    await table.append({ rowCount: n, columns: [ts, id, v, s, k] });
    rows += n;
    console.log(`ack ${rows}`);
  }
}

/**
 * SAMPLE BY's output writer (engine/exec/sample_by.ts ColumnWriter): its columns start small and
 * grow, so every cell written survives the growth steps, unwritten cells stay NULL, and batches
 * are cut at BATCH_ROWS_MAX rows.
 */
import assert from "node:assert/strict";
import { ColumnWriter } from "../../../engine/exec/sample_by.ts";
import { BATCH_ROWS_MAX } from "../../../engine/base/limits.ts";
import { T } from "../../../engine/base/types.ts";
import { readValue } from "../../../engine/mod.ts";
import type { Batch } from "../../../engine/base/values.ts";

Deno.test("ColumnWriter keeps every cell across growth and cuts batches at BATCH_ROWS_MAX", () => {
  const out = new ColumnWriter([T.TIMESTAMP, T.SYMBOL, T.DOUBLE, T.INT]);
  const total = BATCH_ROWS_MAX + 1000;
  const batches: Batch[] = [];
  for (let r = 0; r < total; r++) {
    out.set(0, BigInt(r) * 60_000_000n);
    out.set(1, `k${r % 7}`);
    out.set(2, r / 4);
    // Column 3 is left unwritten on odd rows: it must read NULL.
    if (r % 2 === 0) out.set(3, r);
    if (out.next()) batches.push(out.take());
  }
  if (out.rows) batches.push(out.take());
  assert.deepEqual(batches.map((b) => b.rowCount), [BATCH_ROWS_MAX, 1000]);
  let r = 0;
  for (const b of batches) {
    for (let i = 0; i < b.rowCount; i++, r++) {
      assert.deepEqual(
        b.columns.map((c) => readValue(c, i)),
        [BigInt(r) * 60_000_000n, `k${r % 7}`, r / 4, r % 2 === 0 ? r : null],
        `row ${r}`,
      );
    }
  }
});

Deno.test("ColumnWriter hands out an empty writer after take", () => {
  const out = new ColumnWriter([T.LONG]);
  for (let r = 0; r < 300; r++) {
    out.set(0, BigInt(r));
    out.next();
  }
  assert.equal(out.take().rowCount, 300);
  assert.equal(out.rows, 0);
  out.set(0, 5n);
  out.next();
  const b = out.take();
  assert.equal(b.rowCount, 1);
  assert.equal(readValue(b.columns[0], 0), 5n);
});

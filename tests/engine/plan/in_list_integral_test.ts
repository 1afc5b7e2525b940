/**
 * An integer's IN list is QuestDB's `in(LV)` (InLongFunctionFactory): integers, timestamps, text
 * and NULL only; text is read as a LONG; an INT `+ - *` key widens against LONG-width items.
 */
import assert from "node:assert/strict";
import { SqlError } from "../../../engine/base/errors.ts";
import { query, withEngine } from "../sql/_engine_query.ts";

const SETUP = [
  "CREATE TABLE t (a INT, b INT)",
  "INSERT INTO t VALUES (46341, 46341), (10, 5)",
];

async function failsAt(run: Promise<unknown>, message: string, position: number): Promise<void> {
  await assert.rejects(run, (e: unknown) => {
    assert.ok(e instanceof SqlError);
    assert.equal(e.message, message);
    assert.equal(e.position, position);
    return true;
  });
}

Deno.test("an integer's IN list refuses other types and unparsable text at the item", async () => {
  await withEngine("in_integral_", SETUP, async (engine) => {
    await failsAt(
      query(engine, "SELECT a FROM t WHERE a IN (1, 1.5)"),
      "cannot compare LONG with type DOUBLE",
      31,
    );
    await failsAt(
      query(engine, "SELECT a FROM t WHERE a IN (true)"),
      "cannot compare LONG with type BOOLEAN",
      28,
    );
    await failsAt(query(engine, "SELECT a FROM t WHERE a IN ('abc')"), "invalid LONG value [abc]", 28);
  });
});

Deno.test("an INT product in an IN list reads LONG items at LONG width", async () => {
  await withEngine("in_integral_", SETUP, async (engine) => {
    const wide = await query(engine, "SELECT a FROM t WHERE a * b IN (2147488281L)");
    assert.deepEqual(wide.rows, [[46341]]);
    const wrapped = await query(engine, "SELECT a FROM t WHERE a * b IN (-2147479015)");
    assert.deepEqual(wrapped.rows, [[46341]]);
    const text = await query(engine, "SELECT a FROM t WHERE a IN ('10', '5000000000')");
    assert.deepEqual(text.rows, [[10]]);
  });
});

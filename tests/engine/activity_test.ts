import assert from "node:assert/strict";
import { type Batch, Engine, type Session, SqlError } from "../../engine/mod.ts";
import { activity } from "../../engine/activity.ts";
import { T } from "../../engine/base/types.ts";

const LONG_QUERY = "select sum(a.x * b.x) from long_sequence(100000) a cross join long_sequence(100000) b";

function session(name: string, permissions: string[] = []): Session {
  return {
    principal: { name, groups: [], can: (p: string) => permissions.includes(p) || p === "SELECT" },
    timeZone: "UTC",
    protocol: "test",
  };
}

/** Starts draining a query; resolves with the error it ended with. */
async function drain(batches: AsyncIterable<Batch>): Promise<unknown> {
  let rowCount = 0;
  try {
    for await (const b of batches) rowCount += b.rowCount;
  } catch (err) {
    return err;
  }
  return rowCount;
}

async function withEngine(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir();
  const engine = await Engine.open({ root, parallelWorkers: 0 });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

async function idOf(engine: Engine, sql: string): Promise<number> {
  const out = await engine.execute("select query_id, query from query_activity()", session("admin"));
  assert.equal(out.kind, "rows");
  for await (const b of out.batches) {
    const ids = b.columns[0].data as BigInt64Array;
    const texts = b.columns[1].data as unknown as string[];
    for (let i = 0; i < b.rowCount; i++) {
      if (String(texts[i]) === sql) return Number(ids[i]);
    }
  }
  throw new Error("not listed");
}

Deno.test("CANCEL QUERY needs the owner or CANCEL ANY COMMAND; the cancelled query fails with kind cancelled", async () => {
  await withEngine(async (engine) => {
    const alice = session("alice");
    const out = await engine.execute(LONG_QUERY, alice);
    assert.equal(out.kind, "rows");
    const ended = drain(out.batches);
    const id = await idOf(engine, LONG_QUERY);
    await assert.rejects(
      engine.execute(`CANCEL QUERY ${id}`, session("bob")),
      (e: SqlError) =>
        e.kind === "permission" && /Access denied for bob \[CANCEL ANY COMMAND\]/.test(e.message),
    );
    assert.equal(activity.rows().find((r) => Number(r[0]) === id)?.[6], "active");
    await engine.execute(`CANCEL QUERY ${id}`, session("carol", ["CANCEL ANY COMMAND"]));
    const err = await ended;
    assert.ok(err instanceof SqlError && err.kind === "cancelled", String(err));
    assert.equal(err.message, "cancelled by user");
    assert.equal(activity.rows().find((r) => Number(r[0]) === id), undefined);
  });
});

Deno.test("CANCEL QUERY by the owner; negative and unknown ids are errors at the id", async () => {
  await withEngine(async (engine) => {
    const alice = session("alice");
    const out = await engine.execute(LONG_QUERY, alice);
    assert.equal(out.kind, "rows");
    const ended = drain(out.batches);
    const id = await idOf(engine, LONG_QUERY);
    await engine.execute(`CANCEL QUERY ${id}`, alice);
    assert.ok((await ended) instanceof SqlError);
    await assert.rejects(
      engine.execute("CANCEL QUERY -1", alice),
      (e: SqlError) => e.position === 13 && /non-negative/.test(e.message),
    );
    await assert.rejects(
      engine.execute("CANCEL QUERY 99999999", alice),
      (e: SqlError) =>
        e.position === 13 && e.message === "query to cancel not found in registry [id=99999999]",
    );
  });
});

/** The one value of a one-row, one-column answer. */
async function scalarOf(engine: Engine, sql: Parameters<Engine["execute"]>[0], s: Session): Promise<unknown> {
  const out = await engine.execute(sql, s);
  assert.equal(out.kind, "rows");
  const values: unknown[] = [];
  for await (const b of out.batches) {
    for (let i = 0; i < b.rowCount; i++) values.push(b.columns[0].data[i]);
  }
  assert.equal(values.length, 1, String(sql));
  return values[0];
}

Deno.test("SELECT cancel_query(id): true when cancelled, false for unknown ids, CANCEL QUERY's permission rule", async () => {
  await withEngine(async (engine) => {
    const alice = session("alice");
    const out = await engine.execute(LONG_QUERY, alice);
    assert.equal(out.kind, "rows");
    const ended = drain(out.batches);
    const id = await idOf(engine, LONG_QUERY);
    assert.equal(Boolean(await scalarOf(engine, "select cancel_query(99999999)", alice)), false);
    await assert.rejects(
      engine.execute(`select cancel_query(${id})`, session("bob")).then(async (o) => {
        if (o.kind === "rows") { for await (const _ of o.batches) { /* drain */ } }
      }),
      (e: SqlError) =>
        e.kind === "permission" && /Access denied for bob \[CANCEL ANY COMMAND\]/.test(e.message),
    );
    assert.equal(activity.rows().find((r) => Number(r[0]) === id)?.[6], "active");
    // The form QuestDB documents: pick the id from query_activity() in the same statement.
    const cancelled = await scalarOf(
      engine,
      `select cancel_query(query_id) from query_activity() where query = '${LONG_QUERY}'`,
      alice,
    );
    assert.equal(Boolean(cancelled), true);
    const err = await ended;
    assert.ok(err instanceof SqlError && err.kind === "cancelled", String(err));
    await assert.rejects(
      engine.execute("select cancel_query(-1)", alice),
      (e: SqlError) => /non-negative integer literal expected as query id/.test(e.message),
    );
  });
});

Deno.test("a prepared cancel_query($1::long) cancels as the principal of each execution", async () => {
  await withEngine(async (engine) => {
    const alice = session("alice");
    const p = engine.prepare("select cancel_query($1::long)", alice);
    const run = (s: Session, id: number) =>
      scalarOf(engine, p, { ...s, params: [BigInt(id)], paramTypes: [T.LONG] });
    assert.equal(Boolean(await run(alice, 99999999)), false);
    const out = await engine.execute(LONG_QUERY, alice);
    assert.equal(out.kind, "rows");
    const ended = drain(out.batches);
    const id = await idOf(engine, LONG_QUERY);
    await assert.rejects(run(session("bob"), id), (e: SqlError) => e.kind === "permission");
    assert.equal(Boolean(await run(alice, id)), true);
    const err = await ended;
    assert.ok(err instanceof SqlError && err.kind === "cancelled", String(err));
  });
});

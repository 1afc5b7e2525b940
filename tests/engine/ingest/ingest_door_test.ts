/**
 * Engine.ingest, the one write door of ILP, CSV import and COPY FROM (issue #20): each write is
 * checked against the session's principal as the SQL path checks it (security.md §2.2, T15,
 * T16) with the same error texts, and a table it creates gets its owner grants.
 */
import assert from "node:assert/strict";
import {
  type AccessControl,
  adminSession,
  Engine,
  IngestBlock,
  type Session,
  SqlError,
  ValueKinds as K,
} from "../../../engine/mod.ts";

async function withEngine(fn: (e: Engine) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "qdb_ingest_door_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

/** A session whose principal holds exactly `grants` ("PERM" or "PERM on table"). */
function sessionWith(grants: string[], active = true): Session {
  const held = new Set(grants);
  return {
    principal: {
      name: "ivy",
      groups: [],
      can: (p, table) => held.has(p) || (table !== undefined && held.has(`${p} on ${table}`)),
      active: () => active,
    },
    timeZone: "UTC",
  };
}

/** One ILP-style row for `table`: a DOUBLE per named column. */
function row(table: string, columns: string[]): IngestBlock {
  const b = new IngestBlock(table);
  const i = b.beginRow(1);
  b.timestamps[i] = 86_400_000_000;
  for (const c of columns) b.cell(c, i, 1)!.setNum(i, K.DOUBLE, 1.5);
  b.endRow();
  return b;
}

async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof SqlError, String(e));
    assert.equal(e.kind, "permission");
    return e.message;
  }
  return "allowed";
}

Deno.test("ingest door: CREATE TABLE for a table made on first sight; the creator gets owner grants", async () => {
  await withEngine(async (engine) => {
    const created: [string, string][] = [];
    const access: AccessControl = {
      execute: () => Promise.resolve({ kind: "ddl" }),
      tableCreated: (table, session) => {
        created.push([table, session.principal.name]);
        return Promise.resolve();
      },
    };
    engine.setAccessControl(access);
    const denied = engine.ingest(sessionWith([]));
    assert.equal(
      await refusal(denied.commitBlocks([row("Fresh", ["v"])], { mode: "all" })),
      "Access denied for ivy [CREATE TABLE]",
    );
    assert.equal(engine.tableMeta("fresh"), undefined, "nothing created");
    const allowed = engine.ingest(sessionWith(["CREATE TABLE"]));
    const out = await allowed.commitBlocks([row("Fresh", ["v"])], { mode: "all" });
    assert.equal(out.rows, 1);
    assert.deepEqual(created, [["Fresh", "ivy"]]);
  });
});

Deno.test("ingest door: INSERT on an existing table, ADD COLUMN per new column, nothing commits on refusal", async () => {
  await withEngine(async (engine) => {
    await engine.ingest(adminSession()).commitBlocks([row("t", ["v"])], { mode: "all" });
    const noInsert = engine.ingest(sessionWith(["CREATE TABLE"]));
    assert.equal(
      await refusal(noInsert.commitBlocks([row("t", ["v"])], { mode: "all" })),
      "Access denied for ivy [INSERT on t]",
    );
    const insertOnly = engine.ingest(sessionWith(["INSERT on t"]));
    // Two blocks, the second refused: the first must not commit either.
    assert.equal(
      await refusal(insertOnly.commitBlocks([row("t", ["v"]), row("t", ["v", "w"])], { mode: "all" })),
      "Access denied for ivy [ADD COLUMN on t.w]",
    );
    const count = await engine.execute("SELECT count() FROM t", adminSession());
    assert.equal(count.kind, "rows");
    let n = 0n;
    if (count.kind === "rows") { for await (const b of count.batches) n = b.columns[0].data[0] as bigint; }
    assert.equal(n, 1n);
    assert.deepEqual(engine.tableMeta("t")!.columns.map((c) => c.name), ["v", "timestamp"]);
    // prepare + commit (CSV import, COPY) is checked the same way.
    const p = insertOnly.prepare(row("t", ["v", "w"]));
    assert.equal(await refusal(insertOnly.commit(p)), "Access denied for ivy [ADD COLUMN on t.w]");
    const ok = engine.ingest(sessionWith(["INSERT on t", "ADD COLUMN on t"]));
    assert.equal(await ok.commit(ok.prepare(row("t", ["v", "w"]))), 1);
  });
});

Deno.test("ingest door: COPY's early INSERT check, overwrite's DROP TABLE, disabled principals", async () => {
  await withEngine(async (engine) => {
    await engine.ingest(adminSession()).commitBlocks([row("t", ["v"])], { mode: "all" });
    const w = engine.ingest(sessionWith(["CREATE TABLE"]));
    assert.equal(
      await refusal(Promise.resolve().then(() => w.checkInsert("t"))),
      "Access denied for ivy [INSERT on t]",
    );
    assert.equal(await refusal(w.dropForOverwrite("t")), "Access denied for ivy [DROP TABLE on t]");
    assert.ok(engine.tableMeta("t"), "not dropped");
    const dropper = engine.ingest(sessionWith(["CREATE TABLE", "DROP TABLE on t"]));
    assert.equal(await dropper.dropForOverwrite("t"), true);
    assert.equal(engine.tableMeta("t"), undefined);
    const disabled = engine.ingest(sessionWith(["CREATE TABLE"], false));
    assert.equal(
      await refusal(disabled.commitBlocks([row("u", ["v"])], { mode: "all" })),
      "Access denied for ivy [user is disabled]",
    );
    // Without access control (no `can`) every write is allowed.
    const admin = engine.ingest(adminSession());
    assert.equal((await admin.commitBlocks([row("u", ["v", "w"])], { mode: "all" })).rows, 1);
  });
});

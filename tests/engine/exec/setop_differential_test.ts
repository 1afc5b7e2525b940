/**
 * UNION / EXCEPT / INTERSECT (and ALL forms) on dense row ids (engine/exec/vector/setop_ids.ts,
 * key_ids.ts) against the row reference (`setReferenceExecution`): generated set operations
 * over two tables of every word-encodable type (BOOLEAN, BYTE, SHORT, CHAR, INT, IPV4, LONG,
 * DATE, TIMESTAMP, FLOAT, DOUBLE with -0 and NaN, SYMBOL, STRING, VARCHAR) full of NULLs and
 * duplicates, symbols against strings, empty sides; rows must agree in order. A column type
 * without an encoding (UUID) keeps the row operator, and EXPLAIN names the operator.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { type Rng, rng } from "../../fuzz/prng.ts";
import { bothWays, explain, resultKey } from "../_result_rows.ts";

const SEEDS = (Deno.env.get("SETOP_DIFF_SEEDS") ?? "1,2,3").split(",").map(Number);
const SHAPES_PER_SEED = 50;

const COLUMNS = [
  ["bo", "BOOLEAN"],
  ["b", "BYTE"],
  ["sh", "SHORT"],
  ["c", "CHAR"],
  ["i", "INT"],
  ["ip", "IPV4"],
  ["l", "LONG"],
  ["dt", "DATE"],
  ["t2", "TIMESTAMP"],
  ["f", "FLOAT"],
  ["d", "DOUBLE"],
  ["s", "SYMBOL"],
  ["str", "STRING"],
  ["v", "VARCHAR"],
  ["u", "UUID"],
] as const;

function rowLiterals(r: Rng, n: number): string {
  const nul = () => r.chance(0.2);
  const vals = [
    `'2024-01-0${1 + r.int(3)}T00:00:00.${n}Z'`,
    r.pick(["true", "false"]),
    String(r.int(3)),
    String(r.int(3) - 1),
    nul() ? "NULL" : `'${"xyz"[r.int(3)]}'`,
    nul() ? "NULL" : String(r.int(4) - 2),
    nul() ? "NULL" : `'10.0.0.${r.int(3)}'`,
    nul() ? "NULL" : String(r.int(3)),
    nul() ? "NULL" : `'2024-02-0${1 + r.int(2)}'`,
    nul() ? "NULL" : `'2024-03-0${1 + r.int(2)}T01:00:00Z'`,
    nul() ? "NULL" : r.pick(["0.5", "1.5"]),
    nul() ? "NULL" : r.pick(["0.0", "-0.0", "NaN", "2.25"]),
    nul() ? "NULL" : `'k${r.int(3)}'`,
    nul() ? "NULL" : `'k${r.int(3)}'`,
    nul() ? "NULL" : `'k${r.int(3)}'`,
    nul()
      ? "NULL"
      : `'${r.pick(["11111111-1111-1111-1111-111111111111", "22222222-2222-2222-2222-222222222222"])}'`,
  ];
  return `(${vals.join(", ")})`;
}

const key = resultKey;

function shapeOf(r: Rng, left: string, right: string): string {
  const names = COLUMNS.filter(([n]) => n !== "u").map(([n]) => n);
  const cols = [...new Set(Array.from({ length: 1 + r.int(3) }, () => r.pick(names)))];
  // Symbols against strings: the planner casts both sides to one type.
  const rightCols = cols.map((c) => (c === "s" && r.chance(0.5) ? "str" : c));
  const op = r.pick(["UNION", "UNION ALL", "EXCEPT", "EXCEPT ALL", "INTERSECT", "INTERSECT ALL"]);
  const where = r.chance(0.3) ? " WHERE i > 0" : "";
  return `SELECT ${cols.join(", ")} FROM ${left}${where} ${op} SELECT ${rightCols.join(", ")} FROM ${right}`;
}

async function withEngine(body: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_setopdiff_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    const ddl = COLUMNS.map(([n, t]) => `${n} ${t}`).join(", ");
    for (const t of ["a", "b", "e"]) {
      await engine.execute(
        `CREATE TABLE ${t} (ts TIMESTAMP, ${ddl}) TIMESTAMP(ts) PARTITION BY DAY`,
        adminSession(),
      );
    }
    await body(engine);
  } finally {
    setReferenceExecution(false);
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

for (const seed of SEEDS) {
  Deno.test(`set operations on hash sets agree with the row reference (seed ${seed})`, () =>
    withEngine(async (engine) => {
      const r = rng(seed * 7727);
      for (const [t, count] of [["a", 300], ["b", 200]] as const) {
        const values = Array.from({ length: count }, (_, n) => rowLiterals(r, n));
        await engine.execute(`INSERT INTO ${t} VALUES ${values.join(", ")}`, adminSession());
      }
      let vectorized = 0;
      for (let i = 0; i < SHAPES_PER_SEED; i++) {
        const [left, right] = r.chance(0.1) ? r.pick([["e", "b"], ["a", "e"]]) : ["a", "b"];
        const sql = shapeOf(r, left, right);
        const { got, want, plan } = await bothWays(engine, sql);
        if (/vectorized hash/.test(plan)) vectorized++;
        assert.equal(key(got), key(want), `${sql}\n${plan}`);
      }
      assert.ok(vectorized >= SHAPES_PER_SEED / 2, `only ${vectorized} set operations ran on hash sets`);
    }));
}

Deno.test("set operations: EXPLAIN names the operator; UUID columns keep the row operator", () =>
  withEngine(async (engine) => {
    await engine.execute(
      `INSERT INTO a VALUES ${rowLiterals(rng(5), 1)}, ${rowLiterals(rng(6), 2)}`,
      adminSession(),
    );
    assert.match(
      await explain(engine, "SELECT s, d FROM a UNION SELECT str, d FROM b"),
      /Union \[vectorized hash\]/,
    );
    assert.match(await explain(engine, "SELECT s FROM a UNION ALL SELECT s FROM b"), /Union All \[append\]/);
    assert.match(
      await explain(engine, "SELECT i FROM a EXCEPT SELECT i FROM b"),
      /Except \[vectorized hash\]/,
    );
    const uuid = "SELECT u, i FROM a INTERSECT SELECT u, i FROM a";
    assert.match(await explain(engine, uuid), /Intersect \[row at a time\]/);
    const { got, want } = await bothWays(engine, uuid);
    assert.equal(key(got), key(want));
    assert.ok(got.length >= 1);
  }));

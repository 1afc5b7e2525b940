/**
 * The vectorized hash join (engine/exec/hash_join.ts) against the row join it replaces
 * (join.ts, forced by `setReferenceExecution`): generated INNER/LEFT/RIGHT/FULL joins on one or
 * two keys of every family (integers of mixed widths, floats with -0 and NaN, symbols against
 * strings and varchars, timestamps), with NULL keys on both sides, duplicate keys, an extra
 * ON condition, a WHERE over the result and empty sides. Rows must agree in order (both keep
 * left order, then right order per left row, then unmatched right rows), and the generator
 * must exercise the new operator. A join producing more than one output batch per input
 * batch checks the batch boundaries.
 */
import assert from "node:assert/strict";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { setReferenceExecution } from "../../../engine/exec/vector/physical.ts";
import { type Rng, rng } from "../../fuzz/prng.ts";
import { bothWays, explain, resultKey } from "../_result_rows.ts";

const SEEDS = (Deno.env.get("JOIN_DIFF_SEEDS") ?? "1,2,3").split(",").map(Number);
const SHAPES_PER_SEED = 60;

const COLUMNS = "ts TIMESTAMP, s SYMBOL, str STRING, v VARCHAR, i INT, l LONG, sh SHORT, b BYTE, " +
  "d DOUBLE, f FLOAT, t2 TIMESTAMP";

function rowLiterals(r: Rng, n: number): string {
  const nul = () => r.chance(0.15);
  const text = () => (nul() ? "NULL" : `'k${r.int(6)}'`);
  const vals = [
    `'2024-01-0${1 + r.int(3)}T0${r.int(10)}:00:00.${n}Z'`,
    text(),
    text(),
    text(),
    nul() ? "NULL" : String(r.int(8) - 3),
    nul() ? "NULL" : String(r.int(8) - 3),
    String(r.int(8) - 3),
    String(r.int(8) - 3),
    nul() ? "NULL" : r.pick(["0.0", "-0.0", "1.5", "2.0", "NaN", "-1.25"]),
    nul() ? "NULL" : r.pick(["0.0", "1.5", "2.0", "-1.25"]),
    nul() ? "NULL" : `'2024-02-0${1 + r.int(3)}'`,
  ];
  return `(${vals.join(", ")})`;
}

/**
 * Key pairs QuestDB keys on (the new operator): one type, or both of SYMBOL/STRING/VARCHAR. Columns
 * of other types are refused as keys ('join column type mismatch', JoinTest#testTypeMismatch), so
 * the pairs across types compare a cast (the row join).
 */
const SAME_FAMILY = [
  ["s", "s"],
  ["s", "str"],
  ["str", "v"],
  ["v", "s"],
  ["i", "i"],
  ["l", "l"],
  ["sh", "sh"],
  ["b", "b"],
  ["d", "d"],
  ["f", "f"],
  ["t2", "t2"],
];
const CROSS_FAMILY = [["i::LONG", "l"], ["i::DOUBLE", "d"], ["l::FLOAT", "f"]];

function shapeOf(r: Rng, left: string, right: string): string {
  const type = r.pick(["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN"]);
  const pairs = r.chance(0.1) ? CROSS_FAMILY : SAME_FAMILY;
  const keys = Array.from({ length: 1 + r.int(2) }, () => r.pick(pairs));
  let on = keys.map(([a, b]) => `x.${a} = y.${b}`).join(" AND ");
  // A non-equality rest of the ON condition: INNER runs it on the batches, outer joins on rows.
  if (r.chance(0.25)) on += r.pick([" AND x.i < y.l", " AND x.d + 1 > y.f", " AND x.s != y.str"]);
  const where = r.chance(0.2) ? ` WHERE ${r.pick(["x.i > 0", "y.d IS NULL", "x.s = 'k1'"])}` : "";
  const select = r.pick([
    "x.ts, x.s, x.i, x.d, y.ts, y.str, y.l, y.f",
    "x.*, y.*",
    "y.v, x.b, y.sh, x.t2, y.t2",
  ]);
  return `SELECT ${select} FROM ${left} x ${type} ${right} y ON ${on}${where}`;
}

const key = resultKey;

async function withEngine(body: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_joindiff_" });
  const engine = await Engine.open({ root, cacheBytes: 32 * 1024 * 1024 });
  try {
    await body(engine);
  } finally {
    setReferenceExecution(false);
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

for (const seed of SEEDS) {
  Deno.test(`vectorized hash join agrees with the row join (seed ${seed})`, () =>
    withEngine(async (engine) => {
      const r = rng(seed * 104729);
      for (const t of ["a", "b", "e"]) {
        await engine.execute(`CREATE TABLE ${t} (${COLUMNS}) TIMESTAMP(ts) PARTITION BY DAY`, adminSession());
      }
      for (const [t, count] of [["a", 400], ["b", 300]] as const) {
        const values = Array.from({ length: count }, (_, n) => rowLiterals(r, n));
        await engine.execute(`INSERT INTO ${t} VALUES ${values.join(", ")}`, adminSession());
      }
      let vectorized = 0;
      for (let i = 0; i < SHAPES_PER_SEED; i++) {
        const [left, right] = r.chance(0.1) ? r.pick([["e", "b"], ["a", "e"]]) : ["a", "b"];
        const sql = shapeOf(r, left, right);
        const { got, want, plan } = await bothWays(engine, sql);
        if (/vectorized hash/.test(plan)) vectorized++;
        assert.equal(got.length, want.length, `${sql}\n${plan}`);
        for (let row = 0; row < got.length; row++) {
          assert.equal(key(got[row]), key(want[row]), `${sql}\n${plan}\nrow ${row}`);
        }
      }
      assert.ok(vectorized >= SHAPES_PER_SEED / 2, `only ${vectorized} joins ran vectorized`);
    }));
}

Deno.test("vectorized hash join: output across batch boundaries, EXPLAIN names the operator", () =>
  withEngine(async (engine) => {
    await engine.execute(
      "CREATE TABLE big AS (SELECT x % 100 k, x, cast(x % 7 AS SYMBOL) s FROM long_sequence(100000))",
      adminSession(),
    );
    await engine.execute(
      "CREATE TABLE dim AS (SELECT x % 100 k, x * 10 w, cast(x % 7 AS STRING) s, cast(x % 100 AS DOUBLE) kd " +
        "FROM long_sequence(300))",
      adminSession(),
    );
    const sql = "SELECT big.x, big.k, dim.w FROM big JOIN dim ON big.k = dim.k";
    const { got, want, plan } = await bothWays(engine, sql);
    assert.match(plan, /Inner Join \(vectorized hash\)/);
    // Every big row meets the 3 dim rows of its key: 300,000 rows over several batches.
    assert.equal(got.length, 300_000);
    assert.equal(key(got), key(want));
    const symbols = "SELECT count(*), sum(big.x) FROM big LEFT JOIN dim ON big.s = dim.s AND big.k = dim.k";
    const both = await bothWays(engine, symbols);
    assert.match(both.plan, /Left Join \(vectorized hash\)/);
    assert.equal(key(both.got), key(both.want));
    // A build side of 100,000 rows gets a bloom filter; half the probe rows find no match.
    await engine.execute(
      "CREATE TABLE shifted AS (SELECT x + 50000 y, x v FROM long_sequence(100000))",
      adminSession(),
    );
    for (const type of ["JOIN", "LEFT JOIN", "RIGHT JOIN"]) {
      const sql =
        `SELECT count(*), sum(big.x), sum(shifted.v), count(shifted.y) FROM big ${type} shifted ON big.x = shifted.y`;
      const joined = await bothWays(engine, sql);
      assert.equal(key(joined.got), key(joined.want), sql);
    }
    const rowsBack = await bothWays(
      engine,
      "SELECT big.x, shifted.v FROM big JOIN shifted ON big.x = shifted.y",
    );
    assert.equal(rowsBack.got.length, 50_000);
    assert.equal(key(rowsBack.got), key(rowsBack.want));
    // A LONG key against a DOUBLE one is refused, as QuestDB does; compared through a cast, the
    // numbers meet on the row join.
    await assert.rejects(
      () => explain(engine, "SELECT * FROM big JOIN dim ON big.k = dim.kd"),
      /join column type mismatch/,
    );
    assert.doesNotMatch(
      await explain(engine, "SELECT * FROM big JOIN dim ON big.k::DOUBLE = dim.kd"),
      /vectorized hash/,
    );
  }));

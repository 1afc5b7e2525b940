/**
 * SQL parser, planner and executor fuzzing (issue 9): grammar-generated statements over small
 * fixture tables, and token mutations of every seed statement we have. Each input must end in
 * rows or a SqlError with a message and a position inside the text; never another exception, an
 * "internal" error, or a run past the timeout. The engine must still answer afterwards.
 * FUZZ_INPUTS sets the count (10,000 here, 100,000 in `deno task fuzz`); FUZZ_SEED replays.
 */
import assert from "node:assert/strict";
import { adminSession, Engine, readValue, SqlError } from "../../engine/mod.ts";
import { fuzzInputs, fuzzSeed, rng } from "./prng.ts";
import { FIXTURE_SQL, genStatement } from "./sql_grammar.ts";
import { mutateSql, seedStatements } from "./sql_corpus.ts";
import { regressionSql } from "./regressions.ts";

/**
 * A statement over the fixtures that takes longer than this is a hang. The slowest generated
 * statements (a set operation over an 860k-row FILL(NULL) SAMPLE BY) take ~1.6 s alone; CI
 * machines run tests next to other load, so the bound leaves a wide margin.
 */
const TIMEOUT_MS = 30_000;

/** Runs one statement; answers a bug description, or undefined when the engine behaved. */
async function check(engine: Engine, sql: string, answered: { n: number }): Promise<string | undefined> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), TIMEOUT_MS);
  try {
    const out = await engine.execute(sql, adminSession(abort.signal));
    if (out.kind === "rows") {
      for await (const batch of out.batches) {
        for (let i = 0; i < batch.rowCount; i++) for (const c of batch.columns) readValue(c, i);
      }
    }
    answered.n++;
    return undefined;
  } catch (e) {
    if (!(e instanceof SqlError)) {
      return `${(e as Error)?.name}: ${(e as Error)?.message}\n${(e as Error)?.stack}`;
    }
    if (e.kind === "internal") return `internal error: ${e.message}\n${(e.cause as Error)?.stack ?? ""}`;
    if (e.kind === "cancelled") return `ran past ${TIMEOUT_MS} ms`;
    if (!e.message) return "error without a message";
    if (!Number.isInteger(e.position) || e.position < -1 || e.position > sql.length) {
      return `position ${e.position} outside the text`;
    }
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function fixtureEngine(setups: string[]): Promise<{ engine: Engine; root: string }> {
  const root = await Deno.makeTempDir({ prefix: "qdb_fuzz_sql_" });
  const engine = await Engine.open({ root, cacheBytes: 64 * 1024 * 1024 });
  for (const sql of FIXTURE_SQL) await engine.execute(sql, adminSession());
  // Seed setups may repeat a table name or fail on purpose: only their tables matter here.
  for (const sql of setups) await engine.execute(sql, adminSession()).catch(() => {});
  return { engine, root };
}

async function scalar(engine: Engine, sql: string): Promise<unknown> {
  const out = await engine.execute(sql, adminSession());
  assert.equal(out.kind, "rows");
  let value: unknown;
  for await (const b of out.batches) value ??= readValue(b.columns[0], 0);
  return value;
}

/** `fixtureIntact`: the inputs never drop fixtures, so the fixture table must still be whole. */
async function fuzz(
  name: string,
  inputs: (i: number) => string,
  n: number,
  fixtureIntact: boolean,
  minAnswered: number,
  setups: string[] = [],
): Promise<void> {
  const { engine, root } = await fixtureEngine(setups);
  const bugs: string[] = [];
  const answered = { n: 0 };
  try {
    for (let i = 0; i < n; i++) {
      const sql = inputs(i);
      const bug = await check(engine, sql, answered);
      if (bug && bugs.length < 20) bugs.push(`#${i} ${JSON.stringify(sql)}\n  ${bug}`);
    }
    assert.equal(
      await scalar(engine, "SELECT sum(x) FROM long_sequence(100)"),
      5050n,
      "the engine still answers",
    );
    await engine.execute("CREATE TABLE after_fuzz (ts TIMESTAMP, v LONG) TIMESTAMP(ts)", adminSession());
    await engine.execute("INSERT INTO after_fuzz VALUES (1, 2), (3, 4)", adminSession());
    assert.equal(
      await scalar(engine, "SELECT sum(v) FROM after_fuzz"),
      6n,
      "a new table works after the run",
    );
    if (fixtureIntact) {
      assert.equal(await scalar(engine, "SELECT count() FROM ft"), 500n, "the fixture table is whole");
    }
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
  console.log(
    `${name}: ${n} inputs, ${answered.n} answered, ${
      n - answered.n - bugs.length
    } refused with a clear error, ${bugs.length} failing`,
  );
  // A fuzzer whose inputs all die in the parser tests little: most must reach the executor.
  assert.ok(answered.n >= n * minAnswered, `only ${answered.n} of ${n} inputs were answered`);
  assert.deepEqual(bugs, [], `${name} found bugs (replay with FUZZ_SEED=${fuzzSeed()})`);
}

Deno.test("fuzz: grammar-generated SQL never crashes, hangs or loses its position", async () => {
  const r = rng(fuzzSeed());
  await fuzz("sql grammar", () => genStatement(r), fuzzInputs(10_000), true, 0.5);
});

Deno.test("fuzz: mutated seed statements are answered or refused with a clear error", async () => {
  const { seeds, setups } = await seedStatements();
  assert.ok(seeds.length > 200, `seed corpus has ${seeds.length} statements`);
  const r = rng(fuzzSeed() + 1);
  await fuzz("sql mutation", () => mutateSql(r, r.pick(seeds)), fuzzInputs(10_000), false, 0.05, setups);
});

Deno.test("fuzz: inputs that once found bugs stay fixed", async () => {
  const cases = regressionSql();
  await fuzz("sql regressions", (i) => cases[i], cases.length, false, 0);
});

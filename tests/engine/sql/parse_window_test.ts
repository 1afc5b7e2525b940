import assert from "node:assert/strict";
import type { FunctionCall, WindowSpec } from "../../../engine/sql/ast.ts";
import { expr, parseError, select, stripPositions } from "./_helpers.ts";

const over = (text: string): WindowSpec => (expr(text) as FunctionCall).over!;

Deno.test("window call with PARTITION BY, ORDER BY and a ROWS frame", () => {
  const w = over(
    "avg(price) OVER (PARTITION BY sym ORDER BY ts DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)",
  );
  assert.equal(w.partitionBy.length, 1);
  assert.deepEqual(w.orderBy.map((o) => o.desc), [true]);
  assert.deepEqual(stripPositions(w.frame), {
    unit: "rows",
    start: { kind: "preceding", offset: { kind: "literal", type: "int", value: 1, text: "1" } },
    end: { kind: "currentRow" },
  });
});

Deno.test("window RANGE offsets carry a singular time unit", () => {
  const a = over("avg(x) OVER (ORDER BY ts RANGE BETWEEN '5' MINUTE PRECEDING AND CURRENT ROW)").frame!;
  assert.equal(a.start.timeUnit, "minute");
  assert.equal(a.start.offset?.kind, "literal");
  assert.equal(
    over("avg(x) OVER (ORDER BY ts RANGE BETWEEN 1 minute PRECEDING AND CURRENT ROW)").frame!.start.timeUnit,
    "minute",
  );
  const c = over("avg(x) OVER (ORDER BY ts RANGE 5 minutes PRECEDING)").frame!;
  assert.deepEqual([c.start.kind, c.start.timeUnit, c.end.kind], ["preceding", "minute", "currentRow"]);
});

Deno.test("window CUMULATIVE is rows from unbounded preceding to current row", () => {
  assert.deepEqual(stripPositions(over("sum(x) OVER (ORDER BY ts CUMULATIVE)").frame), {
    unit: "rows",
    start: { kind: "unboundedPreceding" },
    end: { kind: "currentRow" },
  });
});

Deno.test("window CUMULATIVE without ORDER BY is refused at the keyword", () => {
  // ExpressionParserTest#testWindowFunctionCumulativeWithoutOrderBy(NoPartition)
  for (
    const [sql, pos] of [["select sum(x) over (partition by y cumulative) from t", 35], [
      "select sum(x) over (cumulative) from t",
      20,
    ]] as const
  ) {
    const e = parseError(sql);
    assert.equal(e.message, "CUMULATIVE requires an ORDER BY clause");
    assert.equal(e.position, pos);
  }
});

Deno.test("window bounds and EXCLUDE", () => {
  const f = over(
    "sum(x) OVER (ORDER BY ts GROUPS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE NO OTHERS)",
  ).frame!;
  assert.deepEqual([f.unit, f.start.kind, f.end.kind, f.exclude], [
    "groups",
    "unboundedPreceding",
    "unboundedFollowing",
    "noOthers",
  ]);
  const g = over("sum(x) OVER (ORDER BY ts ROWS BETWEEN 2 PRECEDING AND 3 FOLLOWING EXCLUDE CURRENT ROW)")
    .frame!;
  assert.deepEqual([g.end.kind, g.exclude], ["following", "currentRow"]);
  const h = over("sum(x) OVER (ORDER BY ts EXCLUDE CURRENT ROW)").frame!;
  assert.deepEqual([h.unit, h.start.kind, h.end.kind, h.exclude], [
    "range",
    "unboundedPreceding",
    "currentRow",
    "currentRow",
  ]);
});

Deno.test("window IGNORE NULLS, RESPECT NULLS and FILTER", () => {
  const a = expr("lag(j, 2, j + 1) ignore nulls over ()") as FunctionCall;
  assert.deepEqual([a.nulls, a.over?.partitionBy.length, a.args.length], ["ignore", 0, 3]);
  assert.equal((expr("lag(j) RESPECT NULLS OVER ()") as FunctionCall).nulls, "respect");
  const f = expr("sum(qty) FILTER (WHERE sym = 'A')") as FunctionCall;
  assert.equal(f.filter?.kind, "binary");
});

Deno.test("window references to named windows and the WINDOW clause", () => {
  assert.deepEqual(stripPositions(over("avg(x) OVER w")), { baseName: "w", partitionBy: [], orderBy: [] });
  const based = over("avg(x) OVER (w ORDER BY ts)");
  assert.deepEqual([based.baseName, based.orderBy.length], ["w", 1]);
  const core = select("SELECT avg(x) OVER w FROM t WINDOW w AS (PARTITION BY s), w2 AS (w ORDER BY ts)");
  assert.deepEqual(core.windows.map((w) => [w.name, w.spec.baseName]), [["w", undefined], ["w2", "w"]]);
});

Deno.test("window errors", () => {
  assert.equal(
    parseError("select sum(x) over (order by ts rows between 1 and 2)").message,
    "'preceding' or 'following' expected",
  );
  assert.equal(
    parseError("select sum(x) over (order by ts rows between current row)").message,
    "'and' expected",
  );
});

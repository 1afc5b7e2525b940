import assert from "node:assert/strict";
import { MOMENT_AGGREGATES } from "../../../engine/functions/aggregate_moments.ts";
import type { Value } from "../../../engine/base/values.ts";
import { T } from "../../../engine/base/types.ts";

function run(name: string, values: Value[]): Value {
  const f = MOMENT_AGGREGATES.find((a) => a.name === name)!;
  const b = f.bind([{ type: T.DOUBLE, constant: false, pos: 0 }], { distinct: false, star: false });
  if (typeof b === "string") throw new Error(b);
  const acc = b.create();
  for (const v of values) acc.add([v]);
  return acc.result();
}

const close = (a: Value, b: number) => assert.ok(Math.abs((a as number) - b) < 1e-12, `${a} vs ${b}`);

Deno.test("sample skewness and kurtosis match the Fisher-Pearson formulas (QuestDB *_samp)", () => {
  const xs = [1, 2, 3, 4, 10, null];
  // references computed two-pass: n=5, M2=50, M3=216, M4=1272
  close(run("skewness", xs), 1.697056274847714);
  close(run("skewness_samp", xs), 1.697056274847714);
  close(run("kurtosis", xs), 3.152);
  close(run("skewness_pop", xs), 1.1384199576606164);
  close(run("kurtosis_pop", xs), -0.212);
});

Deno.test("too few values or all equal values give NULL", () => {
  assert.equal(run("skewness", [1, 2]), null);
  assert.equal(run("kurtosis", [1, 2, 3]), null);
  assert.equal(run("skewness", [5, 5, 5, 5]), null);
  assert.equal(run("kurtosis_pop", []), null);
});

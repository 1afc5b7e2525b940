import assert from "node:assert/strict";
import { renderSparkline, VISUALIZATION_FUNCTIONS } from "../../../engine/functions/visualization.ts";
import { call, find, lit } from "./_helpers.ts";

Deno.test("bar: whole blocks and one eighth-block, clamped, NULL for bad ranges (BarFunctionFactoryTest)", () => {
  const bar = (...xs: (number | null)[]) => call(find(VISUALIZATION_FUNCTIONS, "bar"), xs.map((x) => lit(x)));
  assert.equal(bar(75, 0, 100, 10), "███████▌");
  assert.equal(bar(0, 0, 100, 10), "");
  assert.equal(bar(200, 0, 100, 10), "██████████");
  assert.equal(bar(30, 10, 100, 20), "████▍");
  assert.equal(bar(50, 50, 50, 10), null);
  assert.equal(bar(null, 0, 100, 10), null);
  assert.equal(bar(50, 0, 100, 0), null);
});

Deno.test("sparkline: auto or fixed bounds, bucket averages below the width", () => {
  assert.equal(renderSparkline([0, 1, 2, 3, 4, 5, 6, 7], NaN, NaN, Infinity), "▁▂▃▄▅▆▇█");
  assert.equal(renderSparkline([0, 0, 7, 7], NaN, NaN, 2), "▁█");
  assert.equal(renderSparkline([-50, 0, 50, 100], 0, 100, 4), "▁▁▄█");
  assert.equal(renderSparkline([5, 5, 5], NaN, NaN, Infinity), "███");
  // 0 fixed as the floor, the ceiling from the data.
  assert.equal(renderSparkline([3.5, 7], 0, NaN, 8), "▄█");
});

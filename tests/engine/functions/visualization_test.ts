import assert from "node:assert/strict";
import {
  renderSparkline,
  VISUALIZATION_AGGREGATES,
  VISUALIZATION_FUNCTIONS,
} from "../../../engine/functions/visualization.ts";
import { c, call, find, lit } from "./_helpers.ts";
import { arrayType, T } from "../../../engine/base/types.ts";
import { DoubleArray } from "../../../engine/base/double_array.ts";
import type { BoundArg } from "../../../engine/functions/registry_types.ts";

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

Deno.test("depth_chart: log1p of cumulative depth, bids reversed around ╎, width split and padding (DepthChartFunctionFactoryTest)", () => {
  const arr = (...xs: number[]) => c(arrayType(1), DoubleArray.of1(xs));
  const dc = (name: string, ...args: BoundArg[]) => call(find(VISUALIZATION_FUNCTIONS, name), args);
  assert.equal(dc("depth_chart", arr(10, 20, 30, 40, 50), arr(10, 20, 30)), "█▆▅▃▁╎▁▃▅");
  assert.equal(dc("depth_chart", arr(0, 0), arr(0)), "▁▁╎▁");
  assert.equal(dc("depth_chart", arr(100, 200), arr(100, 200), lit(9)), "▁▁█▆╎▆█▁▁");
  assert.equal(dc("depth_chart", arr(), arr(1)), null);
  assert.equal(
    dc("depth_chart_labels", arr(100, 200, 300), arr(150, 250, 350)),
    "▇▄▁╎▂▅█ bb:100.0 ba:150.0 tb:600.0 ta:750.0",
  );
  assert.throws(() => dc("depth_chart", arr(1, -5), arr(1)), /volume must be finite and non-negative/);
  assert.throws(() => dc("depth_chart", arr(1), arr(1), lit(2)), /width must be at least 3/);
});

Deno.test("ohlc_bar: rounded positions, bull/bear body, doji, padding; NULL price, bad bounds (OhlcBarFunctionFactory)", () => {
  const ohlc = (name: string, ...xs: (number | null)[]) =>
    call(find(VISUALIZATION_FUNCTIONS, name), xs.map((x) => lit(x)));
  assert.equal(ohlc("ohlc_bar", 20, 100, 0, 80, 0, 100, 10), "──██████──");
  assert.equal(ohlc("ohlc_bar", 80, 100, 0, 20, 0, 100, 10), "──░░░░░░──");
  assert.equal(ohlc("ohlc_bar", 50, 100, 0, 50, 0, 100, 5), "──│──");
  assert.equal(ohlc("ohlc_bar", 1, 2, 1, 2, 0, 4, 9), "\u2800\u2800███\u2800\u2800\u2800\u2800");
  assert.equal(ohlc("ohlc_bar", null, 2, 1, 2, 0, 4, 9), null);
  assert.equal(
    ohlc("ohlc_bar_labels", 20.5, 100, 0, 80, 0, 100, 10),
    "──██████── O:20.5 H:100.0 L:0.0 C:80.0",
  );
  assert.throws(() => ohlc("ohlc_bar", 1, 2, 0, 1, 5, 1, 10), /min must not exceed max \[min=5.0, max=1.0\]/);
  assert.throws(() => ohlc("ohlc_bar", 1, 0, 2, 1, 0, 4, 10), /low must not exceed high/);
  assert.throws(() => ohlc("ohlc_bar", 1, 2, 0, 1, null, 4, 10), /must not be null/);
});

Deno.test("ohlc_bar aggregate: open/close in row order, widest bounds, NULL prices skipped (OhlcBarGroupByFunction)", () => {
  const agg = VISUALIZATION_AGGREGATES.find((f) => f.name === "ohlc_bar")!;
  const num = (pos: number): BoundArg => ({ type: T.DOUBLE, constant: false, pos });
  const width: BoundArg = { type: T.INT, constant: true, value: 10, pos: 9 };
  const b = agg.bind([num(0), num(1), num(2), width], { distinct: false, star: false });
  assert.ok(typeof b !== "string");
  const run = (rows: [number | null, number, number][]) => {
    const acc = b.create();
    for (const r of rows) acc.add(r);
    return acc.result();
  };
  // O=20, H=100, L=0, C=80 between 0 and 100: the docs' bullish candle.
  assert.equal(run([[20, 0, 100], [100, 0, 100], [null, 0, 100], [0, 0, 100], [80, 0, 100]]), "──██████──");
  // The bounds widen over the rows: 0..50 then 50..100 draw between 0 and 100; no wick past 20..80.
  assert.equal(run([[20, 0, 50], [80, 50, 100]]), "⠀⠀██████⠀⠀");
  assert.equal(run([[null, 0, 100]]), null);
  assert.throws(() => run([[1, NaN, 100]]), /ohlc_bar\(\) bounds must not be NULL \[min=NaN, max=100.0\]/);
  assert.throws(() => run([[1, 5, 1]]), /ohlc_bar\(\) min must not exceed max/);
});

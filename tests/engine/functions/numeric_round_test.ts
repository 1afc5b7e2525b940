import assert from "node:assert/strict";
import { roundDecimal, roundDecimalText } from "../../../engine/functions/numeric_round.ts";

Deno.test("roundDecimal rounds the digits a user sees, not the binary value", () => {
  assert.equal(roundDecimal(2.675, { scale: 2, mode: "halfUp" }), 2.68);
  assert.equal(roundDecimal(1.005, { scale: 2, mode: "halfUp" }), 1.01);
  assert.equal(roundDecimal(0.285, { scale: 2, mode: "halfEven" }), 0.28);
  assert.equal(roundDecimal(0.295, { scale: 2, mode: "halfEven" }), 0.3);
});

Deno.test("roundDecimal mirrors negatives and never returns negative zero", () => {
  assert.equal(roundDecimal(-2.5, { scale: 0, mode: "halfUp" }), -3);
  assert.equal(Object.is(roundDecimal(-0.4, { scale: 0, mode: "halfUp" }), 0), true);
  assert.equal(Object.is(roundDecimal(-0.0001, { scale: 2, mode: "down" }), 0), true);
  assert.equal(roundDecimal(-0.0001, { scale: 2, mode: "up" }), -0.01);
});

Deno.test("roundDecimal handles scales beyond the digits and far left of the point", () => {
  assert.equal(roundDecimal(1.5, { scale: 20, mode: "halfUp" }), 1.5);
  assert.equal(roundDecimal(1e-20, { scale: 2, mode: "halfUp" }), 0);
  assert.equal(roundDecimal(123456, { scale: -10, mode: "up" }), 1e10);
  assert.equal(roundDecimal(5e-324, { scale: 400, mode: "halfUp" }), 5e-324);
  assert.equal(roundDecimal(1.7976931348623157e308, { scale: -300, mode: "halfUp" }), 1.79769313e308);
  // Rounding up past the largest double overflows; callers turn Infinity into NULL with dbl().
  assert.equal(roundDecimal(1.7976931348623157e308, { scale: -307, mode: "halfUp" }), Infinity);
});

Deno.test("roundDecimal's arithmetic answers equal the text path's for every mode and scale", () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const modes = ["halfUp", "halfEven", "down", "up"] as const;
  let checked = 0;
  for (let i = 0; i < 40_000; i++) {
    const digits = 1 + Math.floor(rnd() * 6);
    // Decimals with few digits (ties such as 2.675 and 0.5 abound), then arbitrary doubles.
    const x = i % 2 === 0
      ? Math.round((rnd() - 0.5) * 10 ** digits * 2) / 10 ** Math.floor(rnd() * 5)
      : (rnd() - 0.5) * 10 ** Math.floor(rnd() * 30 - 12);
    if (x === 0) continue;
    for (let scale = -6; scale <= 9; scale++) {
      for (const mode of modes) {
        const got = roundDecimal(x, { scale, mode }), want = roundDecimalText(x, scale, mode);
        assert.ok(Object.is(got, want === 0 ? 0 : want), `${mode} ${x} scale ${scale}: ${got} vs ${want}`);
        checked++;
      }
    }
  }
  assert.ok(checked > 2_000_000);
});

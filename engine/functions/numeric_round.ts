/**
 * Decimal rounding for round(), round_half_even(), round_up() and round_down() (spec/sql.md
 * §15.1). Rounding works on the shortest decimal text of the double, the digits a user sees,
 * so `round(2.675, 2)` is 2.68 and `round_half_even(5.55, 1)` is 5.6 even though neither
 * input is exactly representable in binary. A negative scale rounds left of the point.
 */

/** halfUp: ties away from zero (§15.1 "half up", negatives mirrored); halfEven: banker's. */
export type RoundMode = "halfUp" | "halfEven" | "down" | "up";

/** Rounds `x` to `scale` decimal places with `mode`; non-finite input is returned as is. */
export function roundDecimal(x: number, options: { scale: number; mode: RoundMode }): number {
  const { scale, mode } = options;
  if (!Number.isFinite(x) || x === 0) return x === 0 ? 0 : x;
  const negative = x < 0;
  // toExponential() without an argument yields the shortest digits that round-trip.
  const [mantissa, expText] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(expText);
  // Digit i has place value 10^(exponent - i); keep those with place ≥ 10^-scale.
  const keep = exponent + scale + 1;
  if (keep >= digits.length) return x;
  const kept = keep > 0 ? digits.slice(0, keep) : "";
  const rest = keep >= 0 ? digits.slice(keep) : "0" + digits;
  let n = BigInt(kept || "0");
  if (roundsAway(mode, rest, n)) n += 1n;
  const r = Number(`${n}e${-scale}`);
  if (r === 0) return 0;
  return negative ? -r : r;
}

/** Whether dropping `rest` (never empty, no trailing zeros) moves the magnitude up. */
function roundsAway(mode: RoundMode, rest: string, kept: bigint): boolean {
  switch (mode) {
    case "down":
      return false;
    case "up":
      return /[1-9]/.test(rest);
    case "halfUp":
      return rest[0] >= "5";
    case "halfEven":
      if (rest[0] !== "5") return rest[0] > "5";
      return /[1-9]/.test(rest.slice(1)) || (kept & 1n) === 1n;
  }
}

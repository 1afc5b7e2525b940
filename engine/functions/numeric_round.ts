/**
 * Decimal rounding for round(), round_half_even(), round_up() and round_down() (spec/sql.md
 * §15.1). Rounding works on the shortest decimal text of the double, the digits a user sees,
 * so `round(2.675, 2)` is 2.68 and `round_half_even(5.55, 1)` is 5.6 even though neither
 * input is exactly representable in binary. A negative scale rounds left of the point.
 */

/** halfUp: ties away from zero (§15.1 "half up", negatives mirrored); halfEven: banker's. */
export type RoundMode = "halfUp" | "halfEven" | "down" | "up";

/** Powers of ten that are exact doubles. */
const POW10 = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`));
/** How far from a rounding boundary the scaled value must be for the arithmetic answer. */
const MARGIN = 1e-5;

/** Rounds `x` to `scale` decimal places with `mode`; non-finite input is returned as is. */
export function roundDecimal(x: number, options: { scale: number; mode: RoundMode }): number {
  return roundTo(x, options.scale, options.mode);
}

/** roundDecimal with positional arguments (no options object a call: the batch loops' form). */
export function roundTo(x: number, scale: number, mode: RoundMode): number {
  if (!Number.isFinite(x) || x === 0) return x === 0 ? 0 : x;
  // Arithmetic first (the text path cost ~1 us a value: GROUP BY round(price, -1) over 10M
  // rows took 8.8 s). y = |x| * 10^scale is within a few ulps of the shown digits scaled, so
  // when its fraction is MARGIN away from the boundary the mode cares about (.5 for the
  // half modes, the integers for up/down), the kept digits n are certain; n and 10^|scale|
  // are exact doubles, so n / 10^scale is correctly rounded: the double the text path parses.
  if (scale >= -22 && scale <= 22) {
    const ax = Math.abs(x), p = POW10[Math.abs(scale)];
    const y = scale >= 0 ? ax * p : ax / p;
    if (y < 2147483648) {
      const f = Math.floor(y), frac = y - f;
      const half = mode === "halfUp" || mode === "halfEven";
      let n = -1;
      if (half) {
        if (Math.abs(frac - 0.5) > MARGIN) n = frac > 0.5 ? f + 1 : f;
      } else if (frac > MARGIN && frac < 1 - MARGIN) n = mode === "up" ? f + 1 : f;
      if (n < 0 && scale >= 0) {
        // Near the boundary b (a tie, or an integer for up/down): b / 10^scale is an exact
        // quotient, so x's shown digits are b's exactly when x is that double, and above or
        // below b as x is above or below it (parsing is monotonic).
        if (half) {
          const tie = (2 * f + 1) / (2 * p);
          n = ax > tie ? f + 1 : ax < tie ? f : mode === "halfUp" || f % 2 === 1 ? f + 1 : f;
        } else {
          const g = Math.round(y), at = g / p;
          n = ax === at ? g : mode === "down" ? (ax > at ? g : g - 1) : (ax > at ? g + 1 : g);
        }
      }
      if (n >= 0) {
        const r = scale >= 0 ? n / p : n * p;
        return r === 0 ? 0 : x < 0 ? -r : r;
      }
    }
  }
  return roundDecimalText(x, scale, mode);
}

/** roundDecimal on the shortest decimal text of x (finite, not 0): the reference. */
export function roundDecimalText(x: number, scale: number, mode: RoundMode): number {
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

/** QuestDB's Numbers.TOLERANCE: nudges the scaled value before truncating. */
const QDB_TOLERANCE = 1e-15;
/** Powers of ten as QuestDB's pow10dNeg table holds them (double literals 1E-k). */
const POW10_NEG = Array.from({ length: 19 }, (_, k) => Number(`1e-${k}`));
const LONG_MAX = 9223372036854775807;

/** Java's `(long) d` for d >= 0 (NaN is 0, past Long.MAX_VALUE saturates). */
function javaLong(d: number): number {
  if (d !== d) return 0;
  return d >= LONG_MAX ? LONG_MAX : Math.trunc(d);
}

/** QuestDB's roundUp00 / roundDown00 on a magnitude: scaled, truncated, scaled back. */
function up00(v: number, scale: number): number {
  return scale >= 0
    ? javaLong(v * POW10[scale] + 1 - QDB_TOLERANCE) * POW10_NEG[scale]
    : javaLong(v * POW10_NEG[-scale] + 1 - QDB_TOLERANCE) * POW10[-scale];
}

function down00(v: number, scale: number): number {
  return scale >= 0
    ? javaLong((v + QDB_TOLERANCE) * POW10[scale]) * POW10_NEG[scale]
    : javaLong((v + QDB_TOLERANCE) * POW10_NEG[-scale]) * POW10[-scale];
}

/**
 * round_up / round_down as QuestDB's Numbers computes them (RoundUp/RoundDownDoubleFunction
 * FactoryConstTest): the magnitude scaled by 10^scale, truncated to a long (round_up adds
 * 1 - 1e-15 first, so an exactly scaled -14.778 at scale 7 still goes up to -14.7780001), then
 * multiplied by the double 1E-scale, which keeps QuestDB's binary artifacts (round_up(100.01, 1)
 * is 100.10000000000001). Scales past QuestDB's tables (|scale| >= 18) are NaN; the sign of x is
 * kept, so a negative rounded to zero is -0.0. round_half_even keeps roundTo: QuestDB's version
 * reads only two digits past the scale, so round_half_even(-5.002768547, -1) would be 0 where
 * the documentation's table shows -10.
 */
export function questRound(x: number, scale: number, mode: "up" | "down"): number {
  if (x !== x || !(scale < 18 && scale > -18)) return NaN;
  const r = mode === "up" ? up00(Math.abs(x), scale) : down00(Math.abs(x), scale);
  return x < 0 || Object.is(x, -0) ? -r : r;
}

/**
 * Java's `Double.toString` and `Float.toString` text for DOUBLE and FLOAT values: what REST, CSV
 * and CAST(... AS STRING) print (spec/sql.md §18.3).
 *
 * Digits are the shortest that read back to the same value (JavaScript's own shortest digits for
 * doubles, a search over float32 for floats; a whole float keeps its integer digits, see
 * wholeFloatDigits); the layout is Java's: plain notation with at least
 * one fraction digit for 10^-3 <= |x| < 10^7, otherwise `d.dddE±n`.
 */

/**
 * Formats a double as Java `Double.toString` does: `15.0`, `0.1`, `1.0E7`, `1.0E-4`, `-0.0`.
 * Non-finite values print as Java does (`NaN`, `Infinity`), though callers normally map them to
 * NULL first.
 */
export function formatDouble(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const a = Math.abs(x);
  if (a >= 1e-3 && a < 1e7) {
    // Java's plain range: JavaScript prints the same shortest digits without an exponent here,
    // and Java adds ".0" to a whole number.
    const s = String(x);
    return s.includes(".") ? s : s + ".0";
  }
  const [digits, exp] = shortestDoubleDigits(a);
  return (x < 0 ? "-" : "") + layout(digits, exp);
}

/**
 * Formats a float32 value as Java `Float.toString` does: the shortest digits that round-trip
 * through float32 (`0.1` for `Math.fround(0.1)`, not `0.10000000149011612`).
 */
export function formatFloat(x: number): string {
  const f = Math.fround(x);
  if (!Number.isFinite(f)) return Number.isNaN(f) ? "NaN" : f > 0 ? "Infinity" : "-Infinity";
  if (f === 0) return Object.is(f, -0) ? "-0.0" : "0.0";
  const [digits, exp] = wholeFloatDigits(Math.abs(f)) ?? shortestFloatDigits(Math.abs(f));
  return (f < 0 ? "-" : "") + layout(digits, exp);
}

/**
 * A whole float below 2^63 takes the JDK's (up to 18, which QuestDB runs) "easy" path of
 * Float.toString: the integer's own digits, rounded half up past the digits its ulp makes
 * insignificant, not the shortest round-trip digits (CastDecimalToFloatFunctionFactoryTest:
 * 1234567890123456m as float prints 1.23456795E15, 123456789.123456789m prints 1.23456792E8).
 */
function wholeFloatDigits(a: number): [string, number] | undefined {
  if (!Number.isInteger(a) || a >= 2 ** 63) return undefined;
  const binExp = Math.floor(Math.log2(a));
  const p2 = binExp - 25; // FloatingDecimal: binExp - nSignificantBits(24) - 1
  // FloatingDecimal's insignificantDigitsForPow2: the decimal digits below a 2^p2 spacing.
  const insignificant = p2 > 1 ? Math.floor(p2 * Math.log10(2)) : 0;
  let v = BigInt(a);
  if (insignificant > 0) {
    const pow = 10n ** BigInt(insignificant);
    const residue = v % pow;
    v = v / pow + (residue >= pow / 2n ? 1n : 0n);
  }
  const text = String(v);
  return [text.replace(/0+$/, "") || "0", text.length - 1 + insignificant];
}

/** Significant digits (no dot) and decimal exponent of the first digit: 0.015 → ["15", -2]. */
function splitExponential(s: string): [string, number] {
  const e = s.indexOf("e");
  const mantissa = s.slice(0, e).replace(".", "");
  return [mantissa.replace(/0+$/, "") || "0", Number(s.slice(e + 1))];
}

function shortestDoubleDigits(x: number): [string, number] {
  const [digits, exp] = splitExponential(x.toExponential());
  if (digits.length === 1) {
    // Java (JDK 19+) picks the closest of the one- and two-digit decimals that round to x, which
    // only differs for subnormals: Double.MIN_VALUE is 4.9E-324, not 5e-324.
    const two = x.toExponential(1);
    if (Number(two) === x) return splitExponential(two);
  }
  return [digits, exp];
}

function shortestFloatDigits(f: number): [string, number] {
  for (let p = 1; p <= 9; p++) {
    const s = f.toExponential(p - 1);
    if (Math.fround(Number(s)) === f) {
      // Java's one-or-two-digit rule again (Float.MIN_VALUE is 1.4E-45).
      const two = p === 1 ? f.toExponential(1) : s;
      return splitExponential(Math.fround(Number(two)) === f ? two : s);
    }
    // The nearest p-digit decimal can fall outside the float's rounding interval while a
    // neighbour does not (the interval is lopsided at powers of two); try both neighbours.
    const [mant, exp] = [s.slice(0, s.indexOf("e")).replace(".", ""), Number(s.slice(s.indexOf("e") + 1))];
    for (const delta of [-1, 1]) {
      const m = Number(mant) + delta;
      const c = `${m}e${exp - (p - 1)}`;
      if (m > 0 && Math.fround(Number(c)) === f) return splitExponential(Number(c).toExponential());
    }
  }
  return splitExponential(f.toExponential());
}

function layout(digits: string, exp: number): string {
  if (exp >= -3 && exp < 7) {
    if (exp < 0) return "0." + "0".repeat(-exp - 1) + digits;
    const intLen = exp + 1;
    if (digits.length <= intLen) return digits + "0".repeat(intLen - digits.length) + ".0";
    return digits.slice(0, intLen) + "." + digits.slice(intLen);
  }
  return digits[0] + "." + (digits.length > 1 ? digits.slice(1) : "0") + "E" + exp;
}

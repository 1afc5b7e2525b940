/**
 * abs, sign and the rounding family (round, round_up, round_down, round_half_even, ceil/ceiling,
 * floor) over DECIMAL(p, s) (spec/sql.md §23), exact on the unscaled value as QuestDB's
 * *DecimalFunctionFactory classes compute them. A rounding can carry into one more integer digit,
 * except toward zero (round_down), so every mode but that one adds a digit (`carry`). With a
 * constant rounding scale r below s the result is DECIMAL(p - s + max(r, 0) + carry, max(r, 0))
 * (RoundDecimalFunctionFactoryTest: round(12.45 of DECIMAL(4,2), 1) is 12.5 of DECIMAL(4,1);
 * RoundDownDecimalFunctionFactoryTest: round_down(-999.999 of DECIMAL(7,3), -1) is -990 of
 * DECIMAL(4,0)); a constant r ≥ s leaves the value and its type as they are
 * (testRoundDecimal8ScaleZero: round(50 of DECIMAL(2,0), 0) stays DECIMAL(2,0)); a NULL constant
 * scale is a NULL of DECIMAL(1,0); a scale that is not constant keeps the scale and adds `carry`
 * digits. sign() is DECIMAL(1,0).
 */
import { type ColumnType, decimalType } from "../base/types.ts";
import { capPrecision, pow10 } from "./decimal_math.ts";
import { isIntArg, noMatch, toIntArg } from "./_util.ts";
import type { BoundArg, ScalarBinding } from "./registry_types.ts";

export type DecimalRoundMode = "halfUp" | "halfEven" | "down" | "up" | "ceil" | "floor";

/** `v` at scale `s` rounded to scale `r` (r ≤ s, may be negative), unscaled at scale r. */
function roundUnscaled(v: bigint, s: number, r: number, mode: DecimalRoundMode): bigint {
  if (r >= s) return v * pow10(r - s);
  const d = pow10(s - r);
  const q = v / d, rem = v % d;
  if (rem === 0n) return q;
  const away = q + (v < 0n ? -1n : 1n);
  const twice = (rem < 0n ? -rem : rem) * 2n;
  switch (mode) {
    case "down":
      return q;
    case "up":
      return away;
    case "halfUp":
      return twice >= d ? away : q;
    case "halfEven":
      return twice > d || (twice === d && q % 2n !== 0n) ? away : q;
    case "ceil":
      return rem > 0n ? q + 1n : q;
    case "floor":
      return rem < 0n ? q - 1n : q;
  }
}

/** `name(d [, scale])` over a DECIMAL; undefined when the first argument is no DECIMAL. */
export function bindDecimalRounding(
  name: string,
  mode: DecimalRoundMode,
  args: BoundArg[],
): ScalarBinding | string | undefined {
  const t = args[0]?.type;
  if (t?.tag !== "DECIMAL") return undefined;
  if (args.length > 2 || (args.length === 2 && !isIntArg(args[1].type))) return noMatch(name, args);
  const p = t.precision!, s = t.scale!;
  const constScale = args.length === 1 ? 0 : args[1].constant ? toIntArg(args[1].value ?? null) : undefined;
  if (constScale === null) return { returns: decimalType(1, 0), eval: () => null };
  if (constScale !== undefined && constScale >= s) return { returns: t, eval: ([v]) => v };
  const carry = mode === "down" ? 0 : 1;
  const outScale = constScale === undefined ? s : Math.max(constScale, 0);
  const returns: ColumnType = decimalType(capPrecision(Math.max(p - s + outScale + carry, 1)), outScale);
  return {
    returns,
    eval: ([v, scale]) => {
      const r = args.length === 1 ? 0 : toIntArg(scale ?? null);
      if (v === null || r === null) return null;
      const rounded = roundUnscaled(v as bigint, s, Math.min(r, s), mode);
      const at = Math.min(r, s);
      return at <= outScale ? rounded * pow10(outScale - at) : rounded / pow10(at - outScale);
    },
  };
}

/** abs(d) keeps the type; sign(d) is DECIMAL(1,0); undefined when the argument is no DECIMAL. */
export function bindDecimalAbsSign(name: "abs" | "sign", args: BoundArg[]): ScalarBinding | undefined {
  const t = args[0]?.type;
  if (args.length !== 1 || t?.tag !== "DECIMAL") return undefined;
  if (name === "abs") {
    return { returns: t, eval: ([v]) => (v === null ? null : (v as bigint) < 0n ? -(v as bigint) : v) };
  }
  return {
    returns: decimalType(1, 0),
    eval: ([v]) => (v === null ? null : (v as bigint) > 0n ? 1n : (v as bigint) < 0n ? -1n : 0n),
  };
}

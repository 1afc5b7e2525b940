/**
 * round / round_half_even / round_down / round_up with a constant scale, inlined into the batch
 * loops (batch_expr.ts): the arithmetic first step of numeric_round.ts roundTo, written into the
 * loop, with roundTo itself called for the rows that step leaves undecided (near a boundary,
 * past 2^31 scaled). roundTo called per row cost ~30 ns a value (GROUP BY round(price, 1) over
 * 10M rows: 300 of its 500 ms); the inlined step a few.
 */
import { type RoundMode, roundTo } from "../../functions/numeric_round.ts";

/** The modes of the round-family function names (numeric.ts bindRound). */
export const ROUND_MODES: Record<string, RoundMode> = {
  round: "halfUp",
  round_half_even: "halfEven",
  round_down: "down",
  round_up: "up",
};

/** numeric_round.ts's MARGIN: how far from a boundary the arithmetic answer is certain. */
const MARGIN = 1e-5;

/**
 * The loop code rounding `x` (a double, NaN for NULL): temps made by `tmp` (a `const` each),
 * constants by `konst`. Undefined for a scale past ±16 (the caller calls the binding).
 */
export function roundCode(
  x: string,
  scale: number,
  mode: RoundMode,
  tmp: (code: string) => string,
  konst: (v: unknown) => string,
): string | undefined {
  // Scales past ±16 are NULL (numeric.ts outOfScale): left to the binding's numeric form, as
  // are round_up / round_down, which use QuestDB's arithmetic (numeric_round.ts questRound).
  if (mode === "up" || mode === "down" || !Number.isInteger(scale) || scale < -16 || scale > 16) {
    return undefined;
  }
  const p = Number(`1e${Math.abs(scale)}`);
  const y = tmp(scale >= 0 ? `Math.abs(${x}) * ${p}` : `Math.abs(${x}) / ${p}`);
  const f = tmp(`Math.floor(${y})`);
  const fr = tmp(`${y} - ${f}`);
  const half = mode === "halfUp" || mode === "halfEven";
  // NaN fails every comparison: NULL falls to the slow branch, which answers NaN.
  const sure = half
    ? `${y} < 2147483648 && (${fr} - 0.5 > ${MARGIN} || 0.5 - ${fr} > ${MARGIN})`
    : `${y} < 2147483648 && ${fr} > ${MARGIN} && ${fr} < ${1 - MARGIN}`;
  const n = half ? `(${fr} > 0.5 ? ${f} + 1 : ${f})` : mode === "up" ? `(${f} + 1)` : f;
  const q = tmp(`${sure} ? (${scale >= 0 ? `${n} / ${p}` : `${n} * ${p}`}) : -1`);
  const slow = `${x} !== ${x} ? NaN : ${konst(roundTo)}(${x}, ${scale}, ${konst(mode)})`;
  // The arithmetic answer takes x's sign (a zero answer is +0, as roundTo's).
  return tmp(`${q} < 0 ? (${slow}) : ${q} === 0 ? 0 : ${x} < 0 ? -${q} : ${q}`);
}

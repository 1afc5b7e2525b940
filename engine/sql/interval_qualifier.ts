/**
 * QuestDB's SqlUtil.expectMicros: a lag such as `o3MaxLag` is digits then a one- or two-letter
 * lowercase unit (us, ms, s, m, h, d, ns). Errors are placed from `pos`, the position QuestDB
 * passes: the parameter name's for ALTER TABLE SET PARAM (AlterTableO3MaxLagTest
 * #setO3MaxLagWrongTimeQualifier: `111days` at name + 3, #setO3MaxLagWrongTimeQualifier2: `111ml`
 * at name + 5), the value's own for INSERT/CREATE BATCH n o3MaxLag v.
 */
import { SqlError } from "../base/errors.ts";

const UNITS: Record<string, bigint> = {
  s: 1_000_000n,
  m: 60_000_000n,
  ms: 1000n,
  h: 3_600_000_000n,
  d: 86_400_000_000n,
  us: 1n,
};

export function expectMicros(tok: string, pos: number): bigint {
  const k = tok.search(/[^0-9]/);
  if (k < 0) throw new SqlError(`expected interval qualifier in ${tok}`, pos + tok.length);
  if (tok.length - k > 2) throw new SqlError(`expected 1/2 letter interval qualifier in ${tok}`, pos + k);
  const unit = tok.slice(k);
  // Digits a LONG holds (Numbers.parseLong fails past them, and the qualifier is then invalid).
  if (k > 0 && k <= 18 && unit in UNITS) return BigInt(tok.slice(0, k)) * UNITS[unit];
  // `ns` rounds down to whole microseconds (QuestDB's fromNanos on the micros driver).
  if (k > 0 && k <= 18 && unit === "ns") return BigInt(tok.slice(0, k)) / 1000n;
  throw new SqlError(`invalid interval qualifier ${tok}`, pos + tok.length);
}

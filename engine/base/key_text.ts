/**
 * JSON text of plain data with bigints written as `5n`, as a Map key naming a job, a plan
 * fragment or a predicate (JSON.stringify alone throws on a bigint). Equal texts, equal data.
 */
export function keyText(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
}

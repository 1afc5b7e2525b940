/**
 * Ordering, equality and hashing of scalar values of one type, for the operators that need a
 * total order or an identity: ORDER BY, GROUP BY, DISTINCT, joins, min/max, set operations.
 *
 * Unlike the SQL comparison operators (operators_compare.ts), these treat NULL as an ordinary
 * value: it equals itself and sorts first ascending, as the sentinel minimum does in QuestDB
 * (spec/sql.md §4.1, §4.5), except a DOUBLE/FLOAT NULL under ORDER BY (see compareValues).
 */
import type { ColumnType } from "../base/types.ts";
import { DoubleArray, type Interval, type Value } from "../base/values.ts";

/**
 * Compares two values of type `type`: negative, zero or positive.
 *
 * NULL sorts before everything (§4.5); strings compare by UTF-16 code unit, which is what JS
 * `<` does (§4.4); numbers numerically, mixed number/bigint included; booleans false < true;
 * binary bytewise; intervals by low then high bound. Given `type` (ORDER BY passes its key's),
 * a DOUBLE or FLOAT NULL sorts after everything instead: QuestDB's sort orders a NULL double
 * (NaN) above every number, last ascending and first descending (SortKeyEncoder), where §4.5
 * had left it unconfirmed; a window's ORDER BY too (RecordComparator's Numbers.compare puts a
 * NULL double after every number).
 */
export function compareValues(a: Value, b: Value, type?: ColumnType): number {
  if (a === b) return 0;
  // Only a NULL operand looks at the type: the sort's comparator runs this per pair.
  if (a === null) return nullLast(type) ? 1 : -1;
  if (b === null) return nullLast(type) ? -1 : 1;
  if (a instanceof Uint8Array && b instanceof Uint8Array) return compareBytes(a, b);
  if (a instanceof DoubleArray && b instanceof DoubleArray) return compareArrays(a, b);
  if (typeof a === "object" && typeof b === "object") {
    const x = a as Interval, y = b as Interval;
    return x.lo !== y.lo ? (x.lo < y.lo ? -1 : 1) : x.hi === y.hi ? 0 : x.hi < y.hi ? -1 : 1;
  }
  // Primitive values: number, bigint, string and boolean all order correctly with < and >,
  // including number against bigint.
  return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
}

/** Whether a NULL of `type` sorts after every value (DOUBLE/FLOAT keys of ORDER BY). */
function nullLast(type: ColumnType | undefined): boolean {
  return type !== undefined && (type.tag === "DOUBLE" || type.tag === "FLOAT");
}

/** Arrays order by dimension count, then shape, then elements (NULL elements first, as NaN sentinels). */
function compareArrays(a: DoubleArray, b: DoubleArray): number {
  if (a.shape.length !== b.shape.length) return a.shape.length - b.shape.length;
  for (let d = 0; d < a.shape.length; d++) if (a.shape[d] !== b.shape[d]) return a.shape[d] - b.shape[d];
  for (let i = 0; i < a.data.length; i++) {
    const x = a.data[i], y = b.data[i];
    if (x === y || (Number.isNaN(x) && Number.isNaN(y))) continue;
    if (Number.isNaN(x)) return -1;
    if (Number.isNaN(y)) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Equality of two values of one type where NULL equals NULL (§4.1): GROUP BY, DISTINCT, joins. */
export function valuesEqual(a: Value, b: Value, type?: ColumnType): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (typeof a === "object" || typeof b === "object") return compareValues(a, b, type) === 0;
  // number against bigint (an INT key joined to a LONG key) compares by value.
  const ta = typeof a, tb = typeof b;
  return ta !== tb && (ta === "number" || ta === "bigint") && (tb === "number" || tb === "bigint") && a == b;
}

/**
 * A string identifying a tuple of values, for hash tables (GROUP BY keys, DISTINCT, hash
 * joins). Equal tuples under `valuesEqual` give equal keys; integral numbers and bigints of
 * the same value share a key so INT and LONG keys meet.
 */
export function hashKey(values: Value[]): string {
  let s = "";
  for (const v of values) s += keyPart(v) + "\u0001";
  return s;
}

/** The key of a single value; see `hashKey`. */
export function keyPart(v: Value): string {
  if (v === null) return "\u0000";
  switch (typeof v) {
    case "number":
      // String(-0) is "0", so 0.0 and -0.0 group together as they compare equal.
      return Number.isInteger(v) ? `i${v}` : `d${v}`;
    case "bigint":
      return `i${v}`;
    case "string":
      return `s${v}`;
    case "boolean":
      return v ? "t" : "f";
    default:
      if (v instanceof Uint8Array) {
        return `x${Array.from(v, (b) => b.toString(16).padStart(2, "0")).join("")}`;
      }
      if (v instanceof DoubleArray) return `a${v.shape.join("x")}:${Array.from(v.data).join(",")}`;
      return `v${(v as Interval).lo}:${(v as Interval).hi}`;
  }
}

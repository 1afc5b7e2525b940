/**
 * Column pairs a set operation cannot reconcile. QuestDB casts each branch's column to the
 * union type and has no cast between a date/time and a number, nor from CHAR to a floating
 * type: UnionAllCastTest#testDateByte, #testDateInt, #testTimestampShort, #testDoubleDate,
 * #testFloatDate, #testDoubleChar, #testFloatChar fail with `unsupported cast` at the branch
 * whose column would be cast (the number against a date, the date against FLOAT/DOUBLE, the
 * CHAR against FLOAT/DOUBLE). BINARY meets only BINARY (or NULL): #testLongBin and #testSymBin fail
 * at the BINARY branch, as QuestDB has no cast from BINARY to the union's STRING.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, typeName } from "../base/types.ts";

const TIME_TAGS = new Set(["DATE", "TIMESTAMP", "TIMESTAMP_NS"]);
const INTEGRAL_TAGS = new Set(["BYTE", "SHORT", "CHAR", "INT", "LONG"]);
const FLOATING_TAGS = new Set(["FLOAT", "DOUBLE"]);

/** Which side (0 left, 1 right) cannot be cast to the other's type, if either. */
function refusedSide(left: ColumnType, right: ColumnType): 0 | 1 | undefined {
  const [a, b] = [left.tag, right.tag];
  if (a === "BINARY" && b !== "BINARY" && b !== "NULL") return 0;
  if (b === "BINARY" && a !== "BINARY" && a !== "NULL") return 1;
  if (TIME_TAGS.has(a) && INTEGRAL_TAGS.has(b)) return 1;
  if (TIME_TAGS.has(b) && INTEGRAL_TAGS.has(a)) return 0;
  if (TIME_TAGS.has(a) && FLOATING_TAGS.has(b)) return 0;
  if (TIME_TAGS.has(b) && FLOATING_TAGS.has(a)) return 1;
  if (a === "CHAR" && FLOATING_TAGS.has(b)) return 0;
  if (b === "CHAR" && FLOATING_TAGS.has(a)) return 1;
  return undefined;
}

/** Throws `unsupported cast` at the refused branch (`positions`: left, right). */
export function checkSetOpCast(left: ColumnType, right: ColumnType, positions: [number, number]): void {
  const side = refusedSide(left, right);
  if (side === undefined) return;
  const [from, other] = side === 0 ? [left, right] : [right, left];
  const to = from.tag === "BINARY" ? "STRING" : typeName(other);
  throw new SqlError(`unsupported cast [from=${typeName(from)}, to=${to}]`, positions[side]);
}

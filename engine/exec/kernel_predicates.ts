/**
 * Recognises predicates the WASM filter kernels can run (a numeric column compared with a
 * constant, symbol equality and IN, IS NULL), in the form the kernels take. Shared by the
 * fast aggregate path and the filter operator.
 */
import type { ColumnType } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { NumericKind } from "../../engine-wasm/mod.ts";
import { parseTimestamp } from "../functions/timestamp_parse.ts";
import { type BoundExpr, isConst } from "../plan/bound.ts";
import type { OutputColumn } from "../plan/plan_node.ts";

export const KIND: Partial<Record<string, NumericKind>> = {
  DOUBLE: "f64",
  FLOAT: "f32",
  LONG: "i64",
  TIMESTAMP: "i64",
  DATE: "i64",
  INT: "i32",
  SHORT: "i16",
  BYTE: "i8",
};
export const WIDTH: Record<NumericKind, number> = { f64: 8, f32: 4, i64: 8, i32: 4, i16: 2, i8: 1 };
const OPS: Record<string, "eq" | "ne" | "lt" | "le" | "gt" | "ge"> = {
  "=": "eq",
  "!=": "ne",
  "<": "lt",
  "<=": "le",
  ">": "gt",
  ">=": "ge",
};
const FLIP: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!=" };

export type Pred =
  | {
    kind: "cmp";
    col: number;
    type: NumericKind;
    op: "eq" | "ne" | "lt" | "le" | "gt" | "ge";
    value: number | bigint | null;
  }
  | { kind: "sym"; col: number; values: (string | null)[]; not: boolean };

/** The constant of a comparison in the column's domain, or undefined when not representable. */
function constFor(
  kind: NumericKind,
  t: ColumnType,
  c: { type: ColumnType; value: Value },
): number | bigint | null | undefined {
  const v = c.value;
  if (v === null) return null;
  if (kind === "i64") {
    // Constants outside the 64-bit range stay on the generic path, which compares them exactly.
    if (typeof v === "bigint") return BigInt.asIntN(64, v) === v ? v : undefined;
    if (typeof v === "number" && Number.isInteger(v) && Math.abs(v) < 2 ** 63) return BigInt(v);
    if (typeof v === "string" && (t.tag === "TIMESTAMP" || t.tag === "DATE")) {
      const p = parseTimestamp(v, t.tag === "DATE" ? "ms" : "us");
      return p;
    }
    return undefined;
  }
  if (typeof v === "number") return v;
  if (typeof v === "bigint" && v >= -(2n ** 53n) && v <= 2n ** 53n) return Number(v);
  return undefined;
}

export function predicateOf(e: BoundExpr, columns: OutputColumn[]): Pred | undefined {
  if (e.kind === "isNull" && e.arg.kind === "column") {
    const t = columns[e.arg.index].type;
    if (t.tag === "SYMBOL") return { kind: "sym", col: e.arg.index, values: [null], not: e.not };
    const kind = KIND[t.tag];
    if (!kind || kind === "i16" || kind === "i8") return undefined;
    return { kind: "cmp", col: e.arg.index, type: kind, op: e.not ? "ne" : "eq", value: null };
  }
  if (e.kind === "inSet" && e.arg.kind === "column" && columns[e.arg.index].type.tag === "SYMBOL") {
    const values: (string | null)[] = [];
    for (const k of e.keys) {
      if (typeof k !== "string") return undefined;
      values.push(k);
    }
    if (e.hasNull) values.push(null);
    return { kind: "sym", col: e.arg.index, values, not: e.not };
  }
  if (e.kind !== "call" || !OPS[e.name] || e.args.length !== 2) return undefined;
  let [a, b] = e.args;
  let op = e.name;
  if (a.kind !== "column" && b.kind === "column") {
    [a, b] = [b, a];
    op = FLIP[op];
  }
  if (a.kind !== "column" || !isConst(b)) return undefined;
  const t = columns[a.index].type;
  if (t.tag === "SYMBOL") {
    if ((op !== "=" && op !== "!=") || (b.value !== null && typeof b.value !== "string")) return undefined;
    return { kind: "sym", col: a.index, values: [b.value as string | null], not: op === "!=" };
  }
  const kind = KIND[t.tag];
  if (!kind) return undefined;
  const value = constFor(kind, t, b);
  if (value === undefined) return undefined;
  return { kind: "cmp", col: a.index, type: kind, op: OPS[op], value };
}

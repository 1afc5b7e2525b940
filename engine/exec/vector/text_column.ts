/**
 * Expressions of one STRING or VARCHAR column and nothing else that varies by row (upper(s),
 * length(s) > 3, s LIKE 'a%', replace(s, 'a', 'b')), batch at a time (issue #16): the row path
 * evaluates the expression once per distinct text of the batch (a Map from text to value, kept
 * across batches up to MEMO_MAX texts), and each row takes its text's value. Columns of many
 * distinct texts gain nothing from the Map: after a batch whose texts were mostly new, the
 * remaining batches are evaluated row by row (the row path, same answers).
 */
import type { Batch, Value } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import { soleColumnOf } from "./batch_expr.ts";

type Column = Extract<BoundExpr, { kind: "column" }>;

/** Texts remembered before the Map starts over. */
const MEMO_MAX = 1 << 16;

/**
 * The STRING/VARCHAR column `e` reads, when it reads exactly one column and nothing else that
 * changes by row (no correlated subquery or parameter, no non-deterministic call).
 */
export function soleTextColumn(e: BoundExpr): Column | undefined {
  if (e.kind === "column" || e.kind === "const") return undefined;
  return soleColumnOf(e, (tag) => tag === "STRING" || tag === "VARCHAR");
}

/**
 * Per batch, the value of `e` for each row (`rowValue`: the row path's evaluator), once per
 * distinct text of column `col`; undefined when the batch's column is not an array of texts.
 */
export function textMemo(
  col: Column,
  rowValue: (b: Batch, i: number) => unknown,
): (b: Batch) => unknown[] | undefined {
  let memo = new Map<string, unknown>();
  let nullValue: { v: unknown } | undefined;
  let byRow = false;
  return (b) => {
    const d = b.columns[col.index]?.data;
    if (!Array.isArray(d)) return undefined;
    const n = b.rowCount;
    const out = new Array<unknown>(n);
    if (byRow) {
      for (let i = 0; i < n; i++) out[i] = rowValue(b, i);
      return out;
    }
    let misses = 0;
    for (let i = 0; i < n; i++) {
      const x = (d as Value[])[i];
      if (x === null || x === undefined) {
        nullValue ??= { v: rowValue(b, i) };
        out[i] = nullValue.v;
        continue;
      }
      const s = x as string;
      let v = memo.get(s);
      if (v === undefined && !memo.has(s)) {
        v = rowValue(b, i);
        misses++;
        if (memo.size >= MEMO_MAX) memo = new Map();
        memo.set(s, v);
      }
      out[i] = v;
    }
    // Mostly new texts (a column of ids, free text): the Map costs more than it saves.
    if (n >= 1024 && misses * 2 > n) byRow = true;
    return out;
  };
}

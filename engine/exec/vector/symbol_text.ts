/**
 * Text-valued expressions of one SYMBOL column (upper(s), concat(s, '-x'), substring(s, 1, 3),
 * replace, coalesce...) batch at a time (issue #16): the row path evaluates the expression once
 * per dictionary code and once for NULL, on a probe batch of those codes, and each row takes its
 * code's text. The vector carries the codes and a dictionary of the results (symbol_cast.ts
 * textOrigin), so a GROUP BY key over it takes ids per code, as for the symbol itself.
 */
import type { Batch, SymbolDict, Value, Vector } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import { setTextOrigin } from "./symbol_cast.ts";

/** Dictionaries larger than this go row by row (a row-path call per code builds the table). */
const TABLE_MAX = 1 << 20;

/**
 * A dictionary over a list of texts, key = position (NULL entries have no key); the first of
 * equal texts answers keyOf. Also the dictionary of symbol_tuple.ts's per-tuple texts.
 */
export class TextListDict implements SymbolDict {
  #keys?: Map<string, number>;
  constructor(readonly texts: (string | null)[]) {}
  get size(): number {
    return this.texts.length;
  }
  valueOf(key: number): string | null {
    return this.texts[key] ?? null;
  }
  keyOf(value: string): number | undefined {
    if (!this.#keys) {
      this.#keys = new Map();
      for (let k = this.texts.length - 1; k >= 0; k--) {
        const t = this.texts[k];
        if (t !== null) this.#keys.set(t, k);
      }
    }
    return this.#keys.get(value);
  }
}

/** The results of an expression per code of a source dictionary (NULL's at `nullText`). */
class ResultDict extends TextListDict {
  constructor(texts: (string | null)[], readonly nullText: string | null) {
    super(texts);
  }
}

/**
 * The batch form of text-valued `e` over SYMBOL column `col` (the only column it reads; see
 * batch_expr.ts soleSymbolColumn), given the row path's evaluator. The function answers
 * undefined for a batch without a dictionary, a too large one, or when some code's evaluation
 * fails (the caller then evaluates the rows, raising only their errors).
 */
export function symbolTextVector(
  e: BoundExpr,
  col: number,
  rowValue: (b: Batch, i: number) => unknown,
): (b: Batch) => Vector | undefined {
  const tables = new Map<SymbolDict, ResultDict | null>();
  return (b) => {
    const v = b.columns[col];
    const dict = v?.dict;
    if (!dict || !(v.data instanceof Int32Array) || dict.size > TABLE_MAX) return undefined;
    let table = tables.get(dict);
    if (table === null) return undefined;
    if (!table || table.size !== dict.size) {
      const codes = new Int32Array(dict.size + 1);
      for (let k = 0; k < dict.size; k++) codes[k + 1] = k;
      codes[0] = -1;
      const columns: Batch["columns"] = [];
      columns[col] = { type: v.type, data: codes, dict };
      const probe: Batch = { rowCount: codes.length, columns };
      const texts: (string | null)[] = new Array(dict.size);
      let nullText: string | null;
      try {
        const text = (i: number): string | null => {
          const x = rowValue(probe, i);
          if (x !== null && typeof x !== "string") throw new Error("not a text");
          return x;
        };
        nullText = text(0);
        for (let k = 0; k < dict.size; k++) texts[k] = text(k + 1);
      } catch {
        tables.set(dict, null);
        return undefined;
      }
      table = new ResultDict(texts, nullText);
      tables.set(dict, table);
    }
    const keys = v.data, n = b.rowCount, texts = table.texts;
    const data = new Array<Value>(n);
    if (table.nullText !== null) {
      // NULL maps to a text (coalesce(s, 'none')): no NULL slot for it, the rows carry texts only.
      for (let i = 0; i < n; i++) {
        const k = keys[i];
        data[i] = k < 0 ? table.nullText : texts[k];
      }
      return { type: e.type, data };
    }
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      data[i] = k < 0 ? null : texts[k];
    }
    setTextOrigin(data, keys.length === n ? keys : keys.subarray(0, n), table);
    return { type: e.type, data };
  };
}

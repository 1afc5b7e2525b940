/**
 * CASE with constant text branches (CASE WHEN price > 100 THEN 'high' ELSE 'low' END) batch at a
 * time (issue #16): the same CASE with each branch's text replaced by its index (NULL by -1)
 * is numeric, so the batch compiler runs it as one loop; each row's index then picks its text.
 * The vector carries the indexes and a dictionary of the texts (symbol_cast.ts textOrigin), so
 * a GROUP BY key over it takes ids per index instead of hashing every row's text.
 */
import { T } from "../../base/types.ts";
import type { Batch, SymbolDict, Value, Vector } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import { setTextOrigin } from "./symbol_cast.ts";

class ConstDict implements SymbolDict {
  constructor(readonly texts: string[]) {}
  get size(): number {
    return this.texts.length;
  }
  valueOf(key: number): string | null {
    return this.texts[key] ?? null;
  }
  keyOf(value: string): number | undefined {
    const k = this.texts.indexOf(value);
    return k < 0 ? undefined : k;
  }
}

/**
 * For a text-valued CASE whose branches are all constants (text or NULL): the INT CASE of the
 * branch indexes and the texts, or undefined.
 */
export function caseAsCodes(e: BoundExpr): { codes: BoundExpr; texts: string[] } | undefined {
  if (e.kind !== "case" || (e.type.tag !== "STRING" && e.type.tag !== "VARCHAR")) return undefined;
  const texts: string[] = [];
  const code = (x: BoundExpr): BoundExpr | undefined => {
    if (x.kind !== "const" || (x.value !== null && typeof x.value !== "string")) return undefined;
    let k = -1;
    if (x.value !== null) {
      k = texts.indexOf(x.value);
      if (k < 0) k = texts.push(x.value) - 1;
    }
    // -1 is NULL: the INT loop writes NULL as INT_MIN, read back below as "no text".
    return { kind: "const", type: T.INT, value: k < 0 ? null : k };
  };
  const whens: { cond: BoundExpr; then: BoundExpr }[] = [];
  for (const w of e.whens) {
    const then = code(w.then);
    if (!then) return undefined;
    whens.push({ cond: w.cond, then });
  }
  const otherwise = code(e.otherwise);
  if (!otherwise) return undefined;
  return { codes: { kind: "case", type: T.INT, whens, otherwise }, texts };
}

/**
 * For a CHAR-valued CASE whose branches are all constant characters or NULL: the INT CASE of
 * their UTF-16 codes (NULL stays NULL), or undefined. CHAR vectors are those codes, 0 for NULL.
 */
export function charCaseAsCodes(e: BoundExpr): BoundExpr | undefined {
  if (e.kind !== "case" || e.type.tag !== "CHAR") return undefined;
  const code = (x: BoundExpr): BoundExpr | undefined => {
    if (x.kind !== "const" || (x.value !== null && (typeof x.value !== "string" || x.value.length !== 1))) {
      return undefined;
    }
    const c = x.value === null ? 0 : (x.value as string).charCodeAt(0);
    return { kind: "const", type: T.INT, value: c === 0 ? null : c };
  };
  const whens: { cond: BoundExpr; then: BoundExpr }[] = [];
  for (const w of e.whens) {
    const then = code(w.then);
    if (!then) return undefined;
    whens.push({ cond: w.cond, then });
  }
  const otherwise = code(e.otherwise);
  return otherwise && { kind: "case", type: T.INT, whens, otherwise };
}

/** The CHAR vector of a batch from the INT vector of its codes (INT_MIN for NULL). */
export function charCaseVector(type: BoundExpr["type"], codesOf: (b: Batch) => Vector): (b: Batch) => Vector {
  return (b) => {
    const n = b.rowCount;
    const src = codesOf(b).data as Int32Array;
    const data = new Uint16Array(n);
    for (let i = 0; i < n; i++) data[i] = src[i] < 0 ? 0 : src[i];
    return { type, data };
  };
}

/** The text vector of a batch from the INT vector of its branch indexes (INT_MIN for NULL). */
export function caseTextVector(
  type: BoundExpr["type"],
  texts: string[],
  codesOf: (b: Batch) => Vector,
): (b: Batch) => Vector {
  const dict = new ConstDict(texts);
  return (b) => {
    const n = b.rowCount;
    const src = codesOf(b).data as Int32Array;
    const codes = new Int32Array(n);
    const data = new Array<Value>(n);
    for (let i = 0; i < n; i++) {
      const k = src[i];
      if (k < 0) {
        codes[i] = -1;
        data[i] = null;
      } else {
        codes[i] = k;
        data[i] = texts[k];
      }
    }
    setTextOrigin(data, codes, dict);
    return { type, data };
  };
}

/**
 * A text-valued CASE whose branches are not all constants (`CASE WHEN price > 100 THEN symbol
 * ELSE side END`), batch at a time (issue #16): each condition is evaluated as a 0/1 mask over
 * the batch and each branch as a vector (their own batch forms), and each row takes the value
 * of its first true condition's branch, as the row path's CASE does. Text-valued CASEs of
 * constant branches are case_text.ts's; numeric ones run inside the batch loops.
 */
import { type Batch, readValue, type Value, type Vector } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";

type CaseExpr = Extract<BoundExpr, { kind: "case" }>;

/** Builders of the parts' batch forms (batch_eval.ts), undefined where a part has none. */
export interface CaseParts {
  mask: (e: BoundExpr) => ((b: Batch, mask: Uint8Array) => void) | undefined;
  vector: (e: BoundExpr) => ((b: Batch) => Vector) | undefined;
}

/** Whether `e` is a CASE this module takes (text-valued, a branch not constant). */
export function isPickCase(e: BoundExpr): e is CaseExpr {
  if (e.kind !== "case" || (e.type.tag !== "STRING" && e.type.tag !== "VARCHAR")) return false;
  return [...e.whens.map((w) => w.then), e.otherwise].some((x) => x.kind !== "const");
}

/** The batch form of CASE `e`, or undefined when a condition or branch has none. */
export function casePickVector(e: CaseExpr, parts: CaseParts): ((b: Batch) => Vector) | undefined {
  const masks = e.whens.map((w) => parts.mask(w.cond));
  if (masks.some((m) => m === undefined)) return undefined;
  const branch = (x: BoundExpr): ((b: Batch) => Vector) | { value: Value } | undefined => {
    if (x.kind === "const") return { value: x.value as Value };
    if (x.kind === "column") return (b: Batch) => b.columns[x.index];
    return parts.vector(x);
  };
  const thens = e.whens.map((w) => branch(w.then));
  const otherwise = branch(e.otherwise);
  if (!otherwise || thens.some((t) => t === undefined)) return undefined;
  const all = [...thens, otherwise];
  let bufs: Uint8Array[] = [];
  return (b) => {
    const n = b.rowCount;
    if (bufs.length !== masks.length || (bufs[0]?.length ?? 0) < n) bufs = masks.map(() => new Uint8Array(n));
    masks.forEach((m, k) => m!(b, bufs[k]));
    const vectors = all.map((x) => typeof x === "function" ? x(b) : undefined);
    const data = new Array<Value>(n);
    for (let i = 0; i < n; i++) {
      let k = 0;
      while (k < bufs.length && bufs[k][i] !== 1) k++;
      const v = vectors[k];
      data[i] = v ? readValue(v, i) : (all[k] as { value: Value }).value;
    }
    return { type: e.type, data };
  };
}

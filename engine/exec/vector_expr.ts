/**
 * Whole-batch evaluation of DOUBLE arithmetic (`a.price - (b.bid + b.ask) / 2`) into a
 * Float64Array, NaN standing for NULL: the columnar aggregate reads it instead of calling a
 * closure per row. Matches the scalar operators exactly: a NULL operand gives NULL, and a
 * non-finite result is NULL (values.ts `dbl`). Other expressions answer undefined.
 */
import { type Batch, INT_NULL, LONG_NULL } from "../base/values.ts";
import type { BoundExpr } from "../plan/bound.ts";

export type VectorEval = (b: Batch) => Float64Array;

const OPS = new Set(["+", "-", "*", "/"]);

export function compileVectorExpr(e: BoundExpr): VectorEval | undefined {
  switch (e.kind) {
    case "column":
      return columnAsDouble(e.index, e.type.tag);
    case "const": {
      const v = e.value;
      const x = typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v === null ? NaN : undefined;
      if (x === undefined) return undefined;
      return (b) => new Float64Array(b.rowCount).fill(Number.isFinite(x) ? x : NaN);
    }
    case "call": {
      if (e.type.tag !== "DOUBLE" || !OPS.has(e.name) || e.args.length !== 2) return undefined;
      const l = compileVectorExpr(e.args[0]), r = compileVectorExpr(e.args[1]);
      if (!l || !r) return undefined;
      return binary(e.name, l, r);
    }
    default:
      return undefined;
  }
}

function columnAsDouble(index: number, tag: string): VectorEval | undefined {
  switch (tag) {
    case "DOUBLE":
      return (b) => b.columns[index].data as Float64Array;
    case "FLOAT":
      return (b) => Float64Array.from(b.columns[index].data as Float32Array);
    case "INT":
      return (b) => {
        const d = b.columns[index].data as Int32Array;
        const out = new Float64Array(b.rowCount);
        for (let i = 0; i < out.length; i++) out[i] = d[i] === INT_NULL ? NaN : d[i];
        return out;
      };
    case "LONG":
      return (b) => {
        const d = b.columns[index].data as BigInt64Array;
        const out = new Float64Array(b.rowCount);
        for (let i = 0; i < out.length; i++) out[i] = d[i] === LONG_NULL ? NaN : Number(d[i]);
        return out;
      };
    default:
      return undefined;
  }
}

function binary(op: string, l: VectorEval, r: VectorEval): VectorEval {
  return (b) => {
    const x = l(b), y = r(b);
    const out = new Float64Array(b.rowCount);
    const n = out.length;
    switch (op) {
      case "+":
        for (let i = 0; i < n; i++) out[i] = x[i] + y[i];
        break;
      case "-":
        for (let i = 0; i < n; i++) out[i] = x[i] - y[i];
        break;
      case "*":
        for (let i = 0; i < n; i++) out[i] = x[i] * y[i];
        break;
      default:
        for (let i = 0; i < n; i++) out[i] = x[i] / y[i];
    }
    // NaN operands propagate; infinities become NULL as in the scalar `dbl`.
    for (let i = 0; i < n; i++) if (out[i] === Infinity || out[i] === -Infinity) out[i] = NaN;
    return out;
  };
}

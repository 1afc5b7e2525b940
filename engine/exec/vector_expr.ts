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

/**
 * Compiles `e`. Each node reuses one output buffer across batches (the consumer reduces a
 * batch before asking for the next), so a long input allocates nothing per batch.
 */
export function compileVectorExpr(e: BoundExpr): VectorEval | undefined {
  const node = compile(e);
  if (!node) return undefined;
  if (node.kind === "vector") return node.eval;
  const x = node.value;
  let buf = new Float64Array(0);
  return (b) => {
    if (buf.length !== b.rowCount) buf = new Float64Array(b.rowCount).fill(x);
    return buf;
  };
}

type Node = { kind: "scalar"; value: number } | { kind: "vector"; eval: VectorEval };

function compile(e: BoundExpr): Node | undefined {
  switch (e.kind) {
    case "column": {
      const f = columnAsDouble(e.index, e.type.tag);
      return f && { kind: "vector", eval: f };
    }
    case "const": {
      const v = e.value;
      const x = typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v === null ? NaN : undefined;
      if (x === undefined) return undefined;
      return { kind: "scalar", value: Number.isFinite(x) ? x : NaN };
    }
    case "call": {
      if (e.type.tag !== "DOUBLE" || !OPS.has(e.name) || e.args.length !== 2) return undefined;
      const l = compile(e.args[0]), r = compile(e.args[1]);
      if (!l || !r) return undefined;
      if (l.kind === "scalar" && r.kind === "scalar") return { kind: "scalar", value: finite(apply(e.name, l.value, r.value)) };
      return { kind: "vector", eval: binary(e.name, l, r) };
    }
    default:
      return undefined;
  }
}

function apply(op: string, a: number, b: number): number {
  return op === "+" ? a + b : op === "-" ? a - b : op === "*" ? a * b : a / b;
}

/** Non-finite results are NULL (NaN), as in the scalar `dbl`. */
function finite(x: number): number {
  return x - x === 0 ? x : NaN;
}

function columnAsDouble(index: number, tag: string): VectorEval | undefined {
  let buf = new Float64Array(0);
  const out = (n: number) => (buf.length >= n ? buf.subarray(0, n) : (buf = new Float64Array(n)));
  switch (tag) {
    case "DOUBLE":
      return (b) => b.columns[index].data as Float64Array;
    case "FLOAT":
      return (b) => {
        const o = out(b.rowCount);
        o.set(b.columns[index].data as Float32Array);
        return o;
      };
    case "INT":
      return (b) => {
        const d = b.columns[index].data as Int32Array;
        const o = out(b.rowCount);
        for (let i = 0; i < o.length; i++) o[i] = d[i] === INT_NULL ? NaN : d[i];
        return o;
      };
    case "LONG":
      return (b) => {
        const d = b.columns[index].data as BigInt64Array;
        const o = out(b.rowCount);
        for (let i = 0; i < o.length; i++) o[i] = d[i] === LONG_NULL ? NaN : Number(d[i]);
        return o;
      };
    default:
      return undefined;
  }
}

function binary(op: string, l: Node, r: Node): VectorEval {
  let buf = new Float64Array(0);
  return (b) => {
    const n = b.rowCount;
    const out = buf.length >= n ? buf.subarray(0, n) : (buf = new Float64Array(n));
    if (l.kind === "vector" && r.kind === "vector") {
      const x = l.eval(b), y = r.eval(b);
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
    } else if (l.kind === "vector") {
      const x = l.eval(b), c = (r as { value: number }).value;
      switch (op) {
        case "+":
          for (let i = 0; i < n; i++) out[i] = x[i] + c;
          break;
        case "-":
          for (let i = 0; i < n; i++) out[i] = x[i] - c;
          break;
        case "*":
          for (let i = 0; i < n; i++) out[i] = x[i] * c;
          break;
        default:
          for (let i = 0; i < n; i++) out[i] = x[i] / c;
      }
    } else {
      const c = l.value, y = (r as { eval: VectorEval }).eval(b);
      for (let i = 0; i < n; i++) out[i] = apply(op, c, y[i]);
    }
    // NaN operands propagate; infinities become NULL as in the scalar `dbl`.
    for (let i = 0; i < n; i++) {
      const v = out[i];
      if (v - v !== 0) out[i] = NaN;
    }
    return out;
  };
}

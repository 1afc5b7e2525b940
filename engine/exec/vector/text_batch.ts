/**
 * Text built from numbers, times and texts over a whole batch (issue #16): `concat(a, b, ...)`
 * (and `a || b`) whose arguments are constants, columns or expressions with a batch vector, and
 * `cast(x AS STRING | VARCHAR)` of numbers, booleans, times and the other text type. The row path (text.ts bindConcat,
 * cast.ts castValue) reads each row through closures and formats it with format_value.ts; here
 * each argument's vector is read in a loop with the same formatting (formatValue on readValue's
 * scalar), and SYMBOL texts come by dictionary code. Expressions of SYMBOL columns only are
 * symbol_text.ts's and symbol_tuple.ts's (a text per code or tuple).
 */
import type { ColumnType } from "../../base/types.ts";
import { type Batch, INT_NULL, readValue, type Value, type Vector } from "../../base/values.ts";
import { formatDouble } from "../../functions/double_format.ts";
import { formatValue } from "../../functions/format_value.ts";
import { concatText } from "../../functions/text.ts";
import type { BoundExpr } from "../../plan/bound.ts";

/** Types whose vector this module formats (cast.ts castValue: formatValue of the scalar). */
const FORMATTED = new Set([
  "BOOLEAN",
  "BYTE",
  "SHORT",
  "INT",
  "LONG",
  "FLOAT",
  "DOUBLE",
  "DATE",
  "TIMESTAMP",
]);
/** Types read as their text (STRING/VARCHAR vectors hold strings or null; SYMBOL by code). */
const TEXTS = new Set(["STRING", "VARCHAR", "SYMBOL"]);

/** A batch's vector of one argument (the column itself, or the argument's batch form). */
export type ArgVector = (b: Batch) => Vector;

/**
 * The argument expressions to read as vectors, when `e` is a concat or text cast this module
 * evaluates; `has` tells whether a non-column argument has a batch vector.
 */
export function textBatchArgs(e: BoundExpr, has: (a: BoundExpr) => boolean): BoundExpr[] | undefined {
  if (e.type.tag !== "STRING" && e.type.tag !== "VARCHAR") return undefined;
  const readable = (a: BoundExpr) =>
    (FORMATTED.has(a.type.tag) || TEXTS.has(a.type.tag)) && (a.kind === "column" || has(a));
  if (e.kind === "cast") {
    const from = e.arg.type.tag;
    if (e.from.tag !== from || !readable(e.arg)) return undefined;
    // STRING <-> VARCHAR keeps the texts: a CASE whose branches meet as VARCHAR casts its STRING
    // ones (conditional.ts caseBranchType), `concat(...)` among them.
    return FORMATTED.has(from) || from === "STRING" || from === "VARCHAR" ? [e.arg] : undefined;
  }
  if (e.kind !== "call" || (e.name !== "concat" && e.name !== "||") || e.args.length === 0) return undefined;
  const vars = e.args.filter((a) => a.kind !== "const");
  if (vars.length === 0 || !vars.every(readable)) return undefined;
  for (const a of e.args) {
    if (a.kind === "const" && a.value !== null && typeof a.value !== "string" && !FORMATTED.has(a.type.tag)) {
      return undefined;
    }
  }
  return vars;
}

/**
 * The text of each row of `v` (null for NULL), into `out`. `concat` writes a DATE as its epoch
 * milliseconds, as the row path's concat does (text.ts concatText); a cast writes it as text.
 */
function texts(v: Vector, t: ColumnType, n: number, out: (string | null)[], concat: boolean): void {
  const d = v.data;
  if (concat && t.tag === "DATE") {
    for (let i = 0; i < n; i++) {
      const x = readValue(v, i);
      out[i] = x === null ? null : String(x);
    }
  } else if (t.tag === "DOUBLE" && d instanceof Float64Array) {
    for (let i = 0; i < n; i++) {
      const x = d[i];
      out[i] = x - x === 0 ? formatDouble(x) : null;
    }
  } else if (t.tag === "INT" && d instanceof Int32Array) {
    for (let i = 0; i < n; i++) {
      const x = d[i];
      out[i] = x === INT_NULL ? null : String(x);
    }
  } else if (t.tag === "LONG" && d instanceof BigInt64Array) {
    // A value within ±2^53 prints as its double does (the same digits as the bigint's).
    const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
    for (let i = 0; i < n; i++) {
      const h = w[2 * i + 1], l = w[2 * i];
      if (h === -2147483648 && l === 0) out[i] = null;
      else if (h < 2097152 && h >= -2097152) out[i] = String(h * 4294967296 + (l >>> 0));
      else out[i] = String(d[i]);
    }
  } else if (TEXTS.has(t.tag) && v.dict && d instanceof Int32Array) {
    const dict = v.dict;
    const byCode: (string | null | undefined)[] = [];
    for (let i = 0; i < n; i++) {
      const k = d[i];
      if (k < 0) out[i] = null;
      else out[i] = byCode[k] ??= dict.valueOf(k);
    }
  } else {
    for (let i = 0; i < n; i++) {
      const x = readValue(v, i);
      out[i] = x === null ? null : typeof x === "string" ? x : formatValue(x, t);
    }
  }
}

/**
 * The batch form of `e` (textBatchArgs answered `args`), given each argument's vector reader.
 */
export function textBatchVector(
  e: BoundExpr,
  args: BoundExpr[],
  readers: ArgVector[],
): (b: Batch) => Vector | undefined {
  if (e.kind === "cast") {
    const t = e.arg.type;
    return (b) => {
      const n = b.rowCount;
      const data = new Array<string | null>(n);
      texts(readers[0](b), t, n, data, false);
      return { type: e.type, data: data as Value[] };
    };
  }
  const call = e as Extract<BoundExpr, { kind: "call" }>;
  // Constants as the row path's concat writes them, once; variables by their position among
  // the arguments.
  const parts = call.args.map((a) =>
    a.kind === "const" ? { text: concatText(a.value as Value, a.type) } : { at: args.indexOf(a) }
  );
  let bufs: (string | null)[][] = [];
  return (b) => {
    const n = b.rowCount;
    if (bufs.length !== args.length || bufs[0].length < n) bufs = args.map(() => new Array(n));
    for (let k = 0; k < args.length; k++) {
      const v = readers[k](b);
      // SYMBOL codes without their dictionary (a worker's batch): the caller goes by row.
      if (v.type.tag === "SYMBOL" && !v.dict) return undefined;
      texts(v, args[k].type, n, bufs[k], true);
    }
    const data = new Array<Value>(n);
    for (let i = 0; i < n; i++) {
      let s = "";
      for (const p of parts) s += p.text ?? bufs[p.at!][i] ?? "";
      data[i] = s;
    }
    return { type: e.type, data };
  };
}

/**
 * to_str(ts, 'format') over a whole batch (issue #16): a constant format prints the same text
 * for every timestamp within one unit of its finest field (a day for 'yyyy-MM-dd', an hour for
 * 'yyyy-MM-dd HH'), so the text is formatted once per distinct such unit, by the row path's own
 * binding on the unit's first microsecond, and each row takes its unit's code. The codes and a
 * growing dictionary of the texts travel with the vector (symbol_cast.ts textOrigin): a GROUP BY
 * key over it takes ids per code instead of hashing every row's text.
 */
import type { Batch, SymbolDict, Value, Vector } from "../../base/values.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import type { EvalContext } from "../../functions/registry_types.ts";
import { compilePattern } from "../../functions/datetime_format.ts";
import { setTextOrigin } from "./symbol_cast.ts";
import { fineTimeTextFn } from "./time_text_fine.ts";

const SECOND = 1_000_000, MINUTE = 60 * SECOND, HOUR = 60 * MINUTE, DAY = 24 * HOUR;

/** The µs a pattern field's text stays the same for (within UTC days); 0 when finer or unknown. */
const FIELD_STEP: Record<string, number> = {};
for (const op of "G y yy yyy yyyy YYYY M MM MMM MMMM d dd E EE u D w ww F z zz zzz Z x xx xxx".split(" ")) {
  FIELD_STEP[op] = DAY;
}
for (const op of "a H HH k kk K KK h hh".split(" ")) FIELD_STEP[op] = HOUR;
for (const op of ["m", "mm"]) FIELD_STEP[op] = MINUTE;
for (const op of ["s", "ss"]) FIELD_STEP[op] = SECOND;

/** The step of a whole pattern: its finest field's, or 0 when some field is sub-second. */
function patternStep(fmt: string): number {
  let step = DAY;
  for (const op of compilePattern(fmt).ops) {
    if (op.kind === "literal") continue;
    const s = op.kind === "field" ? FIELD_STEP[op.op] ?? 0 : 0;
    if (s === 0) return 0;
    step = Math.min(step, s);
  }
  return step;
}

/** Texts by code, append-only (key tables over it grow with it). */
class TextDict implements SymbolDict {
  readonly values: string[] = [];
  readonly #codes = new Map<string, number>();
  get size(): number {
    return this.values.length;
  }
  valueOf(key: number): string | null {
    return this.values[key] ?? null;
  }
  keyOf(value: string): number | undefined {
    return this.#codes.get(value);
  }
  add(text: string): number {
    let k = this.#codes.get(text);
    if (k === undefined) {
      k = this.values.length;
      this.values.push(text);
      this.#codes.set(text, k);
    }
    return k;
  }
}

/** Units remembered per dictionary before a fresh one starts (bounds memory on long ranges). */
const DICT_MAX = 1 << 18;
const NO_CTX = {} as EvalContext;

/**
 * The batch form of to_str(TIMESTAMP, constant format) with whole-second or coarser fields, or
 * undefined. `arg` gives the timestamp vector of a batch. The returned function answers
 * undefined for a batch holding timestamps past ±2^53 µs (the caller goes row by row).
 */
export function timeTextVector(
  e: BoundExpr,
  arg: (b: Batch) => Vector,
): ((b: Batch) => Vector | undefined) | undefined {
  if (e.kind !== "call" || e.name !== "to_str" || e.args.length !== 2 || e.type.tag !== "STRING") {
    return undefined;
  }
  const [ts, f] = e.args;
  if (ts.type.tag !== "TIMESTAMP" || f.kind !== "const" || typeof f.value !== "string") return undefined;
  const fmt = f.value;
  const step = patternStep(fmt);
  if (step === 0) return fineTextVector(e, arg);
  const evalRow = e.binding.eval;
  let dict = new TextDict();
  let byUnit = new Map<number, number>();
  return (b) => {
    const v = arg(b);
    const d = v.data;
    const n = b.rowCount;
    if (!(d instanceof BigInt64Array) || v.type.tag !== "TIMESTAMP") return undefined;
    if (dict.size > DICT_MAX) {
      dict = new TextDict();
      byUnit = new Map();
    }
    const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
    const codes = new Int32Array(n);
    const data = new Array<Value>(n);
    const texts = dict.values;
    let lo = 1, hi = 0, code = -1;
    for (let i = 0; i < n; i++) {
      const h = w[2 * i + 1], l = w[2 * i];
      if (h === -2147483648 && l === 0) {
        codes[i] = -1;
        data[i] = null;
        continue;
      }
      if (h >= 2097152 || h < -2097152) return undefined;
      const t = h * 4294967296 + (l >>> 0);
      if (!(t >= lo && t < hi)) {
        // Floor division, corrected for the rounding of one floating division.
        let q = Math.floor(t / step);
        if (q * step > t) q--;
        else if ((q + 1) * step <= t) q++;
        lo = q * step;
        hi = lo + step;
        const known = byUnit.get(q);
        if (known !== undefined) code = known;
        else {
          const text = evalRow([BigInt(lo), fmt], NO_CTX);
          if (typeof text !== "string") return undefined;
          code = dict.add(text);
          byUnit.set(q, code);
        }
      }
      codes[i] = code;
      data[i] = texts[code];
    }
    setTextOrigin(data, codes, dict);
    return { type: e.type, data };
  };
}

/**
 * to_str(TIMESTAMP, constant format) as a function of a non-NULL µs value (|t| < 2^53) for the
 * batch loops' comparisons: the text of the last unit of the format's finest field is kept, so
 * a run of rows within one day (hour...) formats once. Undefined where timeTextVector is.
 */
export function timeTextFn(e: BoundExpr): ((t: number) => string | null) | undefined {
  if (e.kind !== "call" || e.name !== "to_str" || e.args.length !== 2 || e.type.tag !== "STRING") {
    return undefined;
  }
  const [ts, f] = e.args;
  if (ts.type.tag !== "TIMESTAMP" || f.kind !== "const" || typeof f.value !== "string") return undefined;
  const fmt = f.value;
  const step = patternStep(fmt);
  if (step === 0) {
    const fine = fineTimeTextFn(e);
    if (!fine) return undefined;
    const evalRow = e.binding.eval;
    return (t) => {
      const text = fine(t) ?? evalRow([BigInt(t), fmt], NO_CTX);
      return typeof text === "string" ? text : null;
    };
  }
  const evalRow = e.binding.eval;
  let lo = 1, hi = 0, text: string | null = null;
  return (t) => {
    if (!(t >= lo && t < hi)) {
      let q = Math.floor(t / step);
      if (q * step > t) q--;
      else if ((q + 1) * step <= t) q++;
      lo = q * step;
      hi = lo + step;
      const r = evalRow([BigInt(lo), fmt], NO_CTX);
      text = typeof r === "string" ? r : null;
    }
    return text;
  };
}

/**
 * The vector form of formats with time-of-day fields finer than a second (time_text_fine.ts):
 * a text per row, no dictionary. Undefined where fineTimeTextFn is; a batch answers undefined
 * when some row must go by row or lies past ±2^53 µs.
 */
function fineTextVector(
  e: BoundExpr,
  arg: (b: Batch) => Vector,
): ((b: Batch) => Vector | undefined) | undefined {
  const fine = fineTimeTextFn(e);
  if (!fine) return undefined;
  return (b) => {
    const v = arg(b);
    const d = v.data;
    const n = b.rowCount;
    if (!(d instanceof BigInt64Array) || v.type.tag !== "TIMESTAMP") return undefined;
    const w = new Int32Array(d.buffer, d.byteOffset, n * 2);
    const data = new Array<Value>(n);
    for (let i = 0; i < n; i++) {
      const h = w[2 * i + 1], l = w[2 * i];
      if (h === -2147483648 && l === 0) {
        data[i] = null;
        continue;
      }
      if (h >= 2097152 || h < -2097152) return undefined;
      const text = fine(h * 4294967296 + (l >>> 0));
      if (text === undefined) return undefined;
      data[i] = text;
    }
    return { type: e.type, data };
  };
}

/**
 * Batch-wide expression evaluation (issue #16): compiles a bound expression into one generated
 * JS loop over a batch's typed arrays, so filters, FILTER masks, grouping keys, aggregate
 * inputs and projections stop calling a closure per row.
 *
 * Inside the loop every numeric value is a double, NaN standing for NULL (the sentinels INT_MIN,
 * LONG_MIN and non-finite doubles become NaN when read); booleans are JS booleans (BOOLEAN has
 * no NULL); a SYMBOL column is its dictionary key, only compared through per-dictionary tables.
 * LONG and TIMESTAMP values ride as exact doubles: a value or an intermediate result of 2^53 or
 * more in magnitude sets a flag and the caller evaluates that batch row by row instead, so the
 * int64 semantics (wrapping, LONG_MIN as NULL) never need emulating. INT arithmetic wraps as
 * the row path's int32 does.
 *
 * Covered: column, constant, parameter, + - * / % and unary minus over INT/LONG/FLOAT/DOUBLE and
 * TIMESTAMP ± integer, comparisons (QuestDB's NULL rules: `=` holds for two NULLs, `<=`/`>=`
 * too, `<`/`>` never), AND/OR/NOT, IS [NOT] NULL, IN lists, timestamp IN intervals, CASE,
 * numeric casts, symbol = / != / IN against constants, and on TIMESTAMP hour, minute, second,
 * day_of_week, day, month, year, date_trunc, timestamp_floor and timestamp_ceil with constant
 * units, the round family with a constant scale inlined (batch_round.ts). Anything
 * else makes `compileBatchExpr` answer undefined and the caller keeps the row path
 * (compile_expr.ts), which stays the reference the differential test compares with.
 */
import type { ColumnType } from "../../base/types.ts";
import type { Batch, SymbolDict } from "../../base/values.ts";
import { parseTimestamp } from "../../functions/timestamp_parse.ts";
import { DOUBLE_TOLERANCE } from "../../functions/operators_compare.ts";
import {
  FIXED_NANOS,
  floorStrideFrom,
  parseStride,
  truncUnit,
  unitsBetween,
} from "../../functions/datetime_units.ts";
import { type BoundExpr, walkBound } from "../../plan/bound.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import type { InlineField } from "./batch_time.ts";
import { constText, dateAddShift, dayOnlyFn, EXTRACT_AS_FIELD } from "./batch_time_calls.ts";
import { timeTextFn } from "./time_text.ts";
import { ROUND_MODES, roundCode } from "./batch_round.ts";
import { symbolColumnsOf, symbolTuplePredicate, symbolTupleValues } from "./symbol_tuple.ts";
import { zoneShiftFn } from "./batch_zone.ts";
import { soleTextColumn, textMemo } from "./text_column.ts";
import { resolveTimeZone } from "../../functions/timezone.ts";
import {
  ceilPerDay,
  civilFromDays,
  DAY_MICROS,
  dayOf,
  dayOfWeek,
  inlineField,
  strideFloor,
  truncFloor,
} from "./batch_time.ts";

type NumKind = "int" | "long" | "float" | "double";
type Repr = "num" | "bool" | "sym";

/** A compiled sub-expression: the loop variable (or literal) holding it and its form. */
interface Node {
  v: string;
  repr: Repr;
  /** For "num": how arithmetic on it computes; "null" for an untyped NULL constant. */
  kind?: NumKind | "null";
}

/** Where a compiled loop writes. */
export type Sink = "value" | "mask" | "select";

/**
 * Runs the loop over batch `b` into `out`: a vector data array of the expression's type
 * ("value"; LONG-like types as their Int32Array word view), a 0/1 Uint8Array ("mask") or
 * the selected row numbers ("select"). Answers the selected count ("select"), the row count
 * otherwise, or -1 when this batch must be evaluated row by row.
 */
export type BatchRun = (
  b: Batch,
  out: Int8Array | Int16Array | Int32Array | Float32Array | Float64Array | Uint8Array,
) => number;

interface Leaf {
  col: number;
  tag: string;
}

const LAYOUT: Record<string, { kind?: NumKind; repr: Repr }> = {
  BYTE: { kind: "int", repr: "num" },
  SHORT: { kind: "int", repr: "num" },
  INT: { kind: "int", repr: "num" },
  LONG: { kind: "long", repr: "num" },
  DATE: { kind: "long", repr: "num" },
  TIMESTAMP: { kind: "long", repr: "num" },
  FLOAT: { kind: "float", repr: "num" },
  DOUBLE: { kind: "double", repr: "num" },
  BOOLEAN: { repr: "bool" },
  SYMBOL: { repr: "sym" },
};

const TIME = new Set(["DATE", "TIMESTAMP"]);
const SAFE = 9007199254740992;
const CMP = new Set(["=", "!=", "<", "<=", ">", ">="]);
const ARITH = new Set(["+", "-", "*", "/", "%"]);
const RESULT_KIND: Record<string, NumKind> = { INT: "int", LONG: "long", FLOAT: "float", DOUBLE: "double" };

class Unsupported extends Error {}

function unsupported(): never {
  throw new Unsupported();
}

/**
 * Declares the current fixed-stride bucket [fl, fh) of value `v` in loop-carried locals and
 * moves it only when `v` leaves it (timestamp_floor/ceil, date_trunc): a row inside costs two
 * comparisons, a row past it one call of `floor`. Returns the locals' suffix.
 */
function bucketInLocals(g: Gen, v: string, floor: string, span: number): number {
  const j = g.pre.length;
  g.pre.push(`let fl${j} = 0, fh${j} = -1;`);
  g.steps.push(
    `if (!(${v} >= fl${j} && ${v} < fh${j}) && ${v} === ${v}) { fl${j} = ${floor}(${v}); fh${j} = fl${j} + ${span}; }`,
  );
  return j;
}

/** Code generation state for one expression. */
class Gen {
  readonly leaves: Leaf[] = [];
  /** Set by compileBatchExpr's `env`: subquery values and row-path predicates. */
  env?: BatchEnv;
  readonly consts: unknown[] = [];
  readonly steps: string[] = [];
  /** Per-batch tables (symbol key sets): built from the batch before the loop runs. */
  readonly tables: ((b: Batch) => Uint8Array | undefined)[] = [];
  /** Declarations placed before the loop (day caches of dayField). */
  readonly pre: string[] = [];
  #days = new Map<
    string,
    {
      j: number;
      step: number;
      dow: boolean;
      civil: boolean;
      fns: string[];
      /** The time-of-day units kept for this source: their cache index, unit and step. */
      tods: { u: number; unit: number; step: number }[];
    }
  >();
  #units = new Map<string, number>();
  #t = 0;

  constructor(readonly params: readonly unknown[]) {}

  tmp(code: string): string {
    const t = `t${this.#t++}`;
    this.steps.push(`const ${t} = ${code};`);
    return t;
  }

  konst(v: unknown): string {
    this.consts.push(v);
    return `k${this.consts.length - 1}`;
  }

  leaf(col: number, tag: string): number {
    const at = this.leaves.findIndex((l) => l.col === col);
    if (at >= 0) return at;
    this.leaves.push({ col, tag });
    return this.leaves.length - 1;
  }

  table(build: (b: Batch) => Uint8Array | undefined): string {
    this.tables.push(build);
    return `s${this.tables.length - 1}`;
  }

  /**
   * The code of a day field of the (non-NaN) timestamp in `x`. Per timestamp source the loop
   * keeps the current day (`dN`), its first µs (`dsN`) and the next day's (`deN`) in locals
   * declared before the loop; one step, placed before the first use, moves them when a row
   * leaves the day and then recomputes the per-day fields asked for (day of week, civil date).
   * When only time-of-day fields (hour, minute, second) use the day, the day moves inside their
   * own step instead: a row within the current hour then costs two comparisons, not four
   * (~1 ns a row of the fused loops).
   */
  dayField(x: string, f: InlineField): string {
    let c = this.#days.get(x);
    if (!c) {
      const j = this.#days.size;
      const fns = [this.konst(dayOf), this.konst(dayOfWeek), this.konst(civilFromDays)];
      c = { j, step: this.steps.length, dow: false, civil: false, fns, tods: [] };
      this.#days.set(x, c);
      this.pre.push(
        `let d${j} = 0, ds${j} = 0, de${j} = -1, dw${j} = 0, cy${j} = 0, cm${j} = 0, cd${j} = 0;`,
      );
      this.steps.push("");
    }
    const j = c.j;
    if (f.kind === "dow") c.dow = true;
    if (f.kind === "civil") c.civil = true;
    const [dayOfK, dowK, civilK] = c.fns;
    let u = -1;
    if (f.kind === "tod") {
      // The current hour (minute, second) is kept the same way: a row inside it costs two
      // comparisons, a row past it one division.
      const key = `${x}/${f.unit}`;
      u = this.#units.get(key) ?? -1;
      if (u < 0) {
        u = this.#units.size;
        this.#units.set(key, u);
        this.pre.push(`let u${u} = 0, us${u} = 0, ue${u} = -1;`);
        c.tods.push({ u, unit: f.unit, step: this.steps.length });
        this.steps.push("");
      }
    }
    // Steps are written again on each call: a later field may need the day step on its own.
    const own = c.dow || c.civil;
    const moveDay =
      `d${j} = ${dayOfK}(${x}); ds${j} = d${j} * ${DAY_MICROS}; de${j} = ds${j} + ${DAY_MICROS};`;
    // NaN fails the range test too: the NaN test comes second, after the common case.
    this.steps[c.step] = own
      ? `if (!(${x} >= ds${j} && ${x} < de${j}) && ${x} === ${x}) {
      ${moveDay}
      ${c.dow ? `dw${j} = ${dowK}(d${j});` : ""}
      ${c.civil ? `const cv = ${civilK}(d${j}); cy${j} = cv[0]; cm${j} = cv[1]; cd${j} = cv[2];` : ""}
    }`
      : "";
    for (const t of c.tods) {
      const n = t.u, unit = t.unit;
      this.steps[t.step] = `if (!(${x} >= us${n} && ${x} < ue${n}) && ${x} === ${x}) {
      ${own ? "" : `if (!(${x} >= ds${j} && ${x} < de${j})) { ${moveDay} }`}
      u${n} = Math.floor((${x} - ds${j}) / ${unit}); us${n} = ds${j} + u${n} * ${unit}; ue${n} = us${n} + ${unit};
    }`;
    }
    switch (f.kind) {
      case "tod":
        return f.modulo ? `u${u} % ${f.modulo}` : `u${u}`;
      case "dow":
        return f.sundayFirst ? `(dw${j} % 7) + 1` : `dw${j}`;
      case "civil":
        return [`cy${j}`, `cm${j}`, `cd${j}`][f.part];
    }
  }

  /** Marks the batch for the row path when a LONG-domain value leaves the exact range. */
  checkRange(v: string): void {
    this.steps.push(`if (${v} >= ${SAFE} || ${v} <= -${SAFE}) bad = 1;`);
  }
}

/**
 * What an execution lends the compiler beyond bind values (batch_eval.ts builds it from the
 * ExecContext): the prepared values of uncorrelated subqueries (exec/subqueries.ts ran them
 * before the plan) and row-path predicates, which a predicate over one SYMBOL column runs once
 * per dictionary code to build its table (see `symbolPredicate`).
 */
export interface BatchEnv {
  /** Whether the uncorrelated subquery `plan` has a prepared value, and that value. */
  subquery(plan: PlanNode): { value: unknown } | undefined;
  /** The row path's predicate of `e` (compile_expr.ts compilePredicate). */
  rowPredicate(e: BoundExpr): (b: Batch, i: number) => boolean;
  /** The row path's evaluator of `e` (compile_expr.ts compileExpr). */
  rowValue(e: BoundExpr): (b: Batch, i: number) => unknown;
  /**
   * Set when EXPLAIN asks whether a batch form exists (batch_eval.ts batchForm): parameters and
   * prepared values are not known yet and count as NULL of their type (EXISTS as a boolean).
   */
  planning?: boolean;
}

/**
 * Compiles `e` for the given sink; undefined when some part of it has no batch form.
 * `params` are the statement's bind values (a parameter is a constant of the batch loop).
 */
export function compileBatchExpr(
  e: BoundExpr,
  sink: Sink,
  params: readonly unknown[] = [],
  env?: BatchEnv,
): BatchRun | undefined {
  const g = new Gen(params);
  g.env = env;
  let r: Node;
  try {
    r = node(g, e);
    if (sink === "value" ? !sinkFits(e.type, r) : r.repr !== "bool") return undefined;
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
  return build(g, r, sink, e.type);
}

function sinkFits(t: ColumnType, r: Node): boolean {
  if (t.tag === "BOOLEAN") return r.repr === "bool";
  return r.repr === "num" &&
    ["BYTE", "SHORT", "INT", "LONG", "DATE", "TIMESTAMP", "FLOAT", "DOUBLE"].includes(t.tag);
}

function store(sink: Sink, t: ColumnType, r: string): string {
  if (sink === "mask") return `out[i] = ${r} ? 1 : 0;`;
  if (sink === "select") return `if (${r}) out[c++] = i;`;
  switch (t.tag) {
    case "BOOLEAN":
      return `out[i] = ${r} ? 1 : 0;`;
    case "BYTE":
    case "SHORT":
      return `out[i] = ${r} !== ${r} ? 0 : ${r};`;
    case "INT":
      return `out[i] = ${r} !== ${r} ? -2147483648 : ${r};`;
    case "LONG":
    case "DATE":
    case "TIMESTAMP":
      // Words of the int64: the Int32Array store wraps the low part to its bit pattern.
      // Values within int32 (most computed keys) skip the division.
      return `if (${r} !== ${r}) { out[2 * i] = 0; out[2 * i + 1] = -2147483648; }
      else if (${r} >= -2147483648 && ${r} <= 2147483647) { out[2 * i] = ${r}; out[2 * i + 1] = ${r} < 0 ? -1 : 0; }
      else { const h = Math.floor(${r} / 4294967296); out[2 * i] = ${r} - h * 4294967296; out[2 * i + 1] = h; }`;
    default:
      return `out[i] = ${r};`;
  }
}

/** How each leaf's value for row i is read into `vN`. */
function readLeaf(l: Leaf, n: number): string {
  const a = `a${n}`, v = `v${n}`;
  switch (l.tag) {
    case "DOUBLE":
    case "FLOAT":
      return `let ${v} = ${a}[i]; if (${v} - ${v} !== 0) ${v} = NaN;`;
    case "INT":
      return `let ${v} = ${a}[i]; if (${v} === -2147483648) ${v} = NaN;`;
    case "BYTE":
    case "SHORT":
    case "SYMBOL":
      return `const ${v} = ${a}[i];`;
    case "BOOLEAN":
      return `const ${v} = ${a}[i] !== 0;`;
    default: {
      // LONG-like: two 32-bit words; outside ±2^53 the batch goes row by row (LONG_MIN is NULL).
      // A value within int32 (the high word its sign) is its low word: one comparison where
      // the general form multiplies and range-checks (~3 ns a row less for small LONGs).
      const h = `h${n}`, lo = `l${n}`;
      return `const ${h} = ${a}[2 * i + 1], ${lo} = ${a}[2 * i];
      let ${v} = ${lo};
      if (${h} !== (${lo} >> 31)) {
        ${v} = ${h} * 4294967296 + (${lo} >>> 0);
        if (${h} >= 2097152 || ${h} < -2097152) { if (${h} === -2147483648 && ${lo} === 0) ${v} = NaN; else bad = 1; }
      }`;
    }
  }
}

/** The leaf's array for this batch, or undefined when the vector is not in the expected layout. */
function leafData(l: Leaf, b: Batch): ArrayLike<number> | undefined {
  const v = b.columns[l.col];
  if (!v || v.type.tag !== l.tag) return undefined;
  const d = v.data;
  switch (l.tag) {
    case "DOUBLE":
      return d instanceof Float64Array ? d : undefined;
    case "FLOAT":
      return d instanceof Float32Array ? d : undefined;
    case "INT":
      return d instanceof Int32Array ? d : undefined;
    case "SHORT":
      return d instanceof Int16Array ? d : undefined;
    case "BYTE":
    case "BOOLEAN":
      return d instanceof Int8Array ? d : undefined;
    case "SYMBOL":
      return d instanceof Int32Array && v.dict ? d : undefined;
    default:
      return d instanceof BigInt64Array ? new Int32Array(d.buffer, d.byteOffset, b.rowCount * 2) : undefined;
  }
}

type Loop = (n: number, A: ArrayLike<number>[], S: Uint8Array[], K: unknown[], out: unknown) => number;

/**
 * Compiled loops by source text. A loop's leaves, tables and constants are its arguments, so
 * one text serves every statement of the same shape: the next execution reuses the function
 * V8 has already optimized. A fresh `new Function` per statement ran its first batches in the
 * interpreter with cold type feedback, which cost more than the loop itself at 1M rows.
 */
const loops = new Map<string, Loop>();
const LOOPS_MAX = 1024;

function loopOf(body: string): Loop {
  let loop = loops.get(body);
  if (!loop) {
    if (loops.size >= LOOPS_MAX) loops.clear();
    loop = new Function("n", "A", "S", "K", "out", body) as Loop;
    loops.set(body, loop);
  }
  return loop;
}

function build(g: Gen, r: Node, sink: Sink, t: ColumnType): BatchRun {
  const head = [
    ...g.leaves.map((_, i) => `const a${i} = A[${i}];`),
    ...g.tables.map((_, i) => `const s${i} = S[${i}];`),
    ...g.consts.map((_, i) => `const k${i} = K[${i}];`),
  ];
  // NaN shadowed by a local: the global's load per row made simple loops ~3x slower.
  const body = `const NaN = 0 / 0;
  ${head.join("\n")}
  let bad = 0, c = 0;
  ${g.pre.join("\n  ")}
  for (let i = 0; i < n; i++) {
    ${g.leaves.map((l, i) => readLeaf(l, i)).join("\n    ")}
    ${g.steps.join("\n    ")}
    ${store(sink, t, r.v)}
  }
  return bad ? -1 : ${sink === "select" ? "c" : "n"};`;
  const loop = loopOf(body);
  const { leaves, tables, consts } = g;
  return (b, out) => {
    const A: ArrayLike<number>[] = [];
    for (const l of leaves) {
      const d = leafData(l, b);
      if (!d) return -1;
      A.push(d);
    }
    const S: Uint8Array[] = [];
    for (const f of tables) {
      const t = f(b);
      if (!t) return -1;
      S.push(t);
    }
    return loop(b.rowCount, A, S, consts, out);
  };
}

/** Numeric kind of a node for arithmetic, failing for anything else. */
function num(n: Node): NumKind | "null" {
  if (n.repr !== "num" || !n.kind) unsupported();
  return n.kind;
}

function node(g: Gen, e: BoundExpr): Node {
  let sym = g.env && e.type.tag === "BOOLEAN" && e.kind !== "column" && e.kind !== "const"
    ? soleSymbolColumn(e)
    : undefined;
  // Only what the loop cannot compile from its constants alone: those build no per-code table
  // and also run on the workers, whose dictionaries hold no texts.
  if (sym && compilesDirectly(e, g.params)) sym = undefined;
  if (sym) return symbolPredicate(g, e, sym);
  const tuple = g.env && e.type.tag === "BOOLEAN" && e.kind !== "column" && e.kind !== "const"
    ? symbolColumnsOf(e)
    : undefined;
  if (tuple && !compilesDirectly(e, g.params)) return tuplePredicate(g, e, tuple);
  const text = g.env && (e.type.tag === "BOOLEAN" || NUMERIC_TAGS.has(e.type.tag))
    ? soleTextColumn(e)
    : undefined;
  if (text) return textColumnValue(g, e, text);
  if (g.env && NUMERIC_TAGS.has(e.type.tag) && e.kind !== "column" && e.kind !== "const") {
    const col = soleSymbolColumn(e);
    if (col && !compilesDirectly(e, g.params)) return symbolValue(g, e, col);
    const cols = col ? undefined : symbolColumnsOf(e);
    if (cols && !compilesDirectly(e, g.params)) return tupleValue(g, e, cols);
  }
  switch (e.kind) {
    case "subquery": {
      const v = e.outer?.length ? undefined : g.env?.subquery(e.plan);
      if (!v) unsupported();
      return constant(g, e.type, v.value);
    }
    case "exists": {
      const v = e.outer?.length ? undefined : g.env?.subquery(e.plan);
      if (!v || (typeof v.value !== "boolean" && !g.env?.planning)) unsupported();
      return { v: String(v.value === true), repr: "bool" };
    }
    case "column": {
      const lay = LAYOUT[e.type.tag] ?? unsupported();
      const leaf = g.leaf(e.index, e.type.tag);
      return { v: `v${leaf}`, repr: lay.repr, kind: lay.kind };
    }
    case "const":
      return constant(g, e.type, e.value);
    case "param": {
      if (g.env?.planning && e.outer === undefined) {
        return constant(g, e.type, e.type.tag === "BOOLEAN" ? false : null);
      }
      if (e.outer !== undefined || e.index < 1 || e.index > g.params.length) unsupported();
      return constant(g, e.type, g.params[e.index - 1]);
    }
    case "call":
      return call(g, e);
    case "cast":
      return cast(g, e);
    case "and":
    case "or": {
      const args = e.args.map((a) => bool(g, a));
      return { v: g.tmp(args.join(e.kind === "and" ? " && " : " || ")), repr: "bool" };
    }
    case "not":
      return { v: g.tmp(`!${bool(g, e.arg)}`), repr: "bool" };
    case "isNull": {
      const a = node(g, e.arg);
      const isNull = a.repr === "num" ? `${a.v} !== ${a.v}` : a.repr === "sym" ? `${a.v} < 0` : "false";
      return { v: g.tmp(e.not ? `!(${isNull})` : isNull), repr: "bool" };
    }
    case "inSet":
      return inSet(g, e);
    case "inIntervals": {
      const a = node(g, e.arg);
      if (!TIME.has(e.arg.type.tag) || a.repr !== "num") unsupported();
      const tests = e.intervals.map((iv) =>
        `(${a.v} >= ${g.konst(Number(iv.lo))} && ${a.v} <= ${g.konst(Number(iv.hi))})`
      );
      const any = tests.length ? tests.join(" || ") : "false";
      // NULL is in no interval: NaN fails every comparison, so only NOT IN needs it spelled out.
      return { v: g.tmp(e.not ? `(${a.v} !== ${a.v}) || !(${any})` : any), repr: "bool" };
    }
    case "case": {
      const out = e.type.tag === "BOOLEAN" ? "bool" : "num";
      let code = "";
      for (const w of e.whens) {
        const c = bool(g, w.cond);
        code += `${c} ? ${branch(g, w.then, e.type, out)} : `;
      }
      code += branch(g, e.otherwise, e.type, out);
      return {
        v: g.tmp(code),
        repr: out,
        kind: out === "num" ? (RESULT_KIND[e.type.tag] ?? kindOfTag(e.type.tag)) : undefined,
      };
    }
    default:
      return unsupported();
  }
}

function kindOfTag(tag: string): NumKind {
  return LAYOUT[tag]?.kind ?? unsupported();
}

/** A CASE branch: of the CASE's own type (the binder casts branches), or a NULL constant. */
function branch(g: Gen, e: BoundExpr, t: ColumnType, repr: Repr): string {
  const n = node(g, e);
  const isNull = e.kind === "const" && e.value === null;
  if (n.repr !== repr || (!isNull && e.type.tag !== t.tag)) unsupported();
  return n.v;
}

function bool(g: Gen, e: BoundExpr): string {
  const n = node(g, e);
  if (n.repr !== "bool") unsupported();
  return n.v;
}

function constant(g: Gen, t: ColumnType, v: unknown): Node {
  if (t.tag === "BOOLEAN") {
    if (typeof v !== "boolean") unsupported();
    return { v: String(v), repr: "bool" };
  }
  const kind: NumKind | "null" | undefined = t.tag === "NULL" ? "null" : LAYOUT[t.tag]?.kind;
  if (!kind) unsupported();
  if (v === null || v === undefined) return { v: "NaN", repr: "num", kind };
  let x: number;
  if (typeof v === "bigint") {
    if (v >= BigInt(SAFE) || v <= -BigInt(SAFE)) unsupported();
    x = Number(v);
  } else if (typeof v === "number") {
    x = Number.isFinite(v) ? v : NaN;
  } else return unsupported();
  return { v: g.konst(x), repr: "num", kind };
}

function call(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node {
  const name = e.name;
  if (ARITH.has(name) && e.args.length === 2) return arith(g, e);
  if (name === "neg" && e.args.length === 1) return neg(g, e);
  if (CMP.has(name) && e.args.length === 2) return compare(g, e);
  const numeric = e.binding?.numeric;
  const rounded = numeric && e.type.tag === "DOUBLE" ? roundCall(g, e) : undefined;
  if (rounded) return rounded;
  if (numeric && e.type.tag === "DOUBLE") {
    // A function declaring its numeric form (sqrt, power, floor, round...): called on the doubles.
    const xs = e.args.map((a) => node(g, a));
    for (const x of xs) num(x);
    const f = g.konst(numeric);
    const nulls = xs.length ? xs.map((x) => `${x.v} !== ${x.v}`).join(" || ") : "false";
    const t = g.tmp(`${nulls} ? NaN : ${f}(${xs.map((x) => x.v).join(", ")})`);
    return { v: g.tmp(`${t} - ${t} === 0 ? ${t} : NaN`), repr: "num", kind: "double" };
  }
  if (name === "datediff" && e.args.length === 3 && e.type.tag === "LONG") {
    // Fixed units: whole units of |a - b| µs (addUnits' nanosecond units scale up first).
    const letter = constText(e.args[0]);
    const [ta, tb] = [e.args[1].type.tag, e.args[2].type.tag];
    if (letter === undefined || ta !== "TIMESTAMP" || tb !== "TIMESTAMP") unsupported();
    if (letter === "M" || letter === "y") {
      // Calendar units: whole months between the two civil dates (the row path's unitsBetween).
      const a = node(g, e.args[1]), b = node(g, e.args[2]);
      const f = g.konst((x: number, y: number) => Number(unitsBetween(BigInt(x), BigInt(y), letter, "us")));
      return {
        v: g.tmp(`${a.v} !== ${a.v} || ${b.v} !== ${b.v} ? NaN : ${f}(${a.v}, ${b.v})`),
        repr: "num",
        kind: "long",
      };
    }
    const nanos = FIXED_NANOS[letter];
    if (nanos === undefined) unsupported();
    const a = node(g, e.args[1]), b = node(g, e.args[2]);
    const d = g.tmp(`${a.v} !== ${a.v} || ${b.v} !== ${b.v} ? NaN : Math.abs(${a.v} - ${b.v})`);
    g.checkRange(d);
    if (nanos < 1000n) {
      const t = g.tmp(`${d} * ${Number(1000n / nanos)}`);
      g.checkRange(t);
      return { v: t, repr: "num", kind: "long" };
    }
    const u = Number(nanos / 1000n);
    const q = g.tmp(`Math.floor(${d} / ${u})`);
    // One floating division may round across an integer: corrected, as dayOf does.
    return {
      v: g.tmp(`${q} * ${u} > ${d} ? ${q} - 1 : (${q} + 1) * ${u} <= ${d} ? ${q} + 1 : ${q}`),
      repr: "num",
      kind: "long",
    };
  }
  const conditional = conditionalCall(g, e);
  if (conditional) return conditional;
  if ((name === "abs" || name === "sign") && e.args.length === 1 && e.type.tag === e.args[0].type.tag) {
    // Type-keeping: BYTE/SHORT wrap in their width (abs(-128) is -128), as the row path does.
    const a = node(g, e.args[0]);
    const k = num(a);
    const f = name === "abs" ? `Math.abs(${a.v})` : `(Math.sign(${a.v}) + 0)`;
    const wrap: Record<string, string> = { BYTE: `(${f} << 24) >> 24`, SHORT: `(${f} << 16) >> 16` };
    const tag = e.type.tag;
    if (!["BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE"].includes(tag)) unsupported();
    return { v: g.tmp(`${a.v} !== ${a.v} ? NaN : ${wrap[tag] ?? f}`), repr: "num", kind: k };
  }
  const extractAs = name === "extract" && e.args.length === 2 && e.args[1].type.tag === "TIMESTAMP"
    ? EXTRACT_AS_FIELD[constText(e.args[0])?.toLowerCase() ?? ""]
    : undefined;
  if (extractAs && e.type.tag === "INT") {
    const a = node(g, e.args[1]);
    const f = inlineField(extractAs)!;
    return { v: g.tmp(`${a.v} !== ${a.v} ? NaN : ${g.dayField(a.v, f)}`), repr: "num", kind: "int" };
  }
  const part = name === "extract" && e.args.length === 2 && e.args[1].type.tag === "TIMESTAMP" &&
      e.type.tag === "LONG"
    ? constText(e.args[0])?.toLowerCase()
    : undefined;
  if (part !== undefined && Object.hasOwn(LONG_PARTS, part)) {
    // datetime_extract.ts: epoch truncates toward zero (t minus its remainder divides exactly);
    // the sub-minute parts count from the minute's start (a floor modulo, exact on integers).
    const a = node(g, e.args[1]);
    const code = part === "epoch"
      ? `(${a.v} - ${a.v} % 1000000) / 1000000 + 0`
      : LONG_PARTS[part].replace("R", `((${a.v} % 60000000) + 60000000) % 60000000`);
    return { v: g.tmp(`${a.v} !== ${a.v} ? NaN : ${code}`), repr: "num", kind: "long" };
  }
  const day = dayOnlyFn(e);
  if (day) {
    const a = node(g, e.args[day.at]);
    const f = g.konst(day.fn);
    if (e.type.tag === "BOOLEAN") {
      // Non-nullable: a NULL timestamp reads false, as the row path's field functions answer.
      return { v: g.tmp(`${a.v} === ${a.v} && ${f}(${a.v}) === true`), repr: "bool" };
    }
    if (e.type.tag !== "INT") unsupported();
    const r = g.tmp(`${a.v} !== ${a.v} ? null : ${f}(${a.v})`);
    return { v: g.tmp(`${r} === null ? NaN : ${r}`), repr: "num", kind: "int" };
  }
  const shift = dateAddShift(e);
  if (shift !== undefined) {
    const a = node(g, e.args[2]);
    if (shift === null) return { v: "NaN", repr: "num", kind: "long" };
    const by = "fixed" in shift ? g.konst(shift.fixed) : `${g.konst(shift.perDay)}(${a.v})`;
    const t = g.tmp(`${a.v} !== ${a.v} ? NaN : ${a.v} + ${by}`);
    g.checkRange(t);
    return { v: t, repr: "num", kind: "long" };
  }
  const perRow = dateAddPerRow(e);
  if (perRow) {
    // dateadd with a count that varies by row and a fixed unit: addUnits' t + count * unit,
    // exact while the product and the sum stay within 2^53 (else the batch goes by row).
    const n = node(g, e.args[1]), a = node(g, e.args[2]);
    num(n);
    const p = g.tmp(`${n.v} * ${perRow}`);
    g.checkRange(p);
    const t = g.tmp(`${a.v} !== ${a.v} || ${n.v} !== ${n.v} ? NaN : ${a.v} + ${p}`);
    g.checkRange(t);
    return { v: t, repr: "num", kind: "long" };
  }
  if (e.args.length === 1 && e.type.tag === "INT" && e.args[0].type.tag === "TIMESTAMP") {
    const f = inlineField(name);
    if (!f) unsupported();
    const a = node(g, e.args[0]);
    return { v: g.tmp(`${a.v} !== ${a.v} ? NaN : ${g.dayField(a.v, f)}`), repr: "num", kind: "int" };
  }
  if (
    (name === "date_trunc" || name === "timestamp_floor") && e.args.length === 2 &&
    e.type.tag === "TIMESTAMP" && e.args[1].type.tag === "TIMESTAMP" && e.args[0].kind === "const" &&
    typeof e.args[0].value === "string"
  ) {
    const text = e.args[0].value;
    let f;
    if (name === "date_trunc") {
      const word = truncUnit(text);
      f = word === undefined ? undefined : truncFloor(word);
    } else {
      const stride = parseStride(text);
      f = stride && strideFloor(stride);
    }
    if (!f) unsupported();
    const a = node(g, e.args[1]);
    if (f.span !== undefined) {
      // Fixed strides: the current bucket's bounds stay in locals; a row inside them costs two
      // comparisons, a row past them one call.
      const j = bucketInLocals(g, a.v, g.konst(f), f.span);
      return { v: g.tmp(`${a.v} !== ${a.v} ? NaN : fl${j}`), repr: "num", kind: "long" };
    }
    return { v: g.tmp(`${a.v} !== ${a.v} ? NaN : ${g.konst(f)}(${a.v})`), repr: "num", kind: "long" };
  }
  if (
    name === "timestamp_floor" && e.args.length === 3 && e.type.tag === "TIMESTAMP" &&
    e.args[1].type.tag === "TIMESTAMP" && e.args[0].kind === "const" && typeof e.args[0].value === "string" &&
    e.args[2].kind === "const" && typeof e.args[2].value === "bigint" && e.args[2].type.tag === "TIMESTAMP"
  ) {
    // A constant origin (datetime_units.ts floorStrideFrom): buckets counted from it, a value
    // before it floors to the origin itself.
    const stride = parseStride(e.args[0].value);
    if (!stride) unsupported();
    const origin = e.args[2].value;
    const f = g.konst((t: number) => Number(floorStrideFrom(BigInt(t), stride!, origin, "us")));
    const a = node(g, e.args[1]);
    return { v: g.tmp(`${a.v} !== ${a.v} ? NaN : ${f}(${a.v})`), repr: "num", kind: "long" };
  }
  if (
    (name === "to_timezone" || name === "to_utc") && e.args.length === 2 && e.type.tag === "TIMESTAMP" &&
    e.args[0].type.tag === "TIMESTAMP"
  ) {
    // A constant zone (batch_zone.ts); a zone per row keeps the row path.
    const tz = constText(e.args[1]);
    const rules = tz === undefined ? undefined : resolveTimeZone(tz);
    if (!rules) unsupported();
    const a = node(g, e.args[0]);
    const f = g.konst(zoneShiftFn(rules, name === "to_timezone"));
    const t = g.tmp(`${a.v} !== ${a.v} ? NaN : ${f}(${a.v})`);
    g.checkRange(t);
    return { v: t, repr: "num", kind: "long" };
  }
  if (
    name === "timestamp_ceil" && e.args.length === 2 && e.type.tag === "TIMESTAMP" &&
    e.args[1].type.tag === "TIMESTAMP"
  ) {
    const letter = constText(e.args[0]);
    const f = letter?.length === 1 ? strideFloor({ count: 1, letter }) : undefined;
    if (!f || letter === undefined) unsupported();
    const a = node(g, e.args[1]);
    if (f.span === undefined) {
      // Months and years: ceilUnit per distinct day (batch_time.ts ceilPerDay).
      return {
        v: g.tmp(`${a.v} !== ${a.v} ? NaN : ${g.konst(ceilPerDay(letter))}(${a.v})`),
        repr: "num",
        kind: "long",
      };
    }
    // datetime_units.ts ceilUnit: an aligned value stays, others move to the next bound; the
    // current bucket is kept in the loop as timestamp_floor's.
    const j = bucketInLocals(g, a.v, g.konst(f), f.span);
    const t = g.tmp(`${a.v} !== ${a.v} ? NaN : ${a.v} === fl${j} ? ${a.v} : fh${j}`);
    g.checkRange(t);
    return { v: t, repr: "num", kind: "long" };
  }
  return unsupported();
}

/**
 * extract() parts of LONG type on TIMESTAMPs, as loop code over R (the µs of the minute):
 * QuestDB's sub-second parts are within the second (datetime_extract.ts ofSecond).
 */
const LONG_PARTS: Record<string, string> = {
  epoch: "",
  milliseconds: "Math.floor((R % 1000000) / 1000)",
  microseconds: "R % 1000000",
  nanoseconds: "(R % 1000000) * 1000",
};

/**
 * The µs of one unit for dateadd(unit, count, ts) with a constant fixed unit (not M, y or n)
 * and a count that is not constant (dateAddShift takes constant counts), or undefined.
 */
function dateAddPerRow(e: Extract<BoundExpr, { kind: "call" }>): number | undefined {
  if (e.name !== "dateadd" || e.args.length !== 3 || e.type.tag !== "TIMESTAMP") return undefined;
  const [u, n, t] = e.args;
  const letter = constText(u);
  if (letter === undefined || n.kind === "const" || t.type.tag !== "TIMESTAMP") return undefined;
  const nanos = FIXED_NANOS[letter];
  if (typeof nanos !== "bigint" || !Object.hasOwn(FIXED_NANOS, letter) || nanos % 1000n !== 0n) {
    return undefined;
  }
  return Number(nanos / 1000n);
}

/** round-family calls with a constant scale (batch_round.ts), or undefined. */
function roundCall(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node | undefined {
  const mode = ROUND_MODES[e.name];
  if (!mode || e.args.length < 1 || e.args.length > 2) return undefined;
  const s = e.args.length === 2 ? e.args[1] : undefined;
  const scale = s === undefined ? 0 : s.kind === "const" ? s.value : undefined;
  if (typeof scale !== "number" && typeof scale !== "bigint") return undefined;
  const x = node(g, e.args[0]);
  num(x);
  const r = roundCode(x.v, Number(scale), mode, (c) => g.tmp(c), (v) => g.konst(v));
  if (r === undefined) return undefined;
  return { v: g.tmp(`${r} - ${r} === 0 ? ${r} : NaN`), repr: "num", kind: "double" };
}

/**
 * Numeric coalesce / ifnull / nvl / isnull (the binder casts every argument to the result
 * type), nullif, and greatest / least (NULLs skipped, the first of equal values kept).
 */
function conditionalCall(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node | undefined {
  const name = e.name;
  const kind = LAYOUT[e.type.tag]?.kind;
  if (!kind || e.type.tag === "BYTE" || e.type.tag === "SHORT") return undefined;
  const same = () => e.args.every((a) => a.type.tag === e.type.tag || a.type.tag === "NULL");
  if (["coalesce", "ifnull", "nvl", "isnull"].includes(name) && e.args.length >= 2 && same()) {
    const xs = e.args.map((a) => node(g, a));
    for (const x of xs) num(x);
    let code = xs[xs.length - 1].v;
    for (let i = xs.length - 2; i >= 0; i--) code = `(${xs[i].v} === ${xs[i].v} ? ${xs[i].v} : ${code})`;
    return { v: g.tmp(code), repr: "num", kind };
  }
  if (name === "nullif" && e.args.length === 2 && same()) {
    const [a, b] = e.args.map((x) => node(g, x));
    num(a);
    num(b);
    return { v: g.tmp(`${a.v} === ${b.v} ? NaN : ${a.v}`), repr: "num", kind };
  }
  if ((name === "greatest" || name === "least") && e.args.length >= 1) {
    if (e.type.tag !== "LONG" && e.type.tag !== "DOUBLE") return undefined;
    const xs = e.args.map((a) => node(g, a));
    for (const x of xs) num(x);
    const op = name === "greatest" ? ">" : "<";
    let r = xs[0].v;
    for (const x of xs.slice(1)) {
      r = g.tmp(`${x.v} === ${x.v} && (${r} !== ${r} || ${x.v} ${op} ${r}) ? ${x.v} : ${r}`);
    }
    return { v: r, repr: "num", kind };
  }
  return undefined;
}

/**
 * A constant positive int32 divisor of `%` as a literal in the loop's text (qty % 7): V8 turns a
 * remainder by a known constant into a multiply, where a divisor read from K costs an integer
 * division (~10 ns) a row. The value is the one K would hold, so the answer is the same.
 */
function literalDivisor(e: BoundExpr): string | undefined {
  if (e.kind !== "const") return undefined;
  const v = typeof e.value === "bigint" ? Number(e.value) : e.value;
  return typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 2147483647 ? String(v) : undefined;
}

/** `+ - * / %` computed as the row path's numericBinding / timeShift / timeDiff do. */
function arith(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node {
  const [ea, eb] = e.args;
  const a = node(g, ea), b = node(g, eb);
  const ka = num(a), kb = num(b);
  const op = e.name;
  const ta = ea.type.tag, tb = eb.type.tag, rt = e.type.tag;
  let kind: NumKind;
  if (TIME.has(ta) || TIME.has(tb)) {
    // TIMESTAMP ± integer keeps the type; TIMESTAMP - TIMESTAMP of one unit is a LONG of ticks.
    const shift = (op === "+" || op === "-") && rt === ta && TIME.has(ta) &&
      (kb === "int" || kb === "long") &&
      !TIME.has(tb);
    // integer + TIMESTAMP: the same sum, typed LONG (operators_arith.ts).
    const shiftRight = op === "+" && (rt === tb || rt === "LONG") && TIME.has(tb) &&
      (ka === "int" || ka === "long") && !TIME.has(ta);
    const diff = op === "-" && ta === tb && rt === "LONG";
    if (!shift && !shiftRight && !diff) unsupported();
    kind = "long";
  } else {
    kind = RESULT_KIND[rt] ?? unsupported();
    // The binder's widening: the result kind is at least each operand's kind.
    const rank = { null: 0, int: 1, long: 2, float: 3, double: 4 };
    if (rank[ka] > rank[kind] || rank[kb] > rank[kind]) unsupported();
    if (kind === "float" && (ka === "long" || kb === "long")) unsupported();
  }
  const x = a.v, y = op === "%" ? literalDivisor(eb) ?? b.v : b.v;
  switch (kind) {
    case "int": {
      const core = op === "*"
        ? `Math.imul(${x}, ${y})`
        : op === "/"
        ? `(${y} === 0 ? NaN : (${x} / ${y}) | 0)`
        : op === "%"
        // Both are int32 here: the |0 lets V8 take an integer remainder instead of fmod.
        ? `(${y} === 0 ? NaN : ((${x} | 0) % (${y} | 0)) | 0)`
        : `(${x} ${op} ${y}) | 0`;
      const t = g.tmp(`${x} !== ${x} || ${y} !== ${y} ? NaN : ${core}`);
      return { v: g.tmp(`${t} === -2147483648 ? NaN : ${t}`), repr: "num", kind };
    }
    case "long": {
      if (op === "/") {
        // |x| < 2^53: the rounded quotient cannot cross an integer, so trunc is exact.
        return { v: g.tmp(`${y} === 0 ? NaN : Math.trunc(${x} / ${y})`), repr: "num", kind };
      }
      if (op === "%") {
        // Operands within int32 (qty % 7) take the integer remainder; the double one calls fmod.
        const int32 = (z: string) => `(${z} >= -2147483648 && ${z} <= 2147483647)`;
        return {
          v: g.tmp(
            `${y} === 0 ? NaN : ${int32(x)} && ${int32(y)} ? ((${x} | 0) % (${y} | 0)) | 0 : ${x} % ${y}`,
          ),
          repr: "num",
          kind,
        };
      }
      const t = g.tmp(`${x} ${op} ${y}`);
      g.checkRange(t);
      return { v: t, repr: "num", kind };
    }
    case "float": {
      const t = g.tmp(`Math.fround(${x} ${op} ${y})`);
      return { v: g.tmp(`${t} - ${t} === 0 ? ${t} : NaN`), repr: "num", kind };
    }
    case "double": {
      const t = g.tmp(`${x} ${op} ${y}`);
      return { v: g.tmp(`${t} - ${t} === 0 ? ${t} : NaN`), repr: "num", kind };
    }
  }
}

function neg(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node {
  const a = node(g, e.args[0]);
  const k = num(a);
  const tag = e.args[0].type.tag;
  if (e.type.tag !== tag) unsupported();
  switch (tag) {
    case "BYTE":
      return { v: g.tmp(`((0 - ${a.v}) << 24) >> 24`), repr: "num", kind: k };
    case "SHORT":
      return { v: g.tmp(`((0 - ${a.v}) << 16) >> 16`), repr: "num", kind: k };
    case "INT":
    case "LONG":
      // 0 - x, not -x: a zero stays +0 as the row path's integers do.
      return { v: g.tmp(`0 - ${a.v}`), repr: "num", kind: k };
    case "FLOAT":
    case "DOUBLE":
      return { v: g.tmp(`-${a.v}`), repr: "num", kind: k };
    default:
      return unsupported();
  }
}

/** The operand of a comparison as a number in the comparison's domain. */
function operand(g: Gen, e: BoundExpr, other: BoundExpr): Node {
  if (
    e.kind === "const" && (e.type.tag === "STRING" || e.type.tag === "VARCHAR") && TIME.has(other.type.tag)
  ) {
    // compare_domain.ts: text meeting a time is parsed as a point in time of that domain.
    if (e.value === null) return { v: "NaN", repr: "num", kind: "long" };
    if (other.type.tag !== "TIMESTAMP") unsupported();
    const t = parseTimestamp(e.value as string, "us");
    // Text finer than a microsecond compares in nanoseconds: the row path's job (compare_domain.ts).
    const nanos = parseTimestamp(e.value as string, "ns");
    if (t === undefined || (nanos !== undefined && nanos % 1000n !== 0n)) unsupported();
    return constant(g, other.type, t);
  }
  return node(g, e);
}

function compare(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node {
  const [ea, eb] = e.args;
  const op = e.name;
  const text = castTextCompare(g, e) ?? timeTextCompare(g, e);
  if (text) return text;
  if (ea.type.tag === "SYMBOL" || eb.type.tag === "SYMBOL") return symbolCompare(g, e);
  const a = operand(g, ea, eb), b = operand(g, eb, ea);
  num(a);
  num(b);
  const ta = ea.type.tag, tb = eb.type.tag;
  // Two time types of different units are scaled by the row path; not here.
  if (TIME.has(ta) && TIME.has(tb) && ta !== tb) unsupported();
  const x = a.v, y = b.v;
  const bothNull = `(${x} !== ${x} && ${y} !== ${y})`;
  // DOUBLE/FLOAT equality allows QuestDB's tolerance (operators_compare.ts).
  const floating = FLOATING.has(ta) || FLOATING.has(tb);
  const same = floating ? `Math.abs(${x} - ${y}) <= ${DOUBLE_TOLERANCE}` : `${x} === ${y}`;
  const code: Record<string, string> = {
    "=": `${same} || ${bothNull}`,
    "!=": `!(${same} || ${bothNull})`,
    "<": `${x} < ${y}`,
    ">": `${x} > ${y}`,
    "<=": `${x} <= ${y} || ${bothNull}`,
    ">=": `${x} >= ${y} || ${bothNull}`,
  };
  return { v: g.tmp(code[op]), repr: "bool" };
}

const TEXT = new Set(["STRING", "VARCHAR"]);
const FLOATING = new Set(["DOUBLE", "FLOAT"]);
const INTEGERS = new Set(["BYTE", "SHORT", "INT", "LONG"]);

/**
 * cast(integer AS STRING) = / != 'text': the cast prints the canonical decimal form, so the text
 * matches exactly the value whose form it is (none when the text is not canonical: '042', '+1',
 * '-0'), and the comparison runs on the number. NULL casts to NULL, which equals no text.
 */
function castTextCompare(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node | undefined {
  if (e.name !== "=" && e.name !== "!=") return undefined;
  let [ea, eb] = e.args;
  if (eb.kind === "cast") [ea, eb] = [eb, ea];
  if (ea.kind !== "cast" || !TEXT.has(ea.type.tag) || !INTEGERS.has(ea.arg.type.tag)) return undefined;
  if (ea.from.tag !== ea.arg.type.tag || eb.kind !== "const" || typeof eb.value !== "string") {
    return undefined;
  }
  if (!TEXT.has(eb.type.tag)) return undefined;
  const a = node(g, ea.arg);
  num(a);
  const s = eb.value;
  let y = "Infinity";
  if (/^-?(0|[1-9]\d*)$/.test(s) && s !== "-0") {
    const x = BigInt(s);
    // Past 2^53 no value of the loop equals it (such rows send the batch to the row path).
    if (x < BigInt(SAFE) && x > -BigInt(SAFE)) y = g.konst(Number(x));
  }
  const eq = `${a.v} === ${y}`;
  return { v: g.tmp(e.name === "=" ? eq : `!(${eq})`), repr: "bool" };
}

/**
 * to_str(ts, 'format') = / != 'text': the text formatted once per unit of the format's finest
 * field (time_text.ts timeTextFn) and compared per row; a NULL timestamp formats to NULL, which
 * equals no text.
 */
function timeTextCompare(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node | undefined {
  if (e.name !== "=" && e.name !== "!=") return undefined;
  let [ea, eb] = e.args;
  if (eb.kind === "call") [ea, eb] = [eb, ea];
  const f = timeTextFn(ea);
  if (!f || ea.kind !== "call" || eb.kind !== "const" || typeof eb.value !== "string") return undefined;
  if (!TEXT.has(eb.type.tag)) return undefined;
  const a = node(g, ea.args[0]);
  const eq = `(${a.v} === ${a.v} && ${g.konst(f)}(${a.v}) === ${g.konst(eb.value)})`;
  return { v: g.tmp(e.name === "=" ? eq : `!${eq}`), repr: "bool" };
}

/** A per-dictionary table over `keyOf` slots (0 = NULL, key + 1 otherwise) of matching keys. */
function symbolTable(g: Gen, col: number, values: (string | null)[]): string {
  const cache = new Map<SymbolDict, Uint8Array>();
  return g.table((b) => {
    const dict = b.columns[col].dict!;
    let t = cache.get(dict);
    if (!t || t.length !== dict.size + 1) {
      t = new Uint8Array(dict.size + 1);
      for (const v of values) {
        if (v === null) t[0] = 1;
        else {
          const k = dict.keyOf(v);
          if (k !== undefined) t[k + 1] = 1;
        }
      }
      cache.set(dict, t);
    }
    return t;
  });
}

/** Whether `e` compiles without an environment (symbol = / IN constants, IS NULL, ...). */
function compilesDirectly(e: BoundExpr, params: readonly unknown[]): boolean {
  try {
    node(new Gen(params), e);
    return true;
  } catch (err) {
    if (err instanceof Unsupported) return false;
    throw err;
  }
}

/**
 * The SYMBOL column `e` reads, when it reads exactly one and nothing that changes from row to
 * row besides it: no other column, no correlated subquery, no non-deterministic function (now(),
 * rnd_*). Such a predicate has one answer per dictionary code.
 */
export function soleSymbolColumn(e: BoundExpr): Extract<BoundExpr, { kind: "column" }> | undefined {
  return soleColumnOf(e, (tag) => tag === "SYMBOL");
}

/**
 * The column `e` reads when it reads exactly one, of a type `accepts`, and nothing else that
 * changes by row (no correlated subquery or parameter, no non-deterministic call).
 */
export function soleColumnOf(
  e: BoundExpr,
  accepts: (tag: string) => boolean,
): Extract<BoundExpr, { kind: "column" }> | undefined {
  let col: Extract<BoundExpr, { kind: "column" }> | undefined;
  let ok = true;
  walkBound(e, (x) => {
    if (x.kind === "column") {
      if (!accepts(x.type.tag) || (col && col.index !== x.index)) ok = false;
      col = x;
    } else if (x.kind === "param" && x.outer !== undefined) ok = false;
    else if ((x.kind === "subquery" || x.kind === "inSubquery" || x.kind === "exists") && x.outer?.length) {
      ok = false;
    } else if (x.kind === "call" && x.binding.deterministic === false) ok = false;
  });
  return ok ? col : undefined;
}

/** Dictionaries larger than this keep the row path (a table costs a row-path call per code). */
const SYMBOL_TABLE_MAX = 1 << 20;

/**
 * A boolean expression of one SYMBOL column (LIKE, length(), upper() = ..., IN a subquery):
 * the row path evaluates it once per dictionary code and once for NULL, over a batch of those
 * codes, and the loop reads the answer by the row's code. A batch whose dictionary is larger
 * than SYMBOL_TABLE_MAX goes row by row.
 */
function symbolPredicate(g: Gen, e: BoundExpr, col: Extract<BoundExpr, { kind: "column" }>): Node {
  const pred = g.env!.rowPredicate(e);
  const cache = new Map<SymbolDict, Uint8Array>();
  const a = node(g, col);
  const s = g.table((b) => {
    const v = b.columns[col.index];
    const dict = v.dict!;
    let t = cache.get(dict);
    if (t && t.length === dict.size + 1) return t;
    // A failed build (below) is remembered as an empty table: those batches go row by row.
    if (t?.length === 0 || dict.size > SYMBOL_TABLE_MAX) return undefined;
    const codes = new Int32Array(dict.size + 1);
    for (let k = 0; k < dict.size; k++) codes[k + 1] = k;
    codes[0] = -1;
    const columns: Batch["columns"] = [];
    columns[col.index] = { type: v.type, data: codes, dict };
    const probe: Batch = { rowCount: codes.length, columns };
    t = new Uint8Array(codes.length);
    try {
      for (let i = 0; i < codes.length; i++) t[i] = pred(probe, i) ? 1 : 0;
    } catch {
      // A code no row of the batch holds may fail where the rows would not (a cast of its
      // text): the row path then decides, raising only the errors the rows raise.
      cache.set(dict, new Uint8Array(0));
      return undefined;
    }
    cache.set(dict, t);
    return t;
  });
  return { v: g.tmp(`${s}[${a.v} < 0 ? 0 : ${a.v} + 1] === 1`), repr: "bool" };
}

/**
 * A boolean or numeric expression of one STRING/VARCHAR column (`length(s) > 3`, `s LIKE 'a%'`):
 * the row path's value per distinct text of the batch (text_column.ts), as a per-batch table
 * the loop reads by row; NULL as NaN, and a LONG past 2^53 sends the batch row by row.
 */
function textColumnValue(g: Gen, e: BoundExpr, col: Extract<BoundExpr, { kind: "column" }>): Node {
  if (e.type.tag === "BOOLEAN") {
    const memo = textMemo(col, g.env!.rowPredicate(e));
    const s = g.table((b) => {
      const vs = memo(b);
      if (!vs) return undefined;
      const t = new Uint8Array(vs.length);
      for (let i = 0; i < vs.length; i++) t[i] = vs[i] === true ? 1 : 0;
      return t;
    });
    return { v: g.tmp(`${s}[i] === 1`), repr: "bool" };
  }
  const memo = textMemo(col, g.env!.rowValue(e));
  const s = g.table((b) => {
    const vs = memo(b);
    if (!vs) return undefined;
    const t = new Float64Array(vs.length);
    for (let i = 0; i < vs.length; i++) {
      const x = vs[i];
      if (x === null || x === undefined) t[i] = NaN;
      else if (typeof x === "bigint") {
        if (x >= BigInt(SAFE) || x <= -BigInt(SAFE)) return undefined;
        t[i] = Number(x);
      } else if (typeof x === "number") t[i] = Number.isFinite(x) ? x : NaN;
      else return undefined;
    }
    return t as unknown as Uint8Array;
  });
  return { v: g.tmp(`${s}[i]`), repr: "num", kind: kindOfTag(e.type.tag) };
}

/** A numeric expression of two or three SYMBOL columns (`length(concat(symbol, side))`), as tuplePredicate. */
function tupleValue(g: Gen, e: BoundExpr, cols: Extract<BoundExpr, { kind: "column" }>[]): Node {
  const strides = new Float64Array(cols.length);
  const table = symbolTupleValues(cols, g.env!.rowValue(e), strides);
  const s = g.table((b) => table(b) as unknown as Uint8Array | undefined);
  return {
    v: g.tmp(`${s}[${tupleDigits(g, cols, g.konst(strides))}]`),
    repr: "num",
    kind: kindOfTag(e.type.tag),
  };
}

/** The loop code of a row's tuple number, from the strides in constant `k`. */
function tupleDigits(g: Gen, cols: Extract<BoundExpr, { kind: "column" }>[], k: string): string {
  return cols.map((c, j) => {
    const a = node(g, c);
    return `(${a.v} < 0 ? 0 : (${a.v} + 1) * ${k}[${j}])`;
  }).join(" + ");
}

/**
 * A boolean expression of two or three SYMBOL columns (`concat(symbol, side) = 'x'`): answered
 * once per tuple of their codes (symbol_tuple.ts); the loop numbers the row's tuple with the
 * strides the table's builder leaves in a constant.
 */
function tuplePredicate(g: Gen, e: BoundExpr, cols: Extract<BoundExpr, { kind: "column" }>[]): Node {
  const strides = new Float64Array(cols.length);
  const s = g.table(symbolTuplePredicate(cols, g.env!.rowPredicate(e), strides));
  return { v: g.tmp(`${s}[${tupleDigits(g, cols, g.konst(strides))}] === 1`), repr: "bool" };
}

const NUMERIC_TAGS = new Set(["BYTE", "SHORT", "INT", "LONG", "FLOAT", "DOUBLE"]);

/**
 * A numeric expression of one SYMBOL column (length(s), strpos(s, 'x'), cast(s AS INT)): as
 * `symbolPredicate`, the row path computes it once per dictionary code and for NULL, and the loop
 * reads the value by the row's code (NaN for NULL). A LONG value past 2^53 or a failing code send
 * the batch row by row.
 */
function symbolValue(g: Gen, e: BoundExpr, col: Extract<BoundExpr, { kind: "column" }>): Node {
  const value = g.env!.rowValue(e);
  const kind = kindOfTag(e.type.tag);
  const cache = new Map<SymbolDict, Float64Array>();
  const a = node(g, col);
  const s = g.table((b) => {
    const v = b.columns[col.index];
    const dict = v.dict!;
    let t = cache.get(dict);
    if (t && t.length === dict.size + 1) return t as unknown as Uint8Array;
    if (t?.length === 0 || dict.size > SYMBOL_TABLE_MAX) return undefined;
    const codes = new Int32Array(dict.size + 1);
    for (let k = 0; k < dict.size; k++) codes[k + 1] = k;
    codes[0] = -1;
    const columns: Batch["columns"] = [];
    columns[col.index] = { type: v.type, data: codes, dict };
    const probe: Batch = { rowCount: codes.length, columns };
    t = new Float64Array(codes.length);
    try {
      for (let i = 0; i < codes.length; i++) {
        const x = value(probe, i);
        if (x === null || x === undefined) t[i] = NaN;
        else if (typeof x === "bigint") {
          if (x >= BigInt(SAFE) || x <= -BigInt(SAFE)) throw new Unsupported();
          t[i] = Number(x);
        } else if (typeof x === "number") t[i] = Number.isFinite(x) ? x : NaN;
        else throw new Unsupported();
      }
    } catch {
      cache.set(dict, new Float64Array(0));
      return undefined;
    }
    cache.set(dict, t);
    return t as unknown as Uint8Array;
  });
  return { v: g.tmp(`${s}[${a.v} < 0 ? 0 : ${a.v} + 1]`), repr: "num", kind };
}

function symTest(g: Gen, a: Node, col: number, values: (string | null)[], not: boolean): Node {
  const s = symbolTable(g, col, values);
  const hit = `${s}[${a.v} < 0 ? 0 : ${a.v} + 1] === 1`;
  return { v: g.tmp(not ? `!(${hit})` : hit), repr: "bool" };
}

/** symbol = / != a constant text or NULL (two NULLs are equal, §4). */
function symbolCompare(g: Gen, e: Extract<BoundExpr, { kind: "call" }>): Node {
  let [ea, eb] = e.args;
  if (ea.kind === "const") [ea, eb] = [eb, ea];
  if ((e.name !== "=" && e.name !== "!=") || ea.kind !== "column" || ea.type.tag !== "SYMBOL") unsupported();
  if (eb.kind !== "const" || (eb.value !== null && typeof eb.value !== "string")) unsupported();
  if (eb.value !== null && !["STRING", "VARCHAR", "SYMBOL", "CHAR"].includes(eb.type.tag)) unsupported();
  const a = node(g, ea);
  return symTest(g, a, ea.index, [eb.value as string | null], e.name === "!=");
}

function inSet(g: Gen, e: Extract<BoundExpr, { kind: "inSet" }>): Node {
  const a = node(g, e.arg);
  if (a.repr === "sym" && e.arg.kind === "column") {
    const values: (string | null)[] = [];
    for (const k of e.keys) {
      if (typeof k !== "string") unsupported();
      values.push(k);
    }
    if (e.hasNull) values.push(null);
    return symTest(g, a, e.arg.index, values, e.not);
  }
  num(a);
  // Keys are normKey forms (bind_expr.ts): `n<integer>` text, or the double itself.
  const keys: number[] = [];
  for (const k of e.keys) {
    if (typeof k === "number") keys.push(k);
    else if (typeof k === "string" && /^n-?\d+$/.test(k)) {
      const x = BigInt(k.slice(1));
      // A key beyond 2^53 equals no value this loop holds (larger values go row by row).
      if (x < BigInt(SAFE) && x > -BigInt(SAFE)) keys.push(Number(x));
    } else unsupported();
  }
  const v = a.v;
  let hit: string;
  if (keys.length <= 8) hit = keys.length ? keys.map((k) => `${v} === ${g.konst(k)}`).join(" || ") : "false";
  else hit = `${g.konst(new Set(keys))}.has(${v})`;
  const code = `(${v} !== ${v} ? ${e.hasNull} : (${hit})) !== ${e.not}`;
  return { v: g.tmp(code), repr: "bool" };
}

/** Numeric casts with castValue's rules: truncation, out of INT/LONG range and INT_MIN/LONG_MIN as NULL. */
function cast(g: Gen, e: Extract<BoundExpr, { kind: "cast" }>): Node {
  const a = node(g, e.arg);
  const from = e.from.tag, to = e.type.tag;
  if (from !== e.arg.type.tag) unsupported();
  if (from === to) return a;
  const k = num(a);
  const x = a.v;
  switch (to) {
    case "DOUBLE":
      return { v: x, repr: "num", kind: "double" };
    case "FLOAT": {
      const t = g.tmp(`Math.fround(${x})`);
      return { v: g.tmp(`${t} - ${t} === 0 ? ${t} : NaN`), repr: "num", kind: "float" };
    }
    case "LONG": {
      if (k === "int" || k === "long" || k === "null") return { v: x, repr: "num", kind: "long" };
      const t = g.tmp(`Math.trunc(${x})`);
      g.checkRange(t);
      return { v: t, repr: "num", kind: "long" };
    }
    case "INT": {
      if (k === "int" || k === "null") return { v: x, repr: "num", kind: "int" };
      if (k === "long") {
        const t = g.tmp(`${x} | 0`);
        return { v: g.tmp(`${x} !== ${x} || ${t} === -2147483648 ? NaN : ${t}`), repr: "num", kind: "int" };
      }
      const t = g.tmp(`Math.trunc(${x})`);
      return {
        v: g.tmp(`${t} !== ${t} || ${t} <= -2147483648 || ${x} > 2147483647 ? NaN : ${t}`),
        repr: "num",
        kind: "int",
      };
    }
    case "BOOLEAN":
      // castValue: a non-zero number is true; NULL casts to false (BOOLEAN has no NULL).
      return { v: g.tmp(`${x} === ${x} && ${x} !== 0`), repr: "bool" };
    case "SHORT":
    case "BYTE": {
      // castValue's castNumber / castBigInt: integers keep their low 16 (8) bits (`| 0` is
      // exact modulo 2^32 on the loop's exact doubles); FLOAT/DOUBLE truncate and saturate to
      // INT first; NULL and non-finite values cast to 0, which the result holds (not NaN: a
      // SHORT is never NULL, `cast(NULL AS SHORT) + 1` is 1).
      const bits = to === "SHORT" ? 16 : 24;
      if (k === "null") return { v: "0", repr: "num", kind: "int" };
      const i = k === "int" || k === "long" ? `(${x} | 0)` : g.tmp(
        `${x} - ${x} !== 0 ? 0 : ${x} >= 2147483647 ? 2147483647 : ${x} <= -2147483648 ? -2147483648 : ${x} | 0`,
      );
      return { v: g.tmp(`(${i} << ${bits}) >> ${bits}`), repr: "num", kind: "int" };
    }
    case "TIMESTAMP":
    case "DATE": {
      // castValue's toTime: integers are ticks already; DATE <-> TIMESTAMP rescale (floor to ms).
      if (INTEGERS.has(from)) return { v: x, repr: "num", kind: "long" };
      if (from === "DATE" && to === "TIMESTAMP") {
        const t = g.tmp(`${x} * 1000`);
        g.checkRange(t);
        return { v: t, repr: "num", kind: "long" };
      }
      if (from === "TIMESTAMP" && to === "DATE") {
        return { v: g.tmp(`Math.floor(${x} / 1000)`), repr: "num", kind: "long" };
      }
      return unsupported();
    }
    default:
      return unsupported();
  }
}

/** A sub-expression of a fused loop as the caller's row code reads it (see `compileFusedLoop`). */
export interface FusedVar {
  /** The loop local (or literal) holding the row's value. */
  v: string;
  /** "num": a double, NaN for NULL; "bool": a JS boolean; "sym": a symbol code, < 0 for NULL. */
  repr: Repr;
  kind?: NumKind | "null";
}

/** The caller's code around the expressions of a fused loop; the state arrays come in `X`. */
export interface FusedCode {
  /** Before the loop (reads its state out of `X`). */
  head: string;
  /** Per row, after every expression of the row was computed (the row is `i`). */
  row: string;
  /** After the loop (writes back what the next batch needs). */
  tail: string;
}

/**
 * Runs a fused loop over the rows of `b` (`sel[0..count)` when a selection is given): answers
 * the rows run, or -1 when some row's value needs the row path (a LONG past 2^53); the caller's
 * state is then partly updated and the caller must redo its work another way.
 */
export type FusedRun = (b: Batch, X: unknown[], sel?: Int32Array, count?: number) => number;

type FusedLoopFn = (
  n: number,
  A: ArrayLike<number>[],
  S: Uint8Array[],
  K: unknown[],
  X: unknown[],
  sel: Int32Array | undefined,
) => number;

/**
 * One generated loop computing several expressions per row and running the caller's code on
 * them (hash_parallel.ts: grouping keys to a dense group id and every aggregate's update in one
 * pass, where separate loops read and wrote a vector per expression and per aggregate).
 * Sub-expressions share the loop's leaves and day caches. SYMBOL columns are read as their codes
 * whether or not the batch carries a dictionary (a worker heap's codes); only comparisons with
 * constants build tables from one. Undefined when some expression has no batch form.
 */
export function compileFusedLoop(
  exprs: BoundExpr[],
  params: readonly unknown[],
  code: (vars: FusedVar[]) => FusedCode,
): { withSel: FusedRun; all: FusedRun } | undefined {
  const g = new Gen(params);
  let vars: FusedVar[];
  try {
    vars = exprs.map((e) => node(g, e));
  } catch (err) {
    if (err instanceof Unsupported) return undefined;
    throw err;
  }
  const c = code(vars);
  const text = (selected: boolean) =>
    `const NaN = 0 / 0;
  ${g.leaves.map((_, i) => `const a${i} = A[${i}];`).join("\n  ")}
  ${g.tables.map((_, i) => `const s${i} = S[${i}];`).join("\n  ")}
  ${g.consts.map((_, i) => `const k${i} = K[${i}];`).join("\n  ")}
  let bad = 0;
  ${g.pre.join("\n  ")}
  ${c.head}
  for (let j = 0; j < n; j++) {
    const i = ${selected ? "sel[j]" : "j"};
    ${g.leaves.map((l, i) => readLeaf(l, i)).join("\n    ")}
    ${g.steps.join("\n    ")}
    if (bad) return -1;
    ${c.row}
  }
  ${c.tail}
  return n;`;
  const fns = [false, true].map((s) => {
    const body = text(s);
    let f = fusedLoops.get(body);
    if (!f) {
      if (fusedLoops.size >= LOOPS_MAX) fusedLoops.clear();
      f = new Function("n", "A", "S", "K", "X", "sel", body) as FusedLoopFn;
      fusedLoops.set(body, f);
    }
    return f;
  });
  const { leaves, tables, consts } = g;
  const runner = (f: FusedLoopFn): FusedRun => (b, X, sel, count) => {
    const A: ArrayLike<number>[] = [];
    for (const l of leaves) {
      const v = b.columns[l.col];
      const d = l.tag === "SYMBOL" && v?.type.tag === "SYMBOL" && v.data instanceof Int32Array
        ? v.data
        : leafData(l, b);
      if (!d) return -1;
      A.push(d);
    }
    const S: Uint8Array[] = [];
    for (const t of tables) {
      const s = t(b);
      if (!s) return -1;
      S.push(s);
    }
    return f(sel ? count! : b.rowCount, A, S, consts, X, sel);
  };
  return { all: runner(fns[0]), withSel: runner(fns[1]) };
}

const fusedLoops = new Map<string, FusedLoopFn>();

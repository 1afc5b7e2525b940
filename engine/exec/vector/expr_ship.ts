/**
 * Bound expressions sent to a worker heap (issue #17): the parallel hash aggregation
 * (hash_parallel.ts) evaluates its keys, arguments and filters on the workers with the same
 * batch loops (batch_eval.ts) as the main thread, so the expressions travel as plain data.
 *
 * A bound call holds its function binding (closures), which cannot be cloned: it travels as
 * name, type and arguments, and the worker binds it again through the registry with the same
 * argument types (the binder's casts are already explicit nodes), which gives the same binding.
 * Bind parameters travel as the constants they are for the statement. Only expressions the
 * batch compiler takes are sent (`shippable`, decided at plan time); the re-bound calls serve
 * the row path that a batch falls back to (a LONG past 2^53).
 */
import type { ColumnType } from "../../base/types.ts";
import type { Interval, SymbolDict, Value } from "../../base/values.ts";
import { lookupScalar } from "../../functions/registry.ts";
import type { EvalContext } from "../../functions/registry_types.ts";
import type { BoundExpr } from "../../plan/bound.ts";
import type { TableSnapshot } from "../../storage/api.ts";
import type { ExecContext } from "../exec_context.ts";
import { FastPathUnavailable } from "../wasm_scratch.ts";
import { compileBatchExpr, type Sink } from "./batch_expr.ts";

/** A bound expression without its bindings: structured-cloneable. */
export type ShippedExpr =
  | { kind: "const"; type: ColumnType; value: Value }
  | { kind: "column"; type: ColumnType; index: number }
  | { kind: "call"; type: ColumnType; name: string; args: ShippedExpr[] }
  | { kind: "cast"; type: ColumnType; from: ColumnType; arg: ShippedExpr; pos: number; implicit?: true }
  | {
    kind: "case";
    type: ColumnType;
    whens: { cond: ShippedExpr; then: ShippedExpr }[];
    otherwise: ShippedExpr;
  }
  | { kind: "and" | "or"; type: ColumnType; args: ShippedExpr[] }
  | { kind: "not"; type: ColumnType; arg: ShippedExpr }
  | { kind: "isNull"; type: ColumnType; arg: ShippedExpr; not: boolean }
  | { kind: "inSet"; type: ColumnType; arg: ShippedExpr; keys: Set<unknown>; hasNull: boolean; not: boolean }
  | { kind: "inIntervals"; type: ColumnType; arg: ShippedExpr; intervals: Interval[]; not: boolean };

/** Stand-in bind values for the plan-time check (a parameter is a constant of the loop). */
const PARAMS_PROBE: readonly unknown[] = new Array(64).fill(null);

/**
 * Whether `e` can run on a worker: no subquery or outer reference anywhere, and a batch form
 * for `sink` (a plain column always can: it is read, not evaluated).
 */
export function shippable(e: BoundExpr, sink: Sink): boolean {
  if (e.kind === "column") return true;
  if (!plain(e)) return false;
  return compileBatchExpr(e, sink, PARAMS_PROBE) !== undefined;
}

function plain(e: BoundExpr): boolean {
  switch (e.kind) {
    case "subquery":
    case "inSubquery":
    case "exists":
      return false;
    case "param":
      return e.outer === undefined;
    case "call":
      return e.binding.deterministic !== false && e.args.every(plain);
    case "and":
    case "or":
      return e.args.every(plain);
    case "cast":
    case "not":
    case "isNull":
    case "inSet":
    case "inIntervals":
      return plain(e.arg);
    case "case":
      return e.whens.every((w) => plain(w.cond) && plain(w.then)) && plain(e.otherwise);
    default:
      return true;
  }
}

/** `e` with column i replaced by `exprs[i]` (an expression over a projection, over its input). */
export function inline(e: BoundExpr, exprs: BoundExpr[]): BoundExpr {
  const r = (x: BoundExpr) => inline(x, exprs);
  switch (e.kind) {
    case "column":
      return exprs[e.index];
    case "call":
      return { ...e, args: e.args.map(r) };
    case "and":
    case "or":
      return { ...e, args: e.args.map(r) };
    case "cast":
    case "not":
    case "isNull":
    case "inSet":
    case "inIntervals":
      return { ...e, arg: r(e.arg) } as BoundExpr;
    case "case":
      return {
        ...e,
        whens: e.whens.map((w) => ({ cond: r(w.cond), then: r(w.then) })),
        otherwise: r(e.otherwise),
      };
    default:
      return e;
  }
}

/** The plain-data form of `e` for this execution (`params`: the statement's bind values). */
export function shipExpr(e: BoundExpr, params: readonly Value[]): ShippedExpr {
  const s = (x: BoundExpr) => shipExpr(x, params);
  switch (e.kind) {
    case "call":
      return { kind: "call", type: e.type, name: e.name, args: e.args.map(s) };
    case "param":
      return { kind: "const", type: e.type, value: params[e.index - 1] ?? null };
    case "and":
    case "or":
      return { kind: e.kind, type: e.type, args: e.args.map(s) };
    case "cast":
    case "not":
    case "isNull":
    case "inSet":
    case "inIntervals":
      return { ...e, arg: s(e.arg) } as ShippedExpr;
    case "case":
      return {
        kind: "case",
        type: e.type,
        whens: e.whens.map((w) => ({ cond: s(w.cond), then: s(w.then) })),
        otherwise: s(e.otherwise),
      };
    case "subquery":
    case "inSubquery":
    case "exists":
      throw new Error("a subquery cannot run on a worker heap");
    default:
      return e;
  }
}

/** Binds a shipped expression again (on the worker): calls get their registry bindings. */
export function rebind(e: ShippedExpr): BoundExpr {
  switch (e.kind) {
    case "call": {
      const args = e.args.map(rebind);
      const fn = lookupScalar(e.name);
      const binding = fn?.bind(args.map((a) => ({
        type: a.type,
        constant: a.kind === "const",
        value: a.kind === "const" ? a.value : undefined,
        pos: 0,
      })));
      if (!binding || typeof binding === "string") {
        throw new Error(`cannot bind ${e.name} on a worker heap: ${binding ?? "unknown function"}`);
      }
      return { kind: "call", type: e.type, name: e.name, binding, args };
    }
    case "and":
    case "or":
      return { kind: e.kind, type: e.type, args: e.args.map(rebind) };
    case "cast":
    case "not":
    case "isNull":
    case "inSet":
    case "inIntervals":
      return { ...e, arg: rebind(e.arg) } as BoundExpr;
    case "case":
      return {
        kind: "case",
        type: e.type,
        whens: e.whens.map((w) => ({ cond: rebind(w.cond), then: rebind(w.then) })),
        otherwise: rebind(e.otherwise),
      };
    default:
      return e;
  }
}

/** Calls `visit` on every column index `e` reads. */
export function columnsOf(e: ShippedExpr, visit: (index: number) => void): void {
  switch (e.kind) {
    case "column":
      visit(e.index);
      return;
    case "call":
    case "and":
    case "or":
      for (const a of e.args) columnsOf(a, visit);
      return;
    case "cast":
    case "not":
    case "isNull":
    case "inSet":
    case "inIntervals":
      columnsOf(e.arg, visit);
      return;
    case "case":
      for (const w of e.whens) {
        columnsOf(w.cond, visit);
        columnsOf(w.then, visit);
      }
      columnsOf(e.otherwise, visit);
      return;
  }
}

/** Every text constant in `e` (and IN-list text keys): what a SYMBOL comparison may look up. */
export function textsOf(e: ShippedExpr, out: Set<string>): void {
  switch (e.kind) {
    case "const":
      if (typeof e.value === "string") out.add(e.value);
      return;
    case "inSet":
      for (const k of e.keys) if (typeof k === "string") out.add(k);
      textsOf(e.arg, out);
      return;
    case "call":
    case "and":
    case "or":
      for (const a of e.args) textsOf(a, out);
      return;
    case "cast":
    case "not":
    case "isNull":
    case "inIntervals":
      textsOf(e.arg, out);
      return;
    case "case":
      for (const w of e.whens) {
        textsOf(w.cond, out);
        textsOf(w.then, out);
      }
      textsOf(e.otherwise, out);
      return;
  }
}

/**
 * A worker's dictionary stand-in for a SYMBOL column: the codes of the texts the shipped
 * expressions compare with (`textsOf`), no values.
 */
export class ShippedCodeDict implements SymbolDict {
  readonly #codes: Map<string, number>;
  constructor(readonly size: number, codes: [string, number][]) {
    this.#codes = new Map(codes);
  }
  keyOf(value: string): number | undefined {
    return this.#codes.get(value);
  }
  valueOf(): string | null {
    // Only the row path of a declined batch reads symbol texts: the main heap runs the query.
    throw new FastPathUnavailable("symbol text on a worker heap");
  }
}

/** What shipped expressions may need on a worker: constants only (parameters are inlined). */
export function shippedExecContext(timeZone: string): ExecContext {
  const evalContext = { nowMicros: 0n, timeZone, user: "" } as unknown as EvalContext;
  return { evalContext, params: [], subqueries: new Map(), snapshots: [] } as unknown as ExecContext;
}

/**
 * What a SYMBOL column's dictionary answers on a worker, whose snapshot has none: the codes of
 * the texts the expressions compare it with, and its size.
 */
export interface SymbolCodes {
  col: number;
  size: number;
  codes: [string, number][];
}

/**
 * On the main thread: for each SYMBOL scan column the shipped expressions read, the codes of
 * the texts they could compare it with (`textsOf`), which the worker's `ShippedCodeDict` gives
 * back. Plain column references compare nothing.
 */
export function shippedSymbolCodes(
  exprs: (ShippedExpr | undefined)[],
  scan: { types: ColumnType[]; columnIndexes: number[] },
  snap: TableSnapshot,
): SymbolCodes[] {
  const texts = new Set<string>();
  const cols = new Set<number>();
  for (const e of exprs) {
    if (!e || e.kind === "column") continue;
    textsOf(e, texts);
    columnsOf(e, (c) => cols.add(c));
  }
  const out: SymbolCodes[] = [];
  for (const c of cols) {
    if (scan.types[c].tag !== "SYMBOL") continue;
    const dict = snap.symbols(scan.columnIndexes[c]);
    const codes: [string, number][] = [];
    for (const t of texts) {
      const code = dict.keyOf(t);
      if (code !== undefined) codes.push([t, code]);
    }
    out.push({ col: c, size: dict.size, codes });
  }
  return out;
}

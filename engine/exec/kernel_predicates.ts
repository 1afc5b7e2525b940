/**
 * Recognises predicates the WASM filter kernels can run (a numeric column compared with a
 * constant, symbol equality and IN, IS NULL, and OR / AND / NOT of those), in the form the
 * kernels take. Shared by the fast aggregate path and the filter operator; runPred evaluates
 * one into a selection vector.
 */
import type { ColumnType } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { kernels, type NumericKind, wasmMemory } from "../../engine-wasm/mod.ts";
import { parseTimestamp } from "../functions/timestamp_parse.ts";
import { type BoundExpr, isConst } from "../plan/bound.ts";
import type { OutputColumn } from "../plan/plan_node.ts";

export const KIND: Partial<Record<string, NumericKind>> = {
  DOUBLE: "f64",
  FLOAT: "f32",
  LONG: "i64",
  TIMESTAMP: "i64",
  DATE: "i64",
  INT: "i32",
  SHORT: "i16",
  BYTE: "i8",
};
export const WIDTH: Record<NumericKind, number> = { f64: 8, f32: 4, i64: 8, i32: 4, i16: 2, i8: 1 };
const OPS: Record<string, "eq" | "ne" | "lt" | "le" | "gt" | "ge"> = {
  "=": "eq",
  "!=": "ne",
  "<": "lt",
  "<=": "le",
  ">": "gt",
  ">=": "ge",
};
const FLIP: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!=" };

/** A condition one filter kernel runs. */
export type LeafPred =
  | {
    kind: "cmp";
    col: number;
    type: NumericKind;
    /** "between": value <= x <= value2, made by runPred from `x >= a AND x <= b` (one pass). */
    op: "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "between";
    value: number | bigint | null;
    value2?: number | bigint;
  }
  | { kind: "sym"; col: number; values: (string | null)[]; not: boolean };

/**
 * A kernel condition: a leaf, or OR / AND / NOT of kernel conditions, run as unions,
 * refinements and complements of selection vectors (runPred). QuestDB booleans have two values
 * (spec §4: a comparison with NULL is false, never NULL, and NOT of a comparison was folded
 * into the opposite comparison when bound), so a row passes an OR when it passes a branch and
 * NOT x when it does not pass x, as the row path's `!== true` does.
 */
export type Pred =
  | LeafPred
  | { kind: "or"; any: Pred[] }
  | { kind: "and"; all: Pred[] }
  | { kind: "not"; arg: Pred };

/** The leaves of conditions, depth first: the order per-leaf tables (symbol key sets) follow. */
export function predLeaves(preds: readonly Pred[]): LeafPred[] {
  const out: LeafPred[] = [];
  const walk = (p: Pred): void => {
    if (p.kind === "or") p.any.forEach(walk);
    else if (p.kind === "and") p.all.forEach(walk);
    else if (p.kind === "not") walk(p.arg);
    else out.push(p);
  };
  preds.forEach(walk);
  return out;
}

/** The columns conditions read. */
export function predColumns(preds: readonly Pred[]): number[] {
  return [...new Set(predLeaves(preds).map((l) => l.col))];
}

const TIME_TAGS = new Set(["DATE", "TIMESTAMP", "TIMESTAMP_NS"]);

/** The constant of a comparison in the column's domain, or undefined when not representable. */
function constFor(
  kind: NumericKind,
  t: ColumnType,
  c: { type: ColumnType; value: Value },
): number | bigint | null | undefined {
  const v = c.value;
  if (v === null) return null;
  // A time constant of another unit (a TIMESTAMP_NS against a TIMESTAMP column) is compared in
  // the finer unit by the generic path (compare_domain.ts), not as raw ticks.
  if (c.type.tag !== t.tag && TIME_TAGS.has(c.type.tag) && TIME_TAGS.has(t.tag)) return undefined;
  if (kind === "i64") {
    // Constants outside the 64-bit range stay on the generic path, which compares them exactly.
    if (typeof v === "bigint") return BigInt.asIntN(64, v) === v ? v : undefined;
    if (typeof v === "number" && Number.isInteger(v) && Math.abs(v) < 2 ** 63) return BigInt(v);
    if (typeof v === "string" && (t.tag === "TIMESTAMP" || t.tag === "DATE")) {
      const p = parseTimestamp(v, t.tag === "DATE" ? "ms" : "us");
      // Text finer than the column's unit compares in nanoseconds on the generic path.
      const nanos = parseTimestamp(v, "ns");
      return nanos !== undefined && p !== undefined && nanos !== p * (t.tag === "DATE" ? 1_000_000n : 1_000n)
        ? undefined
        : p;
    }
    return undefined;
  }
  if (typeof v === "number") return v;
  if (typeof v === "bigint" && v >= -(2n ** 53n) && v <= 2n ** 53n) return Number(v);
  return undefined;
}

/** Leaves an OR/AND/NOT tree may hold: beyond, the generated batch loop is as good. */
const LEAVES_MAX = 16;

export function predicateOf(e: BoundExpr, columns: OutputColumn[]): Pred | undefined {
  const p = treeOf(e, columns);
  return p && (p.kind === "cmp" || p.kind === "sym" || predLeaves([p]).length <= LEAVES_MAX) ? p : undefined;
}

function treeOf(e: BoundExpr, columns: OutputColumn[]): Pred | undefined {
  if (e.kind === "or" || e.kind === "and") {
    const args: Pred[] = [];
    for (const a of e.args) {
      const p = treeOf(a, columns);
      if (!p) return undefined;
      // (a OR b) OR c is one union of three, a AND (b AND c) one refinement.
      if (e.kind === "or" && p.kind === "or") args.push(...p.any);
      else if (e.kind === "and" && p.kind === "and") args.push(...p.all);
      else args.push(p);
    }
    return e.kind === "or" ? { kind: "or", any: args } : { kind: "and", all: args };
  }
  if (e.kind === "not") {
    const arg = treeOf(e.arg, columns);
    return arg && { kind: "not", arg };
  }
  return leafOf(e, columns);
}

function leafOf(e: BoundExpr, columns: OutputColumn[]): LeafPred | undefined {
  if (e.kind === "isNull" && e.arg.kind === "column") {
    const t = columns[e.arg.index].type;
    if (t.tag === "SYMBOL") return { kind: "sym", col: e.arg.index, values: [null], not: e.not };
    const kind = KIND[t.tag];
    if (!kind || kind === "i16" || kind === "i8") return undefined;
    return { kind: "cmp", col: e.arg.index, type: kind, op: e.not ? "ne" : "eq", value: null };
  }
  if (e.kind === "inSet" && e.arg.kind === "column" && columns[e.arg.index].type.tag === "SYMBOL") {
    const values: (string | null)[] = [];
    for (const k of e.keys) {
      if (typeof k !== "string") return undefined;
      values.push(k);
    }
    if (e.hasNull) values.push(null);
    return { kind: "sym", col: e.arg.index, values, not: e.not };
  }
  if (e.kind !== "call" || !OPS[e.name] || e.args.length !== 2) return undefined;
  let [a, b] = e.args;
  let op = e.name;
  if (a.kind !== "column" && b.kind === "column") {
    [a, b] = [b, a];
    op = FLIP[op];
  }
  if (a.kind !== "column" || !isConst(b)) return undefined;
  const t = columns[a.index].type;
  if (t.tag === "SYMBOL") {
    if ((op !== "=" && op !== "!=") || (b.value !== null && typeof b.value !== "string")) return undefined;
    return { kind: "sym", col: a.index, values: [b.value as string | null], not: op === "!=" };
  }
  const kind = KIND[t.tag];
  if (!kind) return undefined;
  const value = constFor(kind, t, b);
  if (value === undefined) return undefined;
  // DOUBLE/FLOAT equality has QuestDB's tolerance (operators_compare.ts): the batch loop's job.
  if ((kind === "f64" || kind === "f32") && (op === "=" || op === "!=") && value !== null) return undefined;
  return { kind: "cmp", col: a.index, type: kind, op: OPS[op], value };
}

/** The rows a condition is tested on: all of 0..rowCount, or the selection at `sel` (ascending). */
export interface PredRows {
  rowCount: number;
  sel?: number;
  selCount?: number;
}

/** What runPred needs from its caller: the leaf kernels and WASM scratch memory. */
export interface PredRunner {
  /** Writes the rows of `rows` passing `leaf` to `out` (may be `rows.sel`); returns how many. */
  leaf(leaf: LeafPred, rows: PredRows, out: number): number;
  /** A block of WASM memory (throws when there is no room), given back by `free`. */
  alloc(bytes: number): number;
  free(ptr: number): void;
}

/**
 * Writes the rows of `rows` passing `p` to `out` in ascending order (out may be `rows.sel`) and
 * returns how many. AND refines branch by branch; OR unions the branches' selections (each
 * over `rows`); NOT keeps the rows of `rows` its argument drops.
 */
export function runPred(p: Pred, rows: PredRows, out: number, r: PredRunner): number {
  if (p.kind === "cmp" || p.kind === "sym") return r.leaf(p, rows, out);
  const n = rows.sel === undefined ? rows.rowCount : rows.selCount!;
  if (p.kind === "and") {
    let count = n, cur = rows;
    for (const q of withRanges(p.all)) {
      count = runPred(q, cur, out, r);
      if (count === 0) break;
      cur = { rowCount: rows.rowCount, sel: out, selCount: count };
    }
    if (p.all.length === 0 && n > 0) copyRows(rows, out);
    return count;
  }
  const mem = wasmMemory();
  if (p.kind === "not") {
    const drop = r.alloc(n * 4);
    try {
      const d = runPred(p.arg, rows, drop, r);
      const dropped = mem.i32(drop, d);
      const o = mem.i32(out, n);
      const src = rows.sel === undefined ? undefined : mem.i32(rows.sel, n);
      let k = 0, j = 0;
      // out may be rows.sel: row i is read before out[k <= i] is written.
      for (let i = 0; i < n; i++) {
        const row = src ? src[i] : i;
        if (j < d && dropped[j] === row) j++;
        else o[k++] = row;
      }
      return k;
    } finally {
      r.free(drop);
    }
  }
  return unionOf(n, p.any.map((q) => (to: number) => runPred(q, rows, to, r)), out, r);
}

/**
 * Writes to `out` the union of the ascending selections the branches write (each a subset of
 * the same `n` rows; `out` may be those rows' selection, written last) and returns its length.
 */
function unionOf(n: number, branches: ((out: number) => number)[], out: number, r: PredRunner): number {
  // The union so far in `acc`, a branch's rows in `part`, their merge (the selUnion kernel)
  // in `next`. A merge holds at most `n` rows, but the kernel's bounds check asks room for both
  // inputs (`s = 'b' OR s IS NULL OR s != 'a'`: 47 + 72 of 100 rows), and the three blocks trade
  // places: each gets room for 2n.
  let acc = -1, part = -1, next = -1;
  try {
    acc = r.alloc(n * 8);
    part = r.alloc(n * 8);
    next = r.alloc(n * 8);
    let a = 0;
    for (const branch of branches) {
      if (a === n) break;
      const b = branch(part);
      if (b === 0) continue;
      if (a === 0) {
        [acc, part] = [part, acc];
        a = b;
        continue;
      }
      const k = kernels().selUnion({ a: acc, aCount: a, b: part, bCount: b, out: next });
      [acc, next] = [next, acc];
      a = k;
    }
    const mem = wasmMemory();
    if (a > 0) mem.i32(out, a).set(mem.i32(acc, a));
    return a;
  } finally {
    for (const ptr of [acc, part, next]) if (ptr >= 0) r.free(ptr);
  }
}

function withRanges(all: Pred[]): Pred[] {
  let out: Pred[] | undefined;
  for (let i = 0; i < all.length; i++) {
    const a = all[i];
    if (a.kind !== "cmp" || (a.op !== "ge" && a.op !== "le") || a.value === null) continue;
    for (let j = i + 1; j < all.length; j++) {
      const b = all[j];
      if (b.kind !== "cmp" || b.col !== a.col || b.type !== a.type || b.value === null) continue;
      if (b.op !== (a.op === "ge" ? "le" : "ge")) continue;
      out ??= [...all];
      const [lo, hi] = a.op === "ge" ? [a.value, b.value] : [b.value, a.value];
      out[i] = { kind: "cmp", col: a.col, type: a.type, op: "between", value: lo, value2: hi };
      out[j] = { kind: "and", all: [] };
      break;
    }
  }
  return out ? out.filter((q) => q.kind !== "and" || q.all.length > 0) : all;
}

/** Most keys a symbol condition compares one by one (SIMD) instead of through its key table. */
const FEW_KEYS = 4;
const fewKeysOf = new WeakMap<Uint8Array, number[] | null>();

/**
 * The keys a symbol condition's key table (filter kernels' layout: byte k for key k, the last
 * for the NULL key -1) selects, or with `not` the keys it drops, when there are at most
 * FEW_KEYS of them; else undefined. Cached per table.
 */
function fewKeys(table: Uint8Array, not: boolean): number[] | undefined {
  let keys = fewKeysOf.get(table);
  if (keys === undefined) {
    const size = table.length - 1;
    keys = [];
    for (let k = 0; k <= size && keys; k++) {
      if ((table[k] !== 0) === not) continue;
      if (keys.length === FEW_KEYS) keys = null;
      else keys.push(k === size ? -1 : k);
    }
    fewKeysOf.set(table, keys);
  }
  return keys ?? undefined;
}

/**
 * Runs a symbol condition (IN / = / != / IS NULL) over the key column at `data` whose key table
 * is `table`: a few keys as SIMD key comparisons (the filterKey kernel; IN as the union of its
 * keys' rows, NOT IN as a refinement by each), which are several times faster than a table
 * lookup per row; more keys through the table (filterKeySet).
 */
export function runSymbolLeaf(
  p: Extract<LeafPred, { kind: "sym" }>,
  table: Uint8Array,
  tablePtr: () => number,
  data: number,
  rows: PredRows,
  out: number,
  r: PredRunner,
): number {
  const k = kernels();
  const keys = fewKeys(table, p.not);
  if (!keys) return k.filterKeySet({ ...rows, data, set: tablePtr(), setSize: table.length - 1, out });
  const n = rows.sel === undefined ? rows.rowCount : rows.selCount!;
  if (keys.length === 0) {
    // IN of no key in the dictionary selects nothing; NOT IN of none keeps every row.
    if (!p.not) return 0;
    copyRows(rows, out);
    return n;
  }
  if (p.not) {
    let count = n, cur = rows;
    for (const key of keys) {
      count = k.filterKey({ ...cur, data, op: "ne", key, out });
      if (count === 0) break;
      cur = { rowCount: rows.rowCount, sel: out, selCount: count };
    }
    return count;
  }
  return unionOf(
    n,
    keys.map((key) => (to: number) => k.filterKey({ ...rows, data, op: "eq", key, out: to })),
    out,
    r,
  );
}

function copyRows(rows: PredRows, out: number): void {
  const mem = wasmMemory();
  if (rows.sel === undefined) {
    const o = mem.i32(out, rows.rowCount);
    for (let i = 0; i < rows.rowCount; i++) o[i] = i;
  } else if (rows.sel !== out) mem.i32(out, rows.selCount!).set(mem.i32(rows.sel, rows.selCount!));
}

/**
 * Pushdown into read_parquet (issue #21): the generator decodes only the columns its parent
 * uses, and a filter directly above it lends the reader bounds on numeric and timestamp
 * columns (`c > 5`, `c BETWEEN ...`, `ts IN '2024-01'`), so row groups whose min/max statistics
 * exclude every row are never decoded. The filter itself still runs on the rows read.
 */
import type { ColumnType } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import type { ColumnBound, ParquetSource } from "../parquet/reader.ts";
import { parseTimestamp } from "../functions/timestamp_parse.ts";
import type { BoundExpr } from "./bound.ts";
import { conjuncts } from "./intervals_from_where.ts";
import type { PlanNode } from "./plan_node.ts";

/** read_parquet's generator argument: the file, the file columns it yields, the bounds. */
export interface ParquetScan {
  src: ParquetSource;
  /** Indexes into src.columns, one per output column. */
  columns: number[];
  bounds: ColumnBound[];
}

type Generator = Extract<PlanNode, { kind: "generator" }>;

export function parquetScanOf(n: PlanNode): ParquetScan | undefined {
  return n.kind === "generator" && n.name === "read_parquet"
    ? n.args[0] as unknown as ParquetScan
    : undefined;
}

/** Narrows the generator to the `needed` output columns (at least one, for the row count). */
export function pruneParquet(n: Generator, needed: Set<number>): { node: PlanNode; map: number[] } {
  const scan = parquetScanOf(n)!;
  let keep = n.columns.map((_, i) => i).filter((i) => needed.has(i));
  if (keep.length === 0 && n.columns.length > 0) keep = [0];
  const map = n.columns.map((_, i) => keep.indexOf(i));
  const next: ParquetScan = { ...scan, columns: keep.map((i) => scan.columns[i]) };
  return {
    node: {
      ...n,
      columns: keep.map((i) => n.columns[i]),
      timestampIndex: n.timestampIndex >= 0 ? map[n.timestampIndex] : -1,
      args: [next as unknown as Value],
    },
    map,
  };
}

const ORDERED = new Set([
  "BYTE",
  "SHORT",
  "INT",
  "LONG",
  "FLOAT",
  "DOUBLE",
  "DATE",
  "TIMESTAMP",
  "TIMESTAMP_NS",
]);
const FLIP: Record<string, string> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=" };

/** The generator with the bounds `predicate` (over its output columns) implies. */
export function pushParquetFilter(n: PlanNode, predicate: BoundExpr): PlanNode {
  const scan = parquetScanOf(n);
  if (!scan) return n;
  const bounds: ColumnBound[] = [];
  for (const c of conjuncts(predicate)) {
    const b = boundOf(c, n.columns.map((col) => col.type));
    if (b) bounds.push({ ...b, column: scan.columns[b.column] });
  }
  if (bounds.length === 0) return n;
  const next: ParquetScan = { ...scan, bounds: [...scan.bounds, ...bounds] };
  return { ...n, args: [next as unknown as Value] } as PlanNode;
}

/** A constant comparable with a column of type `t` without conversion. */
function constOf(e: BoundExpr, t: ColumnType): number | bigint | undefined {
  if (e.kind !== "const" || e.value === null) return undefined;
  const v = e.value;
  const unit = t.tag === "DATE"
    ? "ms"
    : t.tag === "TIMESTAMP"
    ? "us"
    : t.tag === "TIMESTAMP_NS"
    ? "ns"
    : undefined;
  // `ts >= '2024-01-01T02:00'`: the text as the column's unit (the comparison converts it the same way).
  if (typeof v === "string") return unit ? parseTimestamp(v, unit) : undefined;
  if (typeof v !== "number" && typeof v !== "bigint") return undefined;
  if (typeof v === "number" && isNaN(v)) return undefined;
  // Timestamps compare only in their own unit; numbers across numeric types.
  const time = (x: ColumnType) => x.tag === "DATE" || x.tag === "TIMESTAMP" || x.tag === "TIMESTAMP_NS";
  if (time(t) || time(e.type)) return e.type.tag === t.tag ? v : undefined;
  return v;
}

function boundOf(e: BoundExpr, types: ColumnType[]): ColumnBound | undefined {
  if (e.kind === "inIntervals" && !e.not && e.arg.kind === "column" && e.intervals.length > 0) {
    if (!ORDERED.has(types[e.arg.index].tag)) return undefined;
    let lo = e.intervals[0].lo, hi = e.intervals[0].hi;
    for (const iv of e.intervals) {
      if (iv.lo < lo) lo = iv.lo;
      if (iv.hi > hi) hi = iv.hi;
    }
    return { column: e.arg.index, lo, hi };
  }
  if (e.kind !== "call" || e.args.length !== 2) return undefined;
  let [a, b] = e.args;
  let op = e.name;
  if (!(op in FLIP)) return undefined;
  if (a.kind !== "column") {
    [a, b] = [b, a];
    op = FLIP[op];
  }
  if (a.kind !== "column" || !ORDERED.has(types[a.index].tag)) return undefined;
  const v = constOf(b, types[a.index]);
  if (v === undefined) return undefined;
  switch (op) {
    case "=":
      return { column: a.index, lo: v, hi: v };
    case ">":
      return { column: a.index, lo: v, loOpen: true };
    case ">=":
      return { column: a.index, lo: v };
    case "<":
      return { column: a.index, hi: v, hiOpen: true };
    case "<=":
      return { column: a.index, hi: v };
  }
  return undefined;
}

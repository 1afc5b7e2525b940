/**
 * Rewrite: pulls designated-timestamp conditions out of a WHERE predicate as intervals, so
 * the scan prunes partitions and binary-searches row ranges (ARCHITECTURE.md "Partition
 * pruning"). Only top-level AND conjuncts over the designated column with constant bounds
 * are taken; everything else stays in the residual predicate.
 */
import { T } from "../base/types.ts";
import type { Interval } from "../base/values.ts";
import { parseTimestamp } from "../functions/timestamp_parse.ts";
import { type BoundExpr, isConst } from "./bound.ts";

const MIN = -(2n ** 63n) + 1n;
const MAX = 2n ** 63n - 1n;

export function conjuncts(e: BoundExpr): BoundExpr[] {
  return e.kind === "and" ? e.args.flatMap(conjuncts) : [e];
}

export function andAll(parts: BoundExpr[]): BoundExpr | undefined {
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : { kind: "and", type: T.BOOLEAN, args: parts };
}

export function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    const lo = a[i].lo > b[j].lo ? a[i].lo : b[j].lo;
    const hi = a[i].hi < b[j].hi ? a[i].hi : b[j].hi;
    if (lo <= hi) out.push({ lo, hi });
    if (a[i].hi < b[j].hi) i++;
    else j++;
  }
  return out;
}

function complement(a: Interval[]): Interval[] {
  const out: Interval[] = [];
  let from = MIN;
  for (const iv of a) {
    if (iv.lo > from) out.push({ lo: from, hi: iv.lo - 1n });
    from = iv.hi + 1n;
  }
  if (from <= MAX) out.push({ lo: from, hi: MAX });
  return out;
}

function intervalOf(e: BoundExpr, tsIndex: number): Interval[] | undefined {
  if (e.kind === "inIntervals" && e.arg.kind === "column" && e.arg.index === tsIndex) {
    return e.not ? complement(e.intervals) : e.intervals;
  }
  if (e.kind !== "call" || e.args.length !== 2) return undefined;
  const [a, b] = e.args;
  let op = e.name;
  let c: BoundExpr;
  const tsType = (a.kind === "column" && a.index === tsIndex ? a : b).type.tag;
  if (a.kind === "column" && a.index === tsIndex && isConst(b)) c = b;
  else if (b.kind === "column" && b.index === tsIndex && isConst(a)) {
    c = a;
    op = ({ "<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=" } as Record<string, string>)[op] ?? "";
  } else return undefined;
  if (!isConst(c)) return undefined;
  let v: bigint;
  if (typeof c.value === "bigint" && (c.type.tag === "TIMESTAMP" || c.type.tag === "TIMESTAMP_NS")) {
    // A constant of the other unit compares in nanoseconds (compare_domain.ts): left to the filter.
    if (c.type.tag !== tsType) return undefined;
    v = c.value;
  } else if (typeof c.value === "string" && (c.type.tag === "STRING" || c.type.tag === "VARCHAR")) {
    // A timestamp compared with text compares with the instant the text names (§8.4: a point).
    const t = parseTimestamp(c.value, tsType === "TIMESTAMP_NS" ? "ns" : "us");
    if (t === undefined) return undefined;
    v = t;
  } else return undefined;
  switch (op) {
    case "=":
      return [{ lo: v, hi: v }];
    case ">":
      return [{ lo: v + 1n, hi: MAX }];
    case ">=":
      return [{ lo: v, hi: MAX }];
    case "<":
      return [{ lo: MIN, hi: v - 1n }];
    case "<=":
      return [{ lo: MIN, hi: v }];
  }
  return undefined;
}

/** Splits `pred` into timestamp intervals (undefined = unconstrained) and the residual predicate. */
export function intervalsFromWhere(
  pred: BoundExpr,
  tsIndex: number,
): { intervals?: Interval[]; rest?: BoundExpr } {
  let intervals: Interval[] | undefined;
  const rest: BoundExpr[] = [];
  for (const c of conjuncts(pred)) {
    const iv = tsIndex >= 0 ? intervalOf(c, tsIndex) : undefined;
    if (iv) intervals = intervals ? intersect(intervals, iv) : iv;
    else rest.push(c);
  }
  return { intervals, rest: andAll(rest) };
}

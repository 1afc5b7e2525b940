/**
 * UNION, EXCEPT, INTERSECT and their ALL forms (spec/sql.md §7.10). Both inputs arrive with
 * the same column types (the planner casts them to the common types).
 */
import type { Batch } from "../base/values.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { rowKey } from "./distinct.ts";
import { BatchWords, columnFamily, KeyEncoder, WordSet } from "./key_words.ts";
import { referenceExecution } from "./vector/physical.ts";
import { parallelOf } from "./vector/hash_parallel.ts";
import { runParallelSetOp } from "./vector/setop_parallel.ts";
import {
  charge,
  checkCancelled,
  type ExecContext,
  pace,
  PACE_MASK,
  paceDue,
  rowBytes,
} from "./exec_context.ts";

type SetOpNode = Extract<PlanNode, { kind: "setop" }>;

/**
 * The operator that runs `n` (EXPLAIN prints it): UNION ALL appends; the others hash whole
 * batches when every column has a word encoding (key_words.ts), else compare rows by key.
 */
export function setOpOp(n: SetOpNode): "append" | "vectorized hash" | "row at a time" {
  if (n.op === "union" && n.all) return "append";
  if (referenceExecution()) return "row at a time";
  return n.left.columns.every((c) => columnFamily(c.type.tag)) ? "vectorized hash" : "row at a time";
}

export function runSetOp(
  n: SetOpNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  if (parallelOf(n)) return runChosenParallel(n, left, right, ctx);
  return setOpOp(n) === "vectorized hash"
    ? runHashSetOp(n, left, right, ctx)
    : runRowSetOp(n, left, right, ctx);
}

/**
 * Chosen for this plan (EXPLAIN shows it): hash partitions on the worker heaps, merged here
 * (vector/setop_parallel.ts); this heap's hash sets when the pool declines.
 */
async function* runChosenParallel(
  n: SetOpNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const merged = await runParallelSetOp(n, ctx);
  if (merged) yield* merged;
  else yield* runHashSetOp(n, left, right, ctx);
}

/** A batch's rows as key words, one encoder per column (text ids shared), and a flag per row. */
class RowWords extends BatchWords {
  flags = new Uint8Array(0);

  constructor(n: SetOpNode, texts: Map<string, number>[]) {
    super(
      n.left.columns.map((c, k) => new KeyEncoder(columnFamily(c.type.tag)!, texts[k], true)),
      n.left.columns.map((_, k) => k),
    );
  }

  override encode(b: Batch): void {
    super.encode(b);
    if (this.flags.length < b.rowCount) this.flags = new Uint8Array(this.hashes.length);
  }

  /** The rows whose flag is `want`. */
  selected(count: number, want: number): number[] {
    const sel: number[] = [];
    for (let i = 0; i < count; i++) if (this.flags[i] === want) sel.push(i);
    return sel;
  }
}

/** UNION, EXCEPT, INTERSECT (and their ALL forms but UNION ALL) as hash sets of row words. */
async function* runHashSetOp(
  n: SetOpNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const width = n.left.columns.length;
  const texts = n.left.columns.map(() => new Map<string, number>());
  const words = new RowWords(n, texts);
  if (n.op === "union") {
    const seen = new WordSet(width);
    for (const side of [left, right]) {
      for await (const b of side) {
        checkCancelled(ctx);
        if (b.rowCount === 0) continue;
        words.encode(b);
        seen.add(words.hi, words.lo, words.hashes, b.rowCount, words.flags);
        const sel = words.selected(b.rowCount, 1);
        // Every distinct row's words are held in `seen` until the end.
        charge(ctx, rowBytes(sel.length, width));
        if (sel.length) yield sel.length === b.rowCount ? b : gather(b, sel);
        await pace(ctx);
      }
    }
    return;
  }
  const rightRows = new WordSet(width);
  for await (const b of right) {
    checkCancelled(ctx);
    if (b.rowCount === 0) continue;
    const before = rightRows.size;
    words.encode(b);
    rightRows.add(words.hi, words.lo, words.hashes, b.rowCount, words.flags);
    // EXCEPT / INTERSECT hold the right side's distinct rows while the left streams.
    charge(ctx, rowBytes(rightRows.size - before, width));
    await pace(ctx);
  }
  const emitted = new WordSet(width);
  const keep = n.op === "intersect" ? 1 : 0;
  let found = new Uint8Array(0);
  for await (const b of left) {
    checkCancelled(ctx);
    const count = b.rowCount;
    if (count === 0) continue;
    words.encode(b);
    if (found.length < count) found = new Uint8Array(count);
    rightRows.has(words.hi, words.lo, words.hashes, count, found);
    let sel: number[] = [];
    for (let i = 0; i < count; i++) if (found[i] === keep) sel.push(i);
    if (!n.all && sel.length) {
      // The first of equal left rows only: the kept rows' words, added to the emitted set.
      const pick = new Int32Array(sel);
      const hi = words.hi.map((w) => pick.map((i) => w[i]));
      const lo = words.lo.map((w) => pick.map((i) => w[i]));
      const hashes = pick.map((i) => words.hashes[i]);
      const fresh = new Uint8Array(sel.length);
      emitted.add(hi, lo, hashes, sel.length, fresh);
      sel = sel.filter((_, j) => fresh[j] === 1);
      charge(ctx, rowBytes(sel.length, width));
    }
    if (sel.length) yield sel.length === count ? b : gather(b, sel);
    await pace(ctx);
  }
}

/** The reference: rows compared by their scalar keys (rowKey). */
async function* runRowSetOp(
  n: SetOpNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  if (n.op === "union") {
    const seen = new Set<unknown>();
    for (const side of [left, right]) {
      for await (const b of side) {
        checkCancelled(ctx);
        if (n.all) {
          yield b;
          continue;
        }
        const sel: number[] = [];
        for (let i = 0; i < b.rowCount; i++) {
          if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
          const k = rowKey(b, i);
          if (!seen.has(k)) {
            seen.add(k);
            sel.push(i);
          }
        }
        // Every distinct row's key is held in `seen` until the end (UNION ALL holds nothing).
        charge(ctx, rowBytes(sel.length, b.columns.length));
        if (sel.length) yield gather(b, sel);
      }
    }
    return;
  }
  const rightKeys = new Set<unknown>();
  for await (const b of right) {
    checkCancelled(ctx);
    const before = rightKeys.size;
    for (let i = 0; i < b.rowCount; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      rightKeys.add(rowKey(b, i));
    }
    // EXCEPT / INTERSECT hold the right side's distinct rows as keys while the left streams.
    charge(ctx, rowBytes(rightKeys.size - before, b.columns.length));
  }
  const emitted = new Set<unknown>();
  const keepIfInRight = n.op === "intersect";
  for await (const b of left) {
    checkCancelled(ctx);
    const sel: number[] = [];
    for (let i = 0; i < b.rowCount; i++) {
      if ((i & PACE_MASK) === PACE_MASK && paceDue(ctx)) await pace(ctx);
      const k = rowKey(b, i);
      if (rightKeys.has(k) !== keepIfInRight) continue;
      if (!n.all) {
        if (emitted.has(k)) continue;
        emitted.add(k);
      }
      sel.push(i);
    }
    if (!n.all) charge(ctx, rowBytes(sel.length, b.columns.length));
    if (sel.length) yield gather(b, sel);
  }
}

/**
 * `UPDATE t SET ... FROM source [JOIN ...] [WHERE ...]` (spec/sql.md §6.2). The source is
 * planned as a SELECT's FROM clause, run once and held as one batch. Each target row that
 * matches WHERE with some source row takes its new values from the first such source row, in
 * the source's order; a target row matched by none keeps its values.
 *
 * Expressions are bound over the target's columns followed by the source's, so a pair of rows
 * is one row of a gathered batch. Equalities of WHERE between an expression of the target
 * alone and one of the source alone, of the same type family, choose candidate pairs through a
 * hash of the source side; the whole WHERE then decides on every candidate, so NULL and
 * comparison semantics are exactly the row evaluator's. Without such an equality every pair
 * is a candidate (a cross join, as QuestDB runs it).
 */
import type { ColumnType } from "../base/types.ts";
import type { Batch, Value, Vector } from "../base/values.ts";
import { conjuncts } from "../plan/intervals_from_where.ts";
import type { BoundExpr } from "../plan/bound.ts";
import { valueKey } from "../plan/bound.ts";
import { uses } from "../plan/prune_columns.ts";
import { batchToRows, gather, rowsToBatch } from "./batch_util.ts";
import { compileExpr } from "./compile_expr.ts";
import { type ExecContext, pace } from "./exec_context.ts";

/** Candidate pairs gathered and tested at once: bounds the memory of a cross join's pairs. */
const PAIRS_PER_CHUNK = 262_144;

export interface UpdateSource {
  /** Columns of the target (0 .. targetWidth-1) then of the source. */
  readonly targetWidth: number;
  readonly rows: Batch;
}

/** Runs the source once and keeps its rows as one batch (its types as planned). */
export async function holdSource(types: ColumnType[], batches: AsyncIterable<Batch>): Promise<Batch> {
  const rows: Value[][] = [];
  for await (const b of batches) for (const r of batchToRows(b)) rows.push(r);
  return rowsToBatch(types, rows);
}

/** One equality usable as a hash key: the target-side and source-side evaluators. */
interface KeyPair {
  target: (b: Batch, i: number) => Value;
  source: (b: Batch, i: number) => Value;
}

const INTEGRAL = new Set(["BYTE", "SHORT", "INT", "LONG"]);
const TEXT = new Set(["STRING", "VARCHAR", "SYMBOL"]);

/** Types whose values compare equal exactly when their hash keys (keyOf) are equal. */
function sameFamily(a: ColumnType, b: ColumnType): boolean {
  return a.tag === b.tag || (INTEGRAL.has(a.tag) && INTEGRAL.has(b.tag)) ||
    (TEXT.has(a.tag) && TEXT.has(b.tag));
}

function keyOf(v: Value): unknown {
  if (typeof v === "bigint" && v >= -9007199254740991n && v <= 9007199254740991n) return Number(v);
  return valueKey(v);
}

function sideOf(e: BoundExpr, width: number): "target" | "source" | undefined {
  const cols = uses([e], new Set());
  if (cols.size === 0) return undefined;
  const all = [...cols];
  if (all.every((c) => c < width)) return "target";
  if (all.every((c) => c >= width)) return "source";
  return undefined;
}

function keyPairs(where: BoundExpr | undefined, width: number, ctx: ExecContext): KeyPair[] {
  if (!where) return [];
  const out: KeyPair[] = [];
  for (const c of conjuncts(where)) {
    if (c.kind !== "call" || c.name !== "=" || c.args.length !== 2) continue;
    const [a, b] = c.args;
    if (!sameFamily(a.type, b.type)) continue;
    const sa = sideOf(a, width), sb = sideOf(b, width);
    if (sa === "target" && sb === "source") {
      out.push({ target: compileExpr(a, ctx), source: compileExpr(b, ctx) });
    } else if (sa === "source" && sb === "target") {
      out.push({ target: compileExpr(b, ctx), source: compileExpr(a, ctx) });
    }
  }
  return out;
}

/** Target columns in place and the source's after them, all holding `rowCount` rows. */
function widen(part: Batch, at: "target" | "source", width: number, total: number): Batch {
  const empty: Vector = { type: part.columns[0]?.type, data: [] } as Vector;
  const columns = new Array<Vector>(total).fill(empty);
  const from = at === "target" ? 0 : width;
  part.columns.forEach((v, i) => columns[from + i] = v);
  return { rowCount: part.rowCount, columns };
}

function hashKey(keys: KeyPair[], side: "target" | "source", b: Batch, i: number): string {
  const parts = keys.map((k) => keyOf(k[side](b, i)));
  return JSON.stringify(parts, (_k, v) => typeof v === "bigint" ? `b${v}` : v);
}

/**
 * Matches the rows of one target partition against the source. Returns, in ascending target
 * order, the target rows WHERE accepts and one batch whose row k is the pair (target row
 * rows[k], its first matching source row): the batch the SET expressions read.
 */
export class SourceMatcher {
  readonly #source: UpdateSource;
  readonly #keys: KeyPair[];
  readonly #pred: ((b: Batch, i: number) => boolean) | undefined;
  readonly #ctx: ExecContext;
  /** Source rows by key (built on the first partition). */
  #byKey: Map<string, number[]> | undefined;

  constructor(
    source: UpdateSource,
    where: BoundExpr | undefined,
    pred: ((b: Batch, i: number) => boolean) | undefined,
    ctx: ExecContext,
  ) {
    this.#source = source;
    this.#keys = keyPairs(where, source.targetWidth, ctx);
    this.#pred = pred;
    this.#ctx = ctx;
  }

  async match(target: Batch): Promise<{ rows: number[]; pairs: Batch }> {
    const width = this.#source.targetWidth;
    const src = this.#source.rows;
    const total = width + src.columns.length;
    const byKey = await this.#index(total);
    const wideTarget = widen(target, "target", width, total);
    const rows: number[] = [];
    const chosenSource: number[] = [];
    let ti: number[] = [], sj: number[] = [];
    const test = async () => {
      if (ti.length === 0) return;
      const pairs = this.#pairBatch(target, ti, sj);
      let last = -1;
      for (let k = 0; k < ti.length; k++) {
        if (ti[k] === last) continue;
        if (!this.#pred || this.#pred(pairs, k)) {
          last = ti[k];
          rows.push(ti[k]);
          chosenSource.push(sj[k]);
        }
      }
      ti = [];
      sj = [];
      await pace(this.#ctx);
    };
    for (let i = 0; i < target.rowCount; i++) {
      const candidates = byKey ? byKey.get(hashKey(this.#keys, "target", wideTarget, i)) : undefined;
      if (byKey && !candidates) continue;
      // One target row's candidates stay in one chunk, so its first match is found in order.
      const n = candidates ? candidates.length : src.rowCount;
      if (ti.length > 0 && ti.length + n > PAIRS_PER_CHUNK) await test();
      for (let k = 0; k < n; k++) {
        ti.push(i);
        sj.push(candidates ? candidates[k] : k);
        if (!candidates && ti.length >= PAIRS_PER_CHUNK && k + 1 < n) {
          // A cross join's row with more candidates than a chunk: test what it has so far,
          // then go on with its remaining candidates unless one already matched.
          const before = rows.length;
          await test();
          if (rows.length > before) break;
        }
      }
    }
    await test();
    return { rows, pairs: this.#pairBatch(target, rows, chosenSource) };
  }

  #pairBatch(target: Batch, ti: number[], sj: number[]): Batch {
    const t = gather(target, ti);
    const s = gather(this.#source.rows, sj);
    return { rowCount: ti.length, columns: [...t.columns, ...s.columns] };
  }

  async #index(total: number): Promise<Map<string, number[]> | undefined> {
    if (this.#keys.length === 0) return undefined;
    if (this.#byKey) return this.#byKey;
    const src = widen(this.#source.rows, "source", this.#source.targetWidth, total);
    const byKey = new Map<string, number[]>();
    for (let j = 0; j < src.rowCount; j++) {
      if ((j & 0xffff) === 0) await pace(this.#ctx);
      const k = hashKey(this.#keys, "source", src, j);
      const list = byKey.get(k);
      if (list) list.push(j);
      else byKey.set(k, [j]);
    }
    this.#byKey = byKey;
    return byKey;
  }
}

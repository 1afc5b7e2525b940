/** Leaf operators that are not tables: SELECT without FROM, constant rows, long_sequence(), meta functions. */
import { SqlError } from "../base/errors.ts";
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import type { Batch, Value } from "../base/values.ts";
import { T } from "../base/types.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { rowsToBatch, rowsToBatches } from "./batch_util.ts";
import { compileExpr } from "./compile_expr.ts";
import { runSeries, type Series } from "./generate_series.ts";
import { type ExecContext, pace } from "./exec_context.ts";
import { readParquetBatches, rowGroupSpans } from "../parquet/reader.ts";
import type { ParquetScan } from "../plan/parquet_pushdown.ts";

const EMPTY: Batch = { rowCount: 1, columns: [] };

function evalConst(e: Parameters<typeof compileExpr>[0], ctx: ExecContext): Value {
  return compileExpr(e, ctx)(EMPTY, 0);
}

export function* runValues(n: Extract<PlanNode, { kind: "values" }>, ctx: ExecContext): Generator<Batch> {
  const rows = n.rows.map((r) => r.map((e) => evalConst(e, ctx)));
  yield rowsToBatch(n.columns.map((c) => c.type), rows);
}

export function* runRows(n: Extract<PlanNode, { kind: "rows" }>): Generator<Batch> {
  yield* rowsToBatches(n.columns.map((c) => c.type), n.rows);
}

/**
 * `data` filled with first, first + 1, ... as little-endian 32-bit word pairs: a BigInt per
 * row cost ~15 ns of the ~25 a sum over long_sequence() took. Values stay below 2^53, so the
 * high word is exact.
 */
export function writeSequence(data: BigInt64Array, first: number): void {
  const words = new Int32Array(data.buffer, data.byteOffset, data.length * 2);
  for (let i = 0, v = first; i < data.length; i++, v++) {
    words[2 * i] = v | 0;
    words[2 * i + 1] = Math.floor(v / 4294967296);
  }
}

export async function* runLongSequence(
  n: Extract<PlanNode, { kind: "longSequence" }>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const raw = evalConst(n.count, ctx);
  // A negative count yields no rows, as in QuestDB (SqlCodeGeneratorTest#testLongCursor).
  const count = raw === null ? 0 : Math.max(0, Number(raw));
  if (!Number.isFinite(count)) {
    throw new SqlError("long_sequence: count must be a non-negative number", -1);
  }
  if (n.seed) {
    const s0 = evalConst(n.seed[0], ctx), s1 = evalConst(n.seed[1], ctx);
    ctx.evalContext.random.reseed(BigInt(s0 as bigint ?? 0), BigInt(s1 as bigint ?? 0));
  }
  for (let at = 0; at < count; at += BATCH_ROWS_MAX) {
    await pace(ctx);
    const len = Math.min(BATCH_ROWS_MAX, count - at);
    const data = new BigInt64Array(len);
    writeSequence(data, at + 1);
    yield { rowCount: len, columns: [{ type: T.LONG, data }] };
  }
}

export async function* runGenerator(
  n: Extract<PlanNode, { kind: "generator" }>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  if (n.name === "read_parquet") {
    const scan = n.args[0] as unknown as ParquetScan;
    for await (
      const b of readParquetBatches(scan.src, scan.columns, rowGroupSpans(scan.src.metadata, scan.bounds))
    ) {
      await pace(ctx);
      yield b;
    }
    return;
  }
  if (n.name === "generate_series") {
    for (const b of runSeries(n.args[0] as unknown as Series)) {
      await pace(ctx);
      yield b;
    }
    return;
  }
  yield* rowsToBatches(n.columns.map((c) => c.type), await ctx.meta.rowsOf(n.name, n.args));
}

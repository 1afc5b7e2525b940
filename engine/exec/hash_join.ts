/**
 * INNER, LEFT, RIGHT and FULL hash joins over column batches (the planner picks it when every
 * equality key pairs columns of one family: integers, floats or text; `joinKeyFamilies`), with
 * the semantics of the row join it replaces (join.ts, kept as the reference): NULL matches
 * NULL (spec/sql.md §11.2), output in left-input order and, per left row, the right rows in
 * their order; unmatched right rows (RIGHT/FULL) come last.
 *
 * Build: the right side is copied column by column (column_buffer.ts) and each key value is
 * encoded as two 32-bit words: integers as their 64-bit value, floats as their bits (every
 * non-finite value one NULL, -0 as 0), text as an id from a map the two sides share (symbol
 * dictionaries map each key once). A chained table over a hash of the words links each
 * bucket's rows in ascending order. Probe: a left batch's keys are encoded the same way (text
 * the build never saw gets an id that matches nothing), each row walks its chain comparing
 * words, and the matches become (left row, right row) index pairs, gathered into output
 * batches of at most BATCH_ROWS_MAX rows. The ON condition's non-equality part is checked on
 * those output batches; a LEFT/RIGHT/FULL join with such a part stays on the row join.
 */
import { allocVectorData, type Batch, type Vector } from "../base/values.ts";
import type { ColumnType } from "../base/types.ts";
import { BATCH_ROWS_MAX } from "../base/limits.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { gather } from "./batch_util.ts";
import { ColumnBuffer } from "./column_buffer.ts";
import { compilePredicate } from "./compile_expr.ts";
import { charge, checkCancelled, type ExecContext, pace, rowBytes } from "./exec_context.ts";
import { referenceExecution } from "./vector/physical.ts";
import { BatchWords, hashRows, Ints, KeyEncoder, type KeyFamily } from "./key_words.ts";

type JoinNode = Extract<PlanNode, { kind: "join" }>;

const INT_FAMILY = new Set(["BYTE", "SHORT", "INT", "LONG"]);
const TEXT_FAMILY = new Set(["SYMBOL", "STRING", "VARCHAR"]);
/** Types compared to themselves only (their values are in different units across types). */
const SAME_TYPE_INTS = new Set(["DATE", "TIMESTAMP", "TIMESTAMP_NS"]);

function familyOf(l: ColumnType, r: ColumnType): KeyFamily | undefined {
  if (INT_FAMILY.has(l.tag) && INT_FAMILY.has(r.tag)) return "int";
  if (SAME_TYPE_INTS.has(l.tag) && l.tag === r.tag) return "int";
  if ((l.tag === "DOUBLE" || l.tag === "FLOAT") && (r.tag === "DOUBLE" || r.tag === "FLOAT")) return "float";
  if (TEXT_FAMILY.has(l.tag) && TEXT_FAMILY.has(r.tag)) return "text";
  return undefined;
}

/** The join operator that runs `n`; EXPLAIN prints it. */
export function joinOp(n: JoinNode): "vectorized hash" | "hash" | "nested loop" {
  if (n.equi.length === 0) return "nested loop";
  return !referenceExecution() && joinKeyFamilies(n) ? "vectorized hash" : "hash";
}

/**
 * The key families of a join the batch hash join can run, or undefined (the row join runs):
 * it needs equality keys, each pairing two columns of one family, and no non-equality
 * condition unless the join is INNER.
 */
export function joinKeyFamilies(n: JoinNode): KeyFamily[] | undefined {
  if (n.equi.length === 0 || n.type === "cross") return undefined;
  if (n.condition && n.type !== "inner") return undefined;
  const leftWidth = n.left.columns.length;
  const families: KeyFamily[] = [];
  for (const [l, r] of n.equi) {
    const f = familyOf(n.left.columns[l].type, n.right.columns[r - leftWidth].type);
    if (!f) return undefined;
    families.push(f);
  }
  return families;
}

/** The buffered right side: its columns, key words, and the chained table over them. */
export interface Build {
  buffers: ColumnBuffer[];
  rows: number;
  /**
   * Per right row one stride: the next row of its bucket (-1: end), its hash, then each key's
   * two words; a probe reads one cache line per candidate row.
   */
  table: Int32Array;
  stride: number;
  /** Bucket → first row (ascending chain), -1: none. */
  first: Int32Array;
  mask: number;
  /**
   * For a large build side, a blocked bloom filter over the hashes (setBloom): a probe row
   * whose word lacks one of its two bits has no match, found in a table that stays in the
   * cache instead of a miss in `first` (most rows of a selective join).
   */
  bloom?: Int32Array;
  bloomShift: number;
}

/** Build sides from this many rows get a bloom filter (smaller tables stay in the cache). */
const BLOOM_ROWS_MIN = 1 << 16;

/** Bloom filter bits per build row (see setBloom). */
const BLOOM_BITS_PER_ROW = 16;

/** Build rows per pass between two looks at pace() (a power of two). */
const BUILD_CHUNK = 1 << 17;

export async function build(
  n: JoinNode,
  right: AsyncIterable<Batch>,
  encoders: KeyEncoder[],
  ctx: ExecContext,
  /** Allocates the table, bucket heads and bloom filter (the parallel probe's are shared memory). */
  ints: (length: number) => Int32Array = (length) => new Int32Array(length),
): Promise<Build> {
  const leftWidth = n.left.columns.length;
  const keyCols = n.equi.map((k) => k[1] - leftWidth);
  const buffers = n.right.columns.map((c) => new ColumnBuffer(c.type));
  const his = keyCols.map(() => new Ints()), los = keyCols.map(() => new Ints());
  let hiScratch = new Int32Array(0), loScratch = new Int32Array(0);
  let rows = 0, capacity = 0;
  for await (const b of right) {
    checkCancelled(ctx);
    const count = b.rowCount;
    if (count === 0) continue;
    // The build side plus its key words, hash and chain link per row.
    charge(ctx, rowBytes(count, n.right.columns.length + 2 * keyCols.length + 2));
    if (rows + count > capacity) {
      capacity = Math.max(rows + count, capacity * 2, 1024);
      for (const c of buffers) c.ensure(capacity, rows);
    }
    buffers.forEach((c, k) => c.append(b.columns[k], 0, count, rows, capacity));
    if (hiScratch.length < count) {
      hiScratch = new Int32Array(count);
      loScratch = new Int32Array(count);
    }
    keyCols.forEach((col, k) => {
      encoders[k].encode(b.columns[col], count, hiScratch, loScratch);
      his[k].append(hiScratch, count);
      los[k].append(loScratch, count);
    });
    rows += count;
    await pace(ctx);
  }
  const hi = his.map((h) => h.data), lo = los.map((l) => l.data);
  let size = 16;
  while (size < rows * 2) size *= 2;
  const mask = size - 1;
  const first = ints(size).fill(-1);
  const hashes = new Int32Array(rows);
  // Each pass over the build rows goes in chunks with pace() between them: the parallel probe
  // builds on the main thread (join_parallel.ts), where a million rows held the loop ~0.4 s.
  for (let a = 0; a < rows; a += BUILD_CHUNK) {
    const b = Math.min(rows, a + BUILD_CHUNK);
    hashRows(hi.map((h) => h.subarray(a, b)), lo.map((l) => l.subarray(a, b)), b - a, hashes.subarray(a, b));
    await pace(ctx);
  }
  const stride = 2 + 2 * keyCols.length;
  const table = ints(rows * stride);
  // The passes' loops are plain functions: a loop in this async function (it awaits pace())
  // ran several times slower (~60 ms of main-thread CPU per 1M-row build).
  for (let a = 0; a < rows; a += BUILD_CHUNK) {
    const b = Math.min(rows, a + BUILD_CHUNK);
    for (let k = 0; k < keyCols.length; k++) tableWords(table, stride, 2 + 2 * k, hi[k], lo[k], a, b);
    await pace(ctx);
  }
  // Linked from the last row back, so that each chain reads in ascending row order.
  for (let b = rows; b > 0; b -= BUILD_CHUNK) {
    linkRows(table, stride, first, mask, hashes, Math.max(0, b - BUILD_CHUNK), b);
    await pace(ctx);
  }
  let bloom: Int32Array | undefined, bloomShift = 0;
  if (rows >= BLOOM_ROWS_MIN) {
    let words = 1 << 15;
    while (words * 32 < rows * BLOOM_BITS_PER_ROW && words < 1 << 23) words *= 2;
    bloom = ints(words);
    bloomShift = 32 - Math.log2(words);
    for (let a = 0; a < rows; a += BUILD_CHUNK) {
      setBloom(bloom, bloomShift, hashes, a, Math.min(rows, a + BUILD_CHUNK));
      await pace(ctx);
    }
  }
  return { buffers, rows, table, stride, first, mask, bloom, bloomShift };
}

/** Rows [a, b) of one key's words into the table, at `offset` of each row's stride. */
function tableWords(
  table: Int32Array,
  stride: number,
  offset: number,
  hi: Int32Array,
  lo: Int32Array,
  a: number,
  b: number,
): void {
  for (let r = a, at = a * stride + offset; r < b; r++, at += stride) {
    table[at] = hi[r];
    table[at + 1] = lo[r];
  }
}

/** Links rows [a, b) into their buckets' chains, last row first (chains end up ascending). */
function linkRows(
  table: Int32Array,
  stride: number,
  first: Int32Array,
  mask: number,
  hashes: Int32Array,
  a: number,
  b: number,
): void {
  for (let r = b - 1; r >= a; r--) {
    const h = hashes[r], bucket = h & mask;
    table[r * stride] = first[bucket];
    table[r * stride + 1] = h;
    first[bucket] = r;
  }
}

/**
 * Adds the hashes of rows [a, b) to a blocked bloom filter: one 32-bit word per row, chosen by
 * the high bits of the hash times the golden ratio, with three bits in it set from the hash's
 * low fifteen bits (a probe tests one word against `bloomMask`). At 16 bits a row about 1% of
 * the probe rows without a match pass, against 6% for the one-bit-per-hash filter it replaces
 * (same size): each row that passes costs two cache misses (bucket head, table row), ~250 ns
 * each on this machine, which made them most of a probe of a 10M-row table against a 1M-row
 * build (issue #16: 57 ns a probe row).
 */
function setBloom(bloom: Int32Array, shift: number, hashes: Int32Array, a: number, b: number): void {
  for (let r = a; r < b; r++) {
    const h = hashes[r];
    bloom[Math.imul(h, 0x9e3779b1) >>> shift] |= bloomMask(h);
  }
}

/** The three bits of a hash in its bloom word (shift counts are taken mod 32). */
export function bloomMask(h: number): number {
  return (1 << h) | (1 << (h >>> 5)) | (1 << (h >>> 10));
}

/**
 * Per probe row, the first build row of its hash's chain, or -1 when the bloom filter says no
 * row has its hash. One tight pass before the chains are walked: its loads are independent, so
 * the filter's cache misses overlap (inside the probe loop, with its chain walks and stores,
 * the filter test cost ~45 ns a row on trades x quotes).
 */
export function chainStarts(
  hs: Int32Array,
  n: number,
  bloom: Int32Array | undefined,
  shift: number,
  first: Int32Array,
  mask: number,
  out: Int32Array,
): void {
  if (!bloom) {
    for (let i = 0; i < n; i++) out[i] = first[hs[i] & mask];
    return;
  }
  for (let i = 0; i < n; i++) {
    const h = hs[i], m = bloomMask(h);
    out[i] = (bloom[Math.imul(h, 0x9e3779b1) >>> shift] & m) === m ? first[h & mask] : -1;
  }
}

/** A NULL vector of `count` rows of `type` (the missing side of an outer join's row). */
function nullVector(type: ColumnType, count: number): Vector {
  if (type.tag === "SYMBOL") return { type, data: new Array(count).fill(null) };
  return { type, data: allocVectorData(type, count) };
}

export async function* runHashJoin(
  n: JoinNode,
  families: KeyFamily[],
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const texts = families.map(() => new Map<string, number>());
  const built = await build(n, right, families.map((f, k) => new KeyEncoder(f, texts[k], true)), ctx);
  const probeWords = new BatchWords(
    families.map((f, k) => new KeyEncoder(f, texts[k], false)),
    n.equi.map((k) => k[0]),
  );
  const keyCount = n.equi.length;
  const { first, table, stride, mask, buffers, bloom, bloomShift } = built;
  const keepLeft = n.type === "left" || n.type === "full";
  const keepRight = n.type === "right" || n.type === "full";
  const matchedRight = keepRight ? new Uint8Array(built.rows) : undefined;
  const cond = n.condition ? compilePredicate(n.condition, ctx) : undefined;
  const rightColumns = (rightRows: Int32Array, count: number) =>
    buffers.map((c) => c.gather(rightRows, count));

  try {
    yield* probe();
  } finally {
    for (const c of buffers) c.release();
  }

  async function* probe(): AsyncGenerator<Batch> {
    const leftRows = new Int32Array(BATCH_ROWS_MAX);
    const rightRows = new Int32Array(BATCH_ROWS_MAX);
    /** Per probe row of the batch, its chain's first build row (-1: none; chainStarts). */
    let starts = new Int32Array(0);
    let pairs = 0;
    /** The pairs so far as a batch (after the ON condition's rest, when there is one). */
    /** Pairs so far that have a right row (the others are a LEFT/FULL join's unmatched rows). */
    let matchedPairs = 0;
    const emit = (b: Batch): Batch | undefined => {
      const count = pairs;
      pairs = 0;
      // Every left row once, in order (a LEFT join that found nothing, a 1:1 join): the batch's
      // own vectors; no right row at all: NULL vectors, no gather.
      let identity = count === b.rowCount;
      for (let i = 0; identity && i < count; i++) identity = leftRows[i] === i;
      const right = matchedPairs === 0
        ? n.right.columns.map((c) => nullVector(c.type, count))
        : rightColumns(rightRows, count);
      matchedPairs = 0;
      const joined: Batch = {
        rowCount: count,
        columns: [...(identity ? b.columns : gather(b, leftRows, count).columns), ...right],
      };
      if (!cond) return joined;
      const keep = new Int32Array(count);
      let kept = 0;
      for (let i = 0; i < count; i++) if (cond(joined, i)) keep[kept++] = i;
      return kept === 0 ? undefined : kept === count ? joined : gather(joined, keep, kept);
    };

    // Where the probe of the current batch stopped when the pairs filled up: its row, the next
    // candidate of that row's chain (-2: the row's chain not started), whether it matched.
    let atRow = 0, atCandidate = -2, atMatched = false;
    /**
     * Probes rows of the batch from where the last call stopped until the pairs are full (false)
     * or the batch is done (true). A plain function, not the generator: V8 runs a loop with a
     * `yield` in it far slower.
     */
    const fill = (
      count: number,
      pHash: Int32Array,
      pHi: Int32Array[],
      pLo: Int32Array[],
      starts: Int32Array,
    ): boolean => {
      const phi0 = pHi[0], plo0 = pLo[0];
      let i = atRow, r = atCandidate, matched = atMatched;
      for (; i < count; i++, r = -2) {
        const h = pHash[i], x = phi0[i], y = plo0[i];
        if (r === -2) {
          matched = false;
          r = starts[i];
        }
        for (; r >= 0;) {
          const at = r * stride, nextRow = table[at];
          let same = table[at + 1] === h && table[at + 2] === x && table[at + 3] === y;
          for (let k = 1; k < keyCount && same; k++) {
            same = table[at + 2 + 2 * k] === pHi[k][i] && table[at + 3 + 2 * k] === pLo[k][i];
          }
          if (same) {
            matched = true;
            if (matchedRight) matchedRight[r] = 1;
            matchedPairs++;
            leftRows[pairs] = i;
            rightRows[pairs++] = r;
            if (pairs === BATCH_ROWS_MAX) {
              atRow = i;
              atCandidate = nextRow;
              atMatched = true;
              return false;
            }
          }
          r = nextRow;
        }
        if (!matched && keepLeft) {
          leftRows[pairs] = i;
          rightRows[pairs++] = -1;
          if (pairs === BATCH_ROWS_MAX) {
            atRow = i + 1;
            atCandidate = -2;
            return false;
          }
        }
      }
      atRow = 0;
      atCandidate = -2;
      return true;
    };

    for await (const b of left) {
      checkCancelled(ctx);
      const count = b.rowCount;
      if (count === 0) continue;
      probeWords.encode(b);
      if (starts.length < count) starts = new Int32Array(probeWords.hashes.length);
      chainStarts(probeWords.hashes, count, bloom, bloomShift, first, mask, starts);
      for (;;) {
        const done = fill(count, probeWords.hashes, probeWords.hi, probeWords.lo, starts);
        if (pairs > 0 && (pairs === BATCH_ROWS_MAX || done)) {
          const out = emit(b);
          if (out) yield out;
        }
        if (done) break;
        await pace(ctx);
      }
      await pace(ctx);
    }
    if (matchedRight) {
      const leftTypes = n.left.columns.map((c) => c.type);
      for (let from = 0; from < built.rows;) {
        let count = 0;
        for (; from < built.rows && count < BATCH_ROWS_MAX; from++) {
          if (!matchedRight[from]) rightRows[count++] = from;
        }
        if (count === 0) continue;
        yield {
          rowCount: count,
          columns: [...leftTypes.map((t) => nullVector(t, count)), ...rightColumns(rightRows, count)],
        };
        await pace(ctx);
      }
    }
  }
}

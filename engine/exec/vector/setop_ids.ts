/**
 * UNION, EXCEPT and INTERSECT (and EXCEPT ALL / INTERSECT ALL) on one heap through dense key
 * ids (issue #16): each column of a batch becomes a vector of value ids (key_ids.ts, one KeyIds
 * per column shared by both inputs: SYMBOLs by their text, so two tables' dictionaries agree),
 * several columns fold pairwise into one row id (IntPairHash, whose direct rectangle takes small
 * id pairs such as (symbol, qty) without hashing), and a byte per row id says whether the right
 * input holds it and whether it was emitted. Row ids are handed out in first-appearance order,
 * so a row whose id is new is the first of its values.
 *
 * Rows stream out batch by batch in input order, exactly as the row-at-a-time operator
 * (setop.ts runRowSetOp) emits them: NULLs equal each other, -0 equals 0, every non-finite
 * double is NULL.
 */
import type { Batch } from "../../base/values.ts";
import type { PlanNode } from "../../plan/plan_node.ts";
import { gather } from "../batch_util.ts";
import { charge, checkCancelled, type ExecContext, pace } from "../exec_context.ts";
import { IntPairHash } from "./int_hash.ts";
import { KeyIds } from "./key_ids.ts";

type SetOpNode = Extract<PlanNode, { kind: "setop" }>;

/** Bytes a distinct row costs in the id tables (values, hash slots, flags), per column. */
const ROW_BYTES = 48;

/**
 * Row ids of batches over both inputs, and a flag byte per row id (also the workers' and the
 * merge's of the parallel set operations: setop_parallel.ts). New ids are charged to `ctx`.
 */
export class RowIds {
  readonly #keyIds: KeyIds[];
  readonly #folds: IntPairHash[];
  #perKey: Int32Array[] = [];
  #tmp = new Int32Array(0);
  ids = new Int32Array(0);
  /** Row ids handed out so far. */
  size = 0;
  flags = new Uint8Array(1024);

  constructor(readonly width: number, readonly ctx?: ExecContext) {
    this.#keyIds = Array.from({ length: width }, () => new KeyIds());
    this.#folds = Array.from({ length: Math.max(0, width - 1) }, () => new IntPairHash());
  }

  /** Sets `ids` to the batch's row ids; new ids are charged and get zero flags. */
  map(b: Batch): Int32Array {
    const rows = b.rowCount, width = this.width;
    if (this.ids.length < rows) {
      this.ids = new Int32Array(rows);
      this.#tmp = new Int32Array(rows);
      this.#perKey = Array.from({ length: width }, () => new Int32Array(rows));
    }
    let size: number;
    let cur: Int32Array;
    if (width === 1) {
      this.#keyIds[0].map(b.columns[0], rows, this.ids);
      cur = this.ids;
      size = this.#keyIds[0].size;
    } else {
      const perKey = this.#perKey;
      this.#keyIds[0].map(b.columns[0], rows, perKey[0]);
      cur = perKey[0];
      for (let k = 1; k < width; k++) {
        this.#keyIds[k].map(b.columns[k], rows, perKey[k]);
        const out = k === width - 1 ? this.ids : (k % 2 ? this.#tmp : perKey[0]);
        this.#folds[k - 1].mapBatch(cur, perKey[k], rows, out);
        cur = out;
      }
      size = this.#folds[width - 2].size;
    }
    if (size > this.size) {
      if (this.ctx) charge(this.ctx, (size - this.size) * ROW_BYTES * width);
      if (size > this.flags.length) {
        const grown = new Uint8Array(Math.max(size, this.flags.length * 2));
        grown.set(this.flags);
        this.flags = grown;
      }
      this.size = size;
    }
    return cur;
  }
}

/** Flag bits: the right input holds the row id; a row of the id was emitted. */
export const IN_RIGHT = 1, EMITTED = 2;

export async function* runIdSetOp(
  n: SetOpNode,
  left: AsyncIterable<Batch>,
  right: AsyncIterable<Batch>,
  ctx: ExecContext,
): AsyncGenerator<Batch> {
  const ids = new RowIds(n.left.columns.length, ctx);
  let sel = new Int32Array(0);
  /**
   * The rows whose flags, masked by `mask`, equal `want`; each kept row's id is marked emitted
   * when `once` (a later row of the same id then fails a mask that includes EMITTED).
   */
  const pick = (b: Batch, mask: number, want: number, once: boolean): Batch | undefined => {
    const rows = b.rowCount;
    const cur = ids.map(b);
    const flags = ids.flags;
    if (sel.length < rows) sel = new Int32Array(rows);
    let count = 0;
    if (once) {
      for (let i = 0; i < rows; i++) {
        const id = cur[i], f = flags[id];
        if ((f & mask) !== want) continue;
        flags[id] = f | EMITTED;
        sel[count++] = i;
      }
    } else {
      for (let i = 0; i < rows; i++) if ((flags[cur[i]] & mask) === want) sel[count++] = i;
    }
    return count === 0 ? undefined : count === rows ? b : gather(b, sel, count);
  };
  if (n.op === "union") {
    for (const side of [left, right]) {
      for await (const b of side) {
        checkCancelled(ctx);
        if (b.rowCount === 0) continue;
        const out = pick(b, EMITTED, 0, true);
        if (out) yield out;
        await pace(ctx);
      }
    }
    return;
  }
  for await (const b of right) {
    checkCancelled(ctx);
    if (b.rowCount === 0) continue;
    const cur = ids.map(b), flags = ids.flags;
    for (let i = 0; i < b.rowCount; i++) flags[cur[i]] = IN_RIGHT;
    await pace(ctx);
  }
  const want = n.op === "intersect" ? IN_RIGHT : 0;
  // ALL keeps every left row of the wanted kind; otherwise the first of equal rows only.
  const mask = n.all ? IN_RIGHT : IN_RIGHT | EMITTED;
  for await (const b of left) {
    checkCancelled(ctx);
    if (b.rowCount === 0) continue;
    const out = pick(b, mask, want, !n.all);
    if (out) yield out;
    await pace(ctx);
  }
}

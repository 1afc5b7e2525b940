/**
 * SELECT DISTINCT through the hash aggregation's key machinery (issue #16): each column of a
 * batch becomes a vector of dense value ids (key_ids.ts), several columns fold pairwise into one
 * group id per row (IntPairHash), and a row whose group id is new is the first occurrence of its
 * values and is kept. Rows stream out batch by batch in input order, exactly as the row-at-a-time
 * Distinct (distinct.ts: NULLs equal each other, -0 equals 0) emits them.
 */
import type { Batch } from "../../base/values.ts";
import { gather } from "../batch_util.ts";
import { charge, checkCancelled, type ExecContext } from "../exec_context.ts";
import { IntPairHash } from "./int_hash.ts";
import { KeyIds } from "./key_ids.ts";

/** Bytes a distinct row costs in the id tables (key values, hash slots), for the memory charge. */
const ROW_BYTES = 48;

export async function* runHashDistinct(input: AsyncIterable<Batch>, ctx: ExecContext): AsyncGenerator<Batch> {
  let keyIds: KeyIds[] | undefined;
  let folds: IntPairHash[] = [];
  let perKey: Int32Array[] = [];
  let gids = new Int32Array(0), tmp = new Int32Array(0);
  let groups = 0;
  for await (const b of input) {
    checkCancelled(ctx);
    const rows = b.rowCount, width = b.columns.length;
    if (rows === 0) continue;
    if (!keyIds) {
      keyIds = b.columns.map(() => new KeyIds());
      folds = b.columns.slice(1).map(() => new IntPairHash());
    }
    if (gids.length < rows) {
      gids = new Int32Array(rows);
      tmp = new Int32Array(rows);
      perKey = b.columns.map(() => new Int32Array(rows));
    }
    let cur: Int32Array;
    let size: number;
    if (width === 1) {
      keyIds[0].map(b.columns[0], rows, gids);
      cur = gids;
      size = keyIds[0].size;
    } else {
      keyIds[0].map(b.columns[0], rows, perKey[0]);
      cur = perKey[0];
      for (let k = 1; k < width; k++) {
        keyIds[k].map(b.columns[k], rows, perKey[k]);
        const out = k === width - 1 ? gids : (k % 2 ? tmp : perKey[0]);
        folds[k - 1].mapBatch(cur, perKey[k], rows, out);
        cur = out;
      }
      size = folds[width - 2].size;
    }
    if (size === groups) continue;
    // Ids are handed out in first-appearance order: the row carrying id `groups` is new.
    const sel = new Int32Array(size - groups);
    let count = 0;
    for (let i = 0; i < rows && groups < size; i++) {
      if (cur[i] === groups) {
        sel[count++] = i;
        groups++;
      }
    }
    charge(ctx, count * ROW_BYTES * width);
    yield count === rows ? b : gather(b, sel, count);
  }
}

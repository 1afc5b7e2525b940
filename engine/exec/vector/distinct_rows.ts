/**
 * DISTINCT for any one-argument aggregate of the hash aggregation (`sum(DISTINCT x)`,
 * `stddev(DISTINCT x)`, `string_agg(DISTINCT s, ',')`, ...): marks the rows whose (group,
 * value) pair is seen for the first time, and the aggregate's typed-array state takes only
 * those rows. The row path (functions/aggregates.ts distinctOnly) feeds its accumulator the
 * first occurrence of each argument in input order, so the states see the same rows in the
 * same order. Values are told apart as KeyIds does (every non-finite double is NULL, -0.0 is
 * 0), which is the row path's keyPart equality for one column's values.
 */
import type { Vector } from "../../base/values.ts";
import { PairSet } from "./pair_set.ts";
import { IntPairHash } from "./int_hash.ts";
import { KeyIds } from "./key_ids.ts";

export class DistinctRows {
  #ids = new KeyIds();
  /** Further arguments (DISTINCT of weighted_avg(x, w), ...): their ids, folded with the first's. */
  #moreIds: KeyIds[] = [];
  #folds: IntPairHash[] = [];
  #moreVids = new Int32Array(0);
  #pairs = new PairSet();
  #vids = new Int32Array(0);
  #g = new Int32Array(0);
  #v = new Int32Array(0);
  #at = new Int32Array(0);
  #fresh = new Uint8Array(0);

  /** Bytes held by the (group, value) pairs and the values, for the memory budget. */
  get bytes(): number {
    return this.#pairs.bytes + this.#ids.bytes +
      this.#moreIds.reduce((s, x, k) => s + x.bytes + this.#folds[k].bytes, 0);
  }

  /**
   * out[i] = 1 for rows i < rows that `mask` keeps (all when absent) and whose (gids[i], value)
   * pair is new, else 0.
   */
  mark(gids: Int32Array, rows: number, args: Vector[], mask: Uint8Array | undefined, out: Uint8Array): void {
    if (this.#vids.length < rows) {
      this.#vids = new Int32Array(rows);
      this.#g = new Int32Array(rows);
      this.#v = new Int32Array(rows);
      this.#at = new Int32Array(rows);
      this.#fresh = new Uint8Array(rows);
      this.#moreVids = new Int32Array(rows);
    }
    const vids = this.#vids, g = this.#g, v = this.#v, at = this.#at, fresh = this.#fresh;
    this.#ids.map(args[0], rows, vids);
    // Several arguments: the tuple's id, the argument ids folded pairwise (as GROUP BY folds
    // keys), so a row is new when its (group, tuple) pair is, as the row path's tuple key.
    for (let k = 1; k < args.length; k++) {
      const ids = this.#moreIds[k - 1] ??= new KeyIds();
      const fold = this.#folds[k - 1] ??= new IntPairHash();
      ids.map(args[k], rows, this.#moreVids);
      fold.mapBatch(vids, this.#moreVids, rows, vids);
    }
    let m = 0;
    for (let i = 0; i < rows; i++) {
      out[i] = 0;
      if (mask && !mask[i]) continue;
      g[m] = gids[i];
      v[m] = vids[i];
      at[m++] = i;
    }
    this.#pairs.markNew(g, v, m, fresh);
    for (let k = 0; k < m; k++) if (fresh[k]) out[at[k]] = 1;
  }
}

/**
 * Randomized differential test of appends: random batches (in order, out of order, ties,
 * dedup hits, a column added midway, a reopen) against a plain in-memory model of the
 * semantics of spec/sql.md §5.1 and §6.1.
 */
import assert from "node:assert/strict";
import { T } from "../../../engine/base/types.ts";
import type { Value } from "../../../engine/base/values.ts";
import { openStorage } from "../../../engine/storage/mod.ts";
import type { Storage } from "../../../engine/storage/api.ts";
import { freshStorage, tableDef, tableRows } from "./_helpers.ts";

const HOUR = 3_600_000_000n;

/** A tiny deterministic generator so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** The model: rows in table order; `key` is the dedup identity when dedup is on. */
class Model {
  rows: Value[][] = [];
  constructor(readonly dedup: boolean) {}

  tieRanks(batch: Value[][]): number[] {
    return questdbTieRanks(this.rows, batch);
  }

  append(batch: Value[][]): void {
    const rank = this.dedup ? batch.map(() => 0) : this.tieRanks(batch);
    const sorted = batch.map((r, i) => ({ r, i })).sort((a, b) =>
      cmp(a.r[0] as bigint, b.r[0] as bigint) || rank[a.i] - rank[b.i] || a.i - b.i
    ).map((x) => x.r);
    let rows = sorted;
    if (this.dedup) {
      rows = [];
      for (const r of sorted) {
        const at = rows.findIndex((x) => x[0] === r[0] && x[1] === r[1]);
        if (at >= 0) rows[at] = r;
        else rows.push(r);
      }
    }
    for (const r of rows) {
      if (this.dedup) {
        const at = this.rows.findIndex((x) => x[0] === r[0] && x[1] === r[1]);
        if (at >= 0) {
          this.rows[at] = r;
          continue;
        }
      }
      let at = this.rows.length;
      while (at > 0 && (this.rows[at - 1][0] as bigint) > (r[0] as bigint)) at--;
      this.rows.splice(at, 0, r);
    }
  }
}

/**
 * QuestDB's order of equal timestamps in an out-of-order batch without dedup: the rows that
 * ascended from the table's newest row before the first row back in time rank 0, except those
 * in the hour (partition) of the last of them, which QuestDB moves behind the out-of-order
 * rows (rank 2); the out-of-order rows rank 1 (AsOfJoinTest#testAsOfJoinOnTripleSymbolKey).
 */
function questdbTieRanks(tableRows: Value[][], batch: Value[][]): number[] {
  let max = tableRows.length ? tableRows[tableRows.length - 1][0] as bigint : null;
  let first = 0;
  while (first < batch.length && (max === null || (batch[first][0] as bigint) >= max)) {
    max = batch[first++][0] as bigint;
  }
  if (first === 0 || first === batch.length) return batch.map(() => 0);
  const hour = (r: Value[]) => (r[0] as bigint) / HOUR;
  const lastHour = hour(batch[first - 1]);
  return batch.map((r, i) => i >= first ? 1 : hour(r) === lastHour ? 2 : 0);
}

function cmp(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function runModel(seed: number, dedup: boolean): Promise<void> {
  const rand = rng(seed);
  let { root, storage }: { root: string; storage: Storage } = await freshStorage();
  const name = "m";
  await storage.createTable(
    tableDef(name, [["ts", T.TIMESTAMP], ["k", T.SYMBOL], ["v", T.INT], ["s", T.VARCHAR]], {
      ts: "ts",
      partitionBy: "HOUR",
      dedupKeys: dedup ? ["ts", "k"] : [],
    }),
  );
  const model = new Model(dedup);
  let withExtra = false;
  let serial = 0;
  let newest = 10n * HOUR;
  for (let b = 0; b < 40; b++) {
    if (b === 15) {
      await storage.table(name)!.addColumn({
        name: "x",
        type: T.LONG,
        symbolCapacity: 256,
        symbolCache: true,
        indexed: false,
        indexCapacity: 0,
      });
      model.rows = model.rows.map((r) => [...r, null]);
      withExtra = true;
    }
    if (b === 25) {
      await storage.close();
      storage = await openStorage(root);
    }
    const n = 1 + Math.floor(rand() * 40);
    const batch: Value[][] = [];
    for (let i = 0; i < n; i++) {
      const mode = rand();
      // Mostly in order, sometimes a tie with the newest, sometimes hours back.
      const ts = mode < 0.6
        ? (newest += BigInt(Math.floor(rand() * 600_000_000)))
        : mode < 0.75
        ? newest
        : newest - BigInt(Math.floor(rand() * 6 * Number(HOUR)));
      const row: Value[] = [
        ts < 0n ? 0n : ts,
        `k${Math.floor(rand() * 3)}`,
        serial++,
        rand() < 0.2 ? null : `s${serial}`,
      ];
      if (withExtra) row.push(rand() < 0.3 ? null : BigInt(serial));
      batch.push(row);
    }
    const columns = batch[0].map((_, c) => batch.map((r) => r[c]));
    await storage.table(name)!.append({
      rowCount: n,
      columns: [BigInt64Array.from(columns[0] as bigint[]), ...columns.slice(1)],
    });
    model.append(batch);
    assert.deepEqual(await tableRows(storage.table(name)!), model.rows, `seed ${seed} batch ${b}`);
  }
  await storage.close();
}

for (const seed of [1, 2]) {
  Deno.test(`random appends match the model without dedup (seed ${seed})`, () => runModel(seed, false));
  Deno.test(`random appends match the model with dedup (seed ${seed})`, () => runModel(seed, true));
}

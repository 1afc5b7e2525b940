/**
 * Radix-partitioned hash aggregation across the workers (issue #16/#17), for GROUP BY and
 * DISTINCT shapes of about a group per morsel row (group_estimate.ts), where morsel partials
 * merged on one thread cost as much as grouping the rows there.
 *
 * Each worker reads the morsels it gets (contiguous row ranges, each read by one worker),
 * keeps the rows the WHERE keeps and cuts them into one packet per worker by a hash of their
 * keys (`radixSplit`; key_hash.ts: every heap hashes equal keys alike): the key and argument
 * columns of the packet's rows and their ordinals in the morsel. Packet p of every morsel goes,
 * in morsel order, to worker p, which folds it into the grouping of partition p kept on its
 * heap between messages (`radixRows`, keyed by a state id the pool hands out; dropped on a
 * failure, cancel or hand-back), recording each group's first row (morsel index x 2^32 +
 * ordinal) and key values as that row had them. No two workers hold a group, so nothing is
 * merged: `radixFinish` answers the partition's final groups in first-row order with their
 * results. The main thread only forwards packets (their arrays move, they are not copied) and
 * interleaves the partitions' groups by first row (hash_parallel.ts runPartitioned): the rows
 * come out in the order one heap gives, with no hash table and no merge on that thread.
 */
import { zeroedVectorData } from "../../base/values.ts";
import type { TableSnapshot } from "../../storage/api.ts";
import {
  finishedColumn,
  type Grouping,
  groupingOf,
  type HashJob,
  type HashPartial,
  type Morsel,
  type RowPacket,
} from "./hash_parallel.ts";

/** The groupings of radix jobs on this heap, by state id, from the first message to the finish. */
const states = new Map<number, Grouping>();
/** States dropped while messages for them were queued: those messages are skipped. */
const dropped = new Set<number>();
const DROPPED_MAX = 1024;

function groupingFor(state: number, job: HashJob): Grouping {
  let g = states.get(state);
  if (!g) states.set(state, g = groupingOf(job));
  return g;
}

/**
 * The rows of morsel `m` of `snap` the WHERE keeps, as `parts` packets by key hash (the
 * grouping `state` of this heap compiles the job's expressions once for all its messages).
 */
export async function radixSplit(
  state: number,
  job: HashJob,
  snap: TableSnapshot,
  m: Morsel,
  parts: number,
): Promise<RowPacket[]> {
  if (dropped.has(state)) return [];
  try {
    return await groupingFor(state, job).split(snap, m, parts);
  } catch (err) {
    // The pool hands the statement back or fails it: nothing more comes for this state.
    radixDrop(state);
    throw err;
  }
}

/** Folds a packet of morsel `index` into the grouping `state`; answers its groups so far. */
export function radixRows(state: number, job: HashJob, packet: RowPacket, index: number): number {
  if (dropped.has(state)) return 0;
  const g = groupingFor(state, job);
  try {
    g.foldPacket(packet, index);
  } catch (err) {
    radixDrop(state);
    throw err;
  }
  return g.groups;
}

/** Forgets the grouping `state` (the statement failed, was cancelled or handed back). */
export function radixDrop(state: number): void {
  states.delete(state);
  dropped.add(state);
  if (dropped.size > DROPPED_MAX) dropped.delete(dropped.values().next().value!);
}

/**
 * The final groups of partition `state` in first-row order, with each aggregate's result
 * column (`finished`); the state is forgotten. A partition no row hashed to has no groups.
 */
export function radixFinish(state: number, job: HashJob): HashPartial {
  const g = states.get(state);
  states.delete(state);
  if (!g) {
    const none = new Float64Array(0);
    return {
      groups: 0,
      keys: job.keys.map((k) => k.type.tag === "SYMBOL" ? new Int32Array(0) : zeroedVectorData(k.type, 0)),
      counts: job.aggs.map(() => none),
      values: job.aggs.map(() => undefined),
      firsts: none,
      finished: job.aggs.map((a) => finishedColumn(a, none, undefined, 0)),
    };
  }
  const p = g.partial();
  const counts = p.counts.map((c, i) => {
    const d = p.distinct?.[i];
    if (!d) return c;
    // The partition holds every row of its groups: its distinct pairs are the group's values.
    const n = new Float64Array(p.groups);
    for (const group of d.groups) n[group]++;
    return n;
  });
  return {
    groups: p.groups,
    keys: p.keys,
    counts,
    values: p.values,
    firsts: p.firsts,
    finished: job.aggs.map((a, i) => finishedColumn(a, counts[i], p.values[i], p.groups)),
  };
}

/** The typed arrays of packets or partials, each once: what moves with them between heaps. */
export function radixTransfers(items: (RowPacket | HashPartial)[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (d: unknown) => {
    if (ArrayBuffer.isView(d) && d.buffer instanceof ArrayBuffer) out.add(d.buffer);
  };
  for (const x of items) {
    if ("ords" in x) {
      x.columns.forEach(add);
      add(x.ords);
    } else {
      x.keys.forEach(add);
      x.counts.forEach(add);
      x.values.forEach(add);
      add(x.firsts);
      x.finished?.forEach(add);
    }
  }
  return [...out];
}

/**
 * Two-phase radix-partitioned hash aggregation across the workers (issue #16/#17), for GROUP BY
 * and DISTINCT shapes of about a group per morsel row (group_estimate.ts), where morsel
 * partials merged on one thread cost as much as grouping the rows there.
 *
 * Phase 1: each worker folds all the morsels it gets (contiguous row ranges, each read by one
 * worker) into one grouping that lives on its heap between messages (`radixFold`, keyed by a
 * state id the pool hands out), so a group met in many morsels of a worker is one entry there,
 * and each group records its first row (morsel index and ordinal). `radixTake` then splits the
 * worker's groups into one piece per partition by a hash of their keys (key_hash.ts: every heap
 * hashes equal keys alike) and sends the pieces back; their arrays move, they are not copied.
 *
 * Phase 2: partition p's pieces, one per worker, go to worker p (`radixMergeOf`), which merges
 * them in first-row order: its groups are final (no other partition holds their keys), in
 * first-appearance order, each with its first row. The main thread only interleaves the
 * partitions' groups by first row (hash_parallel.ts runPartitioned): no hash table and no
 * merge of all groups on one thread, and the rows come out in the order one heap gives.
 */
import type { ColumnType } from "../../base/types.ts";
import { type VectorData, zeroedVectorData } from "../../base/values.ts";
import type { TableSnapshot } from "../../storage/api.ts";
import { gatherData } from "../batch_util.ts";
import { IntPairHash } from "./int_hash.ts";
import { KeyIds } from "./key_ids.ts";
import { keyHashes } from "./key_hash.ts";
import { PairSet } from "./pair_set.ts";
import {
  finishedColumn,
  type Grouping,
  groupingOf,
  type HashJob,
  type HashPartial,
  mergeAgg,
  Merged,
  mergeDistinct,
  type Morsel,
  pickRows,
} from "./hash_parallel.ts";

// ---- phase 1, on a worker heap ----

/** The groupings of radix jobs on this heap, by state id, from the first fold to the take. */
const states = new Map<number, Grouping>();
/** States dropped before a fold still queued for them arrived: that fold is skipped. */
const dropped = new Set<number>();
const DROPPED_MAX = 1024;

/** Folds morsel `m` of `snap` into the grouping `state`; answers its groups so far. */
export async function radixFold(
  state: number,
  job: HashJob,
  snap: TableSnapshot,
  m: Morsel,
): Promise<number> {
  if (dropped.has(state)) return 0;
  let g = states.get(state);
  if (!g) states.set(state, g = groupingOf(job));
  try {
    await g.fold(snap, m);
  } catch (err) {
    // The pool hands the statement back or fails it: nothing more comes for this state.
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
 * The groups of `state` as `parts` pieces by key hash (a worker that got no morsel: empty
 * pieces), each in first-row order; the state is forgotten.
 */
export function radixTake(state: number, job: HashJob, parts: number): HashPartial[] {
  const g = states.get(state);
  states.delete(state);
  const whole = g?.partial() ?? emptyPartial(job);
  return splitPartial(whole, job, parts);
}

/** A partial without groups. */
function emptyPartial(job: HashJob): HashPartial {
  return {
    groups: 0,
    keys: job.keys.map((k) => emptyData(k.type)),
    counts: job.aggs.map(() => new Float64Array(0)),
    values: job.aggs.map(() => undefined),
    distinct: job.aggs.map((a) =>
      a.fn === "countDistinct" ? { groups: new Int32Array(0), values: emptyData(a.arg!.type) } : undefined
    ),
    firsts: new Float64Array(0),
  };
}

/** No values of type `t` (SYMBOL: codes). */
function emptyData(t: ColumnType): VectorData {
  return t.tag === "SYMBOL" ? new Int32Array(0) : zeroedVectorData(t, 0);
}

/**
 * The part of a key hash among `parts`: by its high bits, so that each part's groups still
 * spread over all the buckets of the hash tables that merge them (buckets by the low bits).
 */
function partOf(h: number, parts: number): number {
  return ((h >>> 16) * parts) >>> 16;
}

/** `whole` cut into `parts` pieces by the hash of each group's keys, groups kept in order. */
export function splitPartial(whole: HashPartial, job: HashJob, parts: number): HashPartial[] {
  const n = whole.groups;
  const hashes = new Int32Array(n);
  keyHashes(whole.keys.map((data, k) => ({ type: job.keys[k].type, data })), n, hashes);
  const sizes = new Int32Array(parts);
  for (let i = 0; i < n; i++) sizes[partOf(hashes[i], parts)]++;
  // Per part, its groups' indexes in `whole`; per group, its index within its part.
  const idx = Array.from(sizes, (s) => new Int32Array(s));
  const local = new Int32Array(n);
  const at = new Int32Array(parts);
  for (let i = 0; i < n; i++) {
    const p = partOf(hashes[i], parts);
    local[i] = at[p];
    idx[p][at[p]++] = i;
  }
  return idx.map((sel, p) => {
    const m = sel.length;
    const one = (src: VectorData) => gatherData(src, sel, m);
    return {
      groups: m,
      keys: whole.keys.map((d) => one(d)),
      counts: whole.counts.map((c) => one(c) as Float64Array),
      values: whole.values.map((v) => v && one(v) as Float64Array | BigInt64Array),
      distinct: whole.distinct?.map((d) => {
        if (!d) return undefined;
        // The pairs of this part's groups, their groups renumbered within the part.
        const pick: number[] = [];
        for (let j = 0; j < d.groups.length; j++) if (partOf(hashes[d.groups[j]], parts) === p) pick.push(j);
        const rows = Int32Array.from(pick);
        const groups = new Int32Array(rows.length);
        for (let j = 0; j < rows.length; j++) groups[j] = local[d.groups[rows[j]]];
        return { groups, values: gatherData(d.values, rows, rows.length) };
      }),
      firsts: one(whole.firsts ?? new Float64Array(n)) as Float64Array,
    };
  });
}

/** The typed arrays of a partial's pieces, each once: what moves with them between heaps. */
export function radixTransfers(pieces: HashPartial[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (d: unknown) => {
    if (ArrayBuffer.isView(d) && d.buffer instanceof ArrayBuffer) out.add(d.buffer);
  };
  for (const p of pieces) {
    p.keys.forEach(add);
    p.counts.forEach(add);
    p.values.forEach(add);
    for (const d of p.distinct ?? []) {
      add(d?.groups);
      add(d?.values);
    }
    add(p.firsts);
    p.finished?.forEach(add);
  }
  return [...out];
}

// ---- phase 2, on a worker heap ----

/**
 * One partition's pieces (one per worker, each in first-row order) merged: its final groups in
 * first-row order with their first rows; count(DISTINCT x) as its counts.
 */
export function radixMergeOf(job: HashJob, pieces: HashPartial[]): HashPartial {
  // The pieces' groups in first-row order: a merge of sorted lists (as few as the workers).
  let n = 0;
  for (const p of pieces) n += p.groups;
  const from = new Int32Array(n), idx = new Int32Array(n), firsts = new Float64Array(n);
  const at = new Int32Array(pieces.length), ends = Int32Array.from(pieces, (p) => p.groups);
  const lists = pieces.map((p) => p.firsts!);
  for (let i = 0; i < n; i++) {
    let best = -1, bestFirst = Infinity;
    for (let w = 0; w < lists.length; w++) {
      const x = at[w] < ends[w] ? lists[w][at[w]] : Infinity;
      if (x < bestFirst) {
        bestFirst = x;
        best = w;
      }
    }
    from[i] = best;
    idx[i] = at[best]++;
    firsts[i] = bestFirst;
  }
  const keyData = job.keys.map((_, c) => pickRows(pieces.map((p) => p.keys[c]), from, idx, n));
  const gids = new Int32Array(n);
  const groups = entryGroups(keyData, job.keys.map((k) => k.type), n, gids);
  // Groups are numbered as first met, and met in first-row order: a group's first entry holds
  // its first row and its key values as the row had them.
  const firstAt = new Int32Array(groups);
  for (let i = 0, next = 0; i < n && next < groups; i++) if (gids[i] === next) firstAt[next++] = i;
  const outFirsts = gatherData(firsts, firstAt, groups) as Float64Array;
  const counts: Float64Array[] = [];
  const values: (Float64Array | BigInt64Array | undefined)[] = [];
  job.aggs.forEach((a, i) => {
    const merged = new Merged();
    merged.reserve(groups);
    if (a.fn === "countDistinct") {
      const state = { ids: new KeyIds(), pairs: new PairSet(), type: a.arg!.type, merged };
      // Each piece's pairs through its groups' merged ids.
      pieces.forEach((p, w) => {
        const gidOf = new Int32Array(p.groups);
        for (let j = 0; j < n; j++) if (from[j] === w) gidOf[idx[j]] = gids[j];
        mergeDistinct(state, p.distinct![i]!, gidOf);
      });
      counts.push(merged.cnt.slice(0, groups));
      values.push(undefined);
      return;
    }
    const pc = pickRows(pieces.map((p) => p.counts[i]), from, idx, n) as Float64Array;
    const srcs = pieces.map((p) => p.values[i]);
    const pv = srcs.some((v) => v)
      ? pickRows(srcs as VectorData[], from, idx, n) as Float64Array | BigInt64Array
      : undefined;
    mergeAgg(a, merged, pc, pv, gids, n);
    counts.push(merged.cnt.slice(0, groups));
    if (!pv) values.push(undefined);
    else if (pv instanceof Float64Array) values.push(merged.num.slice(0, groups));
    else {
      const out = new BigInt64Array(groups), w = new Int32Array(out.buffer);
      for (let g = 0; g < groups; g++) {
        w[2 * g] = merged.lo[g] | 0;
        w[2 * g + 1] = merged.hi[g];
      }
      values.push(out);
    }
  });
  return {
    groups,
    keys: keyData.map((d) => gatherData(d, firstAt, groups)),
    counts,
    values,
    distinct: job.aggs.map(() => undefined),
    firsts: outFirsts,
    finished: job.aggs.map((a, i) => finishedColumn(a, counts[i], values[i], groups)),
  };
}

/**
 * out[i] = the group of entry i's keys (`keys`, one array per key, `n` entries), numbered in
 * first-met order; answers the groups. Each key's values get dense ids through a pair hash of
 * their words, as KeyIds (key_ids.ts) tells values apart (all NULLs one value, -0 as 0), without
 * a boxed value per group (texts and other value arrays go through KeyIds). The ids' tuples
 * then index a direct table when their product is small (symbol x qty: one read an entry),
 * else fold pairwise through pair hashes.
 */
function entryGroups(keys: VectorData[], types: ColumnType[], n: number, out: Int32Array): number {
  const nk = keys.length;
  const ids = keys.map((d, k) => {
    const into = nk === 1 ? out : new Int32Array(n);
    const w = wordsOf(d, n);
    if (!w) {
      const keyIds = new KeyIds();
      keyIds.map({ type: types[k], data: d }, n, into);
      return { ids: into, size: keyIds.size };
    }
    const h = new IntPairHash();
    h.mapBatch(w.a, w.b, n, into);
    return { ids: into, size: h.size };
  });
  if (nk === 1) return ids[0].size;
  let slots = 1;
  for (const k of ids) slots *= k.size;
  if (slots <= DIRECT_SLOTS_MAX) {
    const table = new Int32Array(slots).fill(-1);
    let groups = 0;
    for (let i = 0; i < n; i++) {
      let x = 0;
      for (let k = 0; k < nk; k++) x = x * ids[k].size + ids[k].ids[i];
      let g = table[x];
      if (g < 0) table[x] = g = groups++;
      out[i] = g;
    }
    return groups;
  }
  let cur = ids[0].ids, h = new IntPairHash();
  for (let k = 1; k < nk; k++) {
    const into = k === nk - 1 ? out : new Int32Array(n);
    (h = new IntPairHash(n)).mapBatch(cur, ids[k].ids, n, into);
    cur = into;
  }
  return h.size;
}

/** Key tuples of at most this many combinations merge through a direct table (16 MB). */
const DIRECT_SLOTS_MAX = 1 << 22;

const NULL_HI = -2147483648;

/**
 * A key's values as int32 words (`b` undefined: one word a value), each distinct value one
 * word pair: NULL sentinels as they are, non-finite doubles as one NULL pair, -0 as 0.
 * Undefined for value arrays.
 */
function wordsOf(d: VectorData, n: number): { a: Int32Array; b?: Int32Array } | undefined {
  if (d instanceof Int32Array) return { a: d };
  if (
    d instanceof Int8Array || d instanceof Int16Array || d instanceof Uint16Array || d instanceof Uint8Array
  ) {
    return { a: Int32Array.from(d) };
  }
  if (d instanceof BigInt64Array) {
    const w = new Int32Array(d.buffer, d.byteOffset, n * 2), a = new Int32Array(n), b = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      a[i] = w[2 * i];
      b[i] = w[2 * i + 1];
    }
    return { a, b };
  }
  if (d instanceof Float64Array || d instanceof Float32Array) {
    const a = new Int32Array(n), b = new Int32Array(n);
    const f = new Float64Array(1), w = new Int32Array(f.buffer);
    for (let i = 0; i < n; i++) {
      const x = d[i];
      if (x - x !== 0) {
        a[i] = 0;
        b[i] = NULL_HI;
        continue;
      }
      f[0] = x === 0 ? 0 : x;
      a[i] = w[0];
      b[i] = w[1];
    }
    return { a, b };
  }
  return undefined;
}

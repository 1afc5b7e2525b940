/**
 * The column cache (ARCHITECTURE.md "Storage"): column file bytes read straight into
 * WebAssembly memory, kept resident within a byte budget and evicted when no snapshot pins
 * them, by a scan-resistant policy (below).
 *
 * An entry caches a prefix of one logical byte stream, named by a key that includes the
 * partition version folder. Committed bytes of a folder never change (appends only add bytes
 * after them, rewrites make a new folder), so a cached prefix never goes stale: a reader that
 * needs more of it than is cached extends the entry by reading only the missing bytes. That
 * keeps bulk loads with queries in between from re-reading the active partition per append.
 *
 * When an entry outgrows its block it moves to a larger block; the old block stays alive until
 * the snapshots that pinned it release it. When the budget or the WASM memory cannot hold a
 * block, the bytes go to a JS ArrayBuffer owned by the asking snapshot instead.
 *
 * Eviction (issue #16): a plain LRU gets no hits at all from a scan repeated over more bytes
 * than it holds (each worker heap scans the same half of a 100M-row table per query, every
 * entry is evicted just before its next use). So the victim is the unpinned entry used least
 * often (access counts per key, kept for keys no longer resident too, halved every AGE_PERIOD
 * accesses so that a new working set overtakes an old one), and among equally used ones the
 * one loaded last: a scan's new entries replace each other instead of the resident ones, so a
 * cyclic scan of N bytes over a C-byte cache keeps ~C/N of its reads as hits, and a one-off
 * scan costs the resident set one entry.
 */
import { type WasmMemory, wasmMemory } from "../../engine-wasm/mod.ts";

/** Fills `target` with the stream bytes [fromByte, fromByte + target.length). */
export type Loader = (target: Uint8Array, fromByte: number) => Promise<void>;

/** A run of cached bytes: in WASM memory (`ptr >= 0`) or in a JS buffer (`ptr === -1`). */
export class Block {
  readonly ptr: number;
  readonly buffer: ArrayBuffer;
  readonly byteOffset: number;
  readonly capacity: number;
  /** Bytes [0, validBytes) hold the stream's prefix. */
  validBytes = 0;
  pins = 0;
  /** No longer the current block of its entry: freed when the last pin goes. */
  retired = false;

  constructor(ptr: number, buffer: ArrayBuffer, byteOffset: number, capacity: number) {
    this.ptr = ptr;
    this.buffer = buffer;
    this.byteOffset = byteOffset;
    this.capacity = capacity;
  }

  /** The bytes [from, to) of the block. */
  bytes(from = 0, to = this.validBytes): Uint8Array {
    return new Uint8Array(this.buffer, this.byteOffset + from, to - from);
  }
}

interface Entry {
  block: Block;
  /** Load order: among equally used entries the last loaded goes first. */
  seq: number;
  /** The load in progress, if any; others wait for it before looking again. */
  loading?: Promise<void>;
}

/** Growth factor of a block outgrown by appends: amortizes copies, bounds waste. */
const GROWTH = 1.5;

/** Access counts are halved after this many accesses per resident entry (at least AGE_MIN). */
const AGE_PER_ENTRY = 16;
const AGE_MIN = 1024;
/** Keys whose counts are kept, per resident entry (at least AGE_MIN): older ones age out. */
const COUNTED_PER_ENTRY = 8;

export class ColumnCache {
  readonly budgetBytes: number;
  readonly #memory: WasmMemory;
  readonly #entries = new Map<string, Entry>();
  /** Accesses per key since it was last halved, resident or not (see the policy above). */
  readonly #counts = new Map<string, number>();
  #accesses = 0;
  #seq = 0;
  #residentBytes = 0;
  readonly #forgetWatchers = new Set<(prefix: string) => void>();
  #loadedBytes = 0;
  /**
   * Facts derived from committed column bytes (partition statistics, exec/partition_stats.ts),
   * keyed like the entries (table/folder/stream plus what the fact covers): valid as long as
   * the bytes, so `forget` drops them with the entries.
   */
  readonly facts = new Map<string, unknown>();
  /**
   * Facts about complete row blocks of a partition version (exec/block_partials.ts), keyed by
   * table/folder plus what they cover but not the row count: the committed rows of a folder
   * never change and appends only add rows after them, so they outlive the commits that grow
   * the partition. `forget` drops them with the folder.
   */
  readonly blockFacts = new Map<string, { key: string; value: unknown }>();

  constructor(budgetBytes: number, memory: WasmMemory = wasmMemory()) {
    this.budgetBytes = budgetBytes;
    this.#memory = memory;
  }

  /** Bytes of WASM memory held by cached blocks (including retired pinned ones). */
  get residentBytes(): number {
    return this.#residentBytes;
  }

  get entryCount(): number {
    return this.#entries.size;
  }

  /** Bytes read from files into blocks since the cache was made (tests and diagnostics). */
  get loadedBytes(): number {
    return this.#loadedBytes;
  }

  /**
   * A block holding at least the first `needBytes` bytes of stream `key`, pinned for the
   * caller (release it with `unpin`). `load` reads the missing bytes.
   */
  async acquire(key: string, needBytes: number, load: Loader): Promise<Block> {
    this.#count(key);
    for (;;) {
      const entry = this.#entries.get(key);
      if (entry?.loading) {
        await entry.loading.catch(() => {});
        continue;
      }
      if (entry && entry.block.validBytes >= needBytes) {
        entry.block.pins++;
        return entry.block;
      }
      return await this.#fill(key, entry, needBytes, load);
    }
  }

  async #fill(key: string, entry: Entry | undefined, needBytes: number, load: Loader): Promise<Block> {
    const old = entry?.block;
    const inPlace = old !== undefined && old.capacity >= needBytes;
    const capacity = old ? Math.max(needBytes, Math.ceil(old.capacity * GROWTH)) : needBytes;
    const block = inPlace ? old : this.#allocate(capacity, old);
    if (block.ptr < 0) {
      // Out of budget: a private copy for this caller, not entered into the cache.
      await load(block.bytes(0, needBytes), 0);
      this.#loadedBytes += needBytes;
      block.validBytes = needBytes;
      block.pins++;
      return block;
    }
    const from = old ? old.validBytes : 0;
    const work = (async () => {
      if (old && !inPlace) block.bytes(0, from).set(old.bytes(0, from));
      await load(block.bytes(from, needBytes), from);
      this.#loadedBytes += needBytes - from;
      block.validBytes = needBytes;
    })();
    const current: Entry = entry ?? { block, seq: this.#seq++ };
    current.loading = work;
    if (!entry) this.#entries.set(key, current);
    try {
      await work;
    } catch (e) {
      if (!inPlace) this.#release(block);
      if (!entry) this.#entries.delete(key);
      throw e;
    } finally {
      current.loading = undefined;
    }
    if (old && !inPlace) {
      old.retired = true;
      if (old.pins === 0) this.#release(old);
      current.block = block;
    }
    block.pins++;
    return block;
  }

  /** A block of `bytes` in WASM memory when budget and memory allow, else in a JS buffer. */
  #allocate(bytes: number, keep?: Block): Block {
    const size = Math.max(16, bytes);
    while (this.#residentBytes + size > this.budgetBytes && this.#evictOne(keep)) { /* evict */ }
    if (this.#residentBytes + size <= this.budgetBytes) {
      let ptr = this.#memory.alloc(size);
      while (ptr < 0 && this.#evictOne(keep)) ptr = this.#memory.alloc(size);
      if (ptr >= 0) {
        this.#residentBytes += size;
        return new Block(ptr, this.#memory.buffer, ptr, size);
      }
    }
    return new Block(-1, new ArrayBuffer(size), 0, size);
  }

  /**
   * Frees the least used entry that nobody pins, the last loaded among equals; false when
   * there is none. A linear pass: entries are whole columns of partitions (hundreds).
   */
  #evictOne(keep?: Block): boolean {
    let victim: string | undefined, victimCount = Infinity, victimSeq = -1;
    for (const [key, entry] of this.#entries) {
      if (entry.loading || entry.block.pins > 0 || entry.block === keep) continue;
      const count = this.#counts.get(key) ?? 0;
      if (count < victimCount || (count === victimCount && entry.seq > victimSeq)) {
        victim = key;
        victimCount = count;
        victimSeq = entry.seq;
      }
    }
    if (victim === undefined) return false;
    const entry = this.#entries.get(victim)!;
    this.#entries.delete(victim);
    this.#release(entry.block);
    return true;
  }

  /** Counts one access of `key`; halves every count (dropping zeros) once per period. */
  #count(key: string): void {
    this.#counts.set(key, (this.#counts.get(key) ?? 0) + 1);
    const period = Math.max(AGE_MIN, AGE_PER_ENTRY * this.#entries.size);
    const kept = Math.max(AGE_MIN, COUNTED_PER_ENTRY * this.#entries.size);
    if (++this.#accesses < period && this.#counts.size <= kept) return;
    this.#accesses = 0;
    for (const [k, n] of this.#counts) {
      if (n > 1) this.#counts.set(k, n >> 1);
      else this.#counts.delete(k);
    }
  }

  #release(block: Block): void {
    if (block.ptr < 0) return;
    this.#memory.free(block.ptr);
    this.#residentBytes -= block.capacity;
  }

  /** Drops a pin taken by `acquire`. */
  unpin(block: Block): void {
    block.pins--;
    if (block.pins === 0 && block.retired) this.#release(block);
  }

  /**
   * Forgets every entry whose key starts with `prefix` (a folder about to be deleted, whose
   * name may later be reused). Pinned blocks are freed when their last pin goes.
   */
  forget(prefix: string): void {
    for (const watcher of this.#forgetWatchers) watcher(prefix);
    for (const key of [...this.facts.keys()]) if (key.startsWith(prefix)) this.facts.delete(key);
    for (const key of [...this.blockFacts.keys()]) if (key.startsWith(prefix)) this.blockFacts.delete(key);
    for (const key of [...this.#counts.keys()]) if (key.startsWith(prefix)) this.#counts.delete(key);
    for (const [key, entry] of [...this.#entries]) {
      if (!key.startsWith(prefix) || entry.loading) continue;
      this.#entries.delete(key);
      entry.block.retired = true;
      if (entry.block.pins === 0) this.#release(entry.block);
    }
  }

  /**
   * Calls `watcher` with each prefix passed to `forget`: caches of the same files on other
   * heaps (engine/parallel workers) must forget them too. Returns the unsubscribe function.
   */
  watchForget(watcher: (prefix: string) => void): () => void {
    this.#forgetWatchers.add(watcher);
    return () => this.#forgetWatchers.delete(watcher);
  }

  /** Frees every unpinned block (storage close); pinned ones go when released. */
  clear(): void {
    this.forget("");
  }
}

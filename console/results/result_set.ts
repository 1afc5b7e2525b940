/**
 * A query result too large to hold at once: the first page arrives with the run, the rest is
 * fetched on demand in pages of 1000 rows (`limit=lo,hi`, 1-based inclusive, `nm=true`), with
 * the total from `count=true` sizing the grid (spec/console.md §2.5). A bounded cache keeps
 * memory flat while scrolling through millions of rows.
 */
import { exec } from "../api/exec_client.ts";
import type { Column, Row } from "../api/types.ts";

export const PAGE_ROWS = 1000;
const PAGES_CACHED_MAX = 120;
const FETCHES_PARALLEL_MAX = 2;

export class ResultSet {
  readonly pages = new Map<number, Row[]>();
  #pending = new Set<number>();
  #wanted: number[] = [];
  #listeners = new Set<() => void>();
  #abort = new AbortController();
  /** Bumped whenever a page arrives, so views can re-render. */
  version = 0;
  error: string | null = null;

  constructor(
    readonly query: string,
    readonly columns: Column[],
    readonly rowCount: number,
    readonly timestampIndex: number,
    firstRows: Row[],
  ) {
    for (let p = 0; p * PAGE_ROWS < firstRows.length; p++) {
      this.pages.set(p, firstRows.slice(p * PAGE_ROWS, (p + 1) * PAGE_ROWS));
    }
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The row if its page is loaded; undefined otherwise (call `ensure` to load it). */
  row(index: number): Row | undefined {
    return this.pages.get(Math.floor(index / PAGE_ROWS))?.[index % PAGE_ROWS];
  }

  /** Asks for the pages covering rows [from, to); the nearest ones load first. */
  ensure(from: number, to: number): void {
    const first = Math.floor(Math.max(0, from) / PAGE_ROWS);
    const last = Math.floor(Math.max(0, Math.min(to, this.rowCount) - 1) / PAGE_ROWS);
    const wanted: number[] = [];
    for (let p = first; p <= last; p++) if (!this.pages.has(p) && !this.#pending.has(p)) wanted.push(p);
    this.#wanted = wanted;
    this.#pump();
  }

  dispose(): void {
    this.#abort.abort();
    this.#listeners.clear();
  }

  #pump(): void {
    while (this.#pending.size < FETCHES_PARALLEL_MAX && this.#wanted.length) {
      const page = this.#wanted.shift()!;
      if (this.pages.has(page) || this.#pending.has(page)) continue;
      this.#pending.add(page);
      this.#fetch(page).finally(() => {
        this.#pending.delete(page);
        this.#pump();
      });
    }
  }

  async #fetch(page: number): Promise<void> {
    const lo = page * PAGE_ROWS + 1;
    const hi = Math.min((page + 1) * PAGE_ROWS, this.rowCount);
    const out = await exec(this.query, { limit: `${lo},${hi}`, nm: true, signal: this.#abort.signal });
    if (out.kind === "rows") {
      this.pages.set(page, out.rows);
      this.#evict(page);
    } else if (out.kind === "error") {
      this.error = out.error;
    }
    this.version++;
    for (const l of this.#listeners) l();
  }

  #evict(keep: number): void {
    if (this.pages.size <= PAGES_CACHED_MAX) return;
    // Drop the pages farthest from the one just loaded; page 0 stays for column sizing.
    const far = [...this.pages.keys()].filter((p) => p !== 0).sort((a, b) =>
      Math.abs(b - keep) - Math.abs(a - keep)
    );
    for (const p of far.slice(0, this.pages.size - PAGES_CACHED_MAX)) this.pages.delete(p);
  }
}

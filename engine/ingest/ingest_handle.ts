/**
 * The engine's one write door for rows that arrive outside SQL: ILP lines (HTTP and TCP), CSV
 * import and pgwire COPY FROM. `Engine.ingest(session, options)` hands a listener one of these;
 * it wraps an Ingestor on the engine's storage and checks each write against the session's
 * principal exactly where and as the SQL path does (engine/exec/permissions.ts): INSERT on an
 * existing table, CREATE TABLE for a table made on first sight, ADD COLUMN for new columns,
 * DROP TABLE to overwrite. A table it creates gets its owner grants from the registered
 * access control, as CREATE TABLE gives them. Listeners keep only their wire formats.
 */
import type { AccessControl, Session } from "../session.ts";
import type { Storage, TableMeta } from "../storage/api.ts";
import { checkIngestWrite, visibleStorage } from "../exec/permissions.ts";
import type { IngestBlock } from "./block.ts";
import type { Ingestor, Prepared, PrepareOptions } from "./ingestor.ts";

/** A line that did not parse or fit: 1-based line and the reason. */
export interface LineFault {
  line: number;
  message: string;
}

export interface BlocksOutcome {
  rows: number;
  /** The first bad line (its rows and every later line's were not committed). */
  error?: LineFault;
  /** A commit failed (storage): the message, already in QuestDB's commit error form. */
  failure?: string;
}

/** How `commitBlocks` treats a bad line (spec/protocols.md §9, §11). */
export interface BlocksOptions {
  /**
   * `all` (ILP/HTTP): nothing commits when any line is bad; `prefix` (TCP): the lines before
   * the first bad one commit; `skip` (TCP without disconnect on error): only bad lines drop.
   */
  mode: "all" | "prefix" | "skip";
  /** A parse error that stopped the parser: lines from it on do not commit. */
  parseError?: LineFault;
}

/** Rows of `block` whose line is before `line` (rows are in line order). */
function rowsBefore(block: IngestBlock, line: number): number {
  let lo = 0, hi = block.rowCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (block.lines[mid] < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class IngestHandle {
  readonly #ingestor: Ingestor;
  readonly #storage: Storage;
  readonly #session: Session;
  readonly #access: () => AccessControl | undefined;

  constructor(
    ingestor: Ingestor,
    storage: Storage,
    session: Session,
    access: () => AccessControl | undefined,
  ) {
    this.#ingestor = ingestor;
    this.#storage = storage;
    this.#session = session;
    this.#access = access;
  }

  /** The table's metadata as it is now, or undefined when there is no such table. */
  table(name: string): TableMeta | undefined {
    return this.#storage.table(name)?.meta;
  }

  /**
   * The table as a SQL statement of this session sees it: undefined also when the user holds
   * no permission at all on it, so a statement (pgwire COPY) answers as for a missing table
   * and reveals nothing (the planner's rule, docs/access_control.md).
   */
  visibleTable(name: string): TableMeta | undefined {
    return visibleStorage(this.#storage, this.#session).table(name)?.meta;
  }

  /**
   * Throws the permission error (SqlError of kind "permission") a write of `block` meets:
   * CREATE TABLE when the table does not exist yet, else INSERT and ADD COLUMN per new column.
   */
  check(block: IngestBlock): void {
    const meta = this.table(block.table);
    checkIngestWrite(this.#session, {
      table: meta?.name ?? block.table,
      createsTable: meta === undefined,
      addsColumns: meta === undefined ? [] : this.#ingestor.newColumns(block),
    });
  }

  /** COPY FROM: INSERT on an existing table, checked before any row is read. */
  checkInsert(table: string): void {
    checkIngestWrite(this.#session, { table, createsTable: false, addsColumns: [] });
  }

  /** Checks and converts a block against the table as it is now; changes nothing. */
  prepare(block: IngestBlock, options: PrepareOptions = {}): Prepared {
    return this.#ingestor.prepare(block, options);
  }

  /**
   * Checks the write's permissions, then creates what the block needs and appends its good
   * rows (the first `rowLimit` at most) in one commit; returns the rows written.
   */
  async commit(prepared: Prepared, rowLimit = prepared.rowCount): Promise<number> {
    this.check(prepared.block);
    return await this.#commit(prepared, rowLimit);
  }

  /**
   * ILP's commit of parsed blocks: every block's permissions are checked first (a refusal
   * throws and nothing commits), then every block is prepared (a value that does not fit its
   * column rejects its line, §10.5), then the blocks commit table by table as `mode` says.
   */
  async commitBlocks(blocks: IngestBlock[], options: BlocksOptions): Promise<BlocksOutcome> {
    for (const b of blocks) this.check(b);
    const prepared = blocks.map((b) =>
      this.#ingestor.prepare(b, options.mode === "skip" ? { onBad: "skipRow" } : {})
    );
    let error = options.parseError;
    for (const p of prepared) {
      if (p.error && (!error || p.error.line < error.line)) {
        error = { line: p.error.line, message: p.error.message };
      }
    }
    if (error && options.mode === "all") return { rows: 0, error };
    let rows = 0;
    for (const p of prepared) {
      const limit = error ? rowsBefore(p.block, error.line) : p.block.rowCount;
      if (limit === 0) continue;
      try {
        rows += await this.#commit(p, limit);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        return {
          rows,
          error,
          failure: `commit error for table: ${p.tableName}, errno: 0, error: ${message}`,
        };
      }
    }
    return { rows, error };
  }

  /**
   * CSV import `overwrite=true`: drops the existing table so the import creates it again,
   * which needs DROP TABLE on it and CREATE TABLE (security.md T16). Returns whether it existed.
   */
  async dropForOverwrite(name: string): Promise<boolean> {
    const meta = this.table(name);
    if (!meta) return false;
    checkIngestWrite(this.#session, {
      table: meta.name,
      createsTable: true,
      addsColumns: [],
      overwrites: true,
    });
    await this.#storage.dropTable(meta.name);
    return true;
  }

  async #commit(prepared: Prepared, rowLimit: number): Promise<number> {
    const existed = this.#storage.table(prepared.tableName) !== undefined;
    const written = await this.#ingestor.commit(prepared, rowLimit);
    const created = existed ? undefined : this.#storage.table(prepared.tableName)?.meta.name;
    // The creator owns what it creates, as after CREATE TABLE (security.md §3.4).
    if (created !== undefined) await this.#access()?.tableCreated?.(created, this.#session);
    return written;
  }
}

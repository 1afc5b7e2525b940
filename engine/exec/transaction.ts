/**
 * A session's transaction as QuestDB defines it (spec/protocols.md §12.10): only INSERT is
 * transactional. Inside BEGIN … COMMIT the rows an INSERT produces are kept here, per table,
 * instead of being appended; COMMIT appends each table's pending rows in one atomic append,
 * ROLLBACK drops them. UPDATE, DELETE, DDL and COPY are applied at once and never undone.
 * Reads inside the block see committed data only (QuestDB readers never see a writer's
 * uncommitted rows), so a session does not see its own pending rows.
 *
 * Savepoints (our extension, needed by psqlODBC's statement-level rollback) are marks of how
 * many pending chunks each table held; ROLLBACK TO truncates back to them.
 *
 * The object lives as long as the connection (a listener keeps one and puts it in every
 * Session); REST sessions have none, and there BEGIN/COMMIT/ROLLBACK do nothing.
 */
import { SqlError } from "../base/errors.ts";
import { TRANSACTION_PENDING_ROWS_MAX } from "../base/limits.ts";
import { sameType } from "../base/types.ts";
import { allocVectorData, type VectorData } from "../base/values.ts";
import type { OnConflict, RowsToWrite, StoredColumn, Table } from "../storage/api.ts";

/** idle: no block (ReadyForQuery `I`); open: in a block (`T`); failed: a statement failed (`E`). */
export type TransactionStatus = "idle" | "open" | "failed";

/** Rows of one INSERT statement, as they would have been appended. */
interface Chunk {
  rows: RowsToWrite;
  /** The table's columns when the rows were built: ids map them to the columns at COMMIT. */
  columns: readonly StoredColumn[];
  onConflict?: OnConflict;
}

interface Mark {
  name: string;
  /** Pending chunks per table when the savepoint was taken. */
  counts: Map<Table, number>;
}

/** The command tags the transaction statements answer with (pgwire §12.6). */
export type TransactionTag = "BEGIN" | "COMMIT" | "ROLLBACK" | "SAVEPOINT" | "RELEASE";

export class Transaction {
  #status: TransactionStatus = "idle";
  /** Tables in the order the block first inserted into them (COMMIT appends in this order). */
  readonly #pending = new Map<Table, Chunk[]>();
  #pendingRows = 0;
  #marks: Mark[] = [];

  get status(): TransactionStatus {
    return this.#status;
  }

  /** True while INSERTs are to be kept rather than appended. */
  get buffering(): boolean {
    return this.#status !== "idle";
  }

  /** Rows waiting for COMMIT (tests, diagnostics). */
  get pendingRows(): number {
    return this.#pendingRows;
  }

  /** A statement of the block failed: everything but COMMIT/ROLLBACK/ROLLBACK TO is refused. */
  fail(): void {
    if (this.#status === "open") this.#status = "failed";
  }

  /** Refuses a statement in a failed block (SQLSTATE 25P02 on the wire). */
  checkNotFailed(): void {
    if (this.#status === "failed") {
      throw new SqlError(
        "current transaction is aborted, commands ignored until end of transaction block",
        -1,
        "transaction",
      );
    }
  }

  /** BEGIN: opens a block; inside one it is a no-op (§12.10). */
  begin(): TransactionTag {
    if (this.#status === "idle") this.#status = "open";
    return "BEGIN";
  }

  /** Keeps the rows of one INSERT for COMMIT. */
  buffer(t: Table, rows: RowsToWrite, onConflict?: OnConflict): void {
    if (this.#pendingRows + rows.rowCount > TRANSACTION_PENDING_ROWS_MAX) {
      throw new SqlError(
        `too many uncommitted rows in the transaction [limit=${TRANSACTION_PENDING_ROWS_MAX}]; commit more often`,
        -1,
        "limit",
      );
    }
    let chunks = this.#pending.get(t);
    if (!chunks) this.#pending.set(t, chunks = []);
    chunks.push({ rows, columns: t.meta.columns, onConflict });
    this.#pendingRows += rows.rowCount;
  }

  /**
   * COMMIT (END): appends every table's pending rows, one atomic append per table (or per
   * run of statements with the same ON CONFLICT). A failure part-way ends the block too:
   * tables appended before it stay committed (§12.10). In a failed block it rolls back.
   */
  async commit(): Promise<TransactionTag> {
    if (this.#status === "failed") return this.rollback();
    const pending = [...this.#pending];
    this.#reset();
    for (const [t, chunks] of pending) {
      for (const run of runsOf(chunks)) {
        await t.append(concatChunks(t, run), { onConflict: run[0].onConflict });
      }
    }
    return "COMMIT";
  }

  /** ROLLBACK (ABORT): drops the pending rows and every savepoint; outside a block a no-op. */
  rollback(): TransactionTag {
    this.#reset();
    return "ROLLBACK";
  }

  /** SAVEPOINT name: a mark of the pending rows; a repeated name shadows the older mark. */
  savepoint(name: string, pos: number): TransactionTag {
    this.#requireBlock("SAVEPOINT", pos);
    this.checkNotFailed();
    const counts = new Map<Table, number>();
    for (const [t, chunks] of this.#pending) counts.set(t, chunks.length);
    this.#marks.push({ name: name.toLowerCase(), counts });
    return "SAVEPOINT";
  }

  /** RELEASE [SAVEPOINT] name: forgets the mark and the marks above it; rows stay pending. */
  release(name: string, pos: number): TransactionTag {
    this.#requireBlock("RELEASE SAVEPOINT", pos);
    this.checkNotFailed();
    this.#marks.length = this.#markIndex(name, pos);
    return "RELEASE";
  }

  /**
   * ROLLBACK TO [SAVEPOINT] name: drops the rows inserted after the mark, keeps the mark
   * (it can be rolled back to again) and brings a failed block back to open — what
   * statement-level rollback needs.
   */
  rollbackTo(name: string, pos: number): TransactionTag {
    this.#requireBlock("ROLLBACK TO SAVEPOINT", pos);
    const at = this.#markIndex(name, pos);
    const mark = this.#marks[at];
    this.#marks.length = at + 1;
    for (const [t, chunks] of [...this.#pending]) {
      const keep = mark.counts.get(t) ?? 0;
      for (const c of chunks.slice(keep)) this.#pendingRows -= c.rows.rowCount;
      if (keep === 0) this.#pending.delete(t);
      else chunks.length = keep;
    }
    this.#status = "open";
    return "ROLLBACK";
  }

  #requireBlock(what: string, pos: number): void {
    if (this.#status === "idle") {
      throw new SqlError(`${what} can only be used in transaction blocks`, pos, "transaction");
    }
  }

  #markIndex(name: string, pos: number): number {
    const lower = name.toLowerCase();
    for (let i = this.#marks.length - 1; i >= 0; i--) if (this.#marks[i].name === lower) return i;
    this.fail();
    throw new SqlError(`savepoint "${name}" does not exist`, pos, "transaction");
  }

  #reset(): void {
    this.#status = "idle";
    this.#pending.clear();
    this.#pendingRows = 0;
    this.#marks = [];
  }
}

/** Consecutive chunks with the same ON CONFLICT: each run is one append. */
function runsOf(chunks: Chunk[]): Chunk[][] {
  const runs: Chunk[][] = [];
  for (const c of chunks) {
    const last = runs.at(-1);
    if (last && sameConflict(last[0].onConflict, c.onConflict)) last.push(c);
    else runs.push([c]);
  }
  return runs;
}

function sameConflict(a: OnConflict | undefined, b: OnConflict | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * One RowsToWrite in the table's current column order from chunks built against possibly
 * older column lists (a column added inside the block reads NULL; one dropped is ignored;
 * one whose type changed fails the commit rather than storing values of the old type).
 */
function concatChunks(t: Table, chunks: Chunk[]): RowsToWrite {
  const cols = t.meta.columns;
  const rowCount = chunks.reduce((n, c) => n + c.rows.rowCount, 0);
  const columns: (VectorData | null)[] = cols.map((col) => {
    let out: VectorData | null = null;
    let at = 0;
    for (const c of chunks) {
      const j = c.columns.findIndex((x) => x.id === col.id);
      const data = j >= 0 ? c.rows.columns[j] : null;
      if (data && !sameType(c.columns[j].type, col.type)) {
        throw new SqlError(
          `column type changed inside the transaction, uncommitted rows cannot be stored [table=${t.meta.name}, column=${col.name}]`,
        );
      }
      if (data) {
        if (chunks.length === 1) return data;
        out ??= allocVectorData(col.type, rowCount);
        copyInto(out, data, at, c.rows.rowCount);
      }
      at += c.rows.rowCount;
    }
    return out;
  });
  return { rowCount, columns };
}

function copyInto(out: VectorData, data: VectorData, at: number, n: number): void {
  if (!Array.isArray(out) && !Array.isArray(data) && out.constructor === data.constructor) {
    // deno-lint-ignore no-explicit-any
    (out as any).set(data.subarray(0, n), at);
    return;
  }
  // deno-lint-ignore no-explicit-any
  for (let i = 0; i < n; i++) (out as any)[at + i] = (data as any)[i];
}

/**
 * The messages of a statement run on a worker heap (statement_offload.ts on the main thread,
 * statement_worker.ts on the worker): plain, structured-cloneable data. Unlike the morsel
 * requests of `_protocol.ts`, one statement is a conversation: the main thread sends the
 * statement, then pulls batches one credit at a time or cancels; the worker answers batches,
 * then an end, an error or a refusal.
 */
import type { ColumnType } from "../base/types.ts";
import type { SnapshotOrigin } from "../storage/snapshot.ts";
import type { WireBatch, WireValue } from "./batch_wire.ts";

/** What a worker needs to plan and run a statement as the main thread would. */
export interface StatementSpec {
  /** The statement's text: the worker parses and plans it again. */
  sql: string;
  /** The committed state of every table the main thread's plan scans, by lower-case name. */
  tables: Record<string, SnapshotOrigin>;
  /** The main thread's plan as EXPLAIN prints it: a worker whose plan differs refuses. */
  explain: string[];
  nowMicros: string;
  timeZone: string;
  user: string;
  params: WireValue[];
  paramTypes?: (ColumnType | undefined)[];
  legacyNames: boolean;
  copyRoot?: string;
  /** Bytes the statement may still charge (query.memory.limit less what it holds). */
  memoryBytes: number;
  /** Milliseconds left before the statement times out, or undefined. */
  timeoutMs?: { left: number; timeoutMs: number };
  /** Batches the worker may send before the main thread pulls. */
  credit: number;
}

export type StatementRequest =
  | { kind: "stmt"; id: number; forget: string[]; spec: StatementSpec }
  /** The consumer took `credit` more batches: the worker may send as many. */
  | { kind: "stmtPull"; id: number; credit: number }
  /** Cancelled, timed out, or abandoned by its consumer: the worker stops and answers nothing more. */
  | { kind: "stmtCancel"; id: number };

export type StatementReply =
  | { kind: "stmtBatch"; id: number; batch: WireBatch }
  | { kind: "stmtEnd"; id: number }
  | { kind: "stmtError"; id: number; message: string; position: number; errorKind: string }
  /** The worker's plan differs from the main thread's (or it cannot plan it): run it there. */
  | { kind: "stmtDeclined"; id: number; reason: string };

export function isStatementRequest(r: { kind: string }): r is StatementRequest {
  return r.kind === "stmt" || r.kind === "stmtPull" || r.kind === "stmtCancel";
}

export function isStatementReply(r: { kind: string }): r is StatementReply {
  return r.kind === "stmtBatch" || r.kind === "stmtEnd" || r.kind === "stmtError" ||
    r.kind === "stmtDeclined";
}

/**
 * `COPY t TO STDOUT` and `COPY (query) TO STDOUT`: the query runs through the engine like any
 * SELECT (so its permission checks apply), then CopyOutResponse, one CopyData per row (as
 * Postgres does: psycopg's `Copy.rows()` parses each message as one row), written to the
 * socket in batches of a few hundred KB so large results stream, CopyDone and the `COPY n` tag. Values are written as their Postgres text (encode_text.ts).
 */
import {
  type Batch,
  type ColumnMeta,
  readValue,
  type Session,
  SqlError,
  yieldIfDue,
} from "../../engine/mod.ts";
import * as M from "./backend_messages.ts";
import type { CopyHost } from "./copy_in.ts";
import { formatRow } from "./copy_rows.ts";
import type { CopySpec } from "./copy_statement.ts";
import { textOf } from "./encode_text.ts";
import { withSessionZone } from "./time_zone.ts";
import { PgError, SQLSTATE } from "./sqlstate.ts";

/** The socket is written once this many bytes are buffered. */
const FLUSH_BYTES = 256 * 1024;

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The SELECT a COPY TO runs. */
function queryOf(spec: Extract<CopySpec, { direction: "to" }>): string {
  if ("query" in spec) return spec.query;
  const columns = spec.columns ? spec.columns.map(quoteName).join(", ") : "*";
  return `SELECT ${columns} FROM ${quoteName(spec.table)}`;
}

/** Hex text of bytes, as Postgres writes bytea (`\x0a1b`). */
function hexOf(b: Uint8Array): string {
  let s = "\\x";
  for (const x of b) s += x.toString(16).padStart(2, "0");
  return s;
}

/** Runs COPY ... TO STDOUT; returns the command tag. */
export async function copyOut(
  host: CopyHost,
  spec: Extract<CopySpec, { direction: "to" }>,
  session: Session,
  cellText: (v: unknown, c: ColumnMeta) => string | null = (v, c) => textOf(v as never, c.type),
): Promise<string> {
  const outcome = await host.engine.execute(queryOf(spec), session);
  if (outcome.kind !== "rows") {
    throw new PgError(SQLSTATE.SYNTAX_ERROR, "COPY (query) TO needs a query that returns rows");
  }
  // timestamptz casts in the query are written with the session offset, as a SELECT shows them.
  const columns = withSessionZone(outcome.columns, session.timeZone);
  const format = spec.format;
  M.copyResponse(host.out, "out", columns.length);
  const encoder = new TextEncoder();
  const send = (line: string) => M.copyData(host.out, encoder.encode(line));
  if (format.header) send(formatRow(columns.map((c) => c.name), format));
  let rows = 0;
  const iterator = (outcome.batches as AsyncIterable<Batch>)[Symbol.asyncIterator]();
  let since = performance.now();
  try {
    while (true) {
      if (session.signal?.aborted) throw new SqlError("cancelled by user", -1, "cancelled");
      const next = await iterator.next();
      if (next.done) break;
      const batch = next.value;
      for (let i = 0; i < batch.rowCount; i++) {
        const cells = columns.map((c, k) => {
          const v = readValue(batch.columns[k], i);
          if (v === null) return null;
          if (v instanceof Uint8Array) return hexOf(v);
          return cellText(v, c);
        });
        send(formatRow(cells, format));
        rows++;
        if (host.out.length >= FLUSH_BYTES) {
          await host.flush();
          // As row_cursor.ts: a write the socket takes at once is no turn (issue #17).
          since = await yieldIfDue(since);
        }
      }
    }
  } finally {
    await iterator.return?.();
  }
  M.copyDone(host.out);
  return `COPY ${rows}`;
}

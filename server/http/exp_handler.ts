/**
 * GET /exp (spec/protocols.md §3): streams a query result as CSV with backpressure, one
 * batch at a time, so exporting millions of rows keeps memory flat.
 */
import {
  type Batch,
  type Engine,
  PARQUET_EXPORT_DEFAULTS,
  type ParquetWriteOptions,
  type Session,
  SqlError,
  yieldIfDue,
} from "../../engine/mod.ts";
import { errorBody, jsonResponse, statusOf, toSqlError } from "./errors.ts";
import { parquetOptions, parquetStream } from "./exp_parquet.ts";
import { flag, type Params, text } from "./query_params.ts";
import { csvHeader } from "./value_text.ts";
import { type CellFormat, columnCells } from "./column_text.ts";

const CSV: CellFormat = { kind: "csv" };

const encoder = new TextEncoder();
/** Rows written between checks for a turn. */
const RENDER_ROWS = 1024;

/** `limit=n` → first n; `limit=a,b` → skip a, stop at b (§3.1, one off from /exec). */
export function expLimit(raw: string | undefined): { skip: number; stop: number } {
  if (!raw) return { skip: 0, stop: Infinity };
  const parts = raw.split(",").map((p) => Math.max(0, Number.parseInt(p.trim(), 10) || 0));
  if (parts.length >= 2) return { skip: parts[0], stop: parts[1] };
  return { skip: 0, stop: parts[0] };
}

export async function handleExp(
  params: Params,
  engine: Engine,
  session: Session,
  parquetDefaults: ParquetWriteOptions = PARQUET_EXPORT_DEFAULTS,
): Promise<Response> {
  const raw = params.get("query");
  if (typeof raw === "object") {
    return jsonResponse(
      JSON.stringify({ query: "", error: "Bad UTF8 encoding in query text", position: 0 }),
      400,
    );
  }
  const query = raw ?? "";
  if (query.trim() === "") {
    return jsonResponse(JSON.stringify({ query, error: "No query text", position: 0 }), 400);
  }
  const fmt = (text(params, "fmt") ?? "csv").toLowerCase();
  if (fmt !== "csv" && fmt !== "parquet") {
    return jsonResponse(errorBody(query, new SqlError(`unrecognised format [format=${fmt}]`, 0)), 400);
  }
  let parquet: ParquetWriteOptions | undefined;
  try {
    if (fmt === "parquet") parquet = parquetOptions(params, parquetDefaults);
  } catch (err) {
    const e = toSqlError(err);
    return jsonResponse(errorBody(query, e), statusOf(e));
  }
  const delimiter = (text(params, "delimiter") ?? ",").slice(0, 1) || ",";
  const { skip, stop } = expLimit(text(params, "limit"));
  let outcome;
  try {
    outcome = await engine.execute(query, session);
  } catch (err) {
    const e = toSqlError(err);
    return jsonResponse(errorBody(query, e), statusOf(e));
  }
  if (outcome.kind !== "rows") {
    return jsonResponse(errorBody(query, new SqlError("/exp endpoint only accepts SELECT", 0)), 400);
  }
  const columns = outcome.columns;
  const iterator = outcome.batches[Symbol.asyncIterator]();
  let first: IteratorResult<Batch> | undefined;
  try {
    first = await iterator.next();
  } catch (err) {
    const e = toSqlError(err);
    return jsonResponse(errorBody(query, e), statusOf(e));
  }
  const name = (text(params, "filename") ?? `questdb-query-${Date.now()}`).replace(/[^\w.\-]/g, "_");
  if (parquet) {
    let body;
    try {
      body = parquetStream(columns, outcome.timestampIndex, iterator, first, parquet, skip, stop);
    } catch (err) {
      await iterator.return?.();
      const e = toSqlError(err);
      return jsonResponse(errorBody(query, e), statusOf(e));
    }
    return new Response(body, {
      headers: {
        "content-type": "application/vnd.apache.parquet",
        "content-disposition": `attachment; filename="${name}.parquet"`,
      },
    });
  }
  let head = flag(params, "nm") ? "" : csvHeader(columns.map((c) => c.name), delimiter);
  const cells: string[][] = columns.map(() => []);
  const rowCells = new Array<string>(columns.length);
  let row = 0;
  // The batch being written and its next row: each pull writes one slice of a batch, so the
  // client's reading paces the rendering (a pull that rendered a whole batch queued its text
  // ahead of the client), with a turn for other clients before a slice when due (issue #17: a
  // batch of CSV held the event loop for tens of milliseconds, wide rows for far longer).
  let batch: Batch | undefined;
  let at = 0;
  let since = performance.now();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (row >= stop || !batch || at >= batch.rowCount) {
          const r = row >= stop ? undefined : first ?? await iterator.next();
          first = undefined;
          if (!r || r.done) {
            if (!r) await iterator.return?.();
            if (head) controller.enqueue(encoder.encode(head));
            controller.close();
            return;
          }
          batch = r.value;
          at = 0;
        }
        since = await yieldIfDue(since, 2); // two turns beside a streaming response (event_loop_turn.ts)
        const from = at, to = Math.min(batch.rowCount, from + RENDER_ROWS);
        at = to;
        // Rows [from, to) are rows `row`.. of the result; those in [skip, stop) are written.
        const lo = from + Math.max(0, skip - row), hi = Math.min(to, from + Math.max(0, stop - row));
        row += to - from;
        if (hi <= lo) continue;
        const b = batch;
        columns.forEach((c, k) => {
          cells[k].length = 0;
          columnCells(b.columns[k], c.type, lo, hi, CSV, cells[k]);
        });
        // Rows as flat strings joined once (a string built by `+=` leaves a rope node per piece
        // behind: more garbage than the text itself, and the server's memory grew with it).
        const lines = new Array<string>(hi - lo + 1);
        for (let j = 0; j < hi - lo; j++) {
          for (let k = 0; k < cells.length; k++) rowCells[k] = cells[k][j];
          lines[j] = rowCells.join(delimiter);
        }
        lines[hi - lo] = "";
        controller.enqueue(encoder.encode(head + lines.join("\r\n")));
        head = "";
        return;
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${name}.csv"`,
    },
  });
}

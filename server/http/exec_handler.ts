/**
 * GET /exec (spec/protocols.md §2): runs one statement and streams the JSON reply. The first
 * batch is pulled before the status line is sent, so an error the query meets early is a
 * proper 400; a failure after rows went out closes the JSON with `error` and `errorPos`.
 */
import { type Batch, type Engine, type Session, SqlError, yieldIfDue } from "../../engine/mod.ts";
import { errorBody, jsonResponse, statusOf, toSqlError } from "./errors.ts";
import { flag, type Params, text } from "./query_params.ts";
import { jsonColumn } from "./value_text.ts";
import { type CellFormat, columnCells } from "./column_text.ts";
import { jsonRowBytes } from "./json_rows.ts";

const SQL_TEXT_MAX = 1_048_576;
/** Up to this many cells a result slice is rendered as text (jsonRowBytes: no faster below). */
const TEXT_CELLS_MAX = 32;
/** Rows rendered between checks for a turn. */
const RENDER_ROWS = 4096;
/** A pull enqueues at least this many bytes (fewer, larger chunks stream faster). */
const CHUNK_BYTES = 1 << 20;
const encoder = new TextEncoder();
const EMPTY = new Uint8Array(0);

/** Parts from this size go out as chunks of their own: joining them only copies them again. */
const PART_BYTES_ALONE = 64 * 1024;

/**
 * The parts as chunks: runs of small parts joined (a chunk per few rows streams slower), large
 * parts as they are (12,000 rows x 9 columns of JSON were 1.9 MB copied twice, ~0.7 ms).
 */
function chunked(parts: Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer>[] {
  const out: Uint8Array<ArrayBuffer>[] = [];
  let run: Uint8Array<ArrayBuffer>[] = [];
  for (const p of parts) {
    if (p.length < PART_BYTES_ALONE) {
      run.push(p);
      continue;
    }
    if (run.length) out.push(joined(run));
    run = [];
    out.push(p);
  }
  if (run.length) out.push(joined(run));
  return out;
}

/** The parts as one array (one part is returned as is). */
function joined(parts: Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer> {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `limit=n` → first n; `limit=a,b` → rows a..b inclusive, 1-based (§2.1). */
export function execLimit(raw: string | undefined): { skip: number; stop: number } {
  if (!raw) return { skip: 0, stop: Infinity };
  const parts = raw.split(",").map((p) => Number.parseInt(p.trim(), 10));
  const clamp = (n: number) => (Number.isFinite(n) ? Math.max(0, n) : NaN);
  if (parts.length >= 2) {
    const a = clamp(parts[0]), b = clamp(parts[1]);
    if (Number.isNaN(b)) return { skip: 0, stop: Number.isNaN(a) ? Infinity : a };
    return { skip: Math.max(0, (Number.isNaN(a) ? 1 : a) - 1), stop: b };
  }
  const n = clamp(parts[0]);
  return { skip: 0, stop: Number.isNaN(n) ? Infinity : n };
}

export async function handleExec(
  params: Params,
  engine: Engine,
  session: Session,
  maxRows: number,
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
    const v2 = Number(text(params, "version") ?? "1") >= 2;
    return jsonResponse(
      v2
        ? '{"notice":"empty query","query":"","position":"0"}'
        : '{"error":"empty query","query":"","position":"0"}',
    );
  }
  if (query.length > SQL_TEXT_MAX) {
    return jsonResponse(
      errorBody(
        query.slice(0, 1024),
        new SqlError(`query text is too long [max=${SQL_TEXT_MAX}]`, 0, "limit"),
      ),
      400,
    );
  }
  const started = performance.now();
  const nm = flag(params, "nm");
  const countAll = flag(params, "count");
  const timings = flag(params, "timings");
  const explain = flag(params, "explain");
  const quoteLargeNum = flag(params, "quoteLargeNum") || text(params, "src") === "con";
  const { skip, stop: stop0 } = execLimit(text(params, "limit"));
  const stop = Math.min(stop0, skip + maxRows);
  let outcome;
  try {
    outcome = await engine.execute(query, session);
  } catch (err) {
    const e = toSqlError(err);
    return jsonResponse(errorBody(query, e), statusOf(e));
  }
  const compiledAt = performance.now();
  if (outcome.kind === "ddl") return jsonResponse('{"ddl":"OK"}');
  if (outcome.kind === "insert") return jsonResponse('{"dml":"OK"}');
  if (outcome.kind === "dml") return jsonResponse(`{"dml":"OK","updated":${outcome.updated}}`);

  const columns = outcome.columns;
  const iterator = outcome.batches[Symbol.asyncIterator]();
  let first: IteratorResult<Batch>;
  try {
    first = await iterator.next();
  } catch (err) {
    const e = toSqlError(err);
    return jsonResponse(errorBody(query, e), statusOf(e));
  }
  let head = nm
    ? '{"dataset":['
    : `{"query":${JSON.stringify(query)},"columns":[${
      columns.map((c) => jsonColumn(c.name, c.type)).join(",")
    }],"timestamp":${outcome.timestampIndex},"dataset":[`;
  let row = 0;
  let sent = 0;
  let done = false;
  const format: CellFormat = { kind: "json", quoteLargeNum };
  const types = columns.map((c) => c.type);
  const cells: string[][] = columns.map(() => []);
  /** Rows [lo, hi) of a batch as text, cell by cell: the fallback when WASM memory is full. */
  const renderText = (b: Batch, lo: number, hi: number, first: boolean): string => {
    columns.forEach((c, k) => {
      cells[k].length = 0;
      columnCells(b.columns[k], c.type, lo, hi, format, cells[k]);
    });
    let s = "";
    for (let j = 0; j < hi - lo; j++) {
      s += j === 0 && first ? "[" : ",[";
      for (let k = 0; k < cells.length; k++) s += k === 0 ? cells[k][j] : "," + cells[k][j];
      s += "]";
    }
    return s;
  };
  const render = (b: Batch, from = 0, to = b.rowCount): Uint8Array<ArrayBuffer> => {
    // Rows [from, to) are rows `row`.. of the result; those in [skip, stop) are sent.
    const lo = from + Math.max(0, skip - row), hi = Math.min(to, from + Math.max(0, stop - row));
    row += to - from;
    if (hi <= lo) return EMPTY;
    const first = sent === 0;
    sent += hi - lo;
    // A few cells (SELECT 1, a count, a dashboard's last rows) are text sooner than the WASM
    // memory's blocks are taken and given back: 1 row 3.7 -> 1.3 us, 5 rows 5.7 -> 3.6 us.
    const few = (hi - lo) * b.columns.length <= TEXT_CELLS_MAX;
    return (few ? undefined : jsonRowBytes(b.columns, types, lo, hi, first, format)) ??
      encoder.encode(renderText(b, lo, hi, first));
  };
  const tail = (): string => {
    const count = countAll ? row : skip + sent;
    let s = `],"count":${count}`;
    if (timings) {
      const ns = (ms: number) => Math.round(ms * 1e6);
      s += `,"timings":{"authentication":0,"compiler":${ns(compiledAt - started)},"execute":${
        ns(performance.now() - compiledAt)
      },"count":0}`;
    }
    // QuestDB reports whether the filter was JIT-compiled to native code (spec/protocols.md
    // §2.2); this server has no JIT (filters run in WebAssembly kernels chosen by the planner),
    // so the answer is always false. The plan itself comes from `EXPLAIN <query>`.
    if (explain) s += ',"explain":{"jitCompiled":false}';
    return s + "}";
  };
  // A result of at most one batch (SELECT 1, a count, a LATEST ON) is answered as one body
  // with a length instead of a chunked stream, which costs the stream's extra turns.
  let second: IteratorResult<Batch> = { done: true, value: undefined };
  if (!first.done && first.value.rowCount >= stop && !countAll) {
    // `limit` is met within the first batch: the rest is not computed.
    await iterator.return?.();
  } else if (!first.done) {
    try {
      second = await iterator.next();
    } catch (err) {
      const e = toSqlError(err);
      return jsonResponse(errorBody(query, e), statusOf(e));
    }
  }
  if (first.done || second.done) {
    const body = joined([
      encoder.encode(head),
      first.done ? EMPTY : render(first.value),
      encoder.encode(tail()),
    ]);
    return new Response(body, {
      status: 200,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  }
  // The two batches already pulled go out first, then the rest as the client reads.
  const pulled: IteratorResult<Batch>[] = [first, second];
  // The batch being rendered and the next row of it: a batch is rendered in slices with a
  // turn for other clients between them when due (issue #17: 65,536 rows of JSON held the
  // event loop for tens of milliseconds, wide rows for far longer).
  let batch: Batch | undefined;
  let at = 0;
  let since = performance.now();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const parts: Uint8Array<ArrayBuffer>[] = [];
        let size = 0;
        const add = (bytes: Uint8Array<ArrayBuffer>) => {
          parts.push(bytes);
          size += bytes.length;
        };
        if (head) add(encoder.encode(head));
        head = "";
        while (!done) {
          if (!batch || at >= batch.rowCount) {
            const r = pulled.shift() ?? await iterator.next();
            if (r.done) {
              done = true;
              break;
            }
            batch = r.value;
            at = 0;
          }
          since = await yieldIfDue(since, 2); // two turns beside a streaming response (event_loop_turn.ts)
          const to = Math.min(batch.rowCount, at + RENDER_ROWS);
          add(render(batch, at, to));
          at = to;
          if (row >= stop && !countAll) {
            done = true;
            await iterator.return?.();
            break;
          }
          if (size > CHUNK_BYTES) break;
        }
        if (done) add(encoder.encode(tail()));
        for (const chunk of chunked(parts)) controller.enqueue(chunk);
        if (done) controller.close();
      } catch (err) {
        const e = toSqlError(err);
        controller.enqueue(
          encoder.encode(
            `],"count":${skip + sent},"error":${JSON.stringify(e.message)}, "errorPos":${
              Math.max(0, e.position)
            }}`,
          ),
        );
        controller.close();
      }
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(stream, {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

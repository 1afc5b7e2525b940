/**
 * ILP over HTTP: `POST /write` and `POST /api/v2/write` (spec/protocols.md §9). The body (plain,
 * gzip or multipart) is parsed whole, every line checked, and the rows committed table by
 * table: 204 means every row of the request is committed, an error reply means none is. Error
 * replies are the JSON of §9.2 with the first bad line. Large bodies parse on worker threads
 * (server/line_protocol/parse_pool.ts), so concurrent requests parse in parallel while this thread reads
 * bodies and commits; only the commit of each table is serialised (the Ingestor's table lock).
 * Rows go through the engine's ingest door, which checks each table write for the request's
 * session (INSERT, CREATE TABLE, ADD COLUMN: a refusal is 403 and nothing commits).
 */
import {
  adminSession,
  type Engine,
  engineStats,
  type IngestHandle,
  type IngestorOptions,
  type Session,
  SqlError,
} from "../../engine/mod.ts";
import type { Config } from "../config.ts";
import {
  ingestorOptions,
  parseBody,
  type ParsedBody,
  ParsePool,
  type Precision,
  precisionOf,
} from "../line_protocol/mod.ts";
import { readBody } from "./read_body.ts";
import { multipartBoundary, parseMultipart } from "./multipart.ts";

/**
 * Bodies at least this large parse on a worker thread (parse_pool.ts): two such requests then
 * parse on two cores while the main thread commits. Smaller ones parse in place, where a
 * worker's round trip would cost more than it saves.
 */
const POOL_BODY_BYTES_MIN = 1024 * 1024;

/** Default `line.http.max.recv.buffer.size`: bodies above it get 413 (see docs/ilp.md). */
export const ILP_HTTP_BODY_BYTES_MAX_DEFAULT = 256 * 1024 * 1024;

const PARSE_PREFIX = "failed to parse line protocol:errors encountered on line(s):";
/** `<12 hex chars fixed per server run>-<sequence>` (§9.2). */
const ERROR_ID_PREFIX = Array.from(
  crypto.getRandomValues(new Uint8Array(6)),
  (b) => b.toString(16).padStart(2, "0"),
).join("");
let errorSequence = 0;

function errorReply(status: number, code: string, message: string, line?: number): Response {
  const body: Record<string, unknown> = { code, message };
  if (line !== undefined) body.line = line;
  body.errorId = `${ERROR_ID_PREFIX}-${++errorSequence}`;
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/**
 * Builds the handler for both ILP paths; mount it for every method (others get 404).
 * `sessionOf` gives the session a request writes as (access control); default: admin.
 */
export function ilpHandler(
  engine: Engine,
  config: Config,
  sessionOf: (req: Request) => Session = () => adminSession(),
): (req: Request) => Promise<Response> {
  const options = ingestorOptions(config);
  const pool = new ParsePool();
  const maxBodyBytes = config.int("line.http.max.recv.buffer.size", ILP_HTTP_BODY_BYTES_MAX_DEFAULT);
  return async (req) => {
    try {
      return await handle(req, engine, options, pool, maxBodyBytes, sessionOf);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return errorReply(500, "internal error", message);
    }
  };
}

async function handle(
  req: Request,
  engine: Engine,
  options: IngestorOptions,
  pool: ParsePool,
  maxBodyBytes: number,
  sessionOf: (req: Request) => Session,
): Promise<Response> {
  if (req.method !== "POST" && req.method !== "PUT") {
    return errorReply(404, "invalid", `method not supported [method=${req.method}]`);
  }
  const url = new URL(req.url);
  const precisionText = url.searchParams.get("precision");
  let precision: Precision = "n";
  if (precisionText !== null && precisionText !== "") {
    const p = precisionOf(precisionText);
    if (!p) return errorReply(400, "not supported", "unsupported precision");
    precision = p;
  }
  const encoding = (req.headers.get("content-encoding") ?? "").trim().toLowerCase();
  if (encoding !== "" && encoding !== "identity" && encoding !== "gzip" && encoding !== "x-gzip") {
    return errorReply(415, "not supported", `unsupported content encoding [encoding=${encoding}]`);
  }
  const body = await readBody(req, {
    maxBytes: maxBodyBytes,
    gzip: encoding === "gzip" || encoding === "x-gzip",
  });
  if (body.kind === "too large") {
    return errorReply(
      413,
      "request too large",
      `transaction is too large, either flush more frequently or increase buffer size "line.http.max.recv.buffer.size" [maxBufferSize=${maxBodyBytes}]`,
    );
  }
  if (body.kind === "bad encoding") return errorReply(400, "invalid", `invalid gzip body: ${body.message}`);
  if (body.kind === "timeout") {
    return errorReply(408, "invalid", "request body not received in time [http.request.body.timeout]");
  }
  if (body.kind === "busy") return errorReply(503, "busy", "server is busy: too many concurrent requests");
  engineStats.lineBytes.http += body.bytes.length;
  let parsed: ParsedBody;
  const boundary = multipartBoundary(req.headers.get("content-type"));
  if (boundary) {
    const parts = parseMultipart(body.bytes, boundary);
    if (!parts) return errorReply(400, "invalid", "malformed multipart body");
    parsed = parseBody(parts.map((p) => p.data), precision);
  } else if (body.bytes.length >= POOL_BODY_BYTES_MIN) {
    parsed = await pool.parse(body.bytes, [[0, body.bytes.length]], precision);
  } else parsed = parseBody([body.bytes], precision);
  if (parsed.error) return lineErrorReply(parsed.error.line, parsed.error.message);
  const writer: IngestHandle = engine.ingest(sessionOf(req), options);
  let outcome;
  try {
    outcome = await writer.commitBlocks(parsed.blocks, { mode: "all" });
  } catch (e) {
    if (e instanceof SqlError && e.kind === "permission") return errorReply(403, "unauthorised", e.message);
    throw e;
  }
  if (outcome.error) return lineErrorReply(outcome.error.line, outcome.error.message);
  if (outcome.failure) return errorReply(500, "internal error", outcome.failure);
  return new Response(null, { status: 204 });
}

function lineErrorReply(line: number, detail: string): Response {
  return errorReply(400, "invalid", `${PARSE_PREFIX}\nerror in line ${line}: ${detail}`, line);
}

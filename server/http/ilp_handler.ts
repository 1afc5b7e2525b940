/**
 * ILP over HTTP: `POST /write` and `POST /api/v2/write` (spec/protocols.md §9). The body (plain,
 * gzip or multipart) is parsed whole, every line checked, and the rows committed table by
 * table: 204 means every row of the request is committed, an error reply means none is. Error
 * replies are the JSON of §9.2 with the first bad line.
 */
import { type Engine, Ingestor } from "../../engine/mod.ts";
import type { Config } from "../config.ts";
import { LineParser, type Precision, precisionOf } from "../ilp/line_parser.ts";
import { commitBlocks } from "../ilp/commit_blocks.ts";
import { ingestorOptions } from "../ilp/ilp_config.ts";
import { readBody } from "./read_body.ts";
import { multipartBoundary, parseMultipart } from "./multipart.ts";

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

export interface IlpHttpOptions {
  maxBodyBytes?: number;
  /**
   * Access control (security.md): the refusal message for writing to `table` as the
   * request's principal, or undefined when allowed. Without it every write is allowed.
   */
  authorize?: (req: Request, write: { table: string; createsTable: boolean }) => string | undefined;
}

/** Builds the handler for both ILP paths; mount it for every method (others get 404). */
export function ilpHandler(
  engine: Engine,
  config: Config,
  options: IlpHttpOptions = {},
): (req: Request) => Promise<Response> {
  const ingestor = new Ingestor(engine.storage, ingestorOptions(config));
  const maxBodyBytes = options.maxBodyBytes ??
    config.int("line.http.max.recv.buffer.size", ILP_HTTP_BODY_BYTES_MAX_DEFAULT);
  return async (req) => {
    try {
      return await handle(req, ingestor, maxBodyBytes, (write) => options.authorize?.(req, write));
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return errorReply(500, "internal error", message);
    }
  };
}

async function handle(
  req: Request,
  ingestor: Ingestor,
  maxBodyBytes: number,
  authorize: (write: { table: string; createsTable: boolean }) => string | undefined,
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
  let texts: Uint8Array[] = [body.bytes];
  const boundary = multipartBoundary(req.headers.get("content-type"));
  if (boundary) {
    const parts = parseMultipart(body.bytes, boundary);
    if (!parts) return errorReply(400, "invalid", "malformed multipart body");
    texts = parts.map((p) => p.data);
  }
  const parser = new LineParser({ precision });
  let parseError;
  for (const text of texts) {
    const r = parser.parse(text, 0, text.length, true);
    if (r.error) {
      parseError = r.error;
      break;
    }
    parser.line++; // a part ends a line
  }
  if (parseError) return lineErrorReply(parseError.line, parseError.message);
  const blocks = parser.take();
  for (const b of blocks) {
    const refusal = authorize({ table: b.table, createsTable: !ingestor.hasTable(b.table) });
    if (refusal) return errorReply(403, "unauthorised", refusal);
  }
  const outcome = await commitBlocks(ingestor, blocks, { mode: "all" });
  if (outcome.error) return lineErrorReply(outcome.error.line, outcome.error.message);
  if (outcome.failure) return errorReply(500, "internal error", outcome.failure);
  return new Response(null, { status: 204 });
}

function lineErrorReply(line: number, detail: string): Response {
  return errorReply(400, "invalid", `${PARSE_PREFIX}\nerror in line ${line}: ${detail}`, line);
}

/**
 * Reads a request body into memory with a byte limit (checked on Content-Length first, then
 * while reading, so an oversized upload is refused without being held), inflating gzip. While
 * the body arrives the request is out of the connection limit and under the body deadline
 * (request_limit.ts, `http.request.body.timeout`): a body that trickles in is cut off.
 */
import { bodyPhaseOf } from "./request_limit.ts";

export type Body =
  | { kind: "ok"; bytes: Uint8Array }
  | { kind: "too large" }
  | { kind: "bad encoding"; message: string }
  /** Not all of it arrived within `http.request.body.timeout`, or a newer body evicted it. */
  | { kind: "timeout" }
  /** The body arrived but http.net.connection.limit filled up meanwhile. */
  | { kind: "busy" };

export async function readBody(req: Request, options: { maxBytes: number; gzip: boolean }): Promise<Body> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (!options.gzip && declared > options.maxBytes) return { kind: "too large" };
  if (!req.body) return { kind: "ok", bytes: new Uint8Array(0) };
  const raw = req.body.getReader();
  let dropped = false;
  const phase = bodyPhaseOf(req);
  phase?.begin(() => {
    dropped = true;
    raw.cancel().catch(() => {});
  });
  let result: Body;
  try {
    result = await readAll(raw, options);
  } catch (e) {
    if (!dropped) throw e;
    result = { kind: "timeout" };
  }
  if (dropped) return { kind: "timeout" };
  if (phase && !phase.end()) return { kind: "busy" };
  return result;
}

/** The JSON error answer of a body that could not be read (REST endpoints). */
export function bodyFailure(body: Exclude<Body, { kind: "ok" }>): Response {
  const [status, error] = {
    "too large": [413, "request body too large"],
    "bad encoding": [400, "bad request body encoding"],
    "timeout": [408, "request body not received in time [http.request.body.timeout]"],
    "busy": [503, "server is busy: too many concurrent requests"],
  }[body.kind] as [number, string];
  return new Response(JSON.stringify({ error }), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

async function readAll(
  raw: ReadableStreamDefaultReader<Uint8Array>,
  options: { maxBytes: number; gzip: boolean },
): Promise<Body> {
  const source = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await raw.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => raw.cancel(reason),
  });
  let stream: ReadableStream<Uint8Array> = source;
  if (options.gzip) {
    stream = stream.pipeThrough(
      new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
    );
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > options.maxBytes) {
        await reader.cancel().catch(() => {});
        return { kind: "too large" };
      }
      chunks.push(value);
    }
  } catch (e) {
    if (options.gzip) return { kind: "bad encoding", message: e instanceof Error ? e.message : String(e) };
    throw e;
  }
  if (chunks.length === 1) return { kind: "ok", bytes: chunks[0] };
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return { kind: "ok", bytes };
}

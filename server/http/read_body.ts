/**
 * Reads a request body into memory with a byte limit (checked on Content-Length first, then
 * while reading, so an oversized upload is refused without being held), inflating gzip.
 */

export type Body =
  | { kind: "ok"; bytes: Uint8Array }
  | { kind: "too large" }
  | { kind: "bad encoding"; message: string };

export async function readBody(req: Request, options: { maxBytes: number; gzip: boolean }): Promise<Body> {
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (!options.gzip && declared > options.maxBytes) return { kind: "too large" };
  if (!req.body) return { kind: "ok", bytes: new Uint8Array(0) };
  let stream: ReadableStream<Uint8Array> = req.body;
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

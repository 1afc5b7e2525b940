/**
 * The entry of a Parquet decode worker (parquet_decode_thread.ts): one column of a local
 * partition file decoded through hyparquet into native bytes, beside the event loop instead
 * of on it (issue #17). One request, one reply; the answer's buffers are transferred.
 */
/// <reference lib="deno.worker" />
import type { AsyncBuffer } from "hyparquet";
import { SqlError } from "../base/errors.ts";
import { readRange } from "./_fs.ts";
import { decodeGeneric } from "./parquet_generic_decode.ts";
import type { DecodeReply, DecodeRequest } from "./parquet_decode_thread.ts";

self.onmessage = async (e: MessageEvent<DecodeRequest>) => {
  const { path, size, metadata, at, n, col } = e.data;
  let reply: DecodeReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const bytes: AsyncBuffer = {
      byteLength: size,
      slice: async (start, end) =>
        (await readRange(path, start, (end ?? size) - start)).buffer as ArrayBuffer,
    };
    // No turns: nothing else runs on this thread.
    const chunk = await decodeGeneric(bytes, metadata, at, n, col, undefined, () => Promise.resolve());
    const buffers = chunk.kind === "fixed"
      ? [chunk.bytes.buffer]
      : [chunk.col.offsets.buffer, chunk.col.data.buffer];
    transfer = [...new Set(buffers as ArrayBuffer[])];
    reply = { kind: "chunk", chunk };
  } catch (err) {
    reply = {
      kind: "error",
      message: err instanceof Error ? err.message : String(err),
      errorKind: err instanceof SqlError ? err.kind : "io",
    };
  }
  self.postMessage(reply, transfer);
};

/**
 * The entry of a Parquet encoder worker (encoder_thread.ts): one export's ParquetResultWriter,
 * so that converting rows and encoding and compressing row groups (hundreds of milliseconds
 * per group of wide rows) run beside the event loop, not on it (issue #17). Requests are
 * handled in arrival order, each answered by exactly one reply.
 */
/// <reference lib="deno.worker" />
import { SqlError } from "../base/errors.ts";
import { BatchDecoder } from "../parallel/batch_wire.ts";
import type { EncodeReply, EncodeRequest } from "./encode_protocol.ts";
import { concat } from "./encoder_thread.ts";
import { ParquetResultWriter } from "./writer.ts";

let writer: ParquetResultWriter | undefined;
let decoder: BatchDecoder | undefined;
/** Bytes of quiet requests, sent with the next reply. */
const carry: Uint8Array[] = [];

self.onmessage = (e: MessageEvent<EncodeRequest>) => {
  try {
    handle(e.data);
  } catch (err) {
    const position = err instanceof SqlError ? err.position : undefined;
    reply({ kind: "error", message: err instanceof Error ? err.message : String(err), position });
  }
};

function handle(req: EncodeRequest): void {
  if (req.kind === "open") {
    writer = new ParquetResultWriter(req.columns, req.timestampIndex, req.options);
    decoder = new BatchDecoder(req.columns.map((c) => c.type));
    return;
  }
  if (!writer || !decoder) throw new Error("parquet encoder: no open file");
  if (req.kind === "add") {
    carry.push(writer.add(decoder.decode(req.batch), req.from, req.to));
    if (!req.quiet) reply({ kind: "bytes", bytes: concat(carry.splice(0)) });
  } else {
    carry.push(writer.finish());
    reply({ kind: "end", bytes: concat(carry.splice(0)), written: writer.written });
  }
}

function reply(r: EncodeReply): void {
  const transfer = r.kind === "error" ? [] : [r.bytes.buffer as ArrayBuffer];
  self.postMessage(r, transfer);
}

/**
 * Worker entry of the ILP parse pool (parse_pool.ts): parses one request body per message and
 * answers with its blocks as transferable arrays (block_wire.ts), or with the bad line.
 */
import { blocksToWire } from "./block_wire.ts";
import { parseBody } from "./parse_body.ts";
import type { ParseReply, ParseRequest } from "./parse_pool.ts";

const scope = self as unknown as {
  onmessage: (e: MessageEvent<ParseRequest>) => void;
  postMessage(message: ParseReply, transfer: Transferable[]): void;
};

scope.onmessage = (e) => {
  const { id, body, parts, precision } = e.data;
  let reply: ParseReply;
  let transfer: ArrayBuffer[] = [];
  try {
    const texts = parts.map(([from, to]) => new Uint8Array(body, from, to - from));
    const parsed = parseBody(texts, precision);
    if (parsed.error) reply = { id, error: parsed.error };
    else {
      const w = blocksToWire(parsed.blocks);
      reply = { id, blocks: w.wire };
      transfer = w.transfer;
    }
  } catch (err) {
    reply = { id, failure: err instanceof Error ? err.message : String(err) };
  }
  scope.postMessage(reply, transfer);
};

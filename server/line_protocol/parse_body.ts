/**
 * Parses a whole ILP/HTTP body (or its multipart parts, each ending a line) into blocks,
 * stopping at the first bad line: the one loop that both the request handler and the parse
 * workers (parse_worker.ts) run, so a request gets the same blocks and errors either way.
 */
import type { IngestBlock } from "../../engine/ingest/block.ts"; // the leaf module: see line_parser.ts
import { type LineError, LineParser, type Precision } from "./line_parser.ts";

export interface ParsedBody {
  /** The first bad line; no blocks then. */
  error?: LineError;
  blocks: IngestBlock[];
}

export function parseBody(texts: Uint8Array[], precision: Precision): ParsedBody {
  const parser = new LineParser({ precision });
  for (const text of texts) {
    const r = parser.parse(text, 0, text.length, true);
    if (r.error) return { error: r.error, blocks: [] };
    parser.line++; // a part ends a line
  }
  return { blocks: parser.take() };
}

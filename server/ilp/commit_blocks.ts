/**
 * Commits the blocks of parsed lines through the Ingestor, shared by ILP over HTTP and TCP.
 * Every block is checked first (spec/protocols.md §10.5: a value that does not fit its column
 * rejects its line), then committed table by table: HTTP commits nothing when any line is bad
 * (`all`), TCP keeps the lines before the first bad one (`prefix`, §11), or with
 * `line.tcp.disconnect.on.error=false` drops just the lines whose values do not fit (`skip`).
 */
import type { IngestBlock, Ingestor } from "../../engine/mod.ts";
import type { LineError } from "./line_parser.ts";

export interface CommitOutcome {
  rows: number;
  /** The first bad line (its rows and every later line's were not committed). */
  error?: LineError;
  /** A commit failed (storage): the message, already in QuestDB's commit error form. */
  failure?: string;
}

/** Rows of `block` whose line is before `line` (rows are in line order). */
function rowsBefore(block: IngestBlock, line: number): number {
  let lo = 0, hi = block.rowCount;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (block.lines[mid] < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export async function commitBlocks(
  ingestor: Ingestor,
  blocks: IngestBlock[],
  options: { mode: "all" | "prefix" | "skip"; parseError?: LineError },
): Promise<CommitOutcome> {
  // "skip" (TCP without disconnect on error): a value that does not fit drops only its line.
  const prepared = blocks.map((b) =>
    ingestor.prepare(b, options.mode === "skip" ? { onBad: "skipRow" } : {})
  );
  let error = options.parseError;
  for (const p of prepared) {
    if (p.error && (!error || p.error.line < error.line)) {
      error = { line: p.error.line, message: p.error.message };
    }
  }
  if (error && options.mode === "all") return { rows: 0, error };
  let rows = 0;
  for (const p of prepared) {
    const limit = error ? rowsBefore(p.block, error.line) : p.block.rowCount;
    if (limit === 0) continue;
    try {
      rows += await ingestor.commit(p, limit);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      return { rows, error, failure: `commit error for table: ${p.tableName}, errno: 0, error: ${message}` };
    }
  }
  return { rows, error };
}

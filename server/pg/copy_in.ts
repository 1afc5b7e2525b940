/**
 * `COPY t FROM STDIN`: CopyInResponse, then CopyData until CopyDone or CopyFail. Rows go
 * through the engine's ingest door, as CSV import's (/imp) do, into one block that commits in one
 * append at CopyDone: a bad row or a CopyFail writes nothing. Errors name the line (1-based,
 * header included) and the column, like Postgres's `COPY t, line 3, column x` context.
 */
import {
  type ColumnType,
  type Engine,
  IngestBlock,
  parseText,
  type Session,
  type TextParser,
  typeName,
  ValueKinds as K,
} from "../../engine/mod.ts";
import * as M from "./backend_messages.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import { type CopyRow, CopyRowReader } from "./copy_rows.ts";
import type { CopySpec } from "./copy_statement.ts";
import type { FrontendMessage } from "./frontend_messages.ts";
import { parseTimestampText } from "./pg_time.ts";
import { PgError, SQLSTATE } from "./sqlstate.ts";

const BAD_COPY_FILE_FORMAT = "22P04";

/** What COPY needs of its connection: output, and the messages that follow the response. */
export interface CopyHost {
  engine: Engine;
  out: BufferWriter;
  flush(): Promise<void>;
  /** The next frontend message, or null when the client has gone. */
  readMessage(): Promise<FrontendMessage | null>;
}

interface Target {
  name: string;
  type: ColumnType;
}

/** Postgres spellings of booleans (`t`, `yes`, `on`, `1` ...), which the dialect's parser lacks. */
const BOOLEANS: Record<string, boolean> = {
  t: true,
  true: true,
  y: true,
  yes: true,
  on: true,
  "1": true,
  f: false,
  false: false,
  n: false,
  no: false,
  off: false,
  "0": false,
};

/** Parsers for the texts Postgres clients write that the dialect's CSV parsers do not read. */
function parserFor(type: ColumnType): TextParser | undefined {
  switch (type.tag) {
    case "BOOLEAN":
      return (s) => BOOLEANS[s.trim().toLowerCase()];
    case "TIMESTAMP":
    case "TIMESTAMP_NS":
    case "DATE":
      // `2024-01-01 05:00:00-05` (timestamptz text) as well as QuestDB's own forms.
      return (s) => {
        const v = parseText(s, type);
        if (v !== undefined) return v;
        const micros = parseTimestampText(s);
        if (micros === undefined) return undefined;
        return type.tag === "DATE" ? micros / 1000n : type.tag === "TIMESTAMP_NS" ? micros * 1000n : micros;
      };
    default:
      return undefined;
  }
}

const STRING_TAGS = new Set(["STRING", "VARCHAR", "SYMBOL"]);

/** Runs COPY FROM STDIN to the end of the client's data; returns the command tag. */
export async function copyIn(
  host: CopyHost,
  spec: Extract<CopySpec, { direction: "from" }>,
  session: Session,
): Promise<string> {
  const writer = host.engine.ingest(session, { autoCreateTables: false, autoCreateColumns: false });
  const meta = writer.visibleTable(spec.table);
  if (!meta) throw new PgError(SQLSTATE.UNDEFINED_TABLE, `table does not exist [table=${spec.table}]`);
  // INSERT on the table, before any data is read (a SqlError of kind "permission": 42501).
  writer.checkInsert(meta.name);
  const targets: Target[] = [];
  for (const name of spec.columns ?? meta.columns.map((c) => c.name)) {
    const c = meta.columns.find((x) => x.name.toLowerCase() === name.toLowerCase());
    if (!c) {
      throw new PgError(
        SQLSTATE.UNDEFINED_COLUMN,
        `column "${name}" of relation "${meta.name}" does not exist`,
      );
    }
    targets.push({ name: c.name, type: c.type });
  }

  M.copyResponse(host.out, "in", targets.length);
  await host.flush();

  const reader = new CopyRowReader(spec.format);
  const block = new IngestBlock(meta.name);
  let error: PgError | undefined;
  let headerPending = spec.format.header;
  const add = (rows: CopyRow[]) => {
    for (const r of rows) {
      if (error) return;
      if (headerPending) {
        headerPending = false;
        continue;
      }
      error = addRow(block, targets, r, meta.name);
    }
  };
  // Read to CopyDone/CopyFail even after an error: the client sends its data regardless.
  while (true) {
    const msg = await host.readMessage();
    if (!msg) {
      throw new PgError(SQLSTATE.PROTOCOL_VIOLATION, "unexpected EOF on client connection with an open COPY");
    }
    if (msg.kind === "copyData") add(reader.push(msg.data));
    else if (msg.kind === "copyDone") {
      add(reader.push(new Uint8Array(), true));
      break;
    } else if (msg.kind === "copyFail") {
      throw new PgError(SQLSTATE.QUERY_CANCELED, `COPY from stdin failed: ${msg.message}`);
    } else if (msg.kind === "flush" || msg.kind === "sync") continue; // ignored in copy-in mode (protocol)
    else {
      throw new PgError(
        SQLSTATE.PROTOCOL_VIOLATION,
        `unexpected message type during COPY from stdin [kind=${msg.kind}]`,
      );
    }
  }
  if (error) throw error;
  if (block.rowCount === 0) return "COPY 0";

  const parsers = new Map<string, TextParser>();
  for (const t of targets) {
    const p = parserFor(t.type);
    if (p) parsers.set(t.name.toLowerCase(), p);
  }
  const ts = meta.timestampIndex >= 0 ? meta.columns[meta.timestampIndex].name : undefined;
  const prepared = writer.prepare(block, {
    parsers,
    timestamp: ts ? { name: ts, fromColumn: true } : null,
    onBad: "stop",
  });
  if (prepared.error) throw describeBadRow(block, targets, parsers, prepared.error, meta.name);
  const written = await writer.commit(prepared);
  if (written !== block.rowCount) {
    // The table changed between prepare and commit and a row no longer fits: say so rather
    // than report a partial count as success.
    throw new PgError(
      BAD_COPY_FILE_FORMAT,
      `COPY ${meta.name}: table changed during COPY, ${written} of ${block.rowCount} rows written`,
    );
  }
  return `COPY ${written}`;
}

/** Puts one row into the block; an error when its field count is wrong. */
function addRow(block: IngestBlock, targets: Target[], r: CopyRow, table: string): PgError | undefined {
  if (r.fields.length < targets.length) {
    return new PgError(
      BAD_COPY_FILE_FORMAT,
      `missing data for column "${targets[r.fields.length].name}" [COPY ${table}, line ${r.line}]`,
    );
  }
  if (r.fields.length > targets.length) {
    return new PgError(
      BAD_COPY_FILE_FORMAT,
      `extra data after last expected column [COPY ${table}, line ${r.line}]`,
    );
  }
  const row = block.beginRow(r.line);
  for (let i = 0; i < targets.length; i++) {
    const cell = block.cell(targets[i].name, row, r.line, i);
    if (!cell) continue;
    const v = r.fields[i];
    if (v === null) cell.setNum(row, K.NULL, 0);
    // Strings stay as sent (TEXT would turn an empty string into NULL, CSV-import style).
    else cell.setRef(row, STRING_TAGS.has(targets[i].type.tag) ? K.STRING : K.TEXT, v);
  }
  block.endRow();
  return undefined;
}

/** The Ingestor's first error as Postgres would put it: line, column and the offending text. */
function describeBadRow(
  block: IngestBlock,
  targets: Target[],
  parsers: Map<string, TextParser>,
  error: { row: number; line: number; message: string },
  table: string,
): PgError {
  for (const t of targets) {
    const col = block.columns.find((c) => c.name === t.name);
    if (!col || col.kinds[error.row] !== K.TEXT) continue;
    const text = col.refs[error.row] as string;
    const parser = parsers.get(t.name.toLowerCase());
    if ((parser ? parser(text) : parseText(text, t.type)) === undefined) {
      return new PgError(
        SQLSTATE.INVALID_TEXT_REPRESENTATION,
        `invalid input syntax for type ${
          typeName(t.type)
        }: "${text}" [COPY ${table}, line ${error.line}, column ${t.name}]`,
      );
    }
  }
  return new PgError(BAD_COPY_FILE_FORMAT, `${error.message} [COPY ${table}, line ${error.line}]`);
}

/**
 * `POST /imp`: CSV import from a multipart upload (spec/protocols.md §4). The data part is
 * read as a stream: the first `http.text.analysis.max.lines` records decide the delimiter,
 * the header and the column types (unless a `schema` part or the existing table says), then
 * records are appended in commits of `maxUncommittedRows` (the console's misspelt
 * `maxUncommitedRows` too). Bad values follow `atomicity`: `skipCol` stores NULL and counts
 * the error, `skipRow` drops the row, `abort` stops the import at that line and discards the
 * rows not yet committed. Rows go through the engine's ingest door, which checks each write
 * for the request's session (security.md §2.2, T15, T16: INSERT on an existing table, CREATE
 * TABLE to create one, ADD COLUMN for new columns, DROP TABLE for `overwrite=true`; a refusal
 * is 403) and gives the creator of a table its owner grants.
 */
import {
  adminSession,
  checkIngestTableName,
  type ColumnType,
  columnTypeOf,
  CsvReader,
  type CsvRecord,
  detectDelimiter,
  type Engine,
  inferColumnType,
  IngestBlock,
  type IngestHandle,
  log,
  looksLikeHeader,
  type PrepareOptions,
  type Session,
  SqlError,
  type TextParser,
  textParserFor,
  typeName,
  ValueKinds as K,
} from "../../engine/mod.ts";
import type { Config } from "../config.ts";
import { multipartBoundary, MultipartReader } from "./multipart.ts";

type PartitionUnit = "NONE" | "HOUR" | "DAY" | "WEEK" | "MONTH" | "YEAR";
const UNITS = new Set(["NONE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"]);
const ATOMICITY = new Set(["skipCol", "skipRow", "abort"]);
/** Bad lines listed in a reply at most (the counts stay exact). */
const REJECTED_LINES_MAX = 100;
const MAX_UNCOMMITTED_ROWS_DEFAULT = 500_000;

/** A request-level failure: HTTP 200 with the message as status (§4.2). */
class ImportFailure extends Error {}

interface SchemaColumn {
  name: string;
  type: ColumnType;
  pattern?: string;
}

interface Params {
  name?: string;
  overwrite: boolean;
  atomicity: "skipCol" | "skipRow" | "abort";
  partitionBy?: PartitionUnit;
  timestamp?: string;
  forceHeader: boolean;
  skipLev: boolean;
  delimiter?: string;
  create: boolean;
  maxUncommittedRows: number;
  skipLines: number;
  json: boolean;
}

interface Outcome {
  table: string;
  header: boolean;
  partitionBy: string;
  timestamp?: string;
  warnings: string[];
  rowsImported: number;
  rowsRejected: number;
  columns: { name: string; type: ColumnType; errors: number }[];
  rejected: { line: number; error: string }[];
}

function bool(v: string | null, dflt: boolean): boolean {
  return v === null || v === "" ? dflt : v.toLowerCase() === "true";
}

function paramsOf(url: URL): Params {
  const q = url.searchParams;
  const atomicity = q.get("atomicity") ?? "skipCol";
  if (!ATOMICITY.has(atomicity)) throw new ImportFailure(`invalid atomicity [value=${atomicity}]`);
  const pb = q.get("partitionBy");
  if (pb !== null && pb !== "" && !UNITS.has(pb.toUpperCase())) {
    throw new ImportFailure("invalid partitionBy");
  }
  const timestamp = q.get("timestamp") || undefined;
  const partitionBy = pb ? pb.toUpperCase() as PartitionUnit : undefined;
  if (partitionBy && partitionBy !== "NONE" && !timestamp) {
    throw new ImportFailure("when specifying partitionBy you must also specify timestamp");
  }
  const uncommitted = q.get("maxUncommittedRows") ?? q.get("maxUncommitedRows");
  const delimiter = q.get("delimiter");
  return {
    name: q.get("table") || q.get("name") || undefined,
    overwrite: bool(q.get("overwrite"), false),
    atomicity: atomicity as Params["atomicity"],
    partitionBy,
    timestamp,
    forceHeader: bool(q.get("forceHeader"), false),
    skipLev: bool(q.get("skipLev") ?? q.get("skipLineExtraValues"), false),
    delimiter: delimiter ? delimiter.slice(0, 1) : undefined,
    create: bool(q.get("create"), true),
    maxUncommittedRows: Math.max(1, Number(uncommitted) || MAX_UNCOMMITTED_ROWS_DEFAULT),
    skipLines: Math.max(0, Number(q.get("skipLines")) || 0),
    json: q.get("fmt") === "json",
  };
}

/**
 * Builds the `/imp` handler; mount it for POST (and PUT). `sessionOf` gives the session a
 * request writes as (access control); default: admin.
 */
export function importHandler(
  engine: Engine,
  config: Config,
  sessionOf: (req: Request) => Session = () => adminSession(),
): (req: Request) => Promise<Response> {
  const analysisLines = config.int("http.text.analysis.max.lines", 1000);
  return async (req) => {
    const url = new URL(req.url);
    const json = url.searchParams.get("fmt") === "json";
    try {
      if (req.method !== "POST" && req.method !== "PUT") {
        throw new ImportFailure(`method not supported [method=${req.method}]`);
      }
      const params = paramsOf(url);
      const boundary = multipartBoundary(req.headers.get("content-type"));
      if (!boundary || !req.body) {
        throw new ImportFailure("expected a multipart/form-data request with a 'data' part");
      }
      const outcome = await runImport(
        engine.ingest(sessionOf(req), { autoCreateTables: params.create }),
        new MultipartReader(req.body, boundary),
        params,
        analysisLines,
      );
      return params.json ? jsonReply(outcome) : textReply(outcome);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // A write the principal may not make (security.md §6.6, T16).
      if (e instanceof SqlError && e.kind === "permission") {
        return new Response(JSON.stringify({ status: message }), {
          status: 403,
          headers: { connection: "close", "content-type": "application/json; charset=utf-8" },
        });
      }
      if (!(e instanceof ImportFailure)) log("E", "imp", message);
      // Request-level failures answer 200 with the message (§4.2), then close the connection.
      const headers = { connection: "close" };
      return json
        ? new Response(JSON.stringify({ status: message }), {
          headers: { ...headers, "content-type": "application/json; charset=utf-8" },
        })
        : new Response(message, { headers: { ...headers, "content-type": "text/plain; charset=utf-8" } });
    }
  };
}

async function runImport(
  writer: IngestHandle,
  reader: MultipartReader,
  params: Params,
  analysisLines: number,
): Promise<Outcome> {
  let schema: SchemaColumn[] | undefined;
  for (;;) {
    const part = await reader.next();
    if (!part) throw new ImportFailure("no data part in the request");
    if (!part.headers.has("content-disposition")) {
      throw new ImportFailure("'Content-Disposition' multipart header missing'");
    }
    if (part.name === "schema" || part.name === "schemaV2") {
      schema = parseSchema(await readAll(reader));
      continue;
    }
    if (part.name !== "data") {
      throw new ImportFailure("invalid value in 'Content-Disposition' multipart header");
    }
    const table = params.name ?? part.filename;
    if (!table) throw new ImportFailure("no file name given");
    // The name rules of ILP and SQL (no path separators, no "..", no control characters):
    // a table name never names a path, and every endpoint accepts the same names.
    const badName = writer.table(table) ? undefined : checkIngestTableName(table);
    if (badName) throw new ImportFailure(badName);
    const outcome = await new CsvImport(writer, reader, params, { table, schema, analysisLines }).run();
    await reader.cancel();
    return outcome;
  }
}

async function readAll(reader: MultipartReader): Promise<string> {
  const chunks: Uint8Array[] = [];
  for (let c = await reader.read(); c !== undefined; c = await reader.read()) chunks.push(c.slice());
  return new TextDecoder().decode(await new Blob(chunks as BlobPart[]).arrayBuffer());
}

function parseSchema(text: string): SchemaColumn[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ImportFailure("invalid schema: not JSON");
  }
  const list = Array.isArray(raw) ? raw : (raw as { columns?: unknown[] })?.columns;
  if (!Array.isArray(list)) throw new ImportFailure("invalid schema: expected an array of columns");
  return list.map((c) => {
    const col = c as { name?: string; type?: string; pattern?: string };
    const type = col.type ? columnTypeOf(col.type) : undefined;
    if (!col.name || !type) {
      throw new ImportFailure(`invalid schema column [name=${col.name}, type=${col.type}]`);
    }
    return { name: col.name, type, pattern: col.pattern };
  });
}

/** One import: the state of reading, typing and committing the data part. */
class CsvImport {
  readonly writer: IngestHandle;
  readonly reader: MultipartReader;
  readonly params: Params;
  readonly table: string;
  readonly schema: SchemaColumn[] | undefined;
  readonly analysisLines: number;
  readonly outcome: Outcome;
  names: string[] = [];
  prepare: PrepareOptions = {};
  block!: IngestBlock;
  skipLeft: number;

  constructor(
    writer: IngestHandle,
    reader: MultipartReader,
    params: Params,
    o: { table: string; schema?: SchemaColumn[]; analysisLines: number },
  ) {
    this.writer = writer;
    this.reader = reader;
    this.params = params;
    this.table = o.table;
    this.schema = o.schema;
    this.analysisLines = o.analysisLines;
    this.skipLeft = params.skipLines;
    this.outcome = {
      table: o.table,
      header: false,
      partitionBy: params.partitionBy ?? "NONE",
      warnings: [],
      rowsImported: 0,
      rowsRejected: 0,
      columns: [],
      rejected: [],
    };
  }

  async run(): Promise<Outcome> {
    const decoder = new TextDecoder();
    let records: CsvReader | undefined;
    let sample: CsvRecord[] = [];
    let text = "";
    let analysed = false;
    for (;;) {
      const chunk = await this.reader.read();
      const final = chunk === undefined;
      const piece = final ? decoder.decode() : decoder.decode(chunk, { stream: true });
      if (!records) {
        text += piece;
        const nl = text.search(/[\r\n]/);
        if (nl < 0 && !final) continue;
        const delimiter = this.params.delimiter ?? detectDelimiter(nl < 0 ? text : text.slice(0, nl));
        records = new CsvReader({ delimiter });
        sample = records.push(text, final);
      } else sample.push(...records.push(piece, final));
      if (!analysed && (sample.length > this.params.skipLines + this.analysisLines || final)) {
        sample = sample.slice(this.params.skipLines);
        if (sample.length === 0) throw new ImportFailure(`not enough lines [table=${this.table}]`);
        sample = await this.#analyse(sample);
        analysed = true;
      }
      if (analysed) {
        for (const r of sample) this.#add(r);
        sample = [];
        if (this.block.rowCount >= this.params.maxUncommittedRows) await this.#commit();
      }
      if (final) break;
    }
    await this.#commit();
    this.#finish();
    return this.outcome;
  }

  /** Decides header, names, types and the table; returns the records that are data. */
  async #analyse(sample: CsvRecord[]): Promise<CsvRecord[]> {
    if (this.params.overwrite) await this.writer.dropForOverwrite(this.table);
    const existing = this.writer.table(this.table);
    // The first line (header or not) says how many columns there are; longer lines have extra values.
    const width = sample[0].fields.length;
    const bySchema = new Map((this.schema ?? []).map((c) => [c.name.toLowerCase(), c]));
    let types: ColumnType[];
    if (existing) {
      types = existing.columns.map((c) => c.type);
    } else {
      const rest = wellFormed(sample.length > 1 ? sample.slice(1) : sample);
      types = Array.from({ length: width }, (_, i) => inferColumnType(rest.map((r) => r.fields[i] ?? "")));
    }
    const header = this.params.forceHeader || looksLikeHeader(sample[0].fields, types);
    this.outcome.header = header;
    const fallback = existing ? existing.columns.map((c) => c.name) : [];
    this.names = Array.from({ length: width }, (_, i) => {
      const name = header ? sanitize(sample[0].fields[i] ?? "") : "";
      return name || fallback[i] || (this.schema?.[i]?.name ?? `f${i}`);
    });
    if (header && !existing && sample.length > 1) {
      const rest = wellFormed(sample.slice(1));
      types = this.names.map((_, i) => inferColumnType(rest.map((r) => r.fields[i] ?? "")));
    }
    const typeMap = new Map<string, ColumnType>();
    const parsers = new Map<string, TextParser>();
    this.names.forEach((n, i) => {
      const lower = n.toLowerCase();
      const given = bySchema.get(lower);
      const type = given?.type ?? (existing ? undefined : types[i]);
      if (type) typeMap.set(lower, type);
      const parser = given ? textParserFor(given.type, given.pattern) : undefined;
      if (parser) parsers.set(lower, parser);
    });
    this.prepare = {
      types: typeMap,
      parsers,
      onBad: this.params.atomicity === "skipCol"
        ? "null"
        : this.params.atomicity === "skipRow"
        ? "skipRow"
        : "stop",
      partitionBy: this.params.partitionBy ?? "NONE",
    };
    if (existing) {
      const ts = existing.timestampIndex >= 0 ? existing.columns[existing.timestampIndex].name : undefined;
      if (this.params.timestamp && this.params.timestamp.toLowerCase() !== ts?.toLowerCase()) {
        this.outcome.warnings.push("Existing table timestamp column is used");
      }
      if (this.params.partitionBy && this.params.partitionBy !== existing.partitionBy) {
        this.outcome.warnings.push("Existing table PartitionBy is used");
      }
      this.outcome.partitionBy = existing.partitionBy;
      this.outcome.timestamp = ts;
      this.prepare.timestamp = ts ? { name: ts, fromColumn: true } : null;
    } else if (this.params.timestamp) {
      const ts = this.names.find((n) => n.toLowerCase() === this.params.timestamp!.toLowerCase());
      if (!ts) throw new ImportFailure(`timestamp column not found [column=${this.params.timestamp}]`);
      typeMap.set(
        ts.toLowerCase(),
        typeMap.get(ts.toLowerCase())?.tag === "DATE"
          ? typeMap.get(ts.toLowerCase())!
          : columnTypeOf("timestamp")!,
      );
      this.prepare.timestamp = { name: ts, fromColumn: true };
      this.outcome.timestamp = ts;
    } else {
      this.prepare.timestamp = null;
      this.prepare.partitionBy = "NONE";
      this.outcome.partitionBy = "NONE";
    }
    this.block = new IngestBlock(this.table);
    return header ? sample.slice(1) : sample;
  }

  #add(r: CsvRecord): void {
    if (r.fields.length === 1 && r.fields[0] === "") return; // blank line
    if (r.unclosed) {
      // Everything after the opening quote was read as one value: say so rather than import it.
      this.#reject(r.line, "unclosed quoted field: the rest of the file was read as its value");
      return;
    }
    let fields = r.fields;
    if (fields.length > this.names.length) {
      if (!this.params.skipLev) {
        this.#reject(r.line, `too many values [expected=${this.names.length}, actual=${fields.length}]`);
        return;
      }
      fields = fields.slice(0, this.names.length);
    }
    const block = this.block;
    const row = block.beginRow(r.line);
    for (let i = 0; i < fields.length; i++) {
      const cell = block.cell(this.names[i], row, r.line, i);
      if (cell) cell.setRef(row, K.TEXT, fields[i]);
    }
    block.endRow();
  }

  #reject(line: number, error: string): void {
    this.outcome.rowsRejected++;
    if (this.outcome.rejected.length < REJECTED_LINES_MAX) this.outcome.rejected.push({ line, error });
    if (this.params.atomicity === "abort") throw new ImportFailure(`import aborted: ${error} [line=${line}]`);
  }

  async #commit(): Promise<void> {
    const block = this.block;
    if (!block || block.rowCount === 0) return;
    this.block = new IngestBlock(this.table, block.rowCount);
    const p = this.writer.prepare(block, this.prepare);
    if (p.error && this.params.atomicity === "abort") {
      // The uncommitted chunk is discarded whole, like a rollback: rows of earlier chunks
      // (each `maxUncommittedRows` long) stay committed, as in QuestDB.
      throw new ImportFailure(`import aborted: ${p.error.message} [line=${p.error.line}]`);
    }
    if (p.error) {
      // A problem with the table itself (a name, a missing timestamp): nothing can be imported.
      if (p.rowCount === 0) throw new ImportFailure(p.error.message);
    }
    // Checks INSERT / CREATE TABLE / ADD COLUMN first; the creator gets its owner grants.
    const written = await this.writer.commit(p);
    this.outcome.rowsImported += written;
    const dropped = block.rowCount - written;
    this.outcome.rowsRejected += dropped;
    if (dropped > 0 && p.drop) {
      for (let i = 0; i < block.rowCount && this.outcome.rejected.length < REJECTED_LINES_MAX; i++) {
        if (p.drop[i]) {
          this.outcome.rejected.push({ line: block.lines[i], error: "value does not fit its column" });
        }
      }
    }
    this.#count(p.columns);
  }

  #count(columns: { name: string; type: ColumnType; errors: number }[]): void {
    for (const c of columns) {
      const o = this.outcome.columns.find((x) => x.name.toLowerCase() === c.name.toLowerCase());
      if (o) o.errors += this.params.atomicity === "skipCol" ? c.errors : 0;
      else this.outcome.columns.push({ ...c, errors: this.params.atomicity === "skipCol" ? c.errors : 0 });
    }
  }

  /** Reports the table's columns in table order. */
  #finish(): void {
    const meta = this.writer.table(this.table);
    if (!meta) return;
    this.outcome.table = meta.name;
    this.outcome.columns = meta.columns.map((c) => {
      const o = this.outcome.columns.find((x) => x.name.toLowerCase() === c.name.toLowerCase());
      return { name: c.name, type: c.type, errors: o?.errors ?? 0 };
    });
  }
}

/** Names lose whitespace and `. ? , : \ / \0 ) ( _ + - * ~ %` as QuestDB sanitises them (§4.2)... except `_`, kept so names stay readable. */
/** Records that type inference may learn from: an unclosed quote's swallowed text would mislead it. */
function wellFormed(records: CsvRecord[]): CsvRecord[] {
  return records.filter((r) => !r.unclosed);
}

function sanitize(name: string): string {
  // deno-lint-ignore no-control-regex -- NUL is one of the characters QuestDB removes
  return name.replace(/[\s.?,:\\/\u0000)(+\-*~%"']/g, "");
}

function sizeOf(t: ColumnType): number {
  switch (t.tag) {
    case "BOOLEAN":
    case "BYTE":
      return 1;
    case "SHORT":
    case "CHAR":
      return 2;
    case "INT":
    case "FLOAT":
    case "SYMBOL":
    case "IPV4":
      return 4;
    case "UUID":
      return 16;
    case "LONG256":
      return 32;
    default:
      return 8;
  }
}

function jsonReply(o: Outcome): Response {
  const body: Record<string, unknown> = {
    status: "OK",
    location: o.table,
    rowsRejected: o.rowsRejected,
    rowsImported: o.rowsImported,
    header: o.header,
    partitionBy: o.partitionBy,
  };
  if (o.timestamp) body.timestamp = o.timestamp;
  if (o.warnings.length) body.warnings = o.warnings;
  body.columns = o.columns.map((c) => ({
    name: c.name,
    type: typeName(c.type),
    size: sizeOf(c.type),
    errors: c.errors,
  }));
  if (o.rejected.length) body.rejectedLines = o.rejected;
  return new Response(JSON.stringify(body), {
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

function textReply(o: Outcome): Response {
  const rule = "+" + "-".repeat(87) + "+";
  const row = (a: string, b: string, c = "", d = "") =>
    `|${a.padStart(15)}  |${b.padStart(40)}  |${c.padStart(14)}  |${d.padStart(8)}  |`;
  const lines = [
    rule,
    row("Location:", o.table, "Pattern", "Errors"),
    row("Partition by", o.partitionBy),
    row("Timestamp", o.timestamp ?? "NONE"),
    rule,
    row("Rows handled", String(o.rowsImported + o.rowsRejected)),
    row("Rows imported", String(o.rowsImported)),
    rule,
    ...o.columns.map((c, i) => row(String(i), c.name, typeName(c.type), String(c.errors))),
    rule,
  ];
  return new Response(lines.join("\r\n") + "\r\n", {
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}

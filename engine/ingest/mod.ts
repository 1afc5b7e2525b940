/**
 * @module
 * Ingestion: rows that arrive by line protocol or CSV import, held by column in an
 * `IngestBlock`, checked and converted against the table and appended by an `Ingestor`,
 * which also creates tables and columns on first sight (spec/protocols.md §10.5). Also the
 * CSV import helpers (the one CSV reader, schema inference and text parsers). Builds on engine/storage and
 * engine/functions; knows nothing of HTTP or sockets.
 */
export { BlockColumn, IngestBlock, K as ValueKinds, type ValueKind } from "./block.ts";
export { type TextParser } from "./convert.ts";
export {
  type ColumnOutcome,
  type IngestError,
  Ingestor,
  type IngestorOptions,
  type Prepared,
  type PrepareOptions,
} from "./ingestor.ts";
export { columnTypeOf, inferColumnType, looksLikeHeader, textParserFor } from "./csv_schema.ts";
export { CsvReader, type CsvReaderOptions, type CsvRecord, detectDelimiter } from "./csv_reader.ts";
export { checkIlpTableName as checkIngestTableName } from "./names.ts";

/**
 * @module
 * The engine's only public door (ARCHITECTURE.md "The engine interface"): open an engine on a
 * data root, execute a statement for a session and get an Outcome, describe a query's result
 * columns, close. Also the value helpers listeners need to render results (types, readers,
 * text formats). Knows nothing of HTTP, sockets or wire formats; never imports server/.
 *
 * @example
 * ```ts
 * import { adminSession, Engine } from "./mod.ts";
 * const engine = await Engine.open({ root: await Deno.makeTempDir() });
 * const out = await engine.execute("SELECT 1 x", adminSession());
 * await engine.close();
 * ```
 */
export { type ColumnMeta, Engine, type EngineOptions, type Outcome } from "./engine.ts";
export { PreparedStatement, StatementCache } from "./prepared.ts";
export {
  type ClassifiedStatement,
  classifyStatement,
  CURSOR_MESSAGE,
  returnsRows,
  showSettingName,
  type StatementKind,
  statementKindOf,
} from "./statement_kind.ts";
export type { NoopStmt, ShowStmt, Statement as ParsedStatement } from "./sql/ast.ts";
export {
  type AccessControl,
  type AclRequest,
  type AclResult,
  adminSession,
  type Principal,
  type Session,
} from "./session.ts";
export { type ErrorKind, SqlError } from "./base/errors.ts";
export { engineStats, LATENCY_BUCKETS_SECONDS, type ResourceStats } from "./stats.ts";
export { configureLog, log, type LogLevel, redactSql } from "./base/log.ts";
export type { TableMeta } from "./storage/api.ts";
export { Transaction, type TransactionStatus, type TransactionTag } from "./exec/transaction.ts";
export { type ColumnType, T, typeName, type TypeTag } from "./base/types.ts";
// Arrays and DECIMAL for the listeners' encoders (spec/sql.md §22.8, §23).
export { arrayType, decimalType } from "./base/types.ts";
export { DoubleArray } from "./base/double_array.ts";
export { formatArrayJson, formatArrayPg, parseArrayText } from "./functions/array_text.ts";
export { formatDecimal, parseDecimalText } from "./functions/decimal_math.ts";
export { type Batch, INT_NULL, LONG_NULL, readValue, type Value, type Vector } from "./base/values.ts";
export { formatTicks, formatValue } from "./functions/format_value.ts";
export { formatDouble, formatFloat } from "./functions/double_format.ts";
export { rowBytes, type RowColumn } from "./functions/row_bytes.ts";
export { functionNames } from "./functions/registry.ts";
// pgwire COPY FROM parses text like CSV import; SET TIME ZONE resolves zones like to_timezone.
export { parseText } from "./functions/cast.ts";
export { resolveTimeZone, type ZoneRules } from "./functions/timezone.ts";
// pgwire reports pg_index.indkey and friends as int2vector/oidvector, as drivers parse them.
export { catalogTypeOid } from "./catalog/pg_catalog_define.ts";
export {
  BlockColumn,
  checkIngestTableName,
  columnTypeOf,
  CsvReader,
  type CsvReaderOptions,
  type CsvRecord,
  detectDelimiter,
  inferColumnType,
  IngestBlock,
  type IngestError,
  type IngestorOptions,
  looksLikeHeader,
  type Prepared,
  type PrepareOptions,
  type TextParser,
  textParserFor,
  type ValueKind,
  ValueKinds,
} from "./ingest/mod.ts";
// The ingest door's handle (Engine.ingest): ILP, CSV import and COPY FROM write through it.
export type { BlocksOptions, BlocksOutcome, IngestHandle, LineFault } from "./ingest/ingest_handle.ts";
// /exp?fmt=parquet streams a result through the engine's Parquet writer (docs/parquet.md).
export {
  PARQUET_EXPORT_DEFAULTS,
  ParquetEncoderThread,
  ParquetResultWriter,
  type ParquetWriteOptions,
  parseCodec as parseParquetCodec,
} from "./parquet/mod.ts";
// pgwire's simple query and Parse: a script's statements, placeholders and kinds (issue #18).
export { type ScriptStatement, splitScript } from "./script.ts";
export { yieldIfDue } from "./exec/event_loop_turn.ts";

/**
 * Every limit of the engine with its unit and reason (STYLE.md §4, after sqliteLimit.h).
 * Crossing one is an error of kind "limit", never a crash.
 */
import { assert } from "./assert.ts";

/** Longest SQL text accepted, in UTF-16 code units: bounds parser memory and work. */
export const SQL_LENGTH_MAX = 1_048_576;
/** Deepest expression or query nesting: the parser and planner recurse on the JS stack. */
export const NESTING_DEPTH_MAX = 256;
/** Columns per table: keeps metadata and row assembly bounded. */
export const TABLE_COLUMNS_MAX = 2_048;
/** Rows per batch flowing between operators: ARCHITECTURE.md "a batch is up to 64Ki rows". */
export const BATCH_ROWS_MAX = 65_536;
/** Table and column name length in UTF-16 code units (QuestDB cairo.max.file.name.length). */
export const NAME_LENGTH_MAX = 127;
/** Intervals one interval string may expand to (spec/sql.md §8.5 "too many intervals"). */
export const INTERVALS_MAX = 1_024;
/** Rows a single VALUES list may carry: bounds memory of one INSERT statement. */
export const INSERT_VALUES_ROWS_MAX = 1_000_000;
/**
 * Uncommitted INSERT rows one transaction block may hold (engine/exec/transaction.ts): they
 * live in the JavaScript heap until COMMIT.
 */
export const TRANSACTION_PENDING_ROWS_MAX = 10_000_000;
/** Generated result column names are cut to this many characters (spec/sql.md §18.1). */
export const COLUMN_ALIAS_LENGTH_MAX = 64;

assert(
  NESTING_DEPTH_MAX * 100 < SQL_LENGTH_MAX,
  "nesting limit must be reachable within the SQL length limit",
);
assert(
  BATCH_ROWS_MAX > 0 && (BATCH_ROWS_MAX & (BATCH_ROWS_MAX - 1)) === 0,
  "batch size must be a power of two",
);

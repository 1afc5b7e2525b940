/**
 * The date and time scalar functions of spec/sql.md §14.1–§14.4 plus timestamp_sequence (§16.1),
 * gathered for the registry. Each family lives in its own `datetime_*.ts` file.
 */
import { ARITH_FUNCTIONS } from "./datetime_arith.ts";
import { PG_INTERVAL_FUNCTIONS } from "./pg_interval_runtime.ts";
import { CLOCK_FUNCTIONS } from "./datetime_clock.ts";
import { EXTRACT_FUNCTIONS } from "./datetime_extract.ts";
import { SEQUENCE_FUNCTIONS } from "./datetime_sequence.ts";
import { PARSE_FORMAT_FUNCTIONS } from "./datetime_text.ts";
import type { ScalarFunction } from "./registry_types.ts";

/** Every date/time scalar function, one entry per name. */
export const DATETIME_FUNCTIONS: ScalarFunction[] = [
  ...CLOCK_FUNCTIONS,
  ...ARITH_FUNCTIONS,
  ...PG_INTERVAL_FUNCTIONS,
  ...EXTRACT_FUNCTIONS,
  ...PARSE_FORMAT_FUNCTIONS,
  ...SEQUENCE_FUNCTIONS,
];

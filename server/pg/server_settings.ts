/**
 * The server settings a client learns at startup (ParameterStatus, spec/protocols.md §12.2)
 * and reads back with SHOW. QuestDB's own set plus what drivers otherwise guess wrong
 * (issue 4): DateStyle must start with `ISO` for pgjdbc, `standard_conforming_strings=on`
 * stops libpq-based drivers from emitting `E''` literals, `integer_datetimes=on` is what
 * asyncpg's binary timestamps assume.
 */

/** Sent as ParameterStatus after AuthenticationOk, in this order. */
export function startupParameters(version: string): [string, string][] {
  return [
    ["TimeZone", "GMT"],
    ["application_name", "QuestDB"],
    ["server_version", "11.3"],
    ["integer_datetimes", "on"],
    ["client_encoding", "UTF8"],
    ["server_encoding", "UTF8"],
    ["DateStyle", "ISO, MDY"],
    ["IntervalStyle", "postgres"],
    ["standard_conforming_strings", "on"],
    ["is_superuser", "on"],
    ["questdb_version", version],
  ];
}

/** Values for `SHOW name` (lower-case names) that the wire layer answers itself. */
const SHOW_VALUES: Record<string, [string, string]> = {
  client_encoding: ["client_encoding", "UTF8"],
  server_encoding: ["server_encoding", "UTF8"],
  integer_datetimes: ["integer_datetimes", "on"],
  server_version_num: ["server_version_num", "120003"],
  lc_collate: ["lc_collate", "C"],
  lc_ctype: ["lc_ctype", "C"],
  lc_messages: ["lc_messages", "C"],
  lc_monetary: ["lc_monetary", "C"],
  lc_numeric: ["lc_numeric", "C"],
  lc_time: ["lc_time", "C"],
  intervalstyle: ["IntervalStyle", "postgres"],
  extra_float_digits: ["extra_float_digits", "3"],
  default_transaction_isolation: ["default_transaction_isolation", "read committed"],
  default_transaction_read_only: ["default_transaction_read_only", "off"],
  transaction_read_only: ["transaction_read_only", "off"],
  is_superuser: ["is_superuser", "on"],
  statement_timeout: ["statement_timeout", "0"],
  bytea_output: ["bytea_output", "hex"],
  max_index_keys: ["max_index_keys", "32"],
  block_size: ["block_size", "8192"],
  ssl: ["ssl", "off"],
  timezone_abbreviations: ["timezone_abbreviations", "Default"],
  search_path: ["search_path", '"$user", public'],
  transaction_isolation: ["transaction_isolation", "read committed"],
  server_version: ["server_version", "12.3 (questdb)"],
  standard_conforming_strings: ["standard_conforming_strings", "on"],
  datestyle: ["DateStyle", "ISO, MDY"],
  max_identifier_length: ["max_identifier_length", "63"],
};

/**
 * `[column name, value]` for `SHOW name` when the wire layer knows the setting; undefined
 * for anything else (SHOW TABLES, SHOW COLUMNS FROM t, ... go to the engine).
 */
export function showSetting(name: string, extra: Map<string, string>): [string, string] | undefined {
  const key = name.toLowerCase();
  if (key === "application_name") return ["application_name", extra.get("application_name") ?? ""];
  // Set by SET TIME ZONE (time_zone.ts); until then the engine answers (UTC), as before.
  if ((key === "timezone" || key === "time zone") && extra.has("timezone")) {
    return ["TimeZone", extra.get("timezone")!];
  }
  if (key === "statement_timeout" && extra.has(key)) return ["statement_timeout", extra.get(key)!];
  return SHOW_VALUES[key];
}

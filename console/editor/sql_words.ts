/**
 * The words of the QuestDB SQL dialect that the highlighter and autocomplete know: keywords
 * (time-series clauses included), data types, constants and built-in functions. A declarative
 * table; functions the server reports through `functions()` are merged in at runtime.
 */

export const KEYWORDS: readonly string[] = [
  "add", "align", "all", "alter", "and", "any", "as", "asc", "asof", "attach", "backup", "batch", "begin", "between",
  "by", "calendar", "cancel", "capacity", "cache", "case", "cast", "checkpoint", "column", "columns", "commit",
  "compile", "copy", "create", "cross", "current", "database", "deallocate", "declare", "dedup", "default", "delay",
  "delete", "desc", "detach", "distinct", "drop", "else", "end", "every", "except", "exclusive", "exists", "explain",
  "fill", "first", "following", "for", "format", "from", "full", "group", "header", "if", "ilike", "in", "index",
  "inner", "insert", "intersect", "interval", "into", "is", "join", "keys", "last", "latest", "left", "like",
  "limit", "linear", "lock", "lt", "materialized", "nocache", "none", "not", "null", "nulls", "o3MaxLag", "observation",
  "offset", "on", "only", "or", "order", "others", "outer", "over", "param", "partition", "partitions", "period",
  "pivot", "preceding", "prev", "range", "refresh", "reindex", "rename", "repair", "replace", "respect", "resume",
  "returning", "right", "rollback", "row", "rows", "sample", "select", "set", "show", "splice", "squash", "suspend",
  "symbol", "table", "tables", "then", "time", "to", "transaction", "truncate", "ttl", "type", "union", "unlock",
  "update", "upsert", "vacuum", "values", "view", "volume", "wal", "when", "where", "window", "with", "within",
  "zone", "bypass", "day", "hour", "minute", "month", "week", "year", "isolation", "level", "abort", "exclude",
];

export const TYPES: readonly string[] = [
  "boolean", "byte", "short", "char", "int", "integer", "long", "date", "timestamp", "timestamp_ns", "float", "double",
  "string", "varchar", "symbol", "long128", "long256", "geohash", "binary", "uuid", "ipv4", "decimal", "array",
];

export const CONSTANTS: readonly string[] = ["true", "false", "null", "nan"];

export const FUNCTIONS: readonly string[] = [
  "abs", "acos", "all_tables", "approx_count_distinct", "approx_percentile", "asin", "atan", "atan2", "avg",
  "base64", "between", "bit_count", "case", "cast", "cbrt", "ceil", "ceiling", "coalesce", "concat", "corr", "cos",
  "cot", "count", "count_distinct", "covar_pop", "covar_samp", "current_database", "current_schema", "current_user",
  "date_trunc", "dateadd", "datediff", "day", "day_of_week", "day_of_week_sunday_first", "days_in_month", "degrees",
  "dense_rank", "exp", "extract", "first", "first_not_null", "first_value", "floor", "functions", "glob", "greatest",
  "haversine_dist_deg", "hour", "ilike", "information_schema.columns", "is_leap_year", "isOrdered", "ksum", "lag",
  "last", "last_not_null", "last_value", "lead", "least", "left", "length", "like", "ln", "log", "long_sequence",
  "lower", "lpad", "ltrim", "max", "md5", "micros", "millis", "min", "minute", "mod", "month", "now", "nsum",
  "nullif", "pg_catalog.pg_class", "position", "power", "radians", "rank", "regexp_replace", "replace", "right",
  "rnd_bin", "rnd_boolean", "rnd_byte", "rnd_char", "rnd_date", "rnd_double", "rnd_float", "rnd_geohash", "rnd_int",
  "rnd_ipv4", "rnd_long", "rnd_long256", "rnd_short", "rnd_str", "rnd_symbol", "rnd_timestamp", "rnd_uuid4",
  "rnd_varchar", "round", "round_down", "round_half_even", "round_up", "row_number", "rpad", "rtrim", "second",
  "sha1", "sha256", "show_columns", "sign", "sin", "size_pretty", "split_part", "sqrt", "starts_with", "stddev",
  "stddev_pop", "stddev_samp", "string_agg", "strpos", "substring", "sum", "sysdate", "systimestamp", "table_columns",
  "table_partitions", "tables", "tan", "timestamp_ceil", "timestamp_floor", "timestamp_sequence", "to_date",
  "to_lowercase", "to_str", "to_timestamp", "to_timezone", "to_uppercase", "to_utc", "today", "tomorrow", "trim",
  "upper", "var_pop", "var_samp", "variance", "version", "wal_tables", "week_of_year", "year", "yesterday",
];

/** Lower-cased lookups for the highlighter. */
export const KEYWORD_SET = new Set(KEYWORDS.map((w) => w.toLowerCase()));
export const TYPE_SET = new Set(TYPES);
export const CONSTANT_SET = new Set(CONSTANTS);

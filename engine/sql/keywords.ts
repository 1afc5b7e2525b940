/**
 * The few words the parser treats as reserved, and the words that end an implicit alias.
 *
 * QuestDB reserves very little: `by`, `timestamp` or `date` are fine column names. A word is
 * reserved here only where reading it as a name would swallow the structure of the query
 * (`select from t`, `t where x`), and aliases stop at the words that can follow a select item
 * or a source.
 */

/** Words that can never be an unquoted column or table name. */
export const RESERVED = new Set([
  "all",
  "and",
  "as",
  "between",
  "distinct",
  "else",
  "end",
  "except",
  "from",
  "group",
  "having",
  "ilike",
  "in",
  "intersect",
  "is",
  "join",
  "like",
  "limit",
  "not",
  "on",
  "or",
  "order",
  "over",
  "select",
  "then",
  "union",
  "where",
  "with",
]);

/**
 * QuestDB's SqlKeywords.KEYWORDS: a table name, a CREATE TABLE or INSERT column name and an alias
 * given with AS must be double-quoted to be one of these (SqlKeywords.assertNameIsQuotedOrNotAKeyword;
 * KeywordAsTableNameTest).
 */
export const QUOTE_REQUIRED = new Set([
  "add",
  "align",
  "all",
  "alter",
  "and",
  "asc",
  "as",
  "attach",
  "batch",
  "between",
  "bypass",
  "cancel",
  "case",
  "cast",
  "column",
  "create",
  "desc",
  "detach",
  "disable",
  "distinct",
  "drop",
  "enable",
  "end",
  "except",
  "exists",
  "explain",
  "false",
  "from",
  "in",
  "insert",
  "intersect",
  "into",
  "like",
  "limit",
  "lock",
  "nan",
  "join",
  "not",
  "null",
  "on",
  "order",
  "or",
  "outer",
  "over",
  "partition",
  "rename",
  "resume",
  "sample",
  "select",
  "set",
  "squash",
  "table",
  "to",
  "true",
  "union",
  "update",
  "upsert",
  "values",
  "where",
  "within",
  "with",
]);

/** Words that end a select item instead of becoming its alias (`select a from t`). */
export const SELECT_ALIAS_STOP = new Set([
  ...RESERVED,
  // `when` names a column in QuestDB (LatestByTest#testLatestByPartitionByDesignatedTimestamp:
  // `create table forecasts (when timestamp, ...)`, `select when, ts ...`); CASE reads it by
  // position, and it still ends an expression's implicit alias.
  "when",
  "sample",
  "latest",
  "window",
  "within",
  "returning",
]);

/** Words that end a source instead of becoming its alias (`from t left join u`). */
export const SOURCE_ALIAS_STOP = new Set([
  ...SELECT_ALIAS_STOP,
  "inner",
  "left",
  "right",
  "full",
  "cross",
  "asof",
  "lt",
  "splice",
  "natural",
  "outer",
  "lateral",
  "horizon",
  "tolerance",
  "pivot",
  "unpivot",
  "set",
  "using",
  "fill",
  "align",
  "values",
  "subsample",
]);

/** Set operators that chain query operands (spec/sql.md §7.10). */
export const SET_OPERATORS = new Set(["union", "except", "intersect"]);

/** Words that start a join (`[INNER] JOIN`, `LEFT [OUTER] JOIN`, ...). */
export const JOIN_STARTS = new Set([
  "join",
  "inner",
  "left",
  "right",
  "full",
  "cross",
  "asof",
  "lt",
  "splice",
  "natural",
  "horizon",
]);

/** Words naming a type that may prefix a string literal: `TIMESTAMP '2024-01-01'`. */
export const PREFIX_LITERAL_TYPES = new Set([
  "timestamp",
  "timestamp_ns",
  "date",
  "ipv4",
  "uuid",
  "interval",
]);

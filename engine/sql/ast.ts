/**
 * The abstract syntax tree of the dialect (spec/sql.md), produced by `parser.ts`.
 *
 * Every node is a discriminated union member on `kind` and carries `pos`, the 0-based UTF-16
 * offset of the text it came from in the whole submitted SQL, so that binder and planner
 * errors can point at it. Names keep the case they were written in; lookups are
 * case-insensitive later. Quoted identifiers arrive unquoted.
 */

import type { SqlError } from "../base/errors.ts";
import type { PivotClause, UnpivotClause } from "./ast_pivot.ts";

// ---------------------------------------------------------------- expressions

export type Expr =
  | Literal
  | ColumnRef
  | Star
  | Param
  | FunctionCall
  | BinaryExpr
  | UnaryExpr
  | CastExpr
  | CaseExpr
  | InExpr
  | BetweenExpr
  | LikeExpr
  | IsNullExpr
  | ScalarSubquery
  | ExistsExpr
  | ArrayLiteral
  | IndexExpr;

export type LiteralType =
  | "int" // fits in 32 bits, no suffix
  | "long" // L suffix or beyond INT range
  | "double"
  | "float" // f suffix
  | "decimal" // m suffix
  | "string"
  | "char" // a quoted literal of exactly one character
  | "boolean"
  | "null" // NULL and the NaN keyword
  | "geohash" // #u33d8, #u33d/18, ##0101
  | "long256"; // 0x...

export interface Literal {
  kind: "literal";
  pos: number;
  type: LiteralType;
  /**
   * int/double/float: number; long: bigint; decimal: the digits as written (string);
   * string/char: the unescaped text; boolean: boolean; null: null;
   * geohash: { bits, value: bigint }; long256: bigint.
   */
  value: unknown;
  /** The literal exactly as written in the SQL text (used for result column names). */
  text: string;
}

export interface ColumnRef {
  kind: "column";
  pos: number;
  /** Table name or alias before the dot, if any. */
  qualifier?: string;
  name: string;
  /** A DECLARE variable (`@v`), replaced by its expression after parsing (sql/declare_vars.ts). */
  variable?: true;
  /**
   * The FROM scope's column index, when `*` expands to a column that no name can single out
   * (an unaliased subquery joined to a source with a column of the same name).
   */
  index?: number;
}

/** `*` or `t.*` in a select list; `count(*)` is a FunctionCall with `star: true` instead. */
export interface Star {
  kind: "star";
  pos: number;
  qualifier?: string;
}

/** A bind variable: `$1` (index 1), `?` (index = order of appearance, 1-based), `:name`. */
export interface Param {
  kind: "param";
  pos: number;
  index: number;
  name?: string;
}

export interface FunctionCall {
  kind: "call";
  pos: number;
  /** As written, possibly qualified (`pg_catalog.version`). */
  name: string;
  args: Expr[];
  /** `count(DISTINCT x)`. */
  distinct: boolean;
  /** `count(*)`. */
  star: boolean;
  /** `IGNORE NULLS` / `RESPECT NULLS` before OVER. */
  nulls?: "ignore" | "respect";
  /** Where IGNORE / RESPECT is written: QuestDB refuses it there for most functions. */
  nullsPos?: number;
  /** Aggregate `FILTER (WHERE ...)`. */
  filter?: Expr;
  /** Window function: an inline spec or a reference to a named window. */
  over?: WindowSpec;
}

export type BinaryOp =
  | "+"
  | "-"
  | "*"
  | "/"
  | "%"
  | "||"
  | "&"
  | "|"
  | "^"
  | "="
  | "!="
  | "<>"
  | "<"
  | "<="
  | ">"
  | ">="
  | "~" // regex find
  | "!~"
  | "<<" // IPv4 strictly contained
  | "<<="
  | ">>"
  | ">>="
  | "and"
  | "or"
  | "within";

export interface BinaryExpr {
  kind: "binary";
  /** Offset of the operator token. */
  pos: number;
  op: BinaryOp;
  left: Expr;
  right: Expr;
  /**
   * WITHIN only: every geohash of `x WITHIN (#a, #b, ...)`; `right` is the first of them.
   * (Added by the parser helper: WITHIN takes a list, which `right` alone cannot hold.)
   */
  list?: Expr[];
}

export interface UnaryExpr {
  kind: "unary";
  pos: number;
  op: "-" | "+" | "~" | "not";
  operand: Expr;
}

/** A type as written in CAST, `::`, a prefix literal (`TIMESTAMP '...'`) or a column definition. */
export interface TypeSpec {
  pos: number;
  /** Canonical upper-case base name: INT, LONG, SYMBOL, VARCHAR, GEOHASH, DECIMAL, ... */
  name: string;
  /** As written, for result column names (`qty::DOUBLE` keeps the case). */
  text: string;
  /** GEOHASH precision in bits (`GEOHASH(8c)` = 40). */
  geoBits?: number;
  /** DECIMAL(p, s). */
  precision?: number;
  scale?: number;
  /** `DOUBLE[][]` = 2. */
  arrayDims?: number;
  /** `x :: @t`: a DECLARE variable naming the type, replaced when the variables are. */
  variable?: string;
}

export interface CastExpr {
  kind: "cast";
  pos: number;
  expr: Expr;
  type: TypeSpec;
  /** `cast(x as t)`, `x::t`, or a typed literal such as `TIMESTAMP '2024-01-01'`. */
  syntax: "cast" | "colon" | "prefix";
}

export interface CaseExpr {
  kind: "case";
  pos: number;
  /** The simple form `CASE x WHEN ...`. */
  operand?: Expr;
  whens: { when: Expr; then: Expr }[];
  else?: Expr;
}

export interface InExpr {
  kind: "in";
  pos: number;
  expr: Expr;
  /** A value list, or a subquery. `ts IN '2024-01'` arrives as a one-element list. */
  list: Expr[] | Query;
  not: boolean;
  /** Written by PIVOT's rewrite (plan_pivot.ts): QuestDB's `in` function, no BOOLEAN/DECIMAL/GEOHASH/LONG128 form. */
  pivot?: boolean;
}

export interface BetweenExpr {
  kind: "between";
  pos: number;
  expr: Expr;
  lo: Expr;
  hi: Expr;
  not: boolean;
}

export interface LikeExpr {
  kind: "like";
  pos: number;
  expr: Expr;
  pattern: Expr;
  not: boolean;
  caseInsensitive: boolean;
  /** `LIKE pattern ESCAPE 'c'`: the escape character in place of `\`. */
  escape?: Expr;
}

export interface IsNullExpr {
  kind: "isNull";
  pos: number;
  expr: Expr;
  not: boolean;
}

export interface ScalarSubquery {
  kind: "subquery";
  pos: number;
  query: Query;
}

export interface ExistsExpr {
  kind: "exists";
  pos: number;
  query: Query;
}

export interface ArrayLiteral {
  kind: "array";
  pos: number;
  elements: Expr[];
  /** Where its `[` is: QuestDB places errors about the literal's type there. */
  bracket?: number;
  /** Written `ARRAY[...]`, not a bare nested `[...]`: the name keeps the word (printer.ts). */
  keyword?: true;
}

export interface IndexExpr {
  kind: "index";
  pos: number;
  expr: Expr;
  /** One selector per dimension: an index, or the `lo` of a range `lo:hi` (spec/sql.md §22.3). */
  indexes: Expr[];
  /** Per selector: present when it is a range; `hi` absent for an open end (`arr[2:]`). */
  /** Per selector: a range's upper bound and where its `:` is. */
  ranges?: ({ hi?: Expr; pos?: number } | undefined)[];
}

// ---------------------------------------------------------------- windows

export interface WindowSpec {
  pos: number;
  /** `OVER w` or `OVER (w ORDER BY ...)`: the named window this one builds on. */
  baseName?: string;
  /** Where `baseName` is written inside the parentheses. */
  baseNamePos?: number;
  partitionBy: Expr[];
  orderBy: OrderItem[];
  frame?: WindowFrame;
}

export interface WindowFrame {
  pos: number;
  /** CUMULATIVE arrives as rows / unboundedPreceding / currentRow. */
  unit: "rows" | "range" | "groups";
  start: FrameBound;
  end: FrameBound;
  exclude?: "currentRow" | "noOthers" | "group" | "ties";
  /** Where the exclusion kind after EXCLUDE is written: QuestDB's frame errors point there. */
  excludePos?: number;
}

export interface FrameBound {
  kind: "unboundedPreceding" | "preceding" | "currentRow" | "following" | "unboundedFollowing";
  /** For preceding/following: a row count, or for RANGE an amount with `timeUnit`. */
  offset?: Expr;
  /** RANGE offsets: `'5' MINUTE`, `1 minute` → "minute" (singular, lower case). */
  timeUnit?: string;
  /** Where PRECEDING / FOLLOWING / ROW is written: QuestDB's frame errors point there. */
  pos?: number;
}

export interface NamedWindow {
  name: string;
  pos: number;
  spec: WindowSpec;
}

// ---------------------------------------------------------------- queries

export interface OrderItem {
  expr: Expr;
  desc: boolean;
  /** NULLS FIRST/LAST if given (accepted, P2). */
  nulls?: "first" | "last";
}

/**
 * LIMIT forms (spec/sql.md §7.8): `LIMIT n` has only `lo`; `LIMIT a, b` both; `LIMIT , n`
 * and `LIMIT n,` leave the missing side undefined. `OFFSET m` (Postgres form) is `offset`.
 */
export interface Limit {
  pos: number;
  lo?: Expr;
  hi?: Expr;
  comma: boolean;
  offset?: Expr;
}

export interface Cte {
  name: string;
  pos: number;
  query: Query;
}

/** A full query: optional WITH, a body, and trailing ORDER BY / LIMIT over the whole body. */
export interface Query {
  kind: "query";
  pos: number;
  with: Cte[];
  body: QueryBody;
  orderBy: OrderItem[];
  limit?: Limit;
}

export type QueryBody = SelectCore | SetOperation | Query;

export interface SetOperation {
  kind: "setop";
  pos: number;
  op: "union" | "except" | "intersect";
  all: boolean;
  left: QueryBody;
  right: QueryBody;
}

export interface SelectItem {
  expr: Expr;
  alias?: string;
  /** Where the alias starts: its AS keyword when written, else the alias itself. */
  aliasPos?: number;
}

/**
 * One SELECT block. `items` is undefined for the forms without SELECT (`trades WHERE ...`,
 * `(query) WHERE ...`), which mean `SELECT *`. `from` is undefined for `SELECT 1`.
 */
export interface SelectCore {
  kind: "select";
  pos: number;
  distinct: boolean;
  /** `DISTINCT ON (a, b)` (issue 10). */
  distinctOn?: Expr[];
  items?: SelectItem[];
  from?: FromClause;
  where?: Expr;
  latestOn?: LatestOn;
  sampleBy?: SampleBy;
  groupBy?: Expr[];
  /**
   * `GROUP BY [keys,] ROLLUP(..) | CUBE(..) | GROUPING SETS (..)`: every key set, plain keys
   * included (plan/grouping_sets.ts plans one GROUP BY per set); `groupBy` then holds all keys.
   */
  groupingSets?: Expr[][];
  /** HAVING (issue 10; QuestDB rejects it). */
  having?: Expr;
  windows: NamedWindow[];
  /** `SUBSAMPLE method(args)` after the other clauses (plan/plan_subsample.ts). */
  subsample?: Subsample;
}

/** `SUBSAMPLE lttb(value, target [, gap]) | m4 | minmax (value, target) | uniform(target) | cadence(stride [, seed])`. */
export interface Subsample {
  pos: number;
  method: string;
  methodPos: number;
  args: Expr[];
}

export interface FromClause {
  first: Source;
  joins: Join[];
  /** QuestDB's WINDOW JOINs after the first source (plan/window_join.ts rewrites them). */
  windowJoins?: WindowJoin[];
}

/** One bound of `RANGE BETWEEN <n> <unit> PRECEDING|FOLLOWING AND ...` of a WINDOW JOIN. */
export interface WindowJoinBound {
  amount: number;
  /** dateadd unit letter: n u T s m h d. */
  unit: string;
  preceding: boolean;
  pos: number;
}

/** `WINDOW JOIN right [ON cond] RANGE BETWEEN lo AND hi [INCLUDE | EXCLUDE PREVAILING]`. */
export interface WindowJoin {
  pos: number;
  source: Source;
  on?: Expr;
  lo: WindowJoinBound;
  hi: WindowJoinBound;
  /** INCLUDE PREVAILING (the default): also the last right row at or before the window start. */
  prevailing: boolean;
}

export type Source = TableSource | SubquerySource | FunctionSource | ShowSource;

export interface TableSource {
  kind: "table";
  pos: number;
  /** Possibly schema-qualified as written: `pg_catalog.pg_class` stays one name. */
  name: string;
  alias?: string;
}

export interface SubquerySource {
  kind: "subquerySource";
  pos: number;
  query: Query;
  alias?: string;
  /** `(query) TIMESTAMP(col)`: declares the designated timestamp of the result. */
  timestamp?: ColumnRef;
  /** `FROM @v`: a DECLARE variable holding a subquery, `query` filled in when it is substituted. */
  variable?: string;
  /** `source PIVOT (...)` / `source UNPIVOT (...)`: `query` is the source (ast_pivot.ts). */
  pivot?: PivotClause;
  unpivot?: UnpivotClause;
}

export interface FunctionSource {
  kind: "functionSource";
  pos: number;
  call: FunctionCall;
  alias?: string;
  /** PostgreSQL's `f(...) AS s(a, b)`: names of the function's columns, in order. */
  columnAliases?: string[];
  /** Where each of `columnAliases` was written. */
  columnAliasPositions?: number[];
  /** QuestDB's `UNNEST(...) WITH ORDINALITY`: a 1-based position column last. */
  ordinality?: boolean;
  /** QuestDB's JSON `UNNEST(text COLUMNS(name TYPE, ...))`: the typed fields, one list per argument. */
  unnestColumns?: (UnnestColumn[] | undefined)[];
}

/** One field of a JSON UNNEST's `COLUMNS(...)` clause. */
export interface UnnestColumn {
  name: string;
  type: TypeSpec;
  pos: number;
}

/** `(SHOW ...)` used as a source, and SHOW statements themselves. */
export interface ShowSource {
  kind: "showSource";
  pos: number;
  show: ShowStmt;
  alias?: string;
}

export type JoinKind = "inner" | "left" | "right" | "full" | "cross" | "asof" | "lt" | "splice";

export interface Join {
  kind: JoinKind;
  pos: number;
  source: Source;
  /** Join condition; for the `ON (a, b)` shorthand see `using`. */
  on?: Expr;
  /** `ON (col, col)` shorthand: equality on same-named columns. */
  using?: { name: string; pos: number }[];
  /** ASOF/LT TOLERANCE: amount and unit letter. */
  tolerance?: { amount: number; unit: string; pos: number };
  /** `FROM a, b` */
  implicit?: boolean;
  /** `JOIN LATERAL (query)`, `, LATERAL (query)`: the query may read the sources to its left (spec/sql.md §11.6). */
  lateral?: boolean;
  /** `NATURAL [INNER|LEFT|RIGHT|FULL] JOIN`: equality on every column name both sides have. */
  natural?: boolean;
  /** `HORIZON JOIN right [ON ...] RANGE ... | LIST (...) AS alias` (kind "asof"). */
  horizon?: HorizonSpec;
}

/**
 * HORIZON JOIN offsets (QuestDB docs query/sql/horizon-join.md): `LIST (0, 1s, ...)` or
 * `RANGE FROM a TO b STEP c`, each an amount with a SAMPLE BY unit letter (`0` alone has none).
 */
export interface HorizonSpec {
  pos: number;
  alias: string;
  list?: HorizonOffset[];
  range?: { from: HorizonOffset; to: HorizonOffset; step: HorizonOffset };
}

export interface HorizonOffset {
  amount: number;
  unit: string;
  pos: number;
}

export interface LatestOn {
  pos: number;
  /** LATEST BY (legacy) has no `ts`. */
  ts?: ColumnRef;
  partitionBy: Expr[];
}

export type FillOption =
  | { kind: "none"; pos: number }
  | { kind: "null"; pos: number }
  | { kind: "prev"; pos: number; of?: string; ofPos?: number }
  | { kind: "linear"; pos: number }
  | { kind: "value"; pos: number; value: Expr };

export interface SampleBy {
  pos: number;
  /** `SAMPLE BY 15m` → 15, "m". `SAMPLE BY $1`-style expressions are not supported. */
  stride: number;
  unit: string;
  stridePos: number;
  from?: Expr;
  to?: Expr;
  fill: FillOption[];
  align: { kind: "calendar"; timeZone?: Expr; offset?: Expr } | { kind: "firstObservation" };
  /** `SAMPLE BY 1h ROLLUP(symbol)`: key sets (grouping-sets.md); planned per set. */
  groupingSets?: Expr[][];
}

// ---------------------------------------------------------------- statements

export type Statement =
  | Query
  | CreateTableStmt
  | DropTableStmt
  | TruncateTableStmt
  | RenameTableStmt
  | AlterTableStmt
  | InsertStmt
  | UpdateStmt
  | DeleteStmt
  | ShowStmt
  | ExplainStmt
  | DeclareStmt
  | NoopStmt
  | CopyStmt
  | AclStmt
  | CancelQueryStmt
  | CheckpointStmt
  | BackupStmt;

export interface ColumnDef {
  name: string;
  pos: number;
  type: TypeSpec;
  symbolCapacity?: number;
  symbolCache?: boolean;
  indexed?: boolean;
  indexCapacity?: number;
  /** `NOT NULL` after the type: writes of NULL into the column are rejected. */
  notNull?: boolean;
  /** `PARQUET(...)`: the per-column Parquet options as written between the parentheses. */
  parquet?: string;
}

export type PartitionUnit = "NONE" | "HOUR" | "DAY" | "WEEK" | "MONTH" | "YEAR";

export interface CreateTableStmt {
  kind: "createTable";
  pos: number;
  name: string;
  namePos: number;
  ifNotExists: boolean;
  /** Empty for CREATE TABLE AS SELECT and LIKE. */
  columns: ColumnDef[];
  asSelect?: Query;
  like?: { name: string; pos: number };
  /** CTAS `, CAST(col AS type)` clauses. */
  casts: { column: string; pos: number; type: TypeSpec; symbolCapacity?: number; symbolCache?: boolean }[];
  /** `, INDEX(col CAPACITY n)` clauses. */
  indexes: { column: string; pos: number; capacity?: number }[];
  timestamp?: { name: string; pos: number };
  partitionBy?: { unit: PartitionUnit; pos: number };
  ttl?: { amount: number; unit: string; pos: number };
  /** `FORMAT NATIVE | PARQUET` (spec/sql.md §26.5). */
  format?: { value: "native" | "parquet"; pos: number };
  /** true = WAL, false = BYPASS WAL, undefined = default. */
  wal?: boolean;
  /** Offset of the WAL keyword, where a non-partitioned table's WAL is refused. */
  walPos?: number;
  dedupKeys?: { name: string; pos: number }[];
  /** The token after DEDUP, where a non-WAL table is reported. */
  dedupPos?: number;
  withParams: { name: string; value: Expr; pos: number }[];
  volume?: string;
  ownedBy?: string;
}

export interface DropTableStmt {
  kind: "dropTable";
  pos: number;
  /** Empty with `all` (DROP ALL TABLES). */
  names: { name: string; pos: number }[];
  ifExists: boolean;
  all: boolean;
}

export interface TruncateTableStmt {
  kind: "truncateTable";
  pos: number;
  names: { name: string; pos: number }[];
  ifExists: boolean;
}

export interface RenameTableStmt {
  kind: "renameTable";
  pos: number;
  from: { name: string; pos: number };
  to: { name: string; pos: number };
}

export type AlterAction =
  | { kind: "addColumn"; pos: number; columns: ColumnDef[]; ifNotExists: boolean }
  | { kind: "dropColumn"; pos: number; names: { name: string; pos: number }[] }
  | {
    kind: "renameColumn";
    pos: number;
    /** `RENAME COLUMN a TO b, c TO d`: QuestDB renames a comma list in one statement. */
    pairs: { from: { name: string; pos: number }; to: { name: string; pos: number } }[];
  }
  | {
    kind: "alterColumnType";
    pos: number;
    column: { name: string; pos: number };
    def: ColumnDef;
    /** The last token of the type and its options, where QuestDB reports type errors. */
    lastPos?: number;
  }
  | { kind: "addIndex"; pos: number; column: { name: string; pos: number }; capacity?: number }
  | { kind: "dropIndex"; pos: number; column: { name: string; pos: number } }
  | { kind: "symbolCache"; pos: number; column: { name: string; pos: number }; cache: boolean }
  | { kind: "columnNotNull"; pos: number; column: { name: string; pos: number }; notNull: boolean }
  /** `SET PARQUET(encoding [, codec[(level)]] [, BLOOM_FILTER])`: `options` as written between the parentheses. */
  | {
    kind: "columnParquet";
    pos: number;
    column: { name: string; pos: number };
    options: string;
    /** The encoding as written, checked against the column's type when the table is known. */
    encoding?: { text: string; pos: number };
  }
  | {
    kind: "dropPartition";
    pos: number;
    list?: { name: string; pos: number }[];
    where?: Expr;
    /** Where the WHERE condition's text starts (QuestDB reports "no partitions matched" there). */
    wherePos?: number;
  }
  /**
   * `CONVERT PARTITION TO {PARQUET | NATIVE | REMOTE} {LIST 'p', ... | WHERE expr}` (issue #21);
   * REMOTE (ours, not QuestDB's) converts to Parquet and moves the file to the cold store.
   */
  | {
    kind: "convertPartition";
    pos: number;
    format: "parquet" | "native" | "remote";
    list?: { name: string; pos: number }[];
    where?: Expr;
  }
  | { kind: "detachPartition" | "attachPartition"; pos: number; list: { name: string; pos: number }[] }
  | { kind: "dedupEnable"; pos: number; keys: { name: string; pos: number }[] }
  | { kind: "dedupDisable"; pos: number }
  | { kind: "setParam"; pos: number; params: { name: string; value: Expr; pos: number }[] }
  | { kind: "setTtl"; pos: number; amount: number; unit: string; valuePos: number }
  /**
   * QuestDB Enterprise's storage policy: `SET STORAGE POLICY(TO PARQUET ttl, DROP NATIVE ttl,
   * DROP LOCAL ttl)` (only the named settings change), `ENABLE | DISABLE | DROP STORAGE POLICY`.
   */
  | {
    kind: "storagePolicy";
    pos: number;
    op: "set" | "enable" | "disable" | "drop";
    settings?: Partial<Record<StoragePolicyStage, { amount: number; unit: string }>>;
  }
  | { kind: "setType"; pos: number; wal: boolean }
  /** `SET FORMAT NATIVE | PARQUET`: the format of partitions written afterwards (docs/parquet.md). */
  | { kind: "setFormat"; pos: number; format: "native" | "parquet" }
  | { kind: "suspendWal"; pos: number }
  /** `RESUME WAL [FROM {TRANSACTION | TXN} n]`. */
  | { kind: "resumeWal"; pos: number; fromTxn?: { value: number; pos: number } }
  | { kind: "squashPartitions"; pos: number }
  | {
    kind: "symbolCapacity";
    pos: number;
    column: { name: string; pos: number };
    capacity: { value: number; pos: number };
  }
  /**
   * A form QuestDB has and this server does not (REFRESH, REBASE WAL, ...):
   * it fails with "not supported" once the table and the permission are checked. `what` is
   * its leading words in upper case (`CONVERT PARTITION`).
   */
  | { kind: "unsupported"; pos: number; what: string }
  /** An action that failed to parse: raised once the table is known to exist (parse_alter.ts). */
  | {
    kind: "invalid";
    pos: number;
    error: SqlError;
    column?: { name: string; pos: number };
    /** RENAME COLUMN's first name, checked before the syntax error as QuestDB does. */
    renamed?: { name: string; pos: number };
  };

export interface AlterTableStmt {
  kind: "alterTable";
  pos: number;
  table: { name: string; pos: number };
  action: AlterAction;
}

export interface InsertStmt {
  kind: "insert";
  pos: number;
  with: Cte[];
  table: { name: string; pos: number };
  columns?: { name: string; pos: number }[];
  /** VALUES rows, or a query. */
  values?: Expr[][];
  /** Position of each VALUES row's closing parenthesis (a row of the wrong width is reported there). */
  valuesEndPos?: number[];
  query?: Query;
  /** issue 10 */
  onConflict?: {
    pos: number;
    target: { name: string; pos: number }[];
    action: "nothing" | "update";
    set: { column: string; pos: number; expr: Expr }[];
  };
  returning?: SelectItem[];
}

export interface UpdateStmt {
  kind: "update";
  pos: number;
  with: Cte[];
  table: { name: string; pos: number };
  alias?: string;
  set: { column: string; pos: number; expr: Expr }[];
  from?: FromClause;
  where?: Expr;
}

export interface DeleteStmt {
  kind: "delete";
  pos: number;
  table: { name: string; pos: number };
  alias?: string;
  where?: Expr;
}

export type ShowWhat =
  | "tables"
  | "columns"
  | "createTable"
  | "partitions"
  | "serverVersion"
  | "parameters"
  | "timeZone"
  | "transactionIsolation"
  | "maxIdentifierLength"
  | "standardConformingStrings"
  | "searchPath"
  | "dateStyle"
  | "users"
  | "groups"
  | "user"
  | "group"
  | "permissions"
  | "serviceAccounts"
  | "serviceAccount"
  | "other";

export interface ShowStmt {
  kind: "show";
  pos: number;
  what: ShowWhat;
  /** Table for columns/createTable/partitions; entity for user/group/permissions. */
  target?: { name: string; pos: number };
  /** For `other`: the words after SHOW as written (`SHOW transaction_read_only`). */
  text?: string;
  /** For `other`: where QuestDB reports an unknown SHOW, just past its first word. */
  errorPos?: number;
}

export interface ExplainStmt {
  kind: "explain";
  pos: number;
  statement: Statement;
}

export interface DeclareStmt {
  kind: "declare";
  pos: number;
  vars: { name: string; pos: number; value: Expr }[];
  statement: Statement;
}

/**
 * Session statements: SET, DISCARD, DEALLOCATE, ... are accepted and ignored by the engine;
 * BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE and ROLLBACK TO act on the session's transaction
 * when it has one (engine/exec/transaction.ts) and are no-ops otherwise (REST).
 */
/** CANCEL QUERY id: stops a running statement of query_activity() (engine/activity.ts). */
export interface CancelQueryStmt {
  kind: "cancelQuery";
  pos: number;
  id: number;
  /** Offset of the id, for errors about it. */
  idPos: number;
}

/** CHECKPOINT CREATE | RELEASE: holds writes back from the files while an external copy runs. */
export interface CheckpointStmt {
  kind: "checkpoint";
  pos: number;
  action: "create" | "release";
}

/** BACKUP TABLE t [, ...] | BACKUP DATABASE: QuestDB OSS's copy into cairo.sql.backup.root. */
export interface BackupStmt {
  kind: "backup";
  pos: number;
  /** The tables to copy; undefined for BACKUP DATABASE (every table). */
  tables?: { name: string; pos: number }[];
}

export interface NoopStmt {
  kind: "noop";
  pos: number;
  what:
    | "set"
    | "begin"
    | "commit"
    | "rollback"
    | "savepoint"
    | "release"
    | "rollbackTo"
    | "discard"
    | "deallocate"
    | "reset"
    | "close"
    | "cursor" // DECLARE name CURSOR, FETCH, MOVE: refused when run (not supported)
    | "other";
  /** SET name = value (pgwire reads `SET TIME ZONE` etc.); the savepoint of SAVEPOINT/RELEASE/ROLLBACK TO. */
  name?: string;
  value?: string;
  /** VACUUM TABLE t / REINDEX TABLE t: the table, which must exist (QuestDB's tableExistsOrFail). */
  table?: { name: string; pos: number };
}

export interface CopyStmt {
  kind: "copy";
  pos: number;
  table?: { name: string; pos: number };
  query?: Query;
  /** Where the `)` closing `COPY (query)` is: the query's text ends there. */
  queryEnd?: number;
  columns?: { name: string; pos: number }[];
  direction: "from" | "to";
  target: "stdin" | "stdout" | { file: string };
  /** Where the target (STDIN, STDOUT or the file name) is. */
  targetPos?: number;
  /** Options with the positions of their names and values (COPY TO's errors point at them). */
  options: { name: string; value?: string; pos?: number; valuePos?: number }[];
}

/** Access-control statements (issue 6); the parser fills `words` for the binder to read. */
export interface AclStmt {
  kind: "acl";
  pos: number;
  verb: string;
  words: { text: string; pos: number; quoted: boolean }[];
}

/** The stages of a storage policy (QuestDB's `TO PARQUET`, `DROP NATIVE`, `DROP LOCAL`). */
export type StoragePolicyStage = "toParquet" | "dropNative" | "dropLocal";

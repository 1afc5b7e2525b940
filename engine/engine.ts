/**
 * The traffic cop: parses a statement, binds and plans it, and runs it against storage,
 * returning an Outcome (rows as an async stream of batches, or a DDL/DML result). The only
 * place that catches errors per statement (STYLE.md §4 "Catch in few places").
 */
import { blockMemoSetting } from "./exec/block_partials.ts";
import { asSqlError, SqlError } from "./base/errors.ts";
import { arrayType, type ColumnType, T, typeName } from "./base/types.ts";
import { type Batch, DoubleArray, type Value } from "./base/values.ts";
import type * as A from "./sql/ast.ts";
import { parseStatement, parseStatements } from "./sql/parser.ts";
import { createRandom } from "./functions/random.ts";
import { isAggregateName } from "./functions/registry.ts";
import type { EvalContext } from "./functions/registry_types.ts";
import { metaArity, metaColumns, metaRows } from "./catalog/meta_tables.ts";
import { setAggregateNamePredicate } from "./plan/bind_expr.ts";
import type { PlanContext } from "./plan/plan_context.ts";
import type { OutputColumn, PlanNode } from "./plan/plan_node.ts";
import { planQuery } from "./plan/plan_query.ts";
import { planFrom } from "./plan/plan_from.ts";
import { hasPivotLists, resolvePivotLists } from "./plan/pivot_lists.ts";
import { pruneColumns } from "./plan/prune_columns.ts";
import { markParallelHash, parallelHashShape } from "./exec/vector/hash_parallel.ts";
import { estimateGroups } from "./exec/vector/group_estimate.ts";
import { markParallelTopN } from "./exec/vector/top_n_parallel.ts";
import { markParallelSampleBy } from "./exec/sample_by_parallel.ts";
import { markParallelKernels } from "./exec/fast_aggregate_parallel.ts";
import { bindContext } from "./plan/plan_select.ts";
import { planShow } from "./plan/plan_show.ts";
import { inferParams } from "./plan/infer_params.ts";
import { explainPlan } from "./plan/explain.ts";
import { explainTarget } from "./plan/explain_statement.ts";
import type { Storage, TableMeta } from "./storage/api.ts";
import { CACHE_BYTES_DEFAULT, openStorage } from "./storage/mod.ts";
import type { ColumnCache } from "./storage/column_cache.ts";
import { PARALLEL_WORKERS_DEFAULT, WorkerPool } from "./parallel/mod.ts";
import { hashTuning } from "./parallel/worker_pool.ts";
import {
  STATEMENT_ROWS_MIN_DEFAULT,
  StatementOffload,
  type StatementSource,
} from "./parallel/statement_offload.ts";
import type { AccessControl, AclResult, Session } from "./session.ts";
import { alterTable, createTable, dropTable, renameTable, truncateTable } from "./exec/ddl.ts";
import { insertSelect, insertValues, update } from "./exec/dml.ts";
import { deleteRows } from "./exec/delete_rows.ts";
import { insertExtras } from "./exec/insert_extras.ts";
import type { Scope } from "./plan/scope.ts";
import { returningRows } from "./exec/returning.ts";
import { type ExecContext, pace, releaseAll, statementsRunning } from "./exec/exec_context.ts";
import { runPlan } from "./exec/run_plan.ts";
import { bindParamIntervals } from "./exec/param_intervals.ts";
import {
  ACL_SHOWS,
  checkExprReads,
  checkReads,
  checkStatement,
  insertReads,
  updateReads,
  visibleStorage,
} from "./exec/permissions.ts";
import { prepareSubqueries } from "./exec/subqueries.ts";
import { dropPartitionsWhere } from "./exec/drop_partitions_where.ts";
import { copyStatement } from "./exec/copy_to.ts";
import { PARQUET_EXPORT_DEFAULTS, type ParquetWriteOptions } from "./parquet/writer.ts";
import { type ColdStorageOptions, ColdStorageTask } from "./cold_storage.ts";
import type { ObjectStoreConfig } from "./storage/mod.ts";
import type { TransactionTag } from "./exec/transaction.ts";
import "./exec/time_series_ops.ts";
import "./exec/lateral.ts";
import { activity, untilDone } from "./activity.ts";
import { Operations } from "./operations.ts";
import { Ingestor, type IngestorOptions } from "./ingest/ingestor.ts";
import { IngestHandle } from "./ingest/ingest_handle.ts";
import { type ResourceStats, resourceStats } from "./stats.ts";
import { aclShowColumns } from "./plan/acl_show_columns.ts";
import { ClockHolder, type ColumnMeta, PreparedStatement, sameSchema } from "./prepared.ts";
import { markTimestamptz } from "./plan/timestamptz_columns.ts";
import { notNullColumns } from "./plan/not_null_columns.ts";
// The pg catalog (pg_class, pg_type, ...) and the pg_* functions drivers and GUI tools call
// belong to the SQL layer and are always there (issue #18), whichever listener asks.
import "./catalog/pg_catalog.ts";
import "./functions/pg_functions.ts";
import "./functions/pg_expandarray.ts";
import "./functions/pg_json.ts";
import { CURSOR_MESSAGE } from "./statement_kind.ts";
import { QUERY_CACHE_CAPACITY_DEFAULT, QueryCache } from "./query_cache.ts";

setAggregateNamePredicate(isAggregateName);

export type { ColumnMeta };

export type Outcome =
  | { kind: "rows"; columns: ColumnMeta[]; timestampIndex: number; batches: AsyncIterable<Batch> }
  /** `command`: the tag of a transaction statement (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE). */
  | { kind: "ddl"; command?: TransactionTag }
  /** UPDATE, or DELETE (`command`, for the wire's command tag); `updated` counts the rows. */
  | { kind: "dml"; updated: number; command?: "DELETE" }
  | { kind: "insert"; inserted: number };

/** Default `query.memory.limit`: well under the 8 GiB V8 heap `deno task start` gives the process. */
const QUERY_MEMORY_BYTES_DEFAULT = 4 * 1024 ** 3;

export interface EngineOptions {
  root: string;
  /** Bytes of WASM memory the column cache may hold. */
  cacheBytes?: number;
  /** cairo.sql.column.alias.expression.enabled=false: QuestDB's legacy result column names. */
  legacyColumnNames?: boolean;
  /** cairo.wal.enabled.default */
  walDefault?: boolean;
  /** Rows of SHOW PARAMETERS. */
  parameters?: () => Value[][];
  /**
   * `query.memory.limit`: bytes of JavaScript heap one statement may hold in materialising
   * operators (sort, hash aggregation, join build sides, window partitions). Default 4 GiB.
   */
  queryMemoryBytes?: number;
  /** `cairo.sql.parallel.workers`: worker heaps for large table-scan aggregates (0 disables). Default 2. */
  parallelWorkers?: number;
  /** `cairo.sql.parallel.workers.nice`: nice value of the worker threads (default 10; 0 keeps 0). */
  parallelWorkersNice?: number;
  /**
   * `cairo.sql.block.memo.enabled`: table-scan aggregates and the unkeyed SAMPLE BY on the main heap reuse
   * what they computed over complete row blocks of a partition version (exec/block_partials.ts).
   * Default true. The switch is process-wide: the last engine opened sets it.
   */
  blockMemo?: boolean;
  /** Values (rows × columns) a scan reads before it goes to the workers (default 4M; tests lower it). */
  parallelValuesMin?: number;
  /**
   * `cairo.sql.parallel.statement.rows.min`: rows a read-only query scans before the whole
   * statement runs on a worker heap (parallel/statement_offload.ts); 0 sends every eligible
   * one, Infinity (or a negative number) keeps all on the main thread.
   */
  statementRowsMin?: number;
  /** `cairo.sql.backup.root`: where BACKUP TABLE / DATABASE write (unset: BACKUP is refused). */
  backupRoot?: string;
  /** `cairo.sql.backup.dir.datetime.format` (default `yyyy-MM-dd`) and `.dir.tmp.name` (default `tmp`). */
  backupDirFormat?: string;
  backupTmpName?: string;
  /** `cairo.sql.copy.root`: the folder read_parquet reads under (default `<root>/import`). */
  copyRoot?: string;
  /** `cairo.sql.copy.export.root`: where COPY ... TO writes (default `<root>/export`; "" disables). */
  copyExportRoot?: string;
  /** `cairo.parquet.export.*`: COPY TO's Parquet defaults. */
  parquetExportDefaults?: ParquetWriteOptions;
  /**
   * Runs the storage-policy task (engine/cold_storage.ts; docs/storage.md "Cold storage"), with
   * `objectStore` (cold.storage.enabled=true) the store Parquet partitions move to. Unset (tests,
   * benchmarks): no background task, and remote partitions cannot be read.
   */
  coldStorage?: ColdStorageOptions & { objectStore?: ObjectStoreConfig };
  /**
   * Query texts whose parse and plan are kept (engine/query_cache.ts), least recently used
   * first out; 0 keeps none. Default 256.
   */
  queryCacheCapacity?: number;
}

/**
 * The engine's storage, for tests and benchmarks that drive it below the door
 * (tests/engine, bench/). Not exported by engine/mod.ts: listeners reach tables only
 * through Engine's methods (tests/server/layering_test.ts checks that server/ never does).
 */
export let storageOf: (engine: Engine) => Storage;

export class Engine {
  readonly #storage: Storage;
  readonly #options: EngineOptions;
  readonly #parallel: WorkerPool;
  readonly #statements: StatementOffload;
  #access: AccessControl | undefined;
  /** CHECKPOINT and BACKUP (engine/operations.ts). */
  readonly #operations: Operations;
  /** Moves old partitions to the cold store (cold.storage.enabled). */
  readonly #cold: ColdStorageTask | undefined;
  /** Parsed (and, where reusable, planned) query texts; undefined when disabled. */
  readonly #queries: QueryCache | undefined;

  static {
    storageOf = (engine) => engine.#storage;
  }

  private constructor(storage: Storage, options: EngineOptions) {
    this.#storage = storage;
    this.#options = options;
    this.#operations = new Operations(storage, options);
    this.#parallel = new WorkerPool({
      workers: options.parallelWorkers ?? PARALLEL_WORKERS_DEFAULT,
      cacheBytes: options.cacheBytes ?? CACHE_BYTES_DEFAULT,
      valuesMin: options.parallelValuesMin,
      cache: (storage as { cache?: ColumnCache }).cache,
      nice: options.parallelWorkersNice,
    });
    const rowsMin = options.statementRowsMin ?? STATEMENT_ROWS_MIN_DEFAULT;
    this.#statements = new StatementOffload(this.#parallel, storage, rowsMin < 0 ? Infinity : rowsMin);
    const cached = options.queryCacheCapacity ?? QUERY_CACHE_CAPACITY_DEFAULT;
    this.#queries = cached > 0 ? new QueryCache(cached) : undefined;
    if (options.coldStorage) {
      this.#cold = new ColdStorageTask(
        storage,
        options.coldStorage,
        options.coldStorage.objectStore !== undefined,
      );
      this.#cold.start();
    }
  }

  static async open(options: EngineOptions): Promise<Engine> {
    blockMemoSetting.enabled = options.blockMemo ?? true;
    const storage = await openStorage(options.root, {
      cacheBytes: options.cacheBytes,
      objectStore: options.coldStorage?.objectStore,
    });
    return new Engine(storage, options);
  }

  /**
   * Registers access control (server/auth, when acl.enabled=true): ACL statements and the
   * ACL SHOWs go to it. Permission checks themselves only need `Session.principal.can`.
   */
  setAccessControl(access: AccessControl | undefined): void {
    this.#access = access;
  }

  /**
   * The write door for rows that arrive outside SQL (ILP, CSV import, COPY FROM): a handle
   * that checks each write's permissions for `session` as the SQL path does and commits
   * through an Ingestor with `options` (engine/ingest/ingest_handle.ts).
   */
  ingest(session: Session, options: IngestorOptions = {}): IngestHandle {
    return new IngestHandle(new Ingestor(this.#storage, options), this.#storage, session, () => this.#access);
  }

  /**
   * A table's metadata (name as created, columns, designated timestamp), or undefined. With a
   * session, a table its principal may not see is undefined too (permissions.ts visibleStorage).
   */
  tableMeta(name: string, session?: Session): TableMeta | undefined {
    const storage = session ? visibleStorage(this.#storage, session) : this.#storage;
    return storage.table(name)?.meta;
  }

  /** Every table's metadata, unfiltered by any principal (access control's own catalog). */
  tableMetas(): TableMeta[] {
    return this.#storage.tables();
  }

  /** Gauges read when metrics are scraped: column cache, WebAssembly heap, WAL transactions. */
  resourceStats(): ResourceStats {
    return resourceStats(this.#storage);
  }

  /** Splits SQL text into its statements' texts (pgwire simple query). */
  split(sql: string): string[] {
    try {
      return parseStatements(sql).map((s) => sql.slice(s.pos));
    } catch (err) {
      throw asSqlError(err);
    }
  }

  /** Result columns of a query without running it (pgwire Describe); empty for other statements. */
  describe(sql: string, session: Session): ColumnMeta[] {
    try {
      const stmt = parseStatement(sql);
      if (stmt.kind === "insert" && stmt.returning) return this.#describeReturning(stmt, session);
      if (stmt.kind === "copy" && typeof stmt.target === "object") return [{ name: "id", type: T.VARCHAR }];
      if (stmt.kind !== "query") return [];
      const plan = planQuery(stmt, this.#planContext(session, this.#evalContext(session)));
      checkReads(pruneColumns(plan), session, this.#storage, stmt.pos);
      return plan.columns.map(visible);
    } catch (err) {
      throw asSqlError(err);
    }
  }

  /**
   * Prepares a statement without running it (pgwire Parse/Describe; engine/prepared.ts): parsed
   * once, the types of its placeholders as the binder infers them from their context
   * (`x > $1` → x's type; explicit casts; INSERT/UPDATE target columns) and its result
   * columns, all without executing anything. `session.paramTypes` are the types the client
   * declared: they win, and the result has undefined where nothing says a type. With
   * `session.statements` the same text is prepared once per session while table metadata
   * stays the same; `Engine.execute(prepared, session)` reuses the parse and the plan.
   */
  prepare(sql: string, session: Session): PreparedStatement {
    try {
      const declared = session.paramTypes ?? [];
      const key = declared.length ? `${sql}\u0000${declared.map((t) => t?.tag ?? "").join(",")}` : sql;
      const schema = this.#storage.tables();
      const hit = session.statements?.get(key);
      if (hit && sameSchema(hit.schema, schema)) return hit;
      if (sql.trim() === "") throw new SqlError("empty query", 0);
      const stmt = parseStatement(sql);
      const reparse = hasPivotLists(stmt);
      const inferred: (ColumnType | undefined)[] = [];
      const pc = { ...this.#planContext(session, this.#evalContext(session)), paramTypes: declared };
      inferParams(stmt, { ...pc, inferParams: inferred });
      const n = Math.max(declared.length, inferred.length);
      const paramTypes = Array.from({ length: n }, (_, i) => declared[i] ?? inferred[i]);
      const typedPc = { ...pc, paramTypes: paramTypes.map((t) => t ?? T.STRING) };
      const columns = reparse ? this.#pivotColumns(stmt) : this.#columnsOf(stmt, session, typedPc);
      const prepared = new PreparedStatement(sql, stmt, paramTypes, columns, schema, reparse);
      session.statements?.set(key, prepared);
      return prepared;
    } catch (err) {
      throw asSqlError(err);
    }
  }

  /** False once a table's metadata changed since `prepared` was made: prepare it again. */
  isCurrent(prepared: PreparedStatement): boolean {
    return sameSchema(prepared.schema, this.#storage.tables());
  }

  /** A PIVOT whose IN list is a query names its columns after that query's rows. */
  #pivotColumns(stmt: A.Statement): ColumnMeta[] | null {
    return stmt.kind === "query" ? [] : null;
  }

  /** Result columns of a statement, known statically (no statement is run to learn them). */
  #columnsOf(stmt: A.Statement, session: Session, pc: PlanContext): ColumnMeta[] | null {
    switch (stmt.kind) {
      case "query": {
        const plan = planQuery(stmt, pc);
        checkReads(pruneColumns(plan), session, this.#storage, stmt.pos);
        return markTimestamptz(stmt, plan.columns.map(visible));
      }
      case "insert":
        return stmt.returning ? this.#describeReturning(stmt, session) : null;
      case "copy":
        return typeof stmt.target === "object" ? [{ name: "id", type: T.VARCHAR }] : null;
      case "explain":
        return [{ name: "QUERY PLAN", type: T.STRING }];
      case "show":
        if (ACL_SHOWS.has(stmt.what)) return aclShowColumns(stmt);
        return planShow(stmt, pc).columns.map(visible);
      default:
        return null;
    }
  }

  /** The result columns of INSERT ... RETURNING, bound without running anything. */
  #describeReturning(stmt: A.InsertStmt, session: Session): ColumnMeta[] {
    const pc = this.#planContext(session, this.#evalContext(session));
    const bind = (scope: Scope) => bindContext(scope, pc);
    return insertExtras(stmt, this.#storage, bind, pc.legacyNames).returning!.columns;
  }

  /**
   * Runs a statement: SQL text, or a statement from `prepare` (parsed once; a query reuses the
   * plan of its last execution while that stays valid, engine/prepared.ts). `parsed`: the
   * text's parse when the caller has it (splitScript, classifyStatement), not parsed again.
   * A text goes through the query cache (engine/query_cache.ts) unless the session turned it
   * off; one with `parsed` only when `keep` is set: `parsed` must then be the parse of the
   * whole of `sql` (positions relative to it), as a query kept by that text is.
   */
  async execute(
    statement: string | PreparedStatement,
    caller: Session,
    parsed?: A.Statement,
    keep = false,
  ): Promise<Outcome> {
    const sql = typeof statement === "string" ? statement : statement.sql;
    // A text query seen before comes back parsed, with its plan when that may be reused.
    const cached = typeof statement === "string" && (!parsed || keep);
    const key = cached ? this.#queries?.keyOf(sql, caller) : undefined;
    let kept = key !== undefined ? this.#queries!.acquire(key) : undefined;
    let prepared = typeof statement === "string" ? kept : statement;
    // Counted while running (a query until its batches are drained or abandoned): pace()
    // gives the event loop turns more often when other statements are in flight.
    statementsRunning.count++;
    // Listed by query_activity() until done; its session's signal also fires on CANCEL QUERY.
    const running = activity.begin(sql, caller);
    const session = running.session;
    let handedOff = false;
    try {
      if (!kept && sql.trim() === "") throw new SqlError("empty query", 0);
      let stmt = prepared && !prepared.reparse
        ? prepared.statement
        // PIVOT lists are resolved into the parse: such a statement is parsed per execution.
        : parsed && !hasPivotLists(parsed)
        ? parsed
        : parseStatement(sql);
      if (key !== undefined && !kept) {
        kept = stmt.kind === "query" && !hasPivotLists(stmt) ? this.#queries!.add(key, sql, stmt) : undefined;
        if (kept) prepared = kept;
        stmt = prepared?.statement ?? stmt;
      }
      const outcome = await this.#inTransaction(stmt, session, () => this.#run(stmt, session, prepared, sql));
      if (outcome.kind === "rows") outcome.columns = markTimestamptz(stmt, outcome.columns);
      if (outcome.kind !== "rows") {
        activity.end(running);
        return outcome;
      }
      handedOff = true;
      const batches = untilDone(countedUntilDone(outcome.batches), running);
      return { ...outcome, batches: kept ? this.#releasing(batches, kept) : batches };
    } catch (err) {
      const error = asSqlError(err);
      activity.end(running, error);
      throw error;
    } finally {
      if (!handedOff) {
        statementsRunning.count--;
        if (kept) this.#queries!.release(kept);
      }
    }
  }

  /**
   * `batches`, handing the kept statement back to the query cache when they end, fail or are
   * abandoned (return() before the first next() too, which a generator's finally misses).
   */
  #releasing(batches: AsyncIterable<Batch>, kept: PreparedStatement): AsyncIterable<Batch> {
    const queries = this.#queries!;
    return {
      [Symbol.asyncIterator]() {
        const it = batches[Symbol.asyncIterator]();
        let released = false;
        const release = () => {
          if (!released) queries.release(kept);
          released = true;
        };
        return {
          async next() {
            try {
              const r = await it.next();
              if (r.done) release();
              return r;
            } catch (err) {
              release();
              throw err;
            }
          },
          async return(value?: unknown) {
            release();
            return await it.return?.(value) ?? { done: true, value: undefined };
          },
        };
      },
    };
  }

  /**
   * Runs a statement under the session's transaction: in a failed block only COMMIT,
   * ROLLBACK and ROLLBACK TO run; an error inside a block fails the block (§12.10).
   */
  async #inTransaction(stmt: A.Statement, session: Session, run: () => Promise<Outcome>): Promise<Outcome> {
    const tx = session.transaction;
    if (!tx || tx.status === "idle") return await run();
    const ends = stmt.kind === "noop" &&
      (stmt.what === "commit" || stmt.what === "rollback" || stmt.what === "rollbackTo");
    try {
      if (!ends) tx.checkNotFailed();
      return await run();
    } catch (err) {
      tx.fail();
      throw err;
    }
  }

  /** BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE, ROLLBACK TO on the session's transaction. */
  async #transactionStatement(stmt: A.NoopStmt, session: Session): Promise<Outcome> {
    if (stmt.what === "cursor") throw new SqlError(CURSOR_MESSAGE, stmt.pos);
    if (stmt.table && !this.#storage.table(stmt.table.name)) {
      throw new SqlError(`table does not exist [table=${stmt.table.name}]`, stmt.table.pos);
    }
    const tx = session.transaction;
    if (!tx) return { kind: "ddl" };
    const name = stmt.name ?? "";
    switch (stmt.what) {
      case "begin":
        return { kind: "ddl", command: tx.begin() };
      case "commit":
        return { kind: "ddl", command: await tx.commit() };
      case "rollback":
        return { kind: "ddl", command: tx.rollback() };
      case "savepoint":
        return { kind: "ddl", command: tx.savepoint(name, stmt.pos) };
      case "release":
        return { kind: "ddl", command: tx.release(name, stmt.pos) };
      case "rollbackTo":
        return { kind: "ddl", command: tx.rollbackTo(name, stmt.pos) };
      default:
        return { kind: "ddl" };
    }
  }

  /** The worker heaps (tests and diagnostics). */
  get parallel(): WorkerPool {
    return this.#parallel;
  }

  /**
   * The parse of text query `sql` as the query cache keeps it for `session`, when an
   * execution could use it now; undefined otherwise (pgwire's simple query: a script kept
   * here is one query, run without being split or parsed).
   */
  keptQuery(sql: string, session: Session): A.Query | undefined {
    const key = this.#queries?.keyOf(sql, session);
    return key === undefined ? undefined : this.#queries!.peek(key);
  }

  /** Executions whose text was found in the query cache (tests and diagnostics). */
  get queryCacheHits(): number {
    return this.#queries?.hits ?? 0;
  }

  /** Whole statements on the worker heaps (tests and diagnostics: `rowsMin` may be changed). */
  get statements(): StatementOffload {
    return this.#statements;
  }

  async close(): Promise<void> {
    await this.#cold?.close();
    this.#parallel.close();
    await this.#storage.close();
  }

  #evalContext(session: Session): EvalContext {
    return {
      nowMicros: BigInt(Date.now()) * 1000n,
      random: createRandom(),
      timeZone: session.timeZone,
      user: session.principal.name,
      tableExists: (name) => this.#storage.table(name) !== undefined,
      catalog: this.#storage,
      cancelQuery: (id, pos) => activity.tryCancel(id, session, pos),
      flushQueryCache: () => this.#queries?.clear(),
    };
  }

  #planContext(session: Session, evalContext: EvalContext): PlanContext {
    return {
      storage: this.#storage,
      evalContext,
      ctes: new Map(),
      legacyNames: this.#options.legacyColumnNames ?? false,
      paramTypes: session.params?.map((v, i) => session.paramTypes?.[i] ?? paramType(v)),
      meta: { columnsOf: (n) => metaColumns(n), arityOf: (n) => metaArity(n) },
      catalog: visibleStorage(this.#storage, session),
      depth: 0,
      copyRoot: this.#options.copyRoot ?? `${this.#storage.root}/import`,
    };
  }

  #execContext(session: Session, evalContext: EvalContext): ExecContext {
    const storage = this.#storage;
    const parameters = this.#options.parameters ?? (() => []);
    return {
      storage,
      evalContext,
      params: (session.params ?? []) as Value[],
      subqueries: new Map(),
      signal: session.signal,
      deadline: session.timeoutMs && session.timeoutMs > 0
        ? { at: performance.now() + session.timeoutMs, timeoutMs: session.timeoutMs }
        : undefined,
      memory: { limit: this.#options.queryMemoryBytes ?? QUERY_MEMORY_BYTES_DEFAULT, used: 0 },
      snapshots: [],
      parallel: this.#parallel,
      // Listings show only the tables the principal has some permission on.
      meta: { rowsOf: (name, args) => metaRows(visibleStorage(storage, session), name, args, parameters) },
    };
  }

  async #run(
    stmt: A.Statement,
    session: Session,
    prepared?: PreparedStatement,
    sql?: string,
  ): Promise<Outcome> {
    const ec = this.#evalContext(session);
    const pc = this.#planContext(session, ec);
    const xc = this.#execContext(session, ec);
    const runQuery = (plan: PlanNode) => streamPlan(pruneColumns(plan), xc);
    const checked = (plan: PlanNode) => {
      checkReads(pruneColumns(plan), session, this.#storage, stmt.pos);
      return plan;
    };
    checkStatement(stmt, session, this.#storage);
    // What a worker heap needs to run the query itself (not inside a transaction block, whose
    // buffered rows live here; not a PIVOT, whose lists are resolved into this parse).
    // A prepared statement knows whether it has PIVOT lists (the walk costs µs per query).
    const pivots = prepared ? prepared.reparse : hasPivotLists(stmt);
    const source = sql !== undefined && stmt.kind === "query" && !pivots &&
        (!session.transaction || session.transaction.status === "idle")
      ? this.#statementSource(sql, session, pc)
      : undefined;
    // PIVOT ... IN (SELECT ...) names columns after the values: run before planning (a
    // prepared statement knows it has none unless it is parsed per execution).
    if (pivots) {
      await resolvePivotLists(stmt, { plan: (q) => checked(planQuery(q, pc)), run: runQuery });
    }
    try {
      switch (stmt.kind) {
        case "query":
          if (prepared && !prepared.reparse) {
            return await this.#rows(checked(this.#reusablePlan(prepared, pc, session)), xc, source);
          }
          return await this.#rows(checked(planQuery(stmt, pc)), xc, source);
        case "show":
          if (this.#access && ACL_SHOWS.has(stmt.what)) return await this.#acl(stmt, session, xc);
          return await this.#rows(planShow(stmt, pc), xc);
        case "explain": {
          // INSERT, UPDATE and CREATE TABLE show their query's plan under a line naming them.
          const target = explainTarget(stmt.statement, pc);
          if (!target) throw new SqlError("EXPLAIN supports queries only", stmt.pos);
          let lines: string[] = [];
          if (target.query) {
            const pruned = bindParamIntervals(pruneColumns(checked(planQuery(target.query, pc))), xc);
            const onWorker = this.#statements.choose(pruned, this.#statementSource("", session, pc), xc);
            lines = explainPlan(await this.#chooseParallel(pruned));
            onWorker?.discard();
            if (onWorker?.worthIt(pruned)) lines.unshift("Worker");
          }
          if (target.header) lines = [target.header, ...lines.map((l) => "    " + l)];
          const plan: PlanNode = {
            kind: "rows",
            columns: [{ name: "QUERY PLAN", type: T.STRING }],
            timestampIndex: -1,
            rows: lines.map((l) => [l]),
          };
          return await this.#rows(plan, xc);
        }
        case "createTable":
          await createTable(stmt, this.#storage, {
            walDefault: this.#options.walDefault ?? true,
            planQuery: (q) => checked(planQuery(q, pc)),
            runQuery,
            yieldTurn: () => pace(xc),
          });
          await this.#access?.tableCreated?.(this.#storage.table(stmt.name)?.meta.name ?? stmt.name, session);
          return { kind: "ddl" };
        case "dropTable":
          await dropTable(stmt, this.#storage);
          return { kind: "ddl" };
        case "truncateTable":
          await truncateTable(stmt, this.#storage);
          return { kind: "ddl" };
        case "renameTable":
          await renameTable(stmt, this.#storage);
          return { kind: "ddl" };
        case "alterTable":
          await alterTable(stmt, this.#storage, {
            dropPartitionsWhere: (t, where) =>
              dropPartitionsWhere(t, where, (scope) => bindContext(scope, pc), xc),
          });
          return { kind: "ddl" };
        case "insert": {
          const ipc = stmt.with.length ? { ...pc, ctes: cteMap(stmt.with) } : pc;
          const bind = (scope: Scope) => bindContext(scope, ipc);
          // SELECT on what RETURNING and DO UPDATE SET read of the table (security.md T14).
          const reads = session.principal.can ? insertReads(stmt) : undefined;
          if (reads) checkReads(pruneColumns(planQuery(reads, ipc)), session, this.#storage, stmt.pos, false);
          const { extras, returning } = insertExtras(stmt, this.#storage, bind, pc.legacyNames);
          if (session.transaction?.buffering) {
            // Which rows DO NOTHING drops is only known when COMMIT appends them.
            if (returning && extras.onConflict) {
              throw new SqlError(
                "INSERT ... ON CONFLICT ... RETURNING is not supported inside a transaction block",
                stmt.pos,
              );
            }
            extras.transaction = session.transaction;
          }
          extras.checkReads = (exprs) => checkExprReads(exprs, session, this.#storage, stmt.pos);
          extras.yieldTurn = () => pace(xc);
          const inserted = stmt.query
            ? await insertSelect(stmt, this.#storage, checked(planQuery(stmt.query, ipc)), runQuery, extras)
            : await insertValues(stmt, this.#storage, bind, xc, extras);
          if (!returning) return { kind: "insert", inserted };
          const t = this.#storage.table(stmt.table.name)!;
          const rows = await returningRows(t, returning, extras.written!, xc);
          return await this.#rows({ kind: "rows", columns: returning.columns, timestampIndex: -1, rows }, xc);
        }
        case "update": {
          const upc = stmt.with.length ? { ...pc, ctes: cteMap(stmt.with) } : pc;
          // SELECT on what the SET expressions and WHERE read (security.md T14).
          if (session.principal.can) {
            checkReads(
              pruneColumns(planQuery(updateReads(stmt), upc)),
              session,
              this.#storage,
              stmt.pos,
              false,
            );
          }
          return {
            kind: "dml",
            updated: await update(
              stmt,
              this.#storage,
              (scope) => bindContext(scope, upc),
              xc,
              (from) => planFrom(from, upc),
            ),
          };
        }
        case "noop":
          return await this.#transactionStatement(stmt, session);
        case "delete": {
          // SELECT on what the WHERE reads (security.md T14), checked as UPDATE checks its reads.
          if (session.principal.can && stmt.where) {
            const reads = updateReads({
              ...stmt,
              kind: "update",
              with: [],
              set: [{ column: "", pos: stmt.where.pos, expr: stmt.where }],
            });
            checkReads(pruneColumns(planQuery(reads, pc)), session, this.#storage, stmt.pos, false);
          }
          const deleted = await deleteRows(stmt, this.#storage, (scope) => bindContext(scope, pc), xc);
          return { kind: "dml", updated: deleted, command: "DELETE" };
        }
        case "declare":
          // The parser substitutes DECLARE's variables (sql/declare_vars.ts): none arrives here.
          throw new SqlError("DECLARE must be resolved when parsed", stmt.pos);
        case "copy": {
          const id = await copyStatement(stmt, {
            storage: this.#storage,
            exportRoot: this.#options.copyExportRoot ?? `${this.#storage.root}/export`,
            defaults: this.#options.parquetExportDefaults ?? PARQUET_EXPORT_DEFAULTS,
            plan: (q) => checked(planQuery(q, pc)),
            run: runQuery,
          });
          const columns = [{ name: "id", type: T.VARCHAR }];
          return await this.#rows({ kind: "rows", columns, timestampIndex: -1, rows: [[id]] }, xc);
        }
        case "cancelQuery":
          activity.cancel(stmt.id, session, stmt.idPos);
          return { kind: "ddl" };
        case "checkpoint":
        case "backup":
          return await this.#operations.run(stmt, session);
        case "acl":
          if (!this.#access) {
            throw new SqlError("access control statements require acl.enabled=true", stmt.pos);
          }
          return await this.#acl(stmt, session, xc);
      }
      throw new SqlError("unsupported statement", 0);
    } finally {
      if (stmt.kind !== "query" && stmt.kind !== "show" && stmt.kind !== "explain") releaseAll(xc);
    }
  }

  /**
   * The plan of a prepared query: the one kept from an earlier execution when it was made for
   * the same tables, principal, time zone and parameter types and read no clock or random
   * value while planning (engine/prepared.ts), else a new one, kept when it qualifies.
   */
  #reusablePlan(prepared: PreparedStatement, pc: PlanContext, session: Session): PlanNode {
    const stmt = prepared.statement as A.Query;
    const principal = session.principal;
    // current_user() folds into the plan: the user name is part of the key.
    const types = (pc.paramTypes ?? []).map((t) => t ? typeName(t) : "").join(",");
    const key = `${pc.evalContext.timeZone}\u0000${principal.name}\u0000${types}`;
    const schema = this.#storage.tables();
    const cached = prepared.cachedPlan;
    if (cached && cached.key === key && sameSchema(cached.schema, schema)) {
      cached.clock.current = pc.evalContext;
      return cached.plan;
    }
    const clock = new ClockHolder(pc.evalContext);
    const plan = planQuery(stmt, { ...pc, evalContext: clock.context() });
    // read_parquet reads its files' footers while planning: the files may change. With access
    // control on, what the principal sees may change with a GRANT or REVOKE: planned anew.
    const reusable = !clock.volatile && !/parquet/i.test(prepared.sql) && !principal.sees;
    prepared.cachedPlan = reusable ? { plan, key, schema, clock } : undefined;
    return plan;
  }

  async #acl(stmt: A.AclStmt | A.ShowStmt, session: Session, xc: ExecContext): Promise<Outcome> {
    const result: AclResult = await this.#access!.execute(stmt, session);
    if (result.kind === "ddl") return { kind: "ddl" };
    const plan: PlanNode = {
      kind: "rows",
      columns: result.columns,
      timestampIndex: -1,
      rows: result.rows as Value[][],
    };
    return await this.#rows(plan, xc);
  }

  /** Marks the operators this plan runs on the worker heaps (EXPLAIN prints what runs). */
  async #chooseParallel(plan: PlanNode): Promise<PlanNode> {
    const pool = this.#parallel;
    if (pool.workers > 0) {
      // Shapes with about a group per row in a morsel stay on this heap (group_estimate.ts).
      await estimateGroups(
        plan,
        this.#storage,
        { rowsMin: pool.hashRowsMin, morselRows: hashTuning.morselRows },
        (n) => n.kind === "aggregate" || n.kind === "distinct" ? parallelHashShape(n) : undefined,
      );
    }
    markParallelHash(plan, this.#parallel, this.#storage);
    markParallelKernels(plan, this.#parallel, this.#storage);
    markParallelSampleBy(plan, this.#parallel, this.#storage);
    markParallelTopN(plan, this.#parallel, this.#storage);
    return plan;
  }

  /** The statement as a worker heap needs it (parallel/statement_offload.ts). */
  #statementSource(sql: string, session: Session, pc: PlanContext): StatementSource {
    return {
      sql,
      nowMicros: pc.evalContext.nowMicros,
      timeZone: session.timeZone,
      user: session.principal.name,
      params: (session.params ?? []) as Value[],
      paramTypes: pc.paramTypes,
      legacyNames: pc.legacyNames,
      copyRoot: pc.copyRoot,
    };
  }

  async #rows(unpruned: PlanNode, xc: ExecContext, source?: StatementSource): Promise<Outcome> {
    const pruned = bindParamIntervals(pruneColumns(unpruned), xc);
    // Chosen before the morsel operators are marked: the worker plans without them.
    const onWorker = source && this.#statements.choose(pruned, source, xc);
    const plan = await this.#chooseParallel(pruned);
    const notNull = notNullColumns(plan, (t) => this.#storage.table(t)?.meta);
    if (onWorker?.worthIt(plan)) {
      const local = async function* () {
        await prepareSubqueries(plan, xc, runPlan);
        yield* runPlan(plan, xc);
      };
      return {
        kind: "rows",
        columns: plan.columns.map(visible),
        timestampIndex: plan.timestampIndex,
        batches: withNotNull(onWorker.run(local), notNull),
      };
    }
    onWorker?.discard();
    try {
      await prepareSubqueries(plan, xc, runPlan);
    } catch (err) {
      releaseAll(xc);
      throw err;
    }
    return {
      kind: "rows",
      columns: plan.columns.map(visible),
      timestampIndex: plan.timestampIndex,
      batches: withNotNull(streamPlan(plan, xc), notNull),
    };
  }
}

/** The type of a bind variable's value (pgwire sends typed values; others are text). */
function paramType(v: unknown): ColumnType {
  if (typeof v === "bigint") return T.LONG;
  if (typeof v === "number") return Number.isInteger(v) && Math.abs(v) < 2 ** 31 ? T.INT : T.DOUBLE;
  if (typeof v === "boolean") return T.BOOLEAN;
  if (v === null || v === undefined) return T.NULL;
  if (v instanceof DoubleArray) return arrayType(v.dims);
  return T.STRING;
}

function visible(c: OutputColumn): ColumnMeta {
  return { name: c.name, type: c.type.tag === "NULL" ? T.STRING : c.type };
}

function cteMap(ctes: A.Cte[]) {
  const map: PlanContext["ctes"] = new Map();
  for (const c of ctes) map.set(c.name.toLowerCase(), { cte: c, visible: new Map(map) });
  return map;
}

/** Runs a plan, converting errors to SqlError and releasing snapshots when the stream ends. */
async function* streamPlan(plan: PlanNode, xc: ExecContext): AsyncGenerator<Batch> {
  try {
    for await (const b of runPlan(plan, xc)) yield b;
  } catch (err) {
    throw asSqlError(err);
  } finally {
    releaseAll(xc);
  }
}

/**
 * `batches` with the vectors of NOT NULL result columns (plan/not_null_columns.ts) marked: their
 * readers show a stored NULL sentinel as its number. The same stream when no column is one.
 */
function withNotNull(batches: AsyncIterable<Batch>, flags: boolean[] | undefined): AsyncIterable<Batch> {
  if (!flags) return batches;
  return (async function* () {
    for await (const b of batches) {
      yield { ...b, columns: b.columns.map((c, i) => (flags[i] ? { ...c, notNull: true } : c)) };
    }
  })();
}

/** Yields `batches`, counting the statement as running until they end or are abandoned. */
async function* countedUntilDone(batches: AsyncIterable<Batch>): AsyncGenerator<Batch> {
  try {
    yield* batches;
  } finally {
    statementsRunning.count--;
  }
}

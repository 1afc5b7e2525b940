/**
 * A whole read-only statement on a worker heap (docs/parallel.md "Statements on the workers"):
 * the worker parses and plans the statement's text again against a read-only view of exactly
 * the committed table states the main thread took (their snapshot origins), checks that its
 * plan prints as the main thread's did (else it refuses and the main thread runs it), runs it
 * with the normal executor and streams its batches back, sending at most the credit the main
 * thread granted ahead of its consumer.
 *
 * Statements run beside the worker's morsel queue, not in it: their steps interleave with
 * morsels at the executor's turns (pace), and their pull and cancel messages are read while
 * they run. Operators that would hand morsels to the pool run on this heap alone (the
 * execution context has no pool), so a statement never waits on morsels queued to itself.
 */
import { asSqlError, SqlError } from "../base/errors.ts";
import { isAggregateName } from "../functions/registry.ts";
import { setAggregateNamePredicate } from "../plan/bind_expr.ts";
import { createRandom } from "../functions/random.ts";
import type { EvalContext } from "../functions/registry_types.ts";
import { parseStatement } from "../sql/parser.ts";
import { planQuery } from "../plan/plan_query.ts";
import { pruneColumns } from "../plan/prune_columns.ts";
import { explainPlan } from "../plan/explain.ts";
import type { PlanContext } from "../plan/plan_context.ts";
import type { ExecContext } from "../exec/exec_context.ts";
import { releaseAll } from "../exec/exec_context.ts";
import { runPlan } from "../exec/run_plan.ts";
import { bindParamIntervals } from "../exec/param_intervals.ts";
import { prepareSubqueries } from "../exec/subqueries.ts";
import type { Storage, Table, TableMeta } from "../storage/api.ts";
import type { ColumnCache } from "../storage/column_cache.ts";
import { Snapshot, type SnapshotHost, type SnapshotOrigin } from "../storage/snapshot.ts";
import { makeState } from "../storage/table_state.ts";
import { ObjectStore } from "../storage/object_store.ts";
import { decodeSymbolFile, type SymbolTable } from "../storage/symbol_dict.ts";
import { symbolFileName } from "../storage/dir_name.ts";
import { joinPath } from "../storage/_fs.ts";
import { BatchEncoder, fromWireValue } from "./batch_wire.ts";
import type { StatementReply, StatementRequest, StatementSpec } from "./statement_protocol.ts";
// The operators and functions engine.ts registers by importing them.
import "../exec/time_series_ops.ts";
import "../exec/lateral.ts";
import "../catalog/pg_catalog.ts";
import "../functions/pg_functions.ts";
import "../functions/pg_expandarray.ts";
import "../functions/pg_json.ts";

setAggregateNamePredicate(isAggregateName);

interface Running {
  credit: number;
  wake?: () => void;
  abort: AbortController;
}

const running = new Map<number, Running>();

type Post = (r: StatementReply, transfer?: ArrayBuffer[]) => void;

/** Handles one statement message; `cache` is the worker's column cache. */
export function onStatementMessage(req: StatementRequest, cache: ColumnCache, post: Post): void {
  if (req.kind === "stmtPull") {
    const r = running.get(req.id);
    if (!r) return;
    r.credit += req.credit;
    r.wake?.();
    return;
  }
  if (req.kind === "stmtCancel") {
    const r = running.get(req.id);
    if (!r) return;
    r.abort.abort();
    r.wake?.();
    return;
  }
  for (const prefix of req.forget) cache.forget(prefix);
  const r: Running = { credit: req.spec.credit, abort: new AbortController() };
  running.set(req.id, r);
  run(req.id, req.spec, r, cache, post).finally(() => running.delete(req.id));
}

async function run(
  id: number,
  spec: StatementSpec,
  r: Running,
  cache: ColumnCache,
  post: Post,
): Promise<void> {
  const storage = new ReadStorage(spec.tables, cache);
  const ec: EvalContext = {
    nowMicros: BigInt(spec.nowMicros),
    random: createRandom(),
    timeZone: spec.timeZone,
    user: spec.user,
    tableExists: (name) => storage.table(name) !== undefined,
    catalog: storage,
  };
  const xc: ExecContext = {
    storage,
    evalContext: ec,
    params: spec.params.map(fromWireValue),
    subqueries: new Map(),
    signal: r.abort.signal,
    deadline: spec.timeoutMs
      ? { at: performance.now() + spec.timeoutMs.left, timeoutMs: spec.timeoutMs.timeoutMs }
      : undefined,
    memory: { limit: spec.memoryBytes, used: 0 },
    snapshots: [],
    meta: {
      rowsOf: () => {
        throw new SqlError("catalog functions do not run on a worker", -1, "internal");
      },
    },
  };
  let plan;
  try {
    await storage.loadDictionaries();
    const stmt = parseStatement(spec.sql);
    if (stmt.kind !== "query") throw new Error(`not a query: ${stmt.kind}`);
    const pc: PlanContext = {
      storage,
      evalContext: ec,
      ctes: new Map(),
      legacyNames: spec.legacyNames,
      paramTypes: spec.paramTypes,
      meta: { columnsOf: () => undefined },
      catalog: storage,
      depth: 0,
      copyRoot: spec.copyRoot,
    };
    // Parameter conjuncts over the designated timestamp become intervals, as the main thread's
    // plan did before it was printed (exec/param_intervals.ts).
    plan = bindParamIntervals(pruneColumns(planQuery(stmt, pc)), xc);
    const lines = explainPlan(plan);
    if (lines.join("\n") !== spec.explain.join("\n")) {
      post({ kind: "stmtDeclined", id, reason: `plan differs: ${lines.join(" / ")}` });
      return;
    }
  } catch (err) {
    post({ kind: "stmtDeclined", id, reason: String((err as Error)?.message ?? err) });
    return;
  }
  const encoder = new BatchEncoder();
  try {
    await prepareSubqueries(plan, xc, runPlan);
    for await (const b of runPlan(plan, xc)) {
      if (b.rowCount === 0) continue;
      while (r.credit <= 0 && !r.abort.signal.aborted) await new Promise<void>((wake) => r.wake = wake);
      r.wake = undefined;
      // Cancelled: the main thread already answered its consumer and reads nothing more.
      if (r.abort.signal.aborted) return;
      r.credit--;
      const { batch, transfer } = encoder.encode(b);
      post({ kind: "stmtBatch", id, batch }, transfer);
    }
    if (!r.abort.signal.aborted) post({ kind: "stmtEnd", id });
  } catch (err) {
    if (r.abort.signal.aborted) return;
    const e = asSqlError(err);
    post({ kind: "stmtError", id, message: e.message, position: e.position, errorKind: e.kind });
  } finally {
    releaseAll(xc);
  }
}

/**
 * The tables of one statement, read-only, each at the committed state the main thread took:
 * every snapshot of a table opens that same state (a self-join reads one state twice).
 */
class ReadStorage implements Storage {
  readonly root = "";
  readonly #tables = new Map<string, ReadTable>();

  constructor(origins: Record<string, SnapshotOrigin>, readonly cache: ColumnCache) {
    for (const [name, origin] of Object.entries(origins)) {
      this.#tables.set(name, new ReadTable(origin, cache));
    }
  }

  async loadDictionaries(): Promise<void> {
    for (const t of this.#tables.values()) await t.loadDictionaries();
  }

  tables(): TableMeta[] {
    return [...this.#tables.values()].map((t) => t.meta);
  }

  table(name: string): Table | undefined {
    return this.#tables.get(name.toLowerCase()) as Table | undefined;
  }

  createTable(): never {
    throw readOnly();
  }
  dropTable(): never {
    throw readOnly();
  }
  renameTable(): never {
    throw readOnly();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function readOnly(): SqlError {
  return new SqlError("a statement on a worker heap cannot write", -1, "internal");
}

/** A table of ReadStorage: its meta and snapshots; every write refuses. */
class ReadTable {
  readonly meta: TableMeta;
  readonly txn: number;
  #dicts = new Map<number, SymbolTable>();

  constructor(readonly origin: SnapshotOrigin, readonly cache: ColumnCache) {
    this.meta = origin.meta;
    this.txn = origin.txn.txn;
  }

  async loadDictionaries(): Promise<void> {
    for (const col of this.meta.columns) {
      if (col.type.tag !== "SYMBOL") continue;
      this.#dicts.set(col.id, await dictionaryOf(this.origin, col.id));
    }
  }

  snapshot(): Snapshot {
    const o = this.origin;
    const host: SnapshotHost = {
      tablePath: o.tablePath,
      tableId: o.tableId,
      cache: this.cache,
      objectStore: o.objectStore ? new ObjectStore(o.objectStore) : undefined,
      released() {},
    };
    return new Snapshot(host, makeState(o.meta, 0, o.txn, this.#dicts));
  }
}

/**
 * Dictionaries read from their files, kept while the file is unchanged: entries are only
 * appended on commit (a longer file, a newer mtime), so a kept table holding at least the
 * committed count serves any state whose file has not been rewritten since.
 */
const dictCache = new Map<string, { table: SymbolTable; count: number; mtime: number; size: number }>();
const DICT_CACHE_MAX = 256;

async function dictionaryOf(origin: SnapshotOrigin, columnId: number): Promise<SymbolTable> {
  const count = origin.txn.symbolCounts[columnId] ?? 0;
  const path = joinPath(origin.tablePath, symbolFileName(columnId));
  const key = `${origin.tableId}/${path}`;
  let stat: Deno.FileInfo | undefined;
  try {
    stat = await Deno.stat(path);
  } catch {
    stat = undefined;
  }
  const mtime = stat?.mtime?.getTime() ?? -1, size = stat?.size ?? -1;
  const kept = dictCache.get(key);
  if (kept && kept.count >= count && kept.mtime === mtime && kept.size === size) return kept.table;
  if (count === 0 && !stat) return decodeSymbolFile(new Uint8Array(0), 0)!.table;
  const bytes = await Deno.readFile(path);
  // Every entry the file holds now (committed ones first): a later, larger state reuses it.
  const decoded = decodeSymbolFile(bytes, count);
  if (!decoded) throw new SqlError(`committed symbol entries are missing [file=${path}]`, -1, "io");
  if (dictCache.size >= DICT_CACHE_MAX) dictCache.delete(dictCache.keys().next().value!);
  dictCache.set(key, { table: decoded.table, count, mtime, size });
  return decoded.table;
}

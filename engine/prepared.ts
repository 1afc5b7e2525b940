/**
 * Prepared statements (Engine.prepare; issue #18): a statement parsed once, with the types of
 * its placeholders as the binder infers them and its result columns known without running it,
 * and — for queries — the plan of its first execution, reused by later executions while it
 * stays valid. A per-session cache keyed by SQL text (bounded, least recently used first out)
 * hands the same object to every Parse of the same text, as QuestDB's select cache does.
 *
 * When a cached plan is reused (see `planKey` and `reusablePlan` in engine.ts):
 * - the tables' metadata is unchanged: every table's frozen TableMeta is the same object
 *   (storage replaces it on CREATE/DROP/ALTER/RENAME/TRUNCATE and on ILP adding a column);
 * - the session time zone, the principal and the parameter types are those it was planned for,
 *   and access control is off (with it, a GRANT or REVOKE changes what the principal sees);
 * - planning read neither the clock nor the random generator (`ts IN today()`, `now()` folded
 *   into an interval, rnd_* folded as constants): such plans are made again at each execution.
 * Parameter values never reach the planner (it sees their types only), so they never force a
 * new plan: `ts > $1` stays a filter in the kept plan, and each execution turns it into the
 * scan's designated-timestamp intervals for its values (exec/param_intervals.ts), so a
 * prepared time window prunes partitions as the literal query does.
 */
import type { ColumnType } from "./base/types.ts";
import type { EvalContext } from "./functions/registry_types.ts";
import type { PlanNode } from "./plan/plan_node.ts";
import type * as A from "./sql/ast.ts";
import type { TableMeta } from "./storage/api.ts";
import { type StatementKind, statementKindOf } from "./statement_kind.ts";

export interface ColumnMeta {
  name: string;
  type: ColumnType;
  /** A cast to timestamptz (plan/timestamptz_columns.ts): shown in a listener's session zone. */
  timestamptz?: boolean;
}

/** A plan kept for reuse with what it was made for. */
export interface CachedPlan {
  plan: PlanNode;
  /** Time zone, user name and parameter types it was planned for. */
  key: string;
  schema: readonly TableMeta[];
  /** The eval context the plan's bound expressions captured: pointed at each execution's. */
  clock: ClockHolder;
}

export class PreparedStatement {
  /** The plan of the last execution, when it may be reused (queries only). */
  cachedPlan?: CachedPlan;

  constructor(
    /** The text as prepared (the engine's dialect). */
    readonly sql: string,
    /** Parsed once; undefined when it must be parsed per execution (PIVOT ... IN (SELECT)). */
    readonly statement: A.Statement,
    /** Per placeholder: declared by the client, else inferred by the binder, else undefined. */
    readonly paramTypes: (ColumnType | undefined)[],
    /**
     * Result columns without running it: queries, SHOW, EXPLAIN, INSERT ... RETURNING, COPY
     * TO a file; null when the statement answers with a command tag only.
     */
    readonly columns: ColumnMeta[] | null,
    /** Every table's metadata when prepared: the statement is prepared again when it differs. */
    readonly schema: readonly TableMeta[],
    /** PIVOT lists resolved by running a query rewrite the AST: parsed again per execution. */
    readonly reparse: boolean,
  ) {}

  /** True for statements whose result is rows. */
  get returnsRows(): boolean {
    return this.columns !== null;
  }

  /** What kind of statement it is (command tags, session statements: statement_kind.ts). */
  get kind(): StatementKind {
    return this.statement ? statementKindOf(this.statement) : "query";
  }
}

/** True when both lists hold the same TableMeta objects (metadata is frozen and replaced). */
export function sameSchema(a: readonly TableMeta[], b: readonly TableMeta[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Statements kept per session (pg.select.cache.capacity-like bound). */
export const STATEMENT_CACHE_CAPACITY = 64;

/** A session's prepared statements by SQL text and declared parameter types, LRU-bounded. */
export class StatementCache {
  readonly #entries = new Map<string, PreparedStatement>();
  readonly #capacity: number;

  constructor(capacity = STATEMENT_CACHE_CAPACITY) {
    this.#capacity = capacity;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): PreparedStatement | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, stmt: PreparedStatement): void {
    this.#entries.delete(key);
    this.#entries.set(key, stmt);
    while (this.#entries.size > this.#capacity) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  clear(): void {
    this.#entries.clear();
  }
}

/**
 * The eval context a plan is made with: reads go to `current` (the running execution's), and
 * reading the clock or the random generator while planning marks the plan as not reusable.
 */
export class ClockHolder {
  current: EvalContext;
  volatile = false;

  constructor(current: EvalContext) {
    this.current = current;
  }

  context(): EvalContext {
    // deno-lint-ignore no-this-alias
    const h = this;
    return {
      get nowMicros() {
        h.volatile = true;
        return h.current.nowMicros;
      },
      get random() {
        h.volatile = true;
        return h.current.random;
      },
      get timeZone() {
        return h.current.timeZone;
      },
      get user() {
        return h.current.user;
      },
      get catalog() {
        return h.current.catalog;
      },
      // The running execution's session cancels (activity.tryCancel), not the planning one's.
      get cancelQuery() {
        return h.current.cancelQuery;
      },
      tableExists: (name: string) => h.current.tableExists?.(name) ?? false,
    } as EvalContext;
  }
}

/**
 * QuestDB's server catalogue functions, with QuestDB's columns and this server's own state:
 * functions() (FunctionListFunctionFactory), memory_metrics() (MemoryMetricsRecordCursorFactory),
 * reader_pool() and writer_pool() (ReaderPool/WriterPoolRecordCursorFactory), views() and
 * materialized_views() (ViewsFunctionFactory, MatViewsFunctionFactory).
 *
 * What has no counterpart here is empty rather than invented: no reader or writer is pooled (a
 * query reads a snapshot, a commit writes and closes), and views are refused (docs/sql.md), so
 * those lists have no rows. functions() lists this server's registry; the registry declares no
 * QuestDB signatures (arguments are checked when a call is bound), so both signature columns are
 * NULL. memory_metrics() has no QuestDB memory tags: TOTAL_USED is the WebAssembly heap (the
 * memory outside the JavaScript heap that holds the column cache), RSS the process's resident
 * set, then the column cache and the JavaScript heap under their own names.
 */
import type { Value } from "../base/values.ts";
import { wasmMemory } from "../../engine-wasm/mod.ts";
import { functionNames, lookupAggregate, lookupScalar } from "../functions/registry.ts";
import { RUNTIME_CONSTANTS } from "../plan/bind_expr.ts";
import type { ColumnCache } from "../storage/column_cache.ts";
import type { Storage } from "../storage/api.ts";
import { cols } from "./pg_catalog_define.ts";
import { metaTableNames, registerMetaTable } from "./meta_tables.ts";

/** Rows of functions(): one per function kind a name has (a name may be scalar and aggregate). */
function functionRows(): Value[][] {
  const rows: Value[][] = [];
  for (const name of functionNames()) {
    if (lookupScalar(name)) rows.push([name, null, null, RUNTIME_CONSTANTS.has(name), "STANDARD"]);
    if (lookupAggregate(name)) rows.push([name, null, null, false, "GROUP_BY"]);
  }
  // Table functions: the catalogue generators callable as `name()` in FROM.
  const cursors = metaTableNames().filter((n) =>
    /^[a-z_][a-z0-9_]*$/.test(n) && !rows.some((r) => r[0] === n)
  );
  for (const name of [...new Set(cursors)].sort()) rows.push([name, null, null, false, "CURSOR"]);
  return rows;
}

function memoryRows(storage: Storage): Value[][] {
  const cache = (storage as { cache?: ColumnCache }).cache;
  const usage = Deno.memoryUsage();
  return [
    ["TOTAL_USED", BigInt(wasmMemory().buffer.byteLength)],
    ["RSS", BigInt(usage.rss)],
    ["COLUMN_CACHE", BigInt(cache?.residentBytes ?? 0)],
    ["JS_HEAP", BigInt(usage.heapUsed)],
  ];
}

export function registerServerMeta(): void {
  registerMetaTable(
    "functions",
    cols("name signature signature_translated runtime_constant:BOOLEAN type"),
    functionRows,
  );
  registerMetaTable("memory_metrics", cols("memory_tag bytes:LONG"), memoryRows);
  registerMetaTable(
    "reader_pool",
    cols("table_name owner_thread_id:LONG last_access_timestamp:TIMESTAMP current_txn:LONG"),
    () => [],
  );
  registerMetaTable(
    "writer_pool",
    cols("table_name owner_thread_id:LONG last_access_timestamp:TIMESTAMP ownership_reason"),
    () => [],
  );
  registerMetaTable(
    "views",
    cols(
      "view_name view_sql view_table_dir_name invalidation_reason view_status view_status_update_time:TIMESTAMP",
    ),
    () => [],
  );
  registerMetaTable(
    "materialized_views",
    cols(
      `view_name refresh_type base_table_name last_refresh_start_timestamp:TIMESTAMP
      last_refresh_finish_timestamp:TIMESTAMP view_sql view_table_dir_name invalidation_reason view_status
      refresh_period_hi:TIMESTAMP refresh_base_table_txn:LONG base_table_txn:LONG refresh_limit:INT
      refresh_limit_unit timer_time_zone timer_start:TIMESTAMP timer_interval:INT timer_interval_unit
      period_length:INT period_length_unit period_delay:INT period_delay_unit`,
    ),
    () => [],
  );
}

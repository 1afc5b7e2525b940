/**
 * COPY as a SQL statement (REST, the console, pgwire when the target is a file name):
 * `COPY table | (query) TO 'dest' WITH FORMAT PARQUET ...` exports (engine/parquet/copy_export.ts);
 * pgwire answers `COPY ... FROM STDIN / TO STDOUT` itself (server/pg/copy_statement.ts).
 */
import { SqlError } from "../base/errors.ts";
import type { Batch } from "../base/values.ts";
import type * as A from "../sql/ast.ts";
import { parseStatement } from "../sql/parser.ts";
import type { Storage } from "../storage/api.ts";
import type { PlanNode } from "../plan/plan_node.ts";
import { checkExportDest, runCopyExport } from "../parquet/copy_export.ts";
import { copyExportOptions } from "../parquet/copy_options.ts";
import type { ParquetWriteOptions } from "../parquet/writer.ts";

export interface CopyToDeps {
  storage: Storage;
  /** cairo.sql.copy.export.root; "" when set blank (COPY TO disabled). */
  exportRoot: string;
  defaults: ParquetWriteOptions;
  plan: (q: A.Query) => PlanNode;
  run: (plan: PlanNode) => AsyncIterable<Batch>;
}

/** Runs a COPY statement; returns the export id. */
export async function copyStatement(stmt: A.CopyStmt, deps: CopyToDeps): Promise<string> {
  if (stmt.target === "stdin" || stmt.target === "stdout") {
    throw new SqlError(
      `copy ${stmt.direction} ${stmt.target.toUpperCase()} is only supported over the Postgres wire protocol`,
      stmt.targetPos ?? stmt.pos,
    );
  }
  if (stmt.direction === "from") {
    throw new SqlError("COPY FROM a server file is not supported, use /imp or COPY FROM STDIN", stmt.pos);
  }
  const options = copyExportOptions(stmt, deps.defaults);
  const dest = stmt.target.file;
  checkExportDest(deps.exportRoot, dest, stmt.targetPos ?? stmt.pos);
  let query: A.Query;
  let tableName = "query";
  let defaultPartitionBy: A.PartitionUnit = "NONE";
  if (stmt.table) {
    const t = deps.storage.table(stmt.table.name);
    if (!t) throw new SqlError(`table does not exist [table=${stmt.table.name}]`, stmt.table.pos);
    if (stmt.columns) {
      throw new SqlError("a column list is not supported in COPY ... TO a file", stmt.table.pos);
    }
    tableName = t.meta.name;
    defaultPartitionBy = t.meta.partitionBy;
    query = parseStatement(`SELECT * FROM "${t.meta.name}"`) as A.Query;
  } else {
    query = stmt.query!;
  }
  const plan = deps.plan(query);
  const result = await runCopyExport(
    deps.exportRoot,
    dest,
    {
      tableName,
      columns: plan.columns.map((c) => ({ name: c.name, type: c.type })),
      timestampIndex: plan.timestampIndex,
      defaultPartitionBy,
      ordered: stmt.table !== undefined,
      batches: () => deps.run(plan),
    },
    options,
    deps.storage.root,
  );
  return result.id;
}

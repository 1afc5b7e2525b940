/**
 * A portal: a prepared statement bound to parameter values and result formats (Bind), run on
 * first Describe or Execute and then read in slices (Execute with max rows, PortalSuspended;
 * spec/protocols.md §12.5). Describe of a portal starts it (Execute then goes on from there):
 * its columns are those rows are sent with, timestamptz casts in the session zone included.
 * The statement is the engine's prepared one: parsed and planned once (Engine.prepare).
 */
import type { ColumnType, Value } from "../../engine/mod.ts";
import type { PreparedStatement } from "./prepared_statement.ts";
import { resultFormats, RowCursor } from "./row_cursor.ts";
import type { StatementResult } from "./run_statement.ts";

export class Portal {
  readonly name: string;
  readonly statement: PreparedStatement;
  readonly params: Value[];
  /** Types of parameters whose value alone does not say it (decode_param.ts `decodedParamType`). */
  readonly paramTypes: (ColumnType | undefined)[];
  readonly requestedFormats: number[];
  /** Set once the statement ran. */
  cursor?: RowCursor;
  /** Command tag of a statement without rows, once it ran. */
  tag?: string;
  /** Row result kind tag (SELECT / EXPLAIN). */
  rowsTag = "SELECT";

  constructor(
    name: string,
    statement: PreparedStatement,
    params: Value[],
    requestedFormats: number[],
    paramTypes: (ColumnType | undefined)[] = [],
  ) {
    this.name = name;
    this.statement = statement;
    this.params = params;
    this.paramTypes = paramTypes;
    this.requestedFormats = requestedFormats;
  }

  get started(): boolean {
    return this.cursor !== undefined || this.tag !== undefined;
  }

  /** Takes the statement's result (once). */
  accept(result: StatementResult): void {
    if (result.kind === "rows") {
      this.cursor = new RowCursor(
        result.columns,
        result.batches,
        resultFormats(result.columns, this.requestedFormats),
      );
      this.rowsTag = result.tag;
    } else {
      this.tag = result.tag;
    }
  }

  async close(): Promise<void> {
    await this.cursor?.close();
  }
}

/**
 * twap(price, ts) reads its rows as a step function in time, so it needs them in ascending
 * designated-timestamp order (spec/sql.md §13.2: "ts must be the designated timestamp"). QuestDB
 * refuses the call at the function name when the second argument is not the input's designated
 * timestamp (an ordinary column, a table without one, a converting cast such as
 * `ts::timestamp_ns`) and when the input delivers the rows in another order (a descending scan, a
 * sort by another column re-labelled with `timestamp(ts)`), rather than answer with a plain
 * average (TwapGroupByFunctionFactoryTest#testTwapRejectsNonDesignatedTimestamp,
 * #testTwapRejectsConvertingTimestampCast, #testTwapRejectsDescendingScan,
 * #testTwapRejectsOrderByNonTimestampSubquery).
 */
import { SqlError } from "../base/errors.ts";
import type * as A from "../sql/ast.ts";
import type { BoundExpr } from "./bound.ts";
import type { PlanNode } from "./plan_node.ts";
import { descendingTimestamp } from "./descending_timestamp.ts";
import type { Scope } from "./scope.ts";

/** What a twap() call is checked against: its bound arguments and the rows it aggregates. */
export interface TwapInput {
  args: BoundExpr[];
  scope: Scope;
  input: PlanNode;
}

/** Throws QuestDB's twap() refusals; any other aggregate passes untouched. */
export function checkTwapArgs(call: A.FunctionCall, { args, scope, input }: TwapInput): void {
  if (call.name.toLowerCase() !== "twap" || args.length !== 2) return;
  const ts = args[1];
  // `ORDER BY ts DESC` leaves no designated timestamp in our plan, where QuestDB keeps it and
  // scans backwards: the order is what QuestDB reports (testTwapRejectsDescendingScan).
  if (ts.kind === "column" && ts.index === descendingTimestamp(input)) throw outOfOrder(call);
  if (ts.kind !== "column" || scope.timestampIndex < 0 || ts.index !== scope.timestampIndex) {
    throw new SqlError("twap() requires the table's designated timestamp as the second argument", call.pos);
  }
  if (!ascendingByTimestamp(input)) throw outOfOrder(call);
}

function outOfOrder(call: A.FunctionCall): SqlError {
  return new SqlError(
    "twap() requires the base query to provide ascending designated timestamp order",
    call.pos,
  );
}

/**
 * Whether the rows come in ascending designated-timestamp order, as far as the plan shows: a
 * table scan read forwards, or a sort whose first key is the designated timestamp ascending.
 * Row-preserving nodes pass the question down; any other source (joins, aggregates, generated
 * rows) is trusted, as its designated timestamp is.
 */
function ascendingByTimestamp(node: PlanNode): boolean {
  switch (node.kind) {
    case "scan":
      return !node.reverse;
    case "sort": {
      const first = node.keys[0];
      return first !== undefined && !first.desc && first.index === node.timestampIndex;
    }
    case "filter":
    case "project":
    case "limit":
      return ascendingByTimestamp(node.input);
    default:
      return true;
  }
}

/**
 * Argument checks of lag() and lead() (spec/sql.md §12), with QuestDB's messages and positions
 * (WindowFunctionTest#testLeadException): `lead(d, i)`, `lead(d, -1)`, `lead(d, 1, s)` with text
 * `s` for a DOUBLE, and a fourth argument all fail at the argument at fault.
 */
import { SqlError } from "../base/errors.ts";
import { type ColumnType, isStringLike, typeName } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { type BoundExpr, isConst } from "./bound.ts";

export function checkLagLeadArgs(call: A.FunctionCall, args: BoundExpr[], type: ColumnType): void {
  if (args.length > 3) throw new SqlError("too many arguments", call.args[3].pos);
  if (args.length > 1) {
    const offset = args[1];
    if (!isConst(offset)) throw new SqlError("offset must be a constant", call.args[1].pos);
    if (offset.value !== null && Number(offset.value) < 0) {
      throw new SqlError("offset must be a positive integer", call.args[1].pos);
    }
  }
  // A SYMBOL lag/lead keeps its argument's dictionary, which has no key for a default value:
  // QuestDB takes only NULL there (LagLeadSymbolTest#testRejectsNonNullSymbolDefault).
  if (args.length > 2 && type.tag === "SYMBOL" && !(isConst(args[2]) && args[2].value === null)) {
    throw new SqlError(
      `non-null default value is not supported for symbol ${call.name.toLowerCase()}`,
      call.args[2].pos,
    );
  }
  if (args.length > 2 && isStringLike(args[2].type) && !isStringLike(type)) {
    throw new SqlError(
      `default value must be can cast to ${typeName(type).toLowerCase()}`,
      call.args[2].pos,
    );
  }
}

/**
 * PostgreSQL's set-returning functions over values known only when the statement runs, as
 * catalog queries of drivers use them (issue #18): `unnest(vector)` and
 * `generate_subscripts(vector, 1)` (SQLAlchemy's primary-key reflection, psql's `\d`),
 * `generate_series(a, b)` with column or correlated bounds (pgjdbc's getImportedKeys). In FROM
 * they are a `setFunction` node whose arguments are evaluated when it runs, so they may read a
 * LATERAL or correlated subquery's outer row. Several calls in one node are zipped, as
 * PostgreSQL does for set-returning functions in one select list (sql/pg_select_srf.ts):
 * the longest gives the row count, the shorter ones are NULL past their end.
 * Arrays here are PostgreSQL's text form (functions/pg_text_arrays.ts): a catalog vector's
 * elements are INT, a text array's STRING.
 */
import { SqlError } from "../base/errors.ts";
import { arrayType, type ColumnType, isIntegral, T, typeName } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import { catalogTypeOid } from "../catalog/pg_catalog_define.ts";
import { seriesType } from "../exec/generate_series.ts";
import { bindExpr, typeFromSpec, UNNEST_IN_EXPRESSION } from "./bind_expr.ts";
import type { PlanContext } from "./plan_context.ts";
import { type PlanNode, type SetCall, shape } from "./plan_node.ts";
import { bindContext } from "./plan_select.ts";
import { Scope } from "./scope.ts";

/** The synthetic call holding the zipped calls of one select list (pg_select_srf.ts). */
export const ZIPPED_SET_FUNCTIONS = "pg_zipped_set_functions";

const NAMES = new Set(["unnest", "generate_subscripts", "generate_series"]);

/** The set-returning function `name` stands for (schema dropped), or undefined. */
export function setFunctionName(name: string): SetCall["name"] | undefined {
  const n = name.toLowerCase().replace(/^pg_catalog\./, "");
  return NAMES.has(n) ? n as SetCall["name"] : undefined;
}

const TEXT_TAGS = new Set(["STRING", "VARCHAR", "NULL"]);

/** Binds one call: its arguments (evaluated per run) and its column's type. */
export function bindSetCall(call: A.FunctionCall, pc: PlanContext): SetCall {
  const name = setFunctionName(call.name)!;
  const ctx = bindContext(new Scope([]), pc, name);
  const args = call.args.map((a) => bindExpr(a, ctx));
  const textArg = (i: number) => {
    if (!TEXT_TAGS.has(args[i].type.tag)) {
      throw new SqlError(
        `${name} expects an array (PostgreSQL array text), found ${args[i].type.tag}`,
        call.args[i].pos,
      );
    }
  };
  switch (name) {
    case "unnest": {
      // A DOUBLE array in a select list: QuestDB's UNNEST belongs in FROM.
      if (args.some((a) => a.type.tag === "ARRAY")) throw new SqlError(UNNEST_IN_EXPRESSION, call.pos);
      if (args.length !== 1) throw new SqlError("unnest expects one array", call.pos);
      textArg(0);
      const vector = catalogTypeOid(args[0].type) !== undefined;
      return { name, args, type: vector ? T.INT : T.STRING, vector };
    }
    case "generate_subscripts": {
      if (args.length !== 2) throw new SqlError("generate_subscripts expects (array, dimension)", call.pos);
      textArg(0);
      if (!isIntegral(args[1].type)) throw new SqlError("dimension must be an integer", call.args[1].pos);
      return { name, args, type: T.INT, vector: false };
    }
    case "generate_series": {
      // The type from the argument types alone (values are read at run time).
      if (args.length < 2 || args.length > 3) {
        throw new SqlError("generate_series expects 2 or 3 arguments", call.pos);
      }
      const type: ColumnType = seriesType(args.map((a) => a.type));
      return { name, args, type, vector: false };
    }
    default:
      throw new SqlError(`unknown set-returning function ${name}`, call.pos);
  }
}

/** A `setFunction` node for the calls (one, or the zipped calls of a select list). */
export function setFunctionNode(calls: SetCall[], names: string[]): PlanNode {
  return { ...shape(calls.map((c, i) => ({ name: names[i], type: c.type }))), kind: "setFunction", calls };
}

/** The COLUMNS(...) types JSON UNNEST reads (docs query/sql/unnest.md#supported-column-types). */
const JSON_UNNEST_TYPES = new Set(["BOOLEAN", "SHORT", "INT", "LONG", "DOUBLE", "VARCHAR", "TIMESTAMP"]);

/**
 * QuestDB's UNNEST (UnnestTest, docs query/sql/unnest.md): `UNNEST(arr, ...)` over DOUBLE arrays
 * gives one row per element of the first dimension (DOUBLE, or an array of one dimension less),
 * columns `value` (one source) or `value1`, `value2`, ... zipped with NULL past a shorter array;
 * `text COLUMNS(name TYPE, ...)` reads a JSON array's elements, a column per field (the element
 * itself when it is a scalar and one field is declared), converted as json_extract()::TYPE does;
 * `WITH ORDINALITY` adds a LONG `ordinality` column counting from 1. Column aliases rename the
 * columns in order. Undefined when the call is PostgreSQL's unnest of a text array instead.
 */
export function bindQuestDbUnnest(src: A.FunctionSource, pc: PlanContext): PlanNode | undefined {
  const call = src.call;
  const ctx = bindContext(new Scope([]), pc, "unnest");
  const args = call.args.map((a) => bindExpr(a, ctx));
  const json = src.unnestColumns ?? [];
  // PostgreSQL's unnest takes only array text; anything else is QuestDB's (and its errors).
  if (!src.ordinality && !json.some((c) => c) && args.every((a) => TEXT_TAGS.has(a.type.tag))) {
    return undefined;
  }
  if (args.length === 0) throw new SqlError("UNNEST expects at least one argument", call.pos);
  const calls: SetCall[] = [];
  const names: string[] = [];
  args.forEach((arg, i) => {
    const fields = json[i];
    if (fields) {
      if (!TEXT_TAGS.has(arg.type.tag)) {
        throw new SqlError(`VARCHAR expected for JSON UNNEST, got ${typeName(arg.type)}`, call.args[i].pos);
      }
      for (const f of fields) {
        const type = typeFromSpec(f.type);
        if (!JSON_UNNEST_TYPES.has(type.tag)) {
          throw new SqlError(`unsupported type for JSON UNNEST: ${typeName(type)}`, f.type.pos);
        }
        // One declared field reads a scalar element itself (`vector` marks it so).
        calls.push({
          name: "unnest_json",
          args: [arg],
          type,
          vector: fields.length === 1,
          path: f.name,
        });
        names.push(f.name);
      }
      return;
    }
    if (arg.type.tag !== "ARRAY") {
      throw new SqlError(`array type expected in UNNEST, got ${typeName(arg.type)}`, call.args[i].pos);
    }
    const dims = arg.type.dims ?? 1;
    calls.push({
      name: "unnest_array",
      args: [arg],
      type: dims > 1 ? arrayType(dims - 1) : T.DOUBLE,
      vector: false,
    });
    names.push(args.length === 1 ? "value" : `value${i + 1}`);
  });
  if (src.ordinality) {
    calls.push({ name: "ordinality", args: [], type: T.LONG, vector: false });
    names.push("ordinality");
  }
  const aliases = src.columnAliases ?? [];
  if (aliases.length > names.length) {
    throw new SqlError(
      "too many column aliases for UNNEST",
      src.columnAliasPositions?.[names.length] ?? src.pos,
    );
  }
  aliases.forEach((a, i) => names[i] = a);
  return setFunctionNode(calls, names);
}

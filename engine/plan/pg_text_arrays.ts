/**
 * Casts to PostgreSQL array types other than DOUBLE[] (`proargtypes::int[]`, `x::oid[]`,
 * `'{a,b}'::text[]`; DataGrip's and pgjdbc's catalog queries send them). The engine's arrays
 * hold DOUBLE elements only (§22.1); every other array here is PostgreSQL's text form, as the
 * catalog's vectors are (`pg_proc.proargtypes`, `pg_index.indkey`), which the pg_* functions
 * and subscripts read (pg_functions.ts, bind_array.ts). So a cast of text to such an array
 * keeps the text; a cast of anything else is refused, as the column type INT[] is.
 */
import { SqlError } from "../base/errors.ts";
import { typeName } from "../base/types.ts";
import type * as A from "../sql/ast.ts";
import type { BoundExpr } from "./bound.ts";

const TEXT_TAGS = new Set(["STRING", "VARCHAR", "SYMBOL", "NULL"]);

/** True for a cast to an array whose elements are not DOUBLE. */
export function isTextArrayCast(spec: A.TypeSpec): boolean {
  return spec.arrayDims !== undefined && spec.arrayDims > 0 && spec.name !== "DOUBLE";
}

/** `arg::elem[]`: the text itself for text (a PostgreSQL array literal), else an error at `pos`. */
export function textArrayCast(arg: BoundExpr, spec: A.TypeSpec, pos: number): BoundExpr {
  if (TEXT_TAGS.has(arg.type.tag)) return arg;
  throw new SqlError(
    `cannot cast ${typeName(arg.type)} to ${spec.text}: only DOUBLE[] is supported as an array type, ` +
      "other arrays are PostgreSQL array text",
    pos,
  );
}

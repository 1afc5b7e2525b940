/**
 * `(information_schema._pg_expandarray(v)).n` / `.x`: PostgreSQL's set-returning function that
 * yields one (x, n) row per element of an array, read with a field selection in a select list
 * (pgjdbc's getIndexInfo numbers index keys so). The engine has no set-returning functions in
 * a select list, so the parser reads `(f(args)).field` as the call `f.field(args)`
 * (parse_primary.ts) and these answer it for a vector of exactly one element — every index
 * here has one key column; any other length is refused rather than answered wrongly.
 * Vectors are the catalog's text (`'3'`, `'{3}'`), read as pg_functions.ts reads them.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import type { Value } from "../base/values.ts";
import { arrayElement, arrayElements } from "./pg_functions.ts";
import { registerScalar } from "./registry.ts";
import type { ScalarBinding } from "./registry_types.ts";

/** The single element's subscript `lower` of vector `v`, or an error for other lengths. */
function single(v: Value): { text: string; lower: number } {
  const { items, lower } = arrayElements(String(v));
  if (items.length !== 1) {
    throw new SqlError(
      `_pg_expandarray over ${items.length} elements is not supported (set-returning functions in a select list)`,
      -1,
    );
  }
  return { text: String(v), lower };
}

const FIELDS: Record<string, ScalarBinding> = {
  n: { returns: T.INT, eval: ([v]) => (v === null ? null : (single(v), 1)) },
  x: {
    returns: T.INT,
    eval: ([v]) => {
      if (v === null) return null;
      const { text, lower } = single(v);
      return arrayElement(text, lower);
    },
  },
};

/**
 * `_pg_expandarray(v)` on its own (pgjdbc's getPrimaryKeys selects it `AS keys` in a derived
 * table, then reads `(keys).x`): its one (x, n) row, kept as the vector itself, which the
 * fields above read (parse_primary.ts turns `(column).x` into `_pg_expandarray.x(column)`).
 */
const ROW: ScalarBinding = {
  returns: T.STRING,
  eval: ([v]) => (v === null ? null : single(v).text),
};

for (const schema of ["", "information_schema.", "pg_catalog."]) {
  registerScalar({
    name: `${schema}_pg_expandarray`,
    bind: (args) => args.length === 1 ? ROW : "_pg_expandarray expects one array",
  });
}

for (const [field, binding] of Object.entries(FIELDS)) {
  for (const schema of ["", "information_schema.", "pg_catalog."]) {
    registerScalar({
      name: `${schema}_pg_expandarray.${field}`,
      bind: (args) => args.length === 1 ? binding : "_pg_expandarray expects one array",
    });
  }
}

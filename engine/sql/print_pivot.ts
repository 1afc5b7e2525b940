/** SQL text of a PIVOT / UNPIVOT source (ast_pivot.ts), parsing back to the same tree. */
import type { Source, SubquerySource } from "./ast.ts";
import { limitToText, queryToText } from "./print_query.ts";
import { exprToSql as x, identToText, orderItemsToText, quoteString } from "./printer.ts";

/** `source PIVOT (...)`: the source is the one the parser wrapped in `SELECT * FROM source`. */
export function pivotToText(s: SubquerySource, sourceToText: (s: Source) => string): string {
  const body = s.query.body;
  const inner = body.kind === "select" && body.from
    ? sourceToText(body.from.first)
    : `(${queryToText(s.query)})`;
  const alias = (a: string | undefined) => (a === undefined ? "" : ` AS ${identToText(a)}`);
  if (s.pivot) {
    const pv = s.pivot;
    const aggs = pv.aggregates.map((a) => x(a.expr) + alias(a.alias)).join(", ");
    const fors = pv.fors.map((f) => {
      const list = f.query
        ? queryToText(f.query)
        : (f.values ?? []).map((v) =>
          x(v.expr) + (v.alias === undefined ? "" : ` AS ${quoteString(v.alias)}`)
        )
          .join(", ");
      return `${x(f.expr)} IN (${list})`;
    }).join(" ");
    const group = pv.groupBy.length ? ` GROUP BY ${pv.groupBy.map(x).join(", ")}` : "";
    const order = pv.orderBy ? ` ORDER BY ${orderItemsToText(pv.orderBy)}` : "";
    const limit = pv.limit ? ` ${limitToText(pv.limit)}` : "";
    return `${inner} PIVOT (${aggs} FOR ${fors}${group}${order}${limit})`;
  }
  const up = s.unpivot!;
  const cols = up.columns.map((c) => identToText(c.name) + alias(c.alias)).join(", ");
  const nulls = up.includeNulls ? " INCLUDE NULLS" : "";
  return `${inner} UNPIVOT${nulls} (${identToText(up.valueColumn)} FOR ${
    identToText(up.nameColumn)
  } IN (${cols}))`;
}

/**
 * `GET /api/v1/sql/validate?query=` (spec/console.md §1.2): checks a statement without running
 * it, for the console's live error markers. A query answers `{query, columns, timestamp}`, any
 * other statement `{query, queryType}` (its first keyword, so a share link can name the writes
 * before anything runs), and an error `{query, error, position}` with the status /exec uses.
 */
import { type Engine, type Session, typeName } from "../../engine/mod.ts";
import { errorBody, jsonResponse, statusOf, toSqlError } from "./errors.ts";
import { type Params, text } from "./query_params.ts";

export function handleValidate(params: Params, engine: Engine, session: Session): Response {
  const query = (text(params, "query") ?? "").replace(/[\s;]+$/, "");
  try {
    const columns = engine.describe(query, session);
    if (columns.length > 0) {
      return jsonResponse(JSON.stringify({
        query,
        columns: columns.map((c) => ({ name: c.name, type: typeName(c.type) })),
        timestamp: -1,
      }));
    }
    const queryType = (/^\s*([A-Za-z_]+)/.exec(query)?.[1] ?? "").toUpperCase();
    return jsonResponse(JSON.stringify({ query, queryType }));
  } catch (err) {
    const e = toSqlError(err);
    return jsonResponse(errorBody(query, e), statusOf(e));
  }
}

/**
 * Comma joins of catalog relations, for sql_rewrite.ts. psqlODBC lists its catalog relations
 * `FROM pg_attribute ta, pg_attribute ia, pg_class tc, pg_index i, ...` and joins them in
 * WHERE; the engine runs a comma list as a cross product and filters after, which for two
 * pg_attribute scans is far too large. The same query with `JOIN ... ON` is planned as
 * equi-joins, so the WHERE conjuncts that connect the relations move into ON clauses:
 * `FROM a, b, c WHERE a.x = b.y AND b.z = c.w AND a.k = 1` becomes
 * `FROM a JOIN b ON a.x = b.y JOIN c ON b.z = c.w WHERE a.k = 1` (inner joins: the same rows).
 * Only a top-level SELECT whose FROM is a plain list of relations and whose WHERE is a chain
 * of ANDs is touched; anything else is returned unchanged.
 */
import type { SqlToken } from "./sql_tokens.ts";

/** Words that end a WHERE clause at depth 0. */
const WHERE_END = new Set([
  "group",
  "order",
  "limit",
  "having",
  "union",
  "except",
  "intersect",
  "window",
  "offset",
]);

interface Item {
  text: string;
  alias: string;
}

/** The FROM items in tokens [from, to): `[schema.]name [[AS] alias]` each, or undefined. */
function fromItems(sql: string, tokens: SqlToken[], from: number, to: number): Item[] | undefined {
  const items: Item[] = [];
  let start = from;
  for (let j = from; j <= to; j++) {
    if (j < to && tokens[j].text !== ",") continue;
    const words = tokens.slice(start, j);
    if (words.length === 0) return undefined;
    const names = words.filter((t) => t.text !== ".");
    if (!names.every((t) => t.kind === "word" || t.kind === "quoted")) return undefined;
    let k = 0;
    if (words[1]?.text === ".") k = 2;
    const rest = words.slice(k + 1).filter((t) => t.lower !== "as");
    if (rest.length > 1 || words.slice(k + 1).some((t) => t.text === ".")) return undefined;
    items.push({
      text: sql.slice(words[0].pos, words.at(-1)!.pos + words.at(-1)!.text.length),
      alias: (rest[0] ?? words[k]).lower,
    });
    start = j + 1;
  }
  return items;
}

/** Returns `sql` with its comma joins written as JOIN ... ON, or unchanged. */
export function commaJoins(sql: string, tokens: SqlToken[]): string {
  let depth = 0, fromAt = -1, whereAt = -1, end = tokens.length;
  for (let j = 0; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    else if (depth !== 0 || t.kind !== "word") continue;
    else if (t.lower === "from" && fromAt < 0) fromAt = j;
    else if (t.lower === "where" && fromAt >= 0 && whereAt < 0) whereAt = j;
    else if (WHERE_END.has(t.lower) && whereAt >= 0) {
      end = j;
      break;
    } else if (whereAt >= 0 && (t.lower === "or" || t.lower === "between")) return sql;
  }
  if (tokens[0]?.lower !== "select" || fromAt < 0 || whereAt < 0) return sql;
  if (tokens.slice(fromAt + 1, whereAt).some((t) => t.text === "(" || t.lower === "join")) return sql;
  const items = fromItems(sql, tokens, fromAt + 1, whereAt);
  if (!items || items.length < 3) return sql;
  const aliases = new Set(items.map((i) => i.alias));
  if (aliases.size !== items.length) return sql;
  // The WHERE conjuncts with the aliases each names (`alias.column`).
  const conjuncts: { text: string; refs: Set<string> }[] = [];
  let start = whereAt + 1;
  depth = 0;
  for (let j = whereAt + 1; j <= end; j++) {
    const t = tokens[j];
    if (t?.text === "(") depth++;
    else if (t?.text === ")") depth--;
    if (j < end && (depth !== 0 || t.lower !== "and")) continue;
    if (j === start) return sql;
    const refs = new Set<string>();
    for (let k = start; k < j; k++) {
      if (tokens[k + 1]?.text === "." && aliases.has(tokens[k].lower)) refs.add(tokens[k].lower);
    }
    conjuncts.push({
      text: sql.slice(tokens[start].pos, tokens[j - 1].pos + tokens[j - 1].text.length),
      refs,
    });
    start = j + 1;
  }
  // Greedy: join next the first relation some conjunct connects to those already joined.
  const joined = new Set([items[0].alias]);
  let from = items[0].text;
  const pending = items.slice(1);
  while (pending.length) {
    const k = pending.findIndex((item) => conjuncts.some((c) => connects(c.refs, joined, item.alias)));
    if (k < 0) return sql;
    const item = pending.splice(k, 1)[0];
    const on = conjuncts.filter((c) => connects(c.refs, joined, item.alias));
    for (const c of on) conjuncts.splice(conjuncts.indexOf(c), 1);
    joined.add(item.alias);
    from += ` JOIN ${item.text} ON ${on.map((c) => c.text).join(" AND ")}`;
  }
  const where = conjuncts.length ? conjuncts.map((c) => c.text).join(" AND ") : "true";
  const tail = end < tokens.length ? " " + sql.slice(tokens[end].pos) : "";
  return `${sql.slice(0, tokens[fromAt].pos)}FROM ${from} WHERE ${where}${tail}`;
}

/** True when a conjunct naming `refs` joins `alias` to relations all in `joined`. */
function connects(refs: Set<string>, joined: Set<string>, alias: string): boolean {
  if (!refs.has(alias) || refs.size < 2) return false;
  for (const r of refs) if (r !== alias && !joined.has(r)) return false;
  return true;
}

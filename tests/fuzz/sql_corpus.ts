/**
 * Seed statements for mutation fuzzing: the QuestDB conformance sample's setup and queries and
 * every statement of the sqllogic files, so mutations start from forms the dialect really has.
 */
const here = new URL(".", import.meta.url);

/** Seed statements, and the conformance setups to run first so the seeds' tables exist. */
export async function seedStatements(): Promise<{ seeds: string[]; setups: string[] }> {
  const out: string[] = [];
  const setups: string[] = [];
  // The repository's copy of the shared conformance sample (tests/fixtures/README.md).
  const conformance = new URL("../fixtures/conformance/", here);
  for await (const f of Deno.readDir(conformance)) {
    if (!f.name.endsWith(".jsonl")) continue;
    for (const line of (await Deno.readTextFile(new URL(f.name, conformance))).split("\n")) {
      if (!line.trim()) continue;
      const c = JSON.parse(line) as { setup?: string[]; query?: string };
      out.push(...(c.setup ?? []));
      setups.push(...(c.setup ?? []));
      if (c.query) out.push(c.query);
    }
  }
  for (const dir of ["../sql/core/", "../sql/time_series/"]) {
    const base = new URL(dir, here);
    for await (const f of Deno.readDir(base)) {
      if (!f.name.endsWith(".test")) continue;
      const text = await Deno.readTextFile(new URL(f.name, base));
      // A block is a header line (query/statement ...), the SQL, then "----" or a blank line.
      for (const block of text.split(/\n\s*\n/)) {
        const lines = block.split("\n").filter((l) => !l.startsWith("#"));
        if (!/^(query|statement)/.test(lines[0] ?? "")) continue;
        const end = lines.indexOf("----");
        const sql = lines.slice(1, end < 0 ? undefined : end).join("\n");
        out.push(sql);
        if (/^\s*(CREATE|INSERT)/i.test(sql)) setups.push(sql);
      }
    }
  }
  return { seeds: out.filter((s) => s.trim().length > 0), setups };
}

const TOKEN =
  /'(?:[^']|'')*'|"[^"]*"|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[a-zA-Z]*|[A-Za-z_][\w$]*|::|<=|>=|!=|<>|\|\||\s+|./g;
const NOISE = [
  "(",
  ")",
  ",",
  "'",
  '"',
  ";",
  "::",
  "*",
  "SELECT",
  "FROM",
  "WHERE",
  "GROUP BY",
  "ORDER BY",
  "SAMPLE BY",
  "LATEST ON",
  "PARTITION BY",
  "JOIN",
  "ASOF JOIN",
  "ON",
  "AND",
  "OR",
  "NOT",
  "NULL",
  "CASE",
  "WHEN",
  "END",
  "OVER",
  "UNION",
  "LIMIT",
  "IN",
  "BETWEEN",
  "CAST",
  "AS",
  "FILL",
  "ALIGN TO",
  "WITH",
  "1",
  "-1",
  "1e308",
  "9223372036854775808",
  "'2024-13-45'",
  "''",
  "$1",
  "$99",
  "x",
  "ts",
  "s",
  "v",
  "ft",
  "long_sequence(3)",
  "((((((((((",
  "))))))))))",
  "--",
  "/*",
  "\u0000",
  "é",
  "😀",
  "\\",
];

/** Token-level mutations of a seed statement. */
export function mutateSql(r: { int(n: number): number; pick<T>(a: readonly T[]): T }, sql: string): string {
  const tokens = sql.match(TOKEN) ?? [];
  const edits = 1 + r.int(2);
  for (let e = 0; e < edits; e++) {
    const at = r.int(tokens.length + 1);
    switch (r.int(6)) {
      case 0:
        tokens.splice(at, 1);
        break;
      case 1:
        tokens.splice(at, 0, " ", r.pick(NOISE), " ");
        break;
      case 2:
        if (tokens.length) tokens.splice(at, 0, tokens[r.int(tokens.length)]);
        break;
      case 3:
        tokens.length = Math.min(tokens.length, at);
        break;
      case 4:
        if (at + 2 < tokens.length) [tokens[at], tokens[at + 2]] = [tokens[at + 2], tokens[at]];
        break;
      default:
        if (tokens.length) tokens[Math.min(at, tokens.length - 1)] = r.pick(NOISE);
    }
  }
  return tokens.join("");
}

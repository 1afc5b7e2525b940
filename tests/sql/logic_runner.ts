/**
 * Runs sqllogictest-style files (STYLE.md §5 "SQL behavior lives in SQL files") through the
 * engine's public door. Format, blocks separated by blank lines:
 *
 *   statement ok
 *   CREATE TABLE t (x INT)
 *
 *   statement error <substring of the message> [@<position>]
 *   SELECT nope FROM t
 *
 *   query [rowsort] [names]
 *   SELECT x, x * 2 FROM t
 *   ----
 *   x:INT	column:INT        <- only with `names`: name:TYPE per column
 *   1	2
 *
 * Cells are the REST text of the value (strings unquoted), `null` for NULL, tab-separated.
 * Lines starting with `#` are comments. `mode legacy` switches the engine to legacy names.
 */
import { adminSession, Engine, type Outcome, readValue, typeName } from "../../engine/mod.ts";
import { formatDouble, formatFloat, formatValue } from "../../engine/mod.ts";
import type { ColumnType, EngineOptions, Value } from "../../engine/mod.ts";

export interface Block {
  kind: "statement" | "query";
  line: number;
  sql: string;
  expectError?: { message: string; position?: number };
  rowsort: boolean;
  names: boolean;
  expected: string[];
  mode?: "legacy" | "default";
}

export function parseLogicFile(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  let i = 0;
  let mode: "legacy" | "default" | undefined;
  while (i < lines.length) {
    const line = lines[i].trimEnd();
    if (line === "" || line.startsWith("#")) {
      i++;
      continue;
    }
    if (line.startsWith("mode ")) {
      mode = line.slice(5).trim() as "legacy" | "default";
      i++;
      continue;
    }
    const start = i + 1;
    const head = line.split(/\s+/);
    i++;
    const sql: string[] = [];
    while (i < lines.length && lines[i].trim() !== "" && lines[i].trim() !== "----") sql.push(lines[i++]);
    const expected: string[] = [];
    if (lines[i]?.trim() === "----") {
      i++;
      while (i < lines.length && lines[i].trim() !== "") expected.push(lines[i++].replace(/\r$/, ""));
    }
    if (head[0] === "statement") {
      const block: Block = {
        kind: "statement",
        line: start,
        sql: sql.join("\n"),
        rowsort: false,
        names: false,
        expected,
        mode,
      };
      if (head[1] === "error") {
        const rest = line.slice(line.indexOf("error") + 5).trim();
        const m = /^(.*?)\s*(?:@(\d+))?$/.exec(rest)!;
        block.expectError = { message: m[1], position: m[2] === undefined ? undefined : Number(m[2]) };
      }
      blocks.push(block);
    } else if (head[0] === "query") {
      blocks.push({
        kind: "query",
        line: start,
        sql: sql.join("\n"),
        rowsort: head.includes("rowsort"),
        names: head.includes("names"),
        expected,
        mode,
      });
    } else {
      throw new Error(`line ${start - 1}: unknown block '${line}'`);
    }
  }
  return blocks;
}

export function cellText(v: Value, t: ColumnType): string {
  if (v === null) return "null";
  if (t.tag === "DOUBLE") return formatDouble(v as number);
  if (t.tag === "FLOAT") return formatFloat(v as number);
  if (typeof v === "string") return v;
  return formatValue(v, t) ?? "null";
}

export async function collect(out: Outcome): Promise<{ header: string; rows: string[] }> {
  if (out.kind !== "rows") return { header: "", rows: [] };
  const rows: string[] = [];
  for await (const b of out.batches) {
    for (let i = 0; i < b.rowCount; i++) {
      rows.push(out.columns.map((c, k) => cellText(readValue(b.columns[k], i), c.type)).join("\t"));
    }
  }
  return { header: out.columns.map((c) => `${c.name}:${typeName(c.type)}`).join("\t"), rows };
}

/** Runs one file; returns failure messages (empty when all blocks pass). `options`: engine options over the defaults. */
export async function runLogicFile(path: string, options: Partial<EngineOptions> = {}): Promise<string[]> {
  const blocks = parseLogicFile(await Deno.readTextFile(path));
  const failures: string[] = [];
  const engines = new Map<string, Engine>();
  const roots: string[] = [];
  const engineFor = async (mode: string) => {
    let e = engines.get(mode);
    if (!e) {
      const root = await Deno.makeTempDir({ prefix: "qdb_logic_" });
      roots.push(root);
      e = await Engine.open({
        root,
        legacyColumnNames: mode === "legacy",
        cacheBytes: 64 * 1024 * 1024,
        ...options,
      });
      engines.set(mode, e);
    }
    return e;
  };
  try {
    for (const b of blocks) {
      const where = `${path}:${b.line}`;
      const engine = await engineFor(b.mode ?? "default");
      let out: Outcome;
      let result: { header: string; rows: string[] };
      try {
        out = await engine.execute(b.sql, adminSession());
        result = await collect(out);
      } catch (err) {
        const e = err as { message: string; position?: number };
        if (!b.expectError) {
          failures.push(`${where}: unexpected error: ${e.message} @${e.position}\n  ${b.sql}`);
        } else if (!e.message.includes(b.expectError.message)) {
          failures.push(`${where}: error '${e.message}' does not contain '${b.expectError.message}'`);
        } else if (b.expectError.position !== undefined && e.position !== b.expectError.position) {
          failures.push(`${where}: error position ${e.position}, expected ${b.expectError.position}`);
        }
        continue;
      }
      if (b.expectError) {
        failures.push(`${where}: expected error '${b.expectError.message}', statement succeeded`);
        continue;
      }
      if (b.kind === "statement") continue;
      let expected = b.expected;
      if (b.names) {
        if (result.header !== expected[0]) {
          failures.push(`${where}: columns\n  got      ${result.header}\n  expected ${expected[0]}`);
        }
        expected = expected.slice(1);
      }
      const got = b.rowsort ? [...result.rows].sort() : result.rows;
      const want = b.rowsort ? [...expected].sort() : expected;
      if (got.join("\n") !== want.join("\n")) {
        failures.push(
          `${where}: rows differ for\n  ${b.sql}\n  got:\n    ${got.join("\n    ")}\n  expected:\n    ${
            want.join("\n    ")
          }`,
        );
      }
    }
  } finally {
    for (const e of engines.values()) await e.close();
    for (const r of roots) await Deno.remove(r, { recursive: true }).catch(() => {});
  }
  return failures;
}

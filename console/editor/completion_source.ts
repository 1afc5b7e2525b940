/**
 * Autocomplete for the editor: keywords, types, functions, and the server's own table and
 * column names (from the schema store, so a table created a moment ago is offered after the
 * refresh that follows its DDL). Context comes from the statement at the cursor only: table
 * names after FROM/JOIN/INTO/UPDATE/TABLE, columns of the tables in scope elsewhere, and
 * `alias.` narrows to one table (spec/console.md §2.2, P0 item 6).
 */
import {
  autocompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
  startCompletion,
} from "@codemirror/autocomplete";
import type { Extension } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";
import { schemaStore, type SchemaTable } from "../schema/schema_store.ts";
import { statementAt } from "./statements.ts";
import { FUNCTIONS, KEYWORD_SET, KEYWORDS, TYPES } from "./sql_words.ts";

type Kind = "table" | "column" | "function" | "keyword" | "type";

const TABLE_CONTEXT = new Set(["from", "join", "into", "update", "table", "exists"]);
const COLUMN_CONTEXT = new Set([
  "select",
  "where",
  "by",
  "on",
  "and",
  "or",
  "having",
  ",",
  "(",
  "set",
  "distinct",
]);
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Quotes names that are not plain identifiers (or that collide with a keyword). */
export function quoteName(name: string): string {
  return PLAIN_NAME.test(name) && !KEYWORD_SET.has(name.toLowerCase())
    ? name
    : `"${name.replaceAll('"', '""')}"`;
}

/** True when `pos` sits inside a comment or a string literal of `text`. */
function insideOpaque(text: string, pos: number): boolean {
  let i = 0;
  while (i < pos) {
    const c = text[i], d = text[i + 1];
    let end = i;
    if (c === "-" && d === "-") end = text.indexOf("\n", i) < 0 ? Infinity : text.indexOf("\n", i);
    else if (c === "/" && d === "*") {
      end = text.indexOf("*/", i + 2) < 0 ? Infinity : text.indexOf("*/", i + 2) + 1;
    } else if (c === "'") end = text.indexOf("'", i + 1) < 0 ? Infinity : text.indexOf("'", i + 1);
    if (end !== i && end >= pos) return true;
    i = end + 1;
  }
  return false;
}

/** Tables named in the statement, with their aliases (`from trades t`, `join quotes as q`). */
export function tablesInScope(sql: string, tables: SchemaTable[]): Map<string, SchemaTable> {
  const scope = new Map<string, SchemaTable>();
  const re = /\b(?:from|join|update|into)\s+("(?:[^"]|"")+"|[\w.$]+)(?:\s+(?:as\s+)?([A-Za-z_]\w*))?/gi;
  for (const m of sql.matchAll(re)) {
    const raw = m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1];
    const table = tables.find((t) => t.name.toLowerCase() === raw.toLowerCase());
    if (!table) continue;
    scope.set(table.name.toLowerCase(), table);
    const alias = m[2]?.toLowerCase();
    if (alias && !KEYWORD_SET.has(alias)) scope.set(alias, table);
  }
  return scope;
}

function option(label: string, kind: Kind, extra: Partial<Completion> = {}): Completion {
  return { label, type: kind, ...extra };
}

function functionOption(name: string): Completion {
  return option(name, "function", {
    boost: -1,
    apply: (view: EditorView, _c: Completion, from: number, to: number) => {
      view.dispatch({
        changes: { from, to, insert: `${name}()` },
        selection: { anchor: from + name.length + 1 },
      });
    },
  });
}

function tableOptions(tables: SchemaTable[]): Completion[] {
  return tables.map((t) =>
    option(t.name, "table", { apply: quoteName(t.name) + " ", boost: 50, detail: "table" })
  );
}

function columnOptions(tables: SchemaTable[]): Completion[] {
  const owners = new Map<string, { type: string; tables: string[] }>();
  for (const t of tables) {
    for (const c of t.columns) {
      const o = owners.get(c.name) ?? { type: c.type, tables: [] };
      o.tables.push(t.name);
      owners.set(c.name, o);
    }
  }
  return [...owners].map(([name, o]) =>
    option(name, "column", {
      apply: quoteName(name),
      boost: 40,
      detail: o.tables.length > 1 ? `${o.type.toLowerCase()} · ${o.tables.join(", ")}` : o.type.toLowerCase(),
      sqlType: o.type.toLowerCase(),
    } as Partial<Completion>)
  );
}

function keywordOptions(): Completion[] {
  return [
    ...KEYWORDS.filter((k) => !TYPES.includes(k)).map((k) =>
      option(k.toUpperCase(), "keyword", { apply: k.toUpperCase() + " ", boost: -5 })
    ),
    ...TYPES.map((k) => option(k.toUpperCase(), "type", { boost: -6 })),
  ];
}

/** The word before the word being typed, lower-cased, skipping whitespace. */
function previousWord(before: string): string {
  const m = /([\w]+|[,(])\s*$/.exec(before);
  return m ? m[1].toLowerCase() : "";
}

export function sqlCompletionSource(context: CompletionContext): CompletionResult | null {
  const doc = context.state.doc.toString();
  const stmt = statementAt(doc, context.pos);
  const stmtFrom = stmt ? Math.min(stmt.from, context.pos) : context.pos;
  const stmtText = stmt ? doc.slice(stmtFrom, Math.max(stmt.to, context.pos)) : "";
  const local = context.pos - stmtFrom;
  if (insideOpaque(stmtText, local)) return null;
  const word = context.matchBefore(/(?:[\w$]+\.)?"?[\w$]*/);
  if (!word) return null;
  const typed = word.text;
  const tables = schemaStore.get().tables;
  const scope = tablesInScope(stmtText, tables);

  const dot = typed.indexOf(".");
  if (dot >= 0) {
    const table = scope.get(typed.slice(0, dot).toLowerCase());
    if (!table) return null;
    return { from: word.from + dot + 1, options: columnOptions([table]), validFor: /^"?[\w$]*$/ };
  }
  const before = stmtText.slice(0, local - typed.length);
  if (!context.explicit && typed === "" && !/\s$/.test(before)) return null;
  const prev = previousWord(before);
  let options: Completion[];
  if (TABLE_CONTEXT.has(prev)) options = tableOptions(tables);
  else {
    if (!context.explicit && typed === "" && !COLUMN_CONTEXT.has(prev)) return null;
    const inScope = [...new Set(scope.values())];
    options = [
      ...columnOptions(inScope.length ? inScope : []),
      ...FUNCTIONS.map(functionOption),
      ...keywordOptions(),
    ];
    if (inScope.length === 0 && typed !== "") {
      options.push(...tableOptions(tables).map((o) => ({ ...o, boost: 0 })));
    }
  }
  const lower = typed.replace(/^"/, "").toLowerCase();
  options = options.filter((o) => o.label.toLowerCase() !== lower);
  return { from: word.from, options, validFor: /^"?[\w$]*$/ };
}

/** Marks the popup and each option with the test hooks of spec/console.md §6.4. */
function testHooks(completion: Completion): Node {
  const marker = document.createElement("span");
  marker.className = "cm-completion-hook";
  queueMicrotask(() => {
    const li = marker.parentElement;
    if (!li) return;
    li.setAttribute("data-testid", "autocomplete-option");
    li.setAttribute("data-kind", String(completion.type));
    li.setAttribute("data-label", completion.label);
    const sqlType = (completion as Completion & { sqlType?: string }).sqlType;
    if (sqlType) li.setAttribute("data-type", sqlType);
    li.closest(".cm-tooltip-autocomplete")?.setAttribute("data-testid", "autocomplete-popup");
  });
  return marker;
}

export function sqlAutocompletion(): Extension {
  return autocompletion({
    override: [sqlCompletionSource],
    activateOnTyping: true,
    maxRenderedOptions: 80,
    addToOptions: [{ render: testHooks, position: 100 }],
    icons: true,
  });
}

export { startCompletion };

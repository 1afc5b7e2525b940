/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The schema explorer: every table with its columns and types, the designated timestamp and
 * partitioning marked, WAL shown when the server reports it, a filter over table and column
 * names, and refresh (spec/console.md §2.8, P0 item 10). Double-clicking a name inserts it
 * into the editor.
 */
import { useState } from "preact/hooks";
import { quoteName } from "../editor/completion_source.ts";
import { insertAtCursor } from "../editor/query_editor.tsx";
import { useStore } from "../ui/store.ts";
import { refreshSchema, schemaStore, type SchemaTable } from "./schema_store.ts";
import { closeTableDetails, detailsStore, showTableDetails } from "./table_details_store.ts";

/** Opens the details panel for a table, or closes it when it already shows that table. */
function DetailsButton(props: { name: string }) {
  const shown = useStore(detailsStore).name === props.name;
  return (
    <button
      type="button"
      class={`btn small ghost details-open${shown ? " active" : ""}`}
      data-testid="schema-table-details-button"
      title={`Details of ${props.name}`}
      aria-pressed={shown}
      onClick={() => (shown ? closeTableDetails() : void showTableDetails(props.name))}
    >
      {/* An SVG, not a character: the UI font may lack the circled-i glyph. */}
      <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" stroke-width="1.4" />
        <path fill="currentColor" d="M7.2 7h1.6v4.6H7.2zM7.2 4.4h1.6V6H7.2z" />
      </svg>
    </button>
  );
}

function TableNode(props: { table: SchemaTable; filter: string; open: boolean; toggle(): void }) {
  const { table, filter } = props;
  const columns = filter && !table.name.toLowerCase().includes(filter)
    ? table.columns.filter((c) => c.name.toLowerCase().includes(filter))
    : table.columns;
  const open = props.open ||
    (filter !== "" && columns.length > 0 && !table.name.toLowerCase().includes(filter));
  const partition = table.partitionBy && table.partitionBy !== "NONE" ? table.partitionBy : null;
  return (
    <li
      class="schema-table"
      data-testid="schema-table"
      data-name={table.name}
      data-kind="table"
      data-partition-by={table.partitionBy}
      data-wal={table.walEnabled === null ? undefined : String(table.walEnabled)}
      data-suspended={String(table.suspended)}
    >
      <div class="schema-row-wrap">
        <button
          type="button"
          class="schema-row"
          aria-expanded={open}
          onClick={props.toggle}
          onDblClick={() => insertAtCursor(quoteName(table.name))}
          title={`${table.name}\npartition by ${table.partitionBy}${
            table.designatedTimestamp ? `\ndesignated timestamp ${table.designatedTimestamp}` : ""
          }`}
        >
          <span class="caret">{open ? "▾" : "▸"}</span>
          <span class="schema-icon table-icon" aria-hidden="true" />
          <span class="schema-name">{table.name}</span>
          {partition && <span class="badge" data-testid="schema-partition">{partition}</span>}
          {table.walEnabled && <span class="badge dim-badge">WAL</span>}
          {table.suspended && <span class="badge warn">suspended</span>}
        </button>
        <DetailsButton name={table.name} />
      </div>
      {open && (
        <ul class="schema-columns">
          {columns.map((c) => (
            <li
              key={c.name}
              class={`schema-column${c.designated ? " designated" : ""}`}
              data-testid="schema-column"
              data-name={c.name}
              data-type={c.type.toLowerCase()}
              data-designated={String(c.designated)}
              onDblClick={() => insertAtCursor(quoteName(c.name))}
              title={c.designated ? "designated timestamp" : c.type}
            >
              <span class={`schema-icon${c.designated ? " ts-icon" : ""}`} aria-hidden="true">
                {c.designated ? "" : "·"}
              </span>
              <span class="schema-name">{c.name}</span>
              <span class="schema-type">{c.type.toLowerCase()}</span>
            </li>
          ))}
          {columns.length === 0 && <li class="dim schema-column-empty">no columns</li>}
        </ul>
      )}
    </li>
  );
}

export function SchemaExplorer() {
  const schema = useStore(schemaStore);
  const [filter, setFilter] = useState("");
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [onlySuspended, setOnlySuspended] = useState(false);
  const f = filter.trim().toLowerCase();
  const suspendedCount = schema.tables.filter((t) => t.suspended).length;
  // The filter stays on only while something is suspended, so it cannot hide every table for good.
  const suspendedOnly = onlySuspended && suspendedCount > 0;
  const tables = schema.tables.filter((t) =>
    (!suspendedOnly || t.suspended) &&
    (!f || t.name.toLowerCase().includes(f) || t.columns.some((c) => c.name.toLowerCase().includes(f)))
  );
  const toggle = (name: string) => {
    const next = new Set(open);
    if (!next.delete(name)) next.add(name);
    setOpen(next);
  };
  return (
    <aside class="schema-panel" aria-label="Schema">
      <div class="panel-head">
        <span class="panel-title">
          Tables <span class="dim">({schema.tables.length})</span>
        </span>
        {suspendedCount > 0 && (
          <button
            type="button"
            class={`btn small ghost schema-suspended-filter${suspendedOnly ? " active" : ""}`}
            data-testid="schema-suspended-filter"
            data-count={suspendedCount}
            aria-pressed={suspendedOnly}
            title="Show only tables whose WAL is suspended"
            onClick={() => setOnlySuspended(!suspendedOnly)}
          >
            {suspendedCount} suspended
          </button>
        )}
        <button
          type="button"
          class="btn small ghost"
          data-testid="schema-refresh-button"
          data-state={schema.status}
          title="Refresh tables"
          onClick={() => refreshSchema()}
        >
          {schema.status === "loading" ? "…" : "↻"}
        </button>
      </div>
      <input
        class="schema-filter"
        data-testid="schema-filter-input"
        type="search"
        placeholder="Filter tables and columns"
        value={filter}
        onInput={(e) => setFilter((e.currentTarget as HTMLInputElement).value)}
      />
      {schema.status === "error" && <div class="schema-error">Could not load tables: {schema.error}</div>}
      <ul class="schema-tree" data-testid="schema-tree" data-status={schema.status}>
        {tables.map((t) => (
          <TableNode
            key={t.name}
            table={t}
            filter={f}
            open={open.has(t.name)}
            toggle={() => toggle(t.name)}
          />
        ))}
        {schema.status === "ready" && tables.length === 0 && (
          <li class="dim schema-empty">{f ? "No match" : "No tables yet"}</li>
        )}
      </ul>
    </aside>
  );
}

/**
 * Everything the table details panel shows about one table, read with plain SQL the server
 * already answers (spec/console.md §2.9 and P1 "Table details"): the `tables()` row (row count,
 * partitioning, WAL, suspended, dedup, TTL), `table_columns('t')` (symbol details),
 * `table_partitions('t')`, `SHOW CREATE TABLE` and, when the server has it, `wal_tables()`.
 * Each query may fail on its own (an older server, a non-WAL table): the panel then shows
 * that section as unavailable instead of failing as a whole.
 */
import { exec, queryObjects } from "../api/exec_client.ts";
import { Store } from "../ui/store.ts";
import { refreshSchema } from "./schema_store.ts";

export type Obj = Record<string, unknown>;

/** One section's data, or why it could not be read. */
export type Section<T> = { ok: true; value: T } | { ok: false; error: string };

export interface TableDetails {
  name: string;
  summary: Section<Obj | null>;
  columns: Section<Obj[]>;
  partitions: Section<Obj[]>;
  ddl: Section<string>;
  /** The `wal_tables()` row (writerTxn, sequencerTxn, suspended, errorMessage…), when available. */
  wal: Section<Obj | null>;
}

export interface DetailsState {
  /** The table whose panel is open, or null when it is closed. */
  name: string | null;
  status: "idle" | "loading" | "ready";
  details: TableDetails | null;
}

export const detailsStore = new Store<DetailsState>({ name: null, status: "idle", details: null });

export function quoteLiteral(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

async function section<T>(load: () => Promise<T>): Promise<Section<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

const byName = (name: string) => (r: Obj) => String(r.table_name ?? r.name) === name;

export async function loadTableDetails(name: string): Promise<TableDetails> {
  const lit = quoteLiteral(name);
  const [summary, columns, partitions, ddl, wal] = await Promise.all([
    section(async () => (await queryObjects("tables()")).find(byName(name)) ?? null),
    section(() => queryObjects(`table_columns(${lit})`)),
    section(() => queryObjects(`table_partitions(${lit})`)),
    section(async () => String((await queryObjects(`SHOW CREATE TABLE ${lit}`, "1"))[0]?.ddl ?? "")),
    section(async () => (await queryObjects("wal_tables()")).find(byName(name)) ?? null),
  ]);
  return { name, summary, columns, partitions, ddl, wal };
}

let generation = 0;

/** Opens (or reloads) the panel for a table; a later call wins over a slower earlier one. */
export async function showTableDetails(name: string): Promise<void> {
  const mine = ++generation;
  const prev = detailsStore.get();
  detailsStore.set({ name, status: "loading", details: prev.name === name ? prev.details : null });
  const details = await loadTableDetails(name);
  if (mine === generation) detailsStore.set({ name, status: "ready", details });
}

export function closeTableDetails(): void {
  generation++;
  detailsStore.set({ name: null, status: "idle", details: null });
}

/**
 * `ALTER TABLE 't' RESUME WAL [FROM TRANSACTION n]` (spec/console.md §2.8), then reloads the
 * panel and the tree so the suspended flag clears. Returns the server's error, if any.
 */
export async function resumeWal(name: string, fromTxn?: number): Promise<string | null> {
  const from = fromTxn !== undefined && Number.isFinite(fromTxn) ? ` FROM TRANSACTION ${fromTxn}` : "";
  const out = await exec(`ALTER TABLE ${quoteLiteral(name)} RESUME WAL${from}`);
  if (out.kind === "error") return out.error;
  await Promise.all([refreshSchema(), detailsStore.get().name === name ? showTableDetails(name) : null]);
  return null;
}

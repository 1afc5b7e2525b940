/**
 * The server's own metadata: tables (designated timestamp, partitioning, WAL) and their
 * columns with types, read with plain SQL (`tables()`, `table_columns('t')`). Feeds the
 * schema explorer and autocomplete; refreshed on demand and after every DDL.
 */
import { queryObjects } from "../api/exec_client.ts";
import { Store } from "../ui/store.ts";

export interface SchemaColumn {
  name: string;
  type: string;
  designated: boolean;
}

export interface SchemaTable {
  name: string;
  designatedTimestamp: string | null;
  partitionBy: string;
  walEnabled: boolean | null;
  suspended: boolean;
  columns: SchemaColumn[];
}

export interface SchemaState {
  status: "idle" | "loading" | "ready" | "error";
  tables: SchemaTable[];
  error?: string;
}

export const schemaStore = new Store<SchemaState>({ status: "idle", tables: [] });

const TABLES_MAX = 500;
const PARALLEL = 4;

function quoteLiteral(name: string): string {
  return `'${name.replaceAll("'", "''")}'`;
}

async function loadColumns(table: string): Promise<SchemaColumn[]> {
  try {
    const rows = await queryObjects(`table_columns(${quoteLiteral(table)})`);
    return rows.map((r) => ({
      name: String(r.column ?? r.column_name ?? ""),
      type: String(r.type ?? r.data_type ?? "").toUpperCase(),
      designated: r.designated === true,
    }));
  } catch {
    return [];
  }
}

async function mapLimited<T, R>(items: T[], limit: number, fn: (t: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

let inFlight: Promise<void> | null = null;

/** Reloads tables and columns; concurrent calls share one reload. */
export function refreshSchema(): Promise<void> {
  inFlight ??= doRefresh().finally(() => (inFlight = null));
  return inFlight;
}

async function doRefresh(): Promise<void> {
  const prev = schemaStore.get();
  schemaStore.set({ ...prev, status: "loading" });
  try {
    const rows = (await queryObjects("tables()", `0,${TABLES_MAX}`)).filter((r) => r.table_name ?? r.name);
    const names = rows.map((r) => String(r.table_name ?? r.name));
    const columns = await mapLimited(names, PARALLEL, loadColumns);
    const tables: SchemaTable[] = rows.map((r, i) => ({
      name: names[i],
      designatedTimestamp: (r.designatedTimestamp as string | null) ?? null,
      partitionBy: String(r.partitionBy ?? "NONE"),
      walEnabled: typeof r.walEnabled === "boolean" ? r.walEnabled : null,
      suspended: r.table_suspended === true || r.suspended === true,
      columns: columns[i].map((c) => ({
        ...c,
        designated: c.designated || c.name === r.designatedTimestamp,
      })),
    }));
    tables.sort((a, b) => a.name.localeCompare(b.name));
    schemaStore.set({ status: "ready", tables });
  } catch (err) {
    schemaStore.set({ ...prev, status: "error", error: (err as Error).message });
  }
}

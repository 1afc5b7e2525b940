/**
 * The permission check of InfluxDB line protocol writes (security.md §5.3, §5.4, T15), shared
 * by ILP over HTTP (/write, /imp's writes) and ILP over TCP: the endpoint permission, INSERT on
 * the table, CREATE TABLE to auto-create it and ADD COLUMN to auto-add columns.
 */
import type { Principal } from "../../engine/mod.ts";

export interface IlpWrite {
  /** "ILP" for TCP 9009; "HTTP" for /write and /api/v2/write (checked at request start already). */
  endpoint?: "ILP" | "HTTP";
  table: string;
  /** True when the write creates the table. */
  createsTable?: boolean;
  /** Columns the write adds to an existing table. */
  addsColumns?: string[];
  /** CSV import `overwrite=true`: drops the existing table and creates it again (T16). */
  overwrites?: boolean;
}

/**
 * Why a write is refused (`Access denied for <user> [<PERM> on <table>]`), or undefined when
 * it is allowed. A principal without `can` (access control off) may do everything.
 */
export function ilpRefusal(principal: Principal, write: IlpWrite): string | undefined {
  const can = principal.can;
  if (!can) return undefined;
  const denied = (what: string) => `Access denied for ${principal.name} [${what}]`;
  if (write.endpoint && !can(write.endpoint)) return denied(write.endpoint);
  if (write.overwrites && !can("DROP TABLE", write.table)) return denied(`DROP TABLE on ${write.table}`);
  if (write.createsTable) {
    if (!can("CREATE TABLE")) return denied("CREATE TABLE");
    return undefined; // the creator owns the new table (security.md §3.4)
  }
  if (!can("INSERT", write.table)) return denied(`INSERT on ${write.table}`);
  for (const c of write.addsColumns ?? []) {
    if (!can("ADD COLUMN", write.table)) return denied(`ADD COLUMN on ${write.table}.${c}`);
  }
  return undefined;
}

/**
 * Access control for TCP (security.md §5.3, T15), given to server/ilp when acl is on: the
 * JWK handshake that opens each connection, and the check of each table write. A refused
 * write closes the connection (TCP has no error channel); nothing of that batch commits.
 */
export interface IlpTcpAccess {
  /** The principal, plus the bytes sent after the handshake; undefined closes the connection. */
  handshake(conn: Deno.Conn): Promise<{ principal: Principal; rest: Uint8Array } | undefined>;
  refusal(
    principal: Principal,
    write: { table: string; createsTable: boolean; addsColumns: string[] },
  ): string | undefined;
  /** The connection's principal created `table` (owner grants). */
  created(principal: Principal, table: string): Promise<void>;
}

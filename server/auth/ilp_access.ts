/**
 * Access control of ILP over TCP (security.md §5.3, T15), given to server/ilp when acl is on:
 * the JWK handshake that opens each connection and the ILP endpoint permission. The table
 * permissions of each write (INSERT, CREATE TABLE, ADD COLUMN) are the engine's, checked by
 * its ingest door for the connection's session like any SQL write (engine/exec/permissions.ts).
 */
import type { Principal } from "../../engine/mod.ts";

export interface IlpTcpAccess {
  /** The principal, plus the bytes sent after the handshake; undefined closes the connection. */
  handshake(conn: Deno.Conn): Promise<{ principal: Principal; rest: Uint8Array } | undefined>;
  /**
   * `Access denied for <user> [ILP]` once the principal no longer holds the ILP permission,
   * else undefined. Asked before each batch, so a REVOKE or DISABLE reaches an open
   * connection (T10); a refusal closes it and nothing of that batch commits.
   */
  endpointRefusal(principal: Principal): string | undefined;
}

/** Engine errors as REST replies: `{"query","error","position"}` with the status of spec/protocols.md §2.6. */
import { SqlError } from "../../engine/mod.ts";

export function statusOf(e: SqlError): number {
  if (e.kind === "permission") return 403;
  if (e.kind === "internal") return 500;
  return 400;
}

export function errorBody(query: string, e: SqlError): string {
  return JSON.stringify({ query, error: e.message, position: Math.max(0, e.position) });
}

export function jsonResponse(body: string, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

export function toSqlError(err: unknown): SqlError {
  if (err instanceof SqlError) return err;
  return new SqlError(err instanceof Error ? err.message : String(err), -1, "internal");
}

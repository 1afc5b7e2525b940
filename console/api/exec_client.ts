/**
 * The one place the console talks to the server's REST API. Every call goes to a relative URL
 * (so a context path works), carries the current Authorization header when there is one, and
 * can be cancelled with an AbortSignal (the server stops the query when the client goes away).
 */
import type { Column, ExecOutcome, Row, ServerSettings, Timings } from "./types.ts";
import { authHeader, beforeRequest, handleUnauthorized, notifyUnauthorized } from "../auth/auth_state.ts";
import { setConnection } from "../ui/connection_state.ts";

export interface ExecOptions {
  /** `n` or `lo,hi` (1-based, inclusive), as /exec takes it. */
  limit?: string;
  count?: boolean;
  timings?: boolean;
  /** Omit column metadata (page fetches). */
  nm?: boolean;
  src?: "con" | "vis";
  signal?: AbortSignal;
  /** Receives the raw request and reply, for the query inspector. */
  onExchange?(x: Exchange): void;
}

/** One /exec round trip as it went over the wire (the query inspector shows it). */
export interface Exchange {
  url: string;
  /** Whether an Authorization header was sent; its value is never kept. */
  authorization: "none" | "basic" | "bearer";
  status: number;
  /** The raw reply, cut at INSPECT_BODY_MAX characters. */
  body: string;
  truncated: boolean;
  fetchNs: number;
}

const INSPECT_BODY_MAX = 100_000;

function authKind(): Exchange["authorization"] {
  const h = authHeader() ?? "";
  return h.startsWith("Basic ") ? "basic" : h.startsWith("Bearer ") ? "bearer" : "none";
}

function headers(): HeadersInit {
  const auth = authHeader();
  return auth ? { Authorization: auth } : {};
}

/** Builds the /exec URL; also used to show the exact request in the query log. */
export function execUrl(query: string, opts: ExecOptions): string {
  const p = new URLSearchParams({ query });
  if (opts.limit) p.set("limit", opts.limit);
  if (opts.count) p.set("count", "true");
  if (opts.timings) p.set("timings", "true");
  if (opts.nm) p.set("nm", "true");
  p.set("quoteLargeNum", "true");
  p.set("src", opts.src ?? "con");
  p.set("version", "2");
  return `exec?${p}`;
}

function elapsedNs(started: number): number {
  return Math.round((performance.now() - started) * 1e6);
}

/**
 * Runs one statement. Never throws for SQL or HTTP errors: they come back as an outcome. A 401
 * is retried once when the sign-in could be refreshed (an OIDC token that just expired).
 */
export async function exec(query: string, opts: ExecOptions = {}): Promise<ExecOutcome> {
  await beforeRequest();
  const unauthorized = (o: ExecOutcome) => o.kind === "error" && o.status === 401;
  const first = await execOnce(query, opts);
  if (!unauthorized(first) || !(await handleUnauthorized())) return first;
  const again = await execOnce(query, opts);
  // Refused even with a fresh token: the sign-in itself is no longer accepted.
  if (unauthorized(again)) notifyUnauthorized();
  return again;
}

async function execOnce(query: string, opts: ExecOptions): Promise<ExecOutcome> {
  const started = performance.now();
  const url = execUrl(query, opts);
  let res: Response;
  let body: string;
  try {
    res = await fetch(url, { headers: headers(), signal: opts.signal });
    body = await res.text();
  } catch (err) {
    const timings: Timings = { fetch: elapsedNs(started) };
    opts.onExchange?.({
      url,
      authorization: authKind(),
      status: 0,
      body: `(no reply: ${(err as Error).message})`,
      truncated: false,
      fetchNs: timings.fetch,
    });
    if (opts.signal?.aborted) return { kind: "cancelled", query, timings };
    setConnection("disconnected");
    return {
      kind: "error",
      query,
      error: `server is not reachable: ${(err as Error).message}`,
      position: -1,
      status: 0,
      timings,
    };
  }
  const fetchNs = elapsedNs(started);
  opts.onExchange?.({
    url,
    authorization: authKind(),
    status: res.status,
    body: body.slice(0, INSPECT_BODY_MAX),
    truncated: body.length > INSPECT_BODY_MAX,
    fetchNs,
  });
  setConnection(res.status >= 500 ? "disconnected" : "connected");
  return classify(query, res.status, body, fetchNs);
}

function classify(query: string, status: number, body: string, fetchNs: number): ExecOutcome {
  // deno-lint-ignore no-explicit-any
  let data: any;
  try {
    data = JSON.parse(body);
  } catch {
    const error = status === 401
      ? "unauthorized"
      : status === 403
      ? body || "forbidden"
      : `invalid JSON response from the server: ${body.slice(0, 200)}`;
    return { kind: "error", query, error, position: -1, status, timings: { fetch: fetchNs } };
  }
  const timings: Timings = { ...(data.timings ?? {}), fetch: fetchNs };
  if (typeof data.error === "string") {
    const position = Number(data.position ?? data.errorPos ?? -1);
    return {
      kind: "error",
      query,
      error: data.error,
      position: Number.isFinite(position) ? position : -1,
      status,
      timings,
    };
  }
  if (data.notice !== undefined) return { kind: "notice", query, notice: String(data.notice), timings };
  if (data.ddl !== undefined) return { kind: "ddl", query, timings };
  if (data.dml !== undefined) return { kind: "dml", query, updated: data.updated, timings };
  return {
    kind: "rows",
    query,
    columns: (data.columns ?? []) as Column[],
    timestampIndex: data.timestamp ?? -1,
    rows: (data.dataset ?? []) as Row[],
    count: data.count ?? (data.dataset?.length ?? 0),
    timings,
  };
}

/** Runs an internal query and returns its rows as objects keyed by column name, or throws. */
export async function queryObjects(query: string, limit = "0,10000"): Promise<Record<string, unknown>[]> {
  const out = await exec(query, { limit });
  if (out.kind === "error") throw new Error(out.error);
  if (out.kind !== "rows") return [];
  return out.rows.map((r) => Object.fromEntries(out.columns.map((c, i) => [c.name, r[i]])));
}

/** GET settings; throws when the server cannot be reached (the boot shows a Retry screen). */
export async function fetchSettings(): Promise<ServerSettings> {
  const res = await fetch("settings");
  if (!res.ok) throw new Error(`settings answered ${res.status}`);
  const data = await res.json();
  return { config: data.config ?? {}, preferences: data.preferences ?? {} };
}

/** Checks credentials with a harmless query; returns the HTTP status. */
export async function probe(header: string | null): Promise<number> {
  const res = await fetch(execUrl("select 1", { limit: "1" }), {
    headers: header ? { Authorization: header } : {},
  });
  await res.body?.cancel();
  return res.status;
}

/**
 * The Hono app of the main HTTP port: REST (/exec, /exp, /chk, /settings, /ping, /warnings)
 * and the console's static files. With `acl.enabled=true` a middleware authenticates every
 * request that needs it (server/auth gate) and statements run as the request's principal;
 * otherwise every request runs as the built-in admin (QuestDB open-source behaviour).
 */
import { Hono } from "hono";
import { adminSession, type Engine, type Principal, type Session } from "../../engine/mod.ts";
import { allowProviderInCsp, type AuthService, gate, sessionCookie } from "../auth/mod.ts";
import type { Config } from "../config.ts";
import { handleExec } from "./exec_handler.ts";
import { deferredSignal } from "./request_signal.ts";
import { handleExp } from "./exp_handler.ts";
import { parquetExportDefaults } from "./exp_parquet.ts";
import { handleValidate } from "./validate_handler.ts";
import { ilpHandler } from "./ilp_handler.ts";
import { importHandler } from "./import_handler.ts";
import { parseQuery, text } from "./query_params.ts";
import { requestLimit } from "./request_limit.ts";
import { bodyFailure, readBody } from "./read_body.ts";
import { PendingConnections, pendingLimitsOf } from "../pending_connections.ts";
import { settingsBody } from "./settings.ts";
import { execTimeoutMs, expTimeoutMs } from "./statement_timeout.ts";
import { serveConsole } from "./static_files.ts";
import { serverWarnings } from "../warnings.ts";

export function createApp(engine: Engine, config: Config, auth?: AuthService): Hono {
  const app = new Hono();
  const principals = new WeakMap<Request, Principal>();
  const acl = auth?.aclEnabled ? auth : undefined;
  /** The session a request's statements run as. */
  // http.query.cache.enabled=false: /exec texts are parsed and planned per request.
  const queryCache = config.get("http.query.cache.enabled")?.trim().toLowerCase() !== "false";
  const sessionOf = (request: Request, signal: AbortSignal = request.signal): Session => {
    const principal = acl ? principals.get(request) : undefined;
    const session = principal ? { principal, timeZone: "UTC", signal } : adminSession(signal);
    return { ...session, protocol: "http", ...(queryCache ? {} : { queryCache: false }) };
  };
  const maxRows = Number(config.get("http.security.max.response.rows") ?? Infinity);
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("Server", "questDB/1.0");
  });
  // Requests whose body is still arriving are out of the limit, under http.request.body.* (issue 24).
  const pendingBodies = new PendingConnections(
    pendingLimitsOf(config, "http.request.body", { timeoutMs: 30_000, perAddress: 64, total: 1024 }),
  );
  app.use("*", requestLimit(config.int("http.net.connection.limit", 64), pendingBodies));
  if (acl) {
    app.use("*", async (c, next) => {
      const allowed = await gate(acl, c.req.raw);
      if (allowed instanceof Response) return allowed;
      principals.set(c.req.raw, allowed.principal);
      await next();
      await sessionCookie(acl, c.req.raw, c.res);
      await allowProviderInCsp(acl, c.res);
      return undefined;
    });
  }
  const execSession = (request: Request, signal: AbortSignal): Session => ({
    ...sessionOf(request, signal),
    timeoutMs: execTimeoutMs(request, config),
  });
  app.get("/exec", async (c) => {
    const link = deferredSignal(c.req.raw);
    try {
      return await handleExec(parseQuery(c.req.url), engine, execSession(c.req.raw, link.signal), maxRows);
    } finally {
      link.done();
    }
  });
  app.post("/exec", async (c) => {
    // At most 4 bytes per character of the longest query text (exec_handler.ts).
    const read = await readBody(c.req.raw, { maxBytes: 4 * 1_048_576, gzip: false });
    if (read.kind !== "ok") return bodyFailure(read);
    const body = new TextDecoder().decode(read.bytes);
    const params = parseQuery(c.req.url);
    if (!params.has("query") && body) params.set("query", body);
    const link = deferredSignal(c.req.raw);
    try {
      return await handleExec(params, engine, execSession(c.req.raw, link.signal), maxRows);
    } finally {
      link.done();
    }
  });
  const parquetDefaults = parquetExportDefaults(config);
  app.get("/exp", (c) => {
    const params = parseQuery(c.req.url);
    return handleExp(params, engine, {
      ...sessionOf(c.req.raw),
      timeoutMs: expTimeoutMs(text(params, "timeout")),
    }, parquetDefaults);
  });
  app.get("/api/v1/sql/validate", (c) => handleValidate(parseQuery(c.req.url), engine, sessionOf(c.req.raw)));
  app.get("/chk", (c) => {
    const p = parseQuery(c.req.url);
    const name = text(p, "j");
    const json = text(p, "f") === "json";
    if (!name) return c.text("table name missing");
    // Like the listings, a table the principal holds no permission on does not exist for it.
    const status = engine.tableMeta(name, sessionOf(c.req.raw)) ? "Exists" : "Does not exist";
    return json
      ? c.body(JSON.stringify({ status }), 200, { "content-type": "application/json" })
      : c.text(status);
  });
  app.get("/settings", async (c) => {
    const extra = acl ? await acl.settingsKeys() : {};
    return c.body(settingsBody(extra, config.int("cairo.max.file.name.length", 127)), 200, {
      "content-type": "application/json; charset=utf-8",
    });
  });
  app.get(
    "/ping",
    () =>
      new Response(null, {
        status: 204,
        headers: { "X-Influxdb-Version": config.get("line.http.ping.version") ?? "v2.2.2" },
      }),
  );
  app.get(
    "/warnings",
    async (c) =>
      c.body(JSON.stringify(await serverWarnings(config)), 200, { "content-type": "application/json" }),
  );
  // ILP over HTTP and CSV import (spec/protocols.md §4, §9); the gate above already required
  // the HTTP permission, and the engine's ingest door checks each table write for the
  // request's session as it checks SQL (security.md T15, T16).
  const ilp = ilpHandler(engine, config, sessionOf);
  app.all("/write", (c) => ilp(c.req.raw));
  app.all("/api/v2/write", (c) => ilp(c.req.raw));
  const imp = importHandler(engine, config, sessionOf);
  app.on(["POST", "PUT"], "/imp", (c) => imp(c.req.raw));
  app.get("/", (c) => c.redirect("/index.html", 301));
  app.get("*", (c) => serveConsole(c.req.path));
  return app;
}

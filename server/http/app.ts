/**
 * The Hono app of the main HTTP port: REST (/exec, /exp, /chk, /settings, /ping, /warnings)
 * and the console's static files. Authentication arrives with the access-control issue; until
 * then every request runs as the built-in admin (QuestDB open-source behaviour).
 */
import { Hono } from "hono";
import { adminSession, type Engine } from "../../engine/mod.ts";
import type { Config } from "../config.ts";
import { handleExec } from "./exec_handler.ts";
import { handleExp } from "./exp_handler.ts";
import { parseQuery, text } from "./query_params.ts";
import { settingsBody } from "./settings.ts";
import { serveConsole } from "./static_files.ts";

export function createApp(engine: Engine, config: Config): Hono {
  const app = new Hono();
  const maxRows = Number(config.get("http.security.max.response.rows") ?? Infinity);
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("Server", "questDB/1.0");
  });
  app.get("/exec", (c) => handleExec(parseQuery(c.req.url), engine, adminSession(c.req.raw.signal), maxRows));
  app.post("/exec", async (c) => {
    const body = await c.req.text();
    const params = parseQuery(c.req.url);
    if (!params.has("query") && body) params.set("query", body);
    return handleExec(params, engine, adminSession(c.req.raw.signal), maxRows);
  });
  app.get("/exp", (c) => handleExp(parseQuery(c.req.url), engine, adminSession(c.req.raw.signal)));
  app.get("/chk", (c) => {
    const p = parseQuery(c.req.url);
    const name = text(p, "j");
    const json = text(p, "f") === "json";
    if (!name) return c.text("table name missing");
    const status = engine.storage.table(name) ? "Exists" : "Does not exist";
    return json ? c.body(JSON.stringify({ status }), 200, { "content-type": "application/json" }) : c.text(status);
  });
  app.get("/settings", (c) => c.body(settingsBody({}, config.int("cairo.max.file.name.length", 127)), 200, { "content-type": "application/json; charset=utf-8" }));
  app.get("/ping", () => new Response(null, { status: 204, headers: { "X-Influxdb-Version": config.get("line.http.ping.version") ?? "v2.2.2" } }));
  app.get("/warnings", (c) => c.body("[]", 200, { "content-type": "application/json" }));
  app.get("/", (c) => c.redirect("/index.html", 301));
  app.get("*", (c) => serveConsole(c.req.path));
  return app;
}

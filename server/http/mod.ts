/**
 * @module
 * The main HTTP listener (port 9000) and the minimal health listener (port 9003), with TLS when
 * `http.tls.*` / `http.min.tls.*` (or the server-wide `tls.*`) say so. Both accept their own
 * connections (serve_connections.ts) so that one that sends no complete request headers
 * within `http.request.header.timeout`, or idles between requests past
 * `http.net.connection.timeout`, is closed (issue 24). Entry points: `startHttp`,
 * `startHealth`. Reaches the engine only through engine/mod.ts.
 */
import type { Engine } from "../../engine/mod.ts";
import type { AuthService } from "../auth/mod.ts";
import type { Config } from "../config.ts";
import { createApp } from "./app.ts";
import { pendingLimitsOf } from "../pending_connections.ts";
import { type ConnectionLimits, type Handler, serveConnections } from "./serve_connections.ts";

export interface Listener {
  hostname: string;
  port: number;
  /** "https" when the listener has a certificate (`http.tls.enabled`, `http.min.tls.enabled`). */
  scheme?: "http" | "https";
  close(): Promise<void>;
  /** Connections (HTTP: requests) being served now, for the metrics page. */
  connections?(): number;
}

/** Certificate and key (PEM) of a listener from `<prefix>.tls.*`, or undefined when TLS is off. */
async function tlsOf(config: Config, prefix: string): Promise<{ cert: string; key: string } | undefined> {
  const paths = config.tls(prefix);
  if (!paths) return undefined;
  return { cert: await Deno.readTextFile(paths.certPath), key: await Deno.readTextFile(paths.keyPath) };
}

/**
 * The connection deadlines and caps of a listener (`http` or `http.min`):
 * `<prefix>.request.header.timeout` (ms before the first request's headers must be in, default
 * 5 s), `.request.header.limit.per.address` (64) and `.request.header.limit` (1024), the same caps
 * for connections idle between requests, whose deadline is `<prefix>.net.connection.timeout`
 * (QuestDB's idle timeout, 300 s). The health port's keys default to the main port's values.
 */
export function connectionLimitsOf(config: Config, prefix: "http" | "http.min"): ConnectionLimits {
  const main = pendingLimitsOf(config, "http.request.header");
  const header = prefix === "http" ? main : pendingLimitsOf(config, "http.min.request.header", main);
  const idleMain = config.int("http.net.connection.timeout", 300_000);
  const idleMs = prefix === "http" ? idleMain : config.int("http.min.net.connection.timeout", idleMain);
  return { header, idle: { ...header, timeoutMs: idleMs } };
}

async function serve(handler: Handler, config: Config, prefix: "http" | "http.min"): Promise<Listener> {
  const bind = config.bind(prefix === "http" ? "http.net.bind.to" : "http.min.net.bind.to");
  const tls = await tlsOf(config, prefix);
  const served = await serveConnections(handler, bind, connectionLimitsOf(config, prefix), tls);
  return {
    hostname: served.hostname,
    port: served.port,
    scheme: tls ? "https" : "http",
    close: () => served.close(),
  };
}

export async function startHttp(engine: Engine, config: Config, auth?: AuthService): Promise<Listener> {
  const app = createApp(engine, config, auth);
  // Requests until their response starts are what questdb_http_connections reports
  // (docs/operations.md); connections waiting for a request are not counted there.
  let serving = 0;
  const handler: Handler = async (request, info) => {
    serving++;
    try {
      return await app.fetch(request, info);
    } finally {
      serving--;
    }
  };
  const listener = await serve(handler, config, "http");
  return { ...listener, connections: () => serving };
}

/**
 * Any GET on the min HTTP port answers `Status: Healthy` (spec/protocols.md §8); with
 * `metrics.enabled=true`, `GET /metrics` answers `metrics()` in Prometheus text format.
 */
export function startHealth(config: Config, metrics?: () => string): Promise<Listener> {
  const healthy = (request: Request) => {
    if (metrics && new URL(request.url).pathname === "/metrics") {
      return new Response(metrics(), {
        headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
      });
    }
    return new Response("Status: Healthy", { headers: { "content-type": "text/plain" } });
  };
  return serve(healthy, config, "http.min");
}

/**
 * @module
 * The main HTTP listener (port 9000) and the minimal health listener (port 9003), on
 * Deno.serve, with TLS when `http.tls.*` / `http.min.tls.*` (or the server-wide `tls.*`) say so. Entry points: `startHttp`, `startHealth`. Reaches the engine only through
 * engine/mod.ts.
 */
import type { Engine } from "../../engine/mod.ts";
import type { AuthService } from "../auth/mod.ts";
import type { Config } from "../config.ts";
import { createApp } from "./app.ts";

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

function serve(
  handler: (r: Request) => Response | Promise<Response>,
  bind: { hostname: string; port: number },
  tls?: { cert: string; key: string },
): Promise<Listener> {
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: bind.hostname,
      port: bind.port,
      ...tls,
      onListen: (addr) =>
        resolve({
          hostname: addr.hostname,
          port: addr.port,
          scheme: tls ? "https" : "http",
          close: () => server.shutdown(),
        }),
    }, handler);
  });
}

export async function startHttp(engine: Engine, config: Config, auth?: AuthService): Promise<Listener> {
  const app = createApp(engine, config, auth);
  // Deno.serve does not show its connections; requests until their response starts are what
  // questdb_http_connections reports.
  let serving = 0;
  const handler = async (request: Request) => {
    serving++;
    try {
      return await app.fetch(request);
    } finally {
      serving--;
    }
  };
  const listener = await serve(handler, config.bind("http.net.bind.to"), await tlsOf(config, "http"));
  return { ...listener, connections: () => serving };
}

/**
 * Any GET on the min HTTP port answers `Status: Healthy` (spec/protocols.md §8); with
 * `metrics.enabled=true`, `GET /metrics` answers `metrics()` in Prometheus text format.
 */
export async function startHealth(config: Config, metrics?: () => string): Promise<Listener> {
  const healthy = (request: Request) => {
    if (metrics && new URL(request.url).pathname === "/metrics") {
      return new Response(metrics(), {
        headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8" },
      });
    }
    return new Response("Status: Healthy", { headers: { "content-type": "text/plain" } });
  };
  return serve(healthy, config.bind("http.min.net.bind.to"), await tlsOf(config, "http.min"));
}

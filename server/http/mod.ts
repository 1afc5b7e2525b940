/**
 * @module
 * The main HTTP listener (port 9000) and the minimal health listener (port 9003), on
 * Deno.serve. Entry points: `startHttp`, `startHealth`. Reaches the engine only through
 * engine/mod.ts.
 */
import type { Engine } from "../../engine/mod.ts";
import type { AuthService } from "../auth/mod.ts";
import type { Config } from "../config.ts";
import { createApp } from "./app.ts";

export interface Listener {
  hostname: string;
  port: number;
  close(): Promise<void>;
}

function serve(handler: (r: Request) => Response | Promise<Response>, bind: { hostname: string; port: number }): Promise<Listener> {
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: bind.hostname,
      port: bind.port,
      onListen: (addr) => resolve({ hostname: addr.hostname, port: addr.port, close: () => server.shutdown() }),
    }, handler);
  });
}

export function startHttp(engine: Engine, config: Config, auth?: AuthService): Promise<Listener> {
  const app = createApp(engine, config, auth);
  return serve(app.fetch, config.bind("http.net.bind.to"));
}

/** Any GET on the min HTTP port answers `Status: Healthy` (spec/protocols.md §8). */
export function startHealth(config: Config): Promise<Listener> {
  return serve(() => new Response("Status: Healthy", { headers: { "content-type": "text/plain" } }), config.bind("http.min.net.bind.to"));
}

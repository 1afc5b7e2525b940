/**
 * Reads the configuration, opens the engine on the data root and starts the listeners;
 * nothing else (ARCHITECTURE.md "Layout"). `--root DIR` or QDB_ROOT picks the data root
 * (default ./qdb_root).
 */
import { Engine } from "./engine/mod.ts";
import { loadConfig } from "./server/config.ts";
import { type Listener, startHealth, startHttp } from "./server/http/mod.ts";
import { startPg } from "./server/pg/mod.ts";

function rootArg(args: string[]): string {
  const i = args.indexOf("--root");
  if (i >= 0 && args[i + 1]) return args[i + 1];
  return Deno.env.get("QDB_ROOT") ?? "./qdb_root";
}

async function main(): Promise<void> {
  const root = rootArg(Deno.args);
  await Deno.mkdir(root, { recursive: true });
  const config = await loadConfig(root);
  const engine = await Engine.open({
    root,
    cacheBytes: config.int("cairo.column.cache.bytes", 1536 * 1024 * 1024),
    legacyColumnNames: !config.bool("cairo.sql.column.alias.expression.enabled"),
    walDefault: config.bool("cairo.wal.enabled.default"),
    parameters: () => config.rows(),
  });
  const listeners: Listener[] = [];
  if (config.bool("http.enabled")) {
    const http = await startHttp(engine, config);
    listeners.push(http);
    const host = http.hostname === "0.0.0.0" ? "localhost" : http.hostname;
    console.log(`http listening on http://${host}:${http.port} (Web Console and REST /exec, /exp)`);
    if (http.hostname !== "127.0.0.1" && http.hostname !== "localhost" && http.hostname !== "::1") {
      console.warn("warning: HTTP listens on a non-loopback address without access control (acl.enabled=false)");
    }
  }
  if (config.bool("http.min.enabled")) {
    const health = await startHealth(config);
    listeners.push(health);
    console.log(`health listening on http://${health.hostname === "0.0.0.0" ? "localhost" : health.hostname}:${health.port}`);
  }
  if (config.bool("pg.enabled")) {
    const pg = await startPg(engine, config);
    listeners.push(pg);
    console.log(`pg listening on ${pg.hostname}:${pg.port}`);
  }
  console.log(`data root: ${await Deno.realPath(root)}`);
  const stop = async () => {
    for (const l of listeners) await l.close();
    await engine.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) await main();

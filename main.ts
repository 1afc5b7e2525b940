/**
 * Reads the configuration, opens the engine on the data root and starts the listeners;
 * nothing else (ARCHITECTURE.md "Layout"). `--root DIR` or QDB_ROOT picks the data root
 * (default ./qdb_root).
 */
import { Engine } from "./engine/mod.ts";
import { loadConfig } from "./server/config.ts";
import { type Listener, startHealth, startHttp } from "./server/http/mod.ts";
import { startPg } from "./server/pg/mod.ts";
import { startIlp } from "./server/ilp/mod.ts";
import { AuthService } from "./server/auth/mod.ts";

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
    queryMemoryBytes: config.int("query.memory.limit", 4 * 1024 ** 3),
  });
  const auth = await AuthService.open(engine, config, root);
  const listeners: Listener[] = [];
  if (config.bool("http.enabled")) {
    const http = await startHttp(engine, config, auth);
    listeners.push(http);
    const host = http.hostname === "0.0.0.0" ? "localhost" : http.hostname;
    console.log(`http listening on http://${host}:${http.port} (Web Console and REST /exec, /exp)`);
    if (!auth.aclEnabled && http.hostname !== "127.0.0.1" && http.hostname !== "localhost" && http.hostname !== "::1") {
      console.warn("warning: HTTP listens on a non-loopback address without access control (acl.enabled=false)");
    }
  }
  if (config.bool("http.min.enabled")) {
    const health = await startHealth(config);
    listeners.push(health);
    console.log(`health listening on http://${health.hostname === "0.0.0.0" ? "localhost" : health.hostname}:${health.port}`);
  }
  if (config.bool("pg.enabled")) {
    const pg = await startPg(engine, config, auth.aclEnabled ? (u, p) => auth.authenticatePg(u, p) : undefined);
    listeners.push(pg);
    console.log(`pg listening on ${pg.hostname}:${pg.port}`);
    if (!auth.aclEnabled && !["127.0.0.1", "localhost", "::1"].includes(pg.hostname)) {
      console.warn("warning: pgwire listens on a non-loopback address without access control (acl.enabled=false)");
    }
  }
  // ILP over TCP has no authentication yet (the JWK handshake): with access control on it
  // stays off unless explicitly enabled.
  if (config.bool("line.tcp.enabled") && (!auth.aclEnabled || config.get("line.tcp.enabled.with.acl") === "true")) {
    const ilp = await startIlp(engine, config);
    listeners.push(ilp);
    console.log(`ilp listening on ${ilp.hostname}:${ilp.port}`);
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

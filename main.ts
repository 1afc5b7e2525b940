/**
 * Reads the configuration, opens the engine on the data root and starts the listeners;
 * nothing else (ARCHITECTURE.md "Layout"). `--root DIR` or QDB_ROOT picks the data root
 * (default ./qdb_root).
 */
import { adminSession, configureLog, Engine, log } from "./engine/mod.ts";
import { type Config, loadConfig, StartupError } from "./server/config.ts";
import { RootInUseError } from "./engine/storage/root_lock.ts";
import { type Listener, startHealth, startHttp } from "./server/http/mod.ts";
import { startPg } from "./server/pg/mod.ts";
import { startIlp } from "./server/ilp/mod.ts";
import { AuthService } from "./server/auth/mod.ts";
import { type ConnectionGauges, metricsPage } from "./server/metrics/mod.ts";
import { serverWarnings } from "./server/warnings.ts";
import { parquetExportDefaults } from "./server/http/exp_parquet.ts";
import { CACHE_BYTES_DEFAULT, type ObjectStoreConfig, parseObjectStore } from "./engine/storage/mod.ts";

/**
 * The `cold.storage.*` and `storage.policy.*` settings (QuestDB Enterprise names; docs/storage.md
 * "Cold storage"). The object store only with `cold.storage.enabled=true` (storage policies run
 * without it, converting locally); a bad value stops the start naming the setting, never the
 * object store string (it holds the credentials).
 */
export function coldStorageSettings(
  config: Config,
  env: Record<string, string | undefined> = Deno.env.toObject(),
): { objectStore?: ObjectStoreConfig; moveAfterMicros?: bigint; checkIntervalMs: number } {
  const checkIntervalMs = Math.max(1000, config.durationMs("storage.policy.check.interval", 15 * 60_000));
  if (!config.bool("cold.storage.enabled")) return { checkIntervalMs };
  const store = config.get("cold.storage.object.store");
  if (!store) throw new StartupError("cold.storage.enabled=true needs cold.storage.object.store");
  let objectStore: ObjectStoreConfig;
  try {
    objectStore = parseObjectStore(store, env);
  } catch (e) {
    throw new StartupError((e as Error).message);
  }
  let moveAfterMicros: bigint | undefined;
  const after = (config.get("cold.storage.move.after") ?? "").trim();
  if (after) {
    const m = /^(\d+)\s*([smhdw])$/i.exec(after);
    if (!m || Number(m[1]) === 0) {
      throw new StartupError(
        `${config.describe("cold.storage.move.after")} is not a positive age such as 30d, 12h or 2w`,
      );
    }
    const unit = { s: 1n, m: 60n, h: 3600n, d: 86_400n, w: 604_800n }[m[2].toLowerCase() as "s"];
    moveAfterMicros = BigInt(m[1]) * unit * 1_000_000n;
  }
  return { objectStore, moveAfterMicros, checkIntervalMs };
}

function rootArg(args: string[]): string {
  const i = args.indexOf("--root");
  if (i >= 0 && args[i + 1]) return args[i + 1];
  return Deno.env.get("QDB_ROOT") ?? "./qdb_root";
}

async function main(): Promise<void> {
  const root = rootArg(Deno.args);
  await Deno.mkdir(root, { recursive: true });
  const config = await loadConfig(root);
  setUpLog(config);
  const engine = await Engine.open({
    root,
    cacheBytes: config.int("cairo.column.cache.bytes", CACHE_BYTES_DEFAULT),
    legacyColumnNames: !config.bool("cairo.sql.column.alias.expression.enabled"),
    walDefault: config.bool("cairo.wal.enabled.default"),
    parameters: () => config.rows(),
    queryMemoryBytes: config.int("query.memory.limit", 4 * 1024 ** 3),
    parallelWorkers: config.int("cairo.sql.parallel.workers", 2),
    // Workers run below the main thread's priority, so protocol I/O is served first (parallel/thread_nice.ts).
    parallelWorkersNice: config.int("cairo.sql.parallel.workers.nice", 10),
    // Reuse of block partials over partitions still receiving rows (exec/block_partials.ts).
    blockMemo: config.bool("cairo.sql.block.memo.enabled"),
    // Read-only queries scanning this many rows run whole on a worker heap (-1: never; docs/parallel.md).
    statementRowsMin: config.int("cairo.sql.parallel.statement.rows.min", 100_000),
    // QuestDB resolves a relative cairo.sql.copy.root against the server root.
    copyRoot: resolveCopyRoot(root, config.get("cairo.sql.copy.root")),
    // COPY ... TO writes under cairo.sql.copy.export.root (default <root>/export); set blank, COPY TO is off.
    copyExportRoot: resolveExportRoot(root, config.get("cairo.sql.copy.export.root")),
    parquetExportDefaults: parquetExportDefaults(config),
    // Storage policies, and with cold.storage.enabled=true the object store (docs/storage.md "Cold storage").
    coldStorage: coldStorageSettings(config),
    // BACKUP TABLE / DATABASE write under cairo.sql.backup.root (relative: against the server root).
    backupRoot: resolveBackupRoot(root, config.get("cairo.sql.backup.root")),
    backupDirFormat: config.get("cairo.sql.backup.dir.datetime.format") || undefined,
    backupTmpName: config.get("cairo.sql.backup.dir.tmp.name") || undefined,
  });
  // Workers start now and load the planner, not on the first query that needs them (~0.2 s).
  if (config.bool("cairo.sql.parallel.workers.warm.up")) {
    engine.parallel.warmUp().then(
      (ready) => ready && log("I", "server", `parallel workers ready: ${engine.parallel.workers}`),
      (err) => log("E", "server", `parallel workers did not start: ${(err as Error).message}`),
    );
  }
  const auth = await AuthService.open(engine, config, root);
  const listeners: Listener[] = [];
  // Filled in as the listeners start; read by /metrics on the health port.
  const gauges: ConnectionGauges = {};
  if (config.bool("http.enabled")) {
    const http = await listen(config, "http.net.bind.to", () => startHttp(engine, config, auth));
    listeners.push(http);
    gauges.http = http.connections;
    const host = http.hostname === "0.0.0.0" ? "localhost" : http.hostname;
    log(
      "A",
      "http",
      `http listening on ${http.scheme ?? "http"}://${host}:${http.port} (Web Console and REST /exec, /exp)`,
    );
    if (
      !auth.aclEnabled && http.hostname !== "127.0.0.1" && http.hostname !== "localhost" &&
      http.hostname !== "::1"
    ) {
      log(
        "A",
        "http",
        "warning: HTTP listens on a non-loopback address without access control (acl.enabled=false)",
      );
    }
  }
  if (config.bool("http.min.enabled")) {
    const metrics = config.bool("metrics.enabled") ? () => metricsPage(engine, gauges) : undefined;
    const health = await listen(config, "http.min.net.bind.to", () => startHealth(config, metrics));
    listeners.push(health);
    const host = health.hostname === "0.0.0.0" ? "localhost" : health.hostname;
    log("A", "health", `health listening on ${health.scheme ?? "http"}://${host}:${health.port}`);
  }
  if (config.bool("pg.enabled")) {
    const scram = auth.aclEnabled ? await auth.pgScram() : undefined;
    const pg = await listen(
      config,
      "pg.net.bind.to",
      () =>
        auth.aclEnabled
          ? startPg(engine, config, (u, p) => auth.authenticatePg(u, p), scram)
          : startPg(engine, config),
    );
    listeners.push(pg);
    gauges.pg = pg.connections;
    log("A", "pg", `pg listening on ${pg.hostname}:${pg.port}${pg.tls ? " (TLS available)" : ""}`);
    if (!auth.aclEnabled && !["127.0.0.1", "localhost", "::1"].includes(pg.hostname)) {
      log(
        "A",
        "pg",
        "warning: pgwire listens on a non-loopback address without access control (acl.enabled=false)",
      );
    }
  }
  // ILP over TCP: with access control on, every connection opens with the JWK handshake
  // (security.md §5.3) unless line.tcp.acl.enabled=false turns TCP authentication off.
  if (config.bool("line.tcp.enabled")) {
    const tcpAuth = auth.aclEnabled && config.get("line.tcp.acl.enabled")?.toLowerCase() !== "false";
    const ilp = await listen(
      config,
      "line.tcp.net.bind.to",
      () => startIlp(engine, config, tcpAuth ? auth.ilpTcp() : undefined),
    );
    listeners.push(ilp);
    gauges.ilp = ilp.connections;
    log("A", "ilp", `ilp listening on ${ilp.hostname}:${ilp.port}`);
    if (config.bool("tls.enabled") || config.bool("line.tcp.tls.enabled")) {
      log(
        "A",
        "ilp",
        "warning: ILP over TCP has no TLS here; it stays plain text (use ILP over HTTPS on the http port)",
      );
    }
  }
  log("A", "server", `data root: ${await Deno.realPath(root)}`);
  // The same checks /warnings answers with (QuestDB logs them at start too).
  for (const w of await serverWarnings(config)) log("A", "server", `warning: ${w.tag}: ${w.warning}`);
  const stop = async () => {
    // Writes held by an open CHECKPOINT would keep the listeners from closing.
    await engine.execute("CHECKPOINT RELEASE", adminSession()).catch(() => {});
    for (const l of listeners) await l.close();
    await engine.close();
    Deno.exit(0);
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
}

/**
 * `log.level` (QuestDB's level names, default info) and `cairo.sql.slow.query.threshold` (a
 * duration; a bare number is milliseconds; default 10s): statements that take longer are logged
 * with their time.
 */
function setUpLog(config: Config): void {
  const threshold = config.get("cairo.sql.slow.query.threshold");
  const slowQueryMs = threshold === undefined
    ? undefined
    : /^\s*\d+\s*$/.test(threshold)
    ? Number(threshold)
    : config.durationMs("cairo.sql.slow.query.threshold", 10_000);
  try {
    configureLog({ level: config.get("log.level"), slowQueryMs });
  } catch (e) {
    throw new StartupError(`${(e as Error).message}; ${config.howToSet("log.level")}`);
  }
}

/**
 * Starts a listener, turning the bind failures a user can fix into a message that names the
 * setting, its value and how to change it (no stack trace).
 */
async function listen<T>(config: Config, key: string, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (e) {
    const setting = config.describe(key);
    const change = config.howToSet(key);
    if (e instanceof Deno.errors.AddrInUse) {
      throw new StartupError(`${setting} is in use by another program; ${change} to a free port`);
    }
    if (e instanceof Deno.errors.AddrNotAvailable) {
      throw new StartupError(`${setting} is not an address of this machine; ${change}`);
    }
    if (e instanceof Deno.errors.PermissionDenied) {
      throw new StartupError(`${setting} needs privileges this user lacks (ports below 1024); ${change}`);
    }
    throw e;
  }
}

if (import.meta.main) {
  try {
    await main();
  } catch (e) {
    // Mistakes in the set-up are told plainly; anything else is a bug and keeps its stack.
    if (!(e instanceof StartupError || e instanceof RootInUseError)) throw e;
    log("C", "server", `cannot start: ${e.message}`);
    Deno.exit(1);
  }
}

/** cairo.sql.copy.root: unset → `<root>/import`; relative → under the root. */
function resolveExportRoot(root: string, value: string | undefined): string {
  if (value === undefined) return `${root.replace(/\/+$/, "")}/export`;
  const v = value.trim();
  if (v === "") return "";
  return v.startsWith("/") ? v : `${root.replace(/\/+$/, "")}/${v}`;
}

function resolveCopyRoot(root: string, value: string | undefined): string {
  const v = (value ?? "").trim() || "import";
  return v.startsWith("/") ? v : `${root.replace(/\/+$/, "")}/${v}`;
}

/** `cairo.sql.backup.root`: unset or blank leaves BACKUP refused; relative paths are under the root. */
function resolveBackupRoot(root: string, value: string | undefined): string | undefined {
  const v = (value ?? "").trim();
  if (!v) return undefined;
  return v.startsWith("/") ? v : `${root.replace(/\/+$/, "")}/${v}`;
}

/**
 * Server configuration (spec/protocols.md §13): defaults, then `server.conf` in the data root
 * (`key=value` lines, `#` comments), then environment variables `QDB_<KEY>` with dots as
 * underscores (`QDB_HTTP_BIND_TO` overrides `http.bind.to`). Environment wins.
 */
import { CACHE_BYTES_DEFAULT } from "../engine/storage/cache_default.ts";

export const DEFAULTS: Record<string, string> = {
  "http.enabled": "true",
  "http.net.bind.to": "0.0.0.0:9000",
  "http.min.enabled": "true",
  "http.min.net.bind.to": "0.0.0.0:9003",
  "http.security.max.response.rows": "9223372036854775807",
  "http.json.query.connection.check.frequency": "1000000",
  "line.http.ping.version": "v2.2.2",
  "query.timeout": "60s",
  "pg.enabled": "true",
  "pg.net.bind.to": "0.0.0.0:8812",
  "pg.user": "admin",
  "pg.password": "quest",
  "line.tcp.enabled": "true",
  "line.tcp.net.bind.to": "0.0.0.0:9009",
  "cairo.sql.column.alias.expression.enabled": "true",
  "cairo.wal.enabled.default": "true",
  "cairo.max.file.name.length": "127",
  // A quarter of the machine's memory, bounded (engine/storage/cache_default.ts).
  "cairo.column.cache.bytes": String(CACHE_BYTES_DEFAULT),
  "cairo.sql.parallel.workers": "2",
  "cairo.sql.parallel.statement.rows.min": "100000",
  // Start the worker heaps with the server (not on the first query that needs them).
  "cairo.sql.parallel.workers.warm.up": "true",
  // Worker threads run at this nice value, below the main thread (engine/parallel/thread_nice.ts).
  "cairo.sql.parallel.workers.nice": "10",
  "cairo.sql.block.memo.enabled": "true",
  "metrics.enabled": "false",
};

/** Keys that are the same setting under two names (QuestDB aliases). */
const ALIASES: Record<string, string> = {
  "http.bind.to": "http.net.bind.to",
  "http.min.bind.to": "http.min.net.bind.to",
  "query.timeout.sec": "query.timeout",
  "tls.key.path": "tls.private.key.path",
  "pg.tls.key.path": "pg.tls.private.key.path",
  "http.tls.key.path": "http.tls.private.key.path",
};

/**
 * A setting that stops the start (a bad value, a port in use): main prints the message alone,
 * without a stack trace, so it must name the setting, its value and what to change.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupError";
  }
}

/** Keys whose values are secrets: never printed (an object store string holds its credentials). */
const SECRET = /password|secret|token|key$|object\.store$/i;

export class Config {
  readonly #values = new Map<string, { value: string; source: "default" | "conf" | "env" }>();

  constructor(conf: Record<string, string>, env: Record<string, string>) {
    for (const [k, v] of Object.entries(DEFAULTS)) this.#values.set(k, { value: v, source: "default" });
    for (const [k, v] of Object.entries(conf)) this.#values.set(canonical(k), { value: v, source: "conf" });
    for (const [k, v] of Object.entries(env)) {
      if (!k.startsWith("QDB_") || k === "QDB_ROOT") continue;
      const key = k.slice(4).toLowerCase().replaceAll("_", ".");
      // Environment names lose the difference between '.', '_' and '-': match known keys first.
      const known = [...this.#values.keys(), ...Object.keys(ALIASES)].find((x) =>
        x.replace(/[-_]/g, ".") === key
      );
      this.#values.set(canonical(known ?? key), { value: v, source: "env" });
    }
  }

  get(key: string): string | undefined {
    return this.#values.get(canonical(key))?.value;
  }

  bool(key: string): boolean {
    return (this.get(key) ?? "").toLowerCase() === "true";
  }

  int(key: string, fallback: number): number {
    const n = Number(this.get(key));
    return Number.isFinite(n) ? n : fallback;
  }

  /**
   * A duration key in milliseconds: `60s`, `500ms`, `2m`, `1h`, or a bare number of seconds
   * (as the deprecated `query.timeout.sec`); `fallback` when unset or unreadable.
   */
  durationMs(key: string, fallback: number): number {
    const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(this.get(key) ?? "");
    if (!m) return fallback;
    const unit =
      { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? "s").toLowerCase() as "ms" | "s" | "m" | "h"];
    return Math.round(Number(m[1]) * unit);
  }

  /**
   * TLS files of a listener (`pg`, `http`): `<prefix>.tls.enabled`, `.tls.cert.path` and
   * `.tls.private.key.path`, each falling back to the server-wide `tls.*` key (QuestDB
   * Enterprise names, spec/protocols.md §13). Undefined when TLS is off; enabled without both
   * paths is a configuration error that stops the start.
   */
  tls(prefix: string): { certPath: string; keyPath: string } | undefined {
    const key = (name: string) => this.get(`${prefix}.tls.${name}`) ?? this.get(`tls.${name}`);
    if ((key("enabled") ?? "").toLowerCase() !== "true") return undefined;
    const certPath = key("cert.path");
    const keyPath = key("private.key.path");
    if (!certPath || !keyPath) {
      throw new StartupError(
        `${prefix}.tls.enabled=true needs ${prefix}.tls.cert.path and ${prefix}.tls.private.key.path`,
      );
    }
    return { certPath, keyPath };
  }

  /**
   * host:port of a bind key. A bare port (`QDB_HTTP_BIND_TO=24200`) listens on every
   * interface, as `0.0.0.0:24200` would; IPv6 hosts may be bracketed (`[::1]:9000`).
   */
  bind(key: string): { hostname: string; port: number } {
    const v = (this.get(key) ?? "0.0.0.0:0").trim();
    const i = v.lastIndexOf(":");
    const host = i < 0 ? "" : v.slice(0, i).replace(/^\[(.*)\]$/, "$1");
    const port = v.slice(i + 1);
    if (!/^\d{1,5}$/.test(port) || Number(port) > 65535 || (i < 0 && port !== v)) {
      throw new StartupError(
        `${this.describe(key)} is not a port or host:port (e.g. 9000 or 0.0.0.0:9000); ${this.howToSet(key)}`,
      );
    }
    return { hostname: host || "0.0.0.0", port: Number(port) };
  }

  /** `key=value` as users spell the key (README names win over QuestDB's aliases). */
  describe(key: string): string {
    return `${displayName(key)}=${this.get(key) ?? ""}`;
  }

  /** Where to change a setting: its environment variable or the root's server.conf. */
  howToSet(key: string): string {
    const name = displayName(key);
    return `set QDB_${name.toUpperCase().replace(/[.-]/g, "_")} or ${name} in server.conf`;
  }

  /** Rows for SHOW PARAMETERS with secrets masked. */
  rows(): [string, string, string, string, boolean, boolean][] {
    return [...this.#values.entries()].sort().map(([k, v]) => [
      k,
      "QDB_" + k.toUpperCase().replace(/[.-]/g, "_"),
      SECRET.test(k) ? "****" : v.value,
      v.source,
      SECRET.test(k),
      false,
    ]);
  }
}

/** The shortest name of a setting: an alias when one exists (`http.bind.to`). */
function displayName(key: string): string {
  const k = canonical(key);
  return Object.keys(ALIASES).find((a) => ALIASES[a] === k) ?? k;
}

function canonical(key: string): string {
  const k = key.trim().toLowerCase();
  return ALIASES[k] ?? k;
}

export function parseConf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const i = line.indexOf("=");
    if (i <= 0) continue;
    out[line.slice(0, i).trim()] = line.slice(i + 1).trim();
  }
  return out;
}

export async function loadConfig(
  root: string,
  env: Record<string, string> = Deno.env.toObject(),
): Promise<Config> {
  let conf: Record<string, string> = {};
  for (const path of [`${root}/server.conf`, `${root}/conf/server.conf`]) {
    try {
      conf = parseConf(await Deno.readTextFile(path));
      break;
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  }
  return new Config(conf, env);
}

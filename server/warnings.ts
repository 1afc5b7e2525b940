/**
 * Server health warnings for `GET /warnings` and the start-up log (spec/protocols.md §5,
 * console.md: `[{tag, warning}]`, shown by the console as banners).
 *
 * QuestDB checks the open-files limit and `vm.max_map_count` against fixed recommendations.
 * This server maps no files, so only the open-files check applies, and it is measured against
 * what this configuration can need at once: one socket per connection the listeners admit
 * (established and still authenticating), plus room for the files a write or a partition scan
 * holds open, the listeners, the root lock and the runtime. Below that, a busy server would fail
 * to accept connections or open column files with "Too many open files".
 */
import type { Config } from "./config.ts";
import { pendingLimitsOf } from "./pending_connections.ts";

export interface ServerWarning {
  tag: string;
  warning: string;
}

/** QuestDB's tag for the open-files check (the console names the banner after it). */
export const TOO_MANY_OPEN_FILES = "TOO MANY OPEN FILES";

/** Descriptors beside connections: listeners, root lock, column files in use, workers, Deno. */
const FILES_BESIDE_CONNECTIONS = 256;

/** How many descriptors this configuration can hold open at once. */
export function neededOpenFiles(config: Config): number {
  // A limit of 0 or less means "no cap": nothing finite to add for it.
  const cap = (n: number) => Math.max(0, n);
  let n = FILES_BESIDE_CONNECTIONS;
  if (config.bool("http.enabled")) n += cap(config.int("http.net.connection.limit", 64));
  if (config.bool("pg.enabled")) {
    n += cap(config.int("pg.net.connection.limit", 64)) +
      cap(pendingLimitsOf(config, "pg.net.handshake").total);
  }
  if (config.bool("line.tcp.enabled")) {
    n += cap(config.int("line.tcp.net.connection.limit", 256)) +
      cap(pendingLimitsOf(config, "line.tcp.net.handshake").total);
  }
  return n;
}

/**
 * The soft RLIMIT_NOFILE of this process, from /proc/self/limits (Deno raises the soft limit to
 * the hard one at start, so this is the hard `ulimit -Hn` it was started under); undefined where
 * that file does not exist (not Linux) or says "unlimited".
 */
export async function openFilesLimit(): Promise<number | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile("/proc/self/limits");
  } catch {
    return undefined;
  }
  const m = /^Max open files\s+(\d+)/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

export async function serverWarnings(config: Config): Promise<ServerWarning[]> {
  const warnings: ServerWarning[] = [];
  const limit = await openFilesLimit();
  const needed = neededOpenFiles(config);
  if (limit !== undefined && limit < needed) {
    warnings.push({
      tag: TOO_MANY_OPEN_FILES,
      warning: `open files limit (ulimit -n) is too low [current=${limit}, recommended=${needed}]`,
    });
  }
  return warnings;
}

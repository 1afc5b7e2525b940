/**
 * One server per data root. Two processes writing the same tables would each acknowledge
 * inserts the other never sees, and after a restart one side's rows are gone (each rewrites
 * `_txn` from its own memory). QuestDB refuses a second instance on a root; so do we.
 *
 * The lock is an exclusive `flock` on `<root>/_root.lock`: the kernel drops it when the
 * holder exits, however it exits (SIGKILL included), so a stale lock file never blocks a
 * restart. The file's text names the holder for the refused process's message; it is only
 * information, the lock itself is the truth.
 */
import { join as joinPath } from "node:path";

export const ROOT_LOCK_FILE = "_root.lock";

/** A second server (or engine) tried to open a data root that is already open. */
export class RootInUseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RootInUseError";
  }
}

export interface RootLock {
  release(): void;
}

/** Who holds the lock, as written by the holder. */
interface Holder {
  pid: number;
  started: string;
  command: string;
}

/**
 * Takes the root's lock without waiting, or throws RootInUseError naming the root and the
 * process that holds it. `root` must exist.
 */
export async function acquireRootLock(root: string): Promise<RootLock> {
  const path = joinPath(root, ROOT_LOCK_FILE);
  const file = await Deno.open(path, { read: true, write: true, create: true });
  let locked = false;
  try {
    locked = await file.tryLock(true);
    if (!locked) throw new RootInUseError(inUseMessage(await realRoot(root), await readHolder(path)));
    const holder: Holder = {
      pid: Deno.pid,
      started: new Date().toISOString(),
      command: [Deno.mainModule, ...Deno.args].join(" "),
    };
    await file.truncate(0);
    await file.write(new TextEncoder().encode(JSON.stringify(holder) + "\n"));
  } catch (e) {
    if (locked) await file.unlock().catch(() => {});
    file.close();
    throw e;
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      // Closing the descriptor drops the flock; the file stays (its text is stale but harmless).
      file.close();
    },
  };
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    const h = JSON.parse(await Deno.readTextFile(path));
    return typeof h?.pid === "number" ? h : undefined;
  } catch {
    return undefined; // the holder may be between truncate and write
  }
}

async function realRoot(root: string): Promise<string> {
  try {
    return await Deno.realPath(root);
  } catch {
    return root;
  }
}

function inUseMessage(root: string, holder: Holder | undefined): string {
  const who = holder
    ? `process ${holder.pid} (started ${holder.started}: ${holder.command})`
    : "another process";
  return `data root ${root} is in use by ${who}; ` +
    `stop that server or start this one on another root (--root DIR or QDB_ROOT)`;
}

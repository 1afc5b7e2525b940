/**
 * BACKUP TABLE / DATABASE (spec/sql.md §5.5, QuestDB OSS's legacy form): a copy of table folders
 * into `<backup root>/<date>[.<n>]/`, laid out as a data root so a server started on it (or on a
 * copy of it) answers what the source answered when the backup was taken.
 *
 * Consistency comes from the checkpoint gate (checkpoint.ts): the copy runs frozen, after the
 * writes in flight finished and before any later one starts, exactly as under CHECKPOINT CREATE.
 * Writers wait for the copy (an ILP connection is not read meanwhile); nothing is lost.
 * The copy is written under a temporary folder name and renamed when complete, so a crash
 * leaves no half backup under a dated name.
 */
import { checkpointGate } from "./checkpoint.ts";
import { joinPath, listDir, removePath, syncDir } from "./_fs.ts";
import { IDS_FILE } from "./dir_name.ts";
import { log } from "../base/log.ts";

export interface BackupRequest {
  /** The data root the tables live in. */
  root: string;
  /** `cairo.sql.backup.root` */
  backupRoot: string;
  /** Table folder names (TableMeta.dirName) to copy. */
  tableDirs: () => string[];
  /** Root files copied as well when they exist (configuration, users): BACKUP DATABASE. */
  rootFiles?: string[];
  /** `cairo.sql.backup.dir.datetime.format` (yyyy, MM, dd, HH, mm, ss; UTC). Default `yyyy-MM-dd`. */
  dirFormat?: string;
  /** `cairo.sql.backup.dir.tmp.name`. Default `tmp`. */
  tmpName?: string;
  now?: Date;
  /** Who asked, for the log line. */
  user?: string;
}

/** One BACKUP at a time per backup root: they share the temporary folder. */
const running = new Map<string, Promise<unknown>>();

/** Copies the tables; returns the folder the backup was written to. */
export function backup(req: BackupRequest): Promise<string> {
  const before = running.get(req.backupRoot) ?? Promise.resolve();
  const next = before.catch(() => {}).then(() => backupNow(req));
  running.set(req.backupRoot, next);
  return next;
}

async function backupNow(req: BackupRequest): Promise<string> {
  await Deno.mkdir(req.backupRoot, { recursive: true });
  const tmp = joinPath(req.backupRoot, req.tmpName ?? "tmp");
  await removePath(tmp); // a crashed backup's leftovers
  await Deno.mkdir(tmp);
  const gate = checkpointGate(req.root);
  const started = performance.now();
  await gate.freeze();
  let dirs: string[];
  try {
    // Listed under the freeze: no table is created, dropped or renamed while copying.
    dirs = req.tableDirs();
    for (const dir of dirs) await copyTree(joinPath(req.root, dir), joinPath(tmp, dir));
    for (const name of [IDS_FILE, ...(req.rootFiles ?? [])]) {
      await copyIfExists(joinPath(req.root, name), joinPath(tmp, name));
    }
  } catch (e) {
    await removePath(tmp).catch(() => {});
    throw e;
  } finally {
    gate.thaw();
  }
  await syncDir(tmp);
  const target = await freeName(
    req.backupRoot,
    formatDate(req.now ?? new Date(), req.dirFormat ?? "yyyy-MM-dd"),
  );
  await Deno.rename(tmp, target);
  await syncDir(req.backupRoot);
  log(
    "I",
    "backup",
    `backup complete [user=${req.user ?? ""}, tables=${dirs.length}, dir=${target}, writes held=${
      Math.round(performance.now() - started)
    }ms]`,
  );
  return target;
}

/** `<name>`, or `<name>.1`, `<name>.2`, … when taken (QuestDB's numbering). */
async function freeName(parent: string, name: string): Promise<string> {
  for (let n = 0;; n++) {
    const candidate = joinPath(parent, n === 0 ? name : `${name}.${n}`);
    try {
      await Deno.lstat(candidate);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return candidate;
      throw e;
    }
  }
}

/** The subset of QuestDB's date pattern letters a folder name needs, in UTC. */
export function formatDate(d: Date, pattern: string): string {
  const two = (n: number) => String(n).padStart(2, "0");
  const parts: Record<string, string> = {
    yyyy: String(d.getUTCFullYear()),
    MM: two(d.getUTCMonth() + 1),
    dd: two(d.getUTCDate()),
    HH: two(d.getUTCHours()),
    mm: two(d.getUTCMinutes()),
    ss: two(d.getUTCSeconds()),
  };
  return pattern.replace(/yyyy|MM|dd|HH|mm|ss/g, (t) => parts[t]);
}

async function copyIfExists(from: string, to: string): Promise<void> {
  try {
    await copyFileSynced(from, to);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

/** Copies a folder (files and sub-folders), each file fsynced, each folder synced. */
async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for (const entry of await listDir(from)) {
    const src = joinPath(from, entry.name);
    const dst = joinPath(to, entry.name);
    if (entry.isDirectory) await copyTree(src, dst);
    else await copyFileSynced(src, dst);
  }
  await syncDir(to);
}

async function copyFileSynced(from: string, to: string): Promise<void> {
  await Deno.copyFile(from, to);
  const f = await Deno.open(to, { read: true, write: true });
  try {
    await f.sync();
  } finally {
    f.close();
  }
}

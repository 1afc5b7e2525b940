/**
 * CHECKPOINT CREATE / RELEASE (spec/sql.md §5.5) for one data root: while a checkpoint is open,
 * no file under the root changes, so any file tool (`cp -a`, rsync, a disk snapshot) copies a
 * consistent root. CREATE waits for the writes in flight to finish; writes that start later wait
 * at their start (holding nothing on disk) and run, in order, after RELEASE. File deletion of
 * obsolete partition versions waits as well.
 *
 * QuestDB keeps accepting WAL writes during a checkpoint and applies them after release; here a
 * commit is applied as it is written, so holding it back means the writer waits: an ILP
 * connection stops reading, an INSERT answers after RELEASE. Either way no acknowledged row is
 * lost and none written after CREATE is in the copy.
 *
 * The gate is per root and process-wide (the tables of a root and the root itself share it)
 * because every TableStore of the root must see it without a reference threaded through.
 */
import { SqlError } from "../base/errors.ts";
import { log } from "../base/log.ts";
import { joinPath, removePath, syncDir, writeFileSynced } from "./_fs.ts";

/** Directory QuestDB keeps a checkpoint's bookkeeping in; a copy carries it to the restore. */
export const CHECKPOINT_DIR = ".checkpoint";
/** The file a user creates in a copied root to ask for the restore procedure at start. */
export const RESTORE_TRIGGER_FILE = "_restore";

export class CheckpointGate {
  /** Freezes in force: an open checkpoint counts one, each BACKUP copying the root one. */
  #holds = 0;
  #checkpoint = false;
  #writers = 0;
  #drained: (() => void)[] = [];
  #released: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  /** True while no file may change (a checkpoint is open or a BACKUP is copying). */
  get open(): boolean {
    return this.#holds > 0;
  }

  /** True while CHECKPOINT CREATE is in force (until RELEASE). */
  get checkpointOpen(): boolean {
    return this.#checkpoint;
  }

  /** When the open checkpoint was created (epoch microseconds), null without one: checkpoint_status(). */
  startedAt: bigint | null = null;

  /** Called before a write touches a file: waits while the files are frozen. */
  async enter(): Promise<void> {
    while (this.#holds > 0) await this.#released;
    this.#writers++;
  }

  /** Called when that write is done (committed or rolled back). */
  leave(): void {
    this.#writers--;
    if (this.#writers === 0) { for (const d of this.#drained.splice(0)) d(); }
  }

  /**
   * Freezes the files once the writes in flight have finished; later writes wait until every
   * freeze is thawed. Freezes nest: a BACKUP may copy while a checkpoint is open.
   */
  async freeze(): Promise<void> {
    if (this.#holds++ === 0) this.#released = new Promise((resolve) => this.#release = resolve);
    while (this.#writers > 0) await new Promise<void>((resolve) => this.#drained.push(resolve));
  }

  /** Ends one freeze; held writes proceed when it was the last. */
  thaw(): void {
    if (this.#holds === 0) return;
    if (--this.#holds === 0) this.#release?.();
  }

  /** CHECKPOINT CREATE: one freeze until release(). */
  async create(): Promise<void> {
    // QuestDB DatabaseCheckpointAgent.checkpointCreate's text for a second CREATE.
    if (this.#checkpoint) throw new SqlError("Waiting for CHECKPOINT RELEASE to be called", 0);
    this.#checkpoint = true;
    this.startedAt = BigInt(Date.now()) * 1000n;
    await this.freeze();
  }

  /** Closes the checkpoint; without an open checkpoint it does nothing. */
  release(): void {
    if (!this.#checkpoint) return;
    this.#checkpoint = false;
    this.startedAt = null;
    this.thaw();
  }
}

const gates = new Map<string, CheckpointGate>();

/** The gate of the data root at `root` (as the storage was opened with it). */
export function checkpointGate(root: string): CheckpointGate {
  let g = gates.get(root);
  if (!g) gates.set(root, g = new CheckpointGate());
  return g;
}

/** Runs a write under the gate of `root`. */
export async function gated<T>(root: string, work: () => Promise<T>): Promise<T> {
  const gate = checkpointGate(root);
  await gate.enter();
  try {
    return await work();
  } finally {
    gate.leave();
  }
}

/**
 * CHECKPOINT CREATE on `root`: waits for writes in flight, then writes `.checkpoint/_meta`
 * (when and the table transaction numbers at that moment, for the person restoring) and syncs.
 */
export async function createCheckpoint(root: string, txns: () => Record<string, number>): Promise<void> {
  const gate = checkpointGate(root);
  await gate.create();
  try {
    const dir = joinPath(root, CHECKPOINT_DIR);
    await removePath(dir);
    await Deno.mkdir(dir, { recursive: true });
    const meta = { createdAt: new Date().toISOString(), tables: txns() };
    await writeFileSynced(joinPath(dir, "_meta"), new TextEncoder().encode(JSON.stringify(meta)));
    await syncDir(dir);
    await syncDir(root);
  } catch (e) {
    gate.release();
    throw e;
  }
}

/** CHECKPOINT RELEASE: removes `.checkpoint` and lets held writes run. */
export async function releaseCheckpoint(root: string): Promise<void> {
  const gate = checkpointGate(root);
  if (!gate.checkpointOpen) return;
  try {
    await removePath(joinPath(root, CHECKPOINT_DIR));
  } finally {
    gate.release();
  }
}

/**
 * At start: a root copied during a checkpoint holds `.checkpoint`. With the `_restore` trigger
 * file the copy is accepted (recovery already trusts only each table's transaction file, and
 * nothing changed under the checkpoint) and both are removed. Without it, a `.checkpoint` left
 * behind means the server stopped with a checkpoint open, which is harmless: it is removed.
 * Returns true when a restore was done.
 */
export async function finishRestore(root: string): Promise<boolean> {
  let restored = false;
  try {
    await Deno.stat(joinPath(root, RESTORE_TRIGGER_FILE));
    restored = true;
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  await removePath(joinPath(root, CHECKPOINT_DIR));
  if (restored) {
    await removePath(joinPath(root, RESTORE_TRIGGER_FILE));
    log("A", "checkpoint", `restored the root from a checkpoint copy [root=${root}]`);
  }
  return restored;
}

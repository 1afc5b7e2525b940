/**
 * What one commit has written so far, so that a failure can take it all back: undo steps
 * (truncate files appended in place, remove new folders and files), and the paths the commit
 * makes obsolete once it is in force (docs/storage.md "Commit").
 */
import { exists, joinPath, removePath } from "./_fs.ts";
import { partitionDirName } from "./dir_name.ts";

export class WriteSet {
  readonly tablePath: string;
  readonly #undo: (() => Promise<unknown>)[] = [];
  /** Paths relative to the table folder to delete once no snapshot can read them. */
  readonly obsolete: string[] = [];
  /** True when a folder was created in the table folder (its entry needs an fsync). */
  dirsCreated = false;
  /** True once the transaction file names this write: from then on it must not be undone. */
  committed = false;
  #versionNext: number;

  constructor(tablePath: string, versionNext: number) {
    this.tablePath = tablePath;
    this.#versionNext = versionNext;
  }

  get versionNext(): number {
    return this.#versionNext;
  }

  /** Registers a step that undoes a write; steps run newest first on rollback. */
  onRollback(step: () => Promise<unknown>): void {
    this.#undo.push(step);
  }

  /**
   * Creates the folder for a new version of partition `name`: the bare name when no folder by
   * that name exists (a first write), else `name.N` with a fresh N, so that a folder a live
   * snapshot still reads is never reused.
   */
  async createPartitionDir(name: string): Promise<{ version: number; path: string }> {
    let version = 0;
    if (await exists(joinPath(this.tablePath, name))) version = this.#versionNext++;
    const path = joinPath(this.tablePath, partitionDirName(name, version));
    this.onRollback(() => removePath(path));
    await Deno.mkdir(path);
    this.dirsCreated = true;
    return { version, path };
  }

  /** A fresh version number for a partition version without a local folder (a remote one). */
  newVersion(): number {
    return this.#versionNext++;
  }

  /** Runs the undo steps; the first error is rethrown after all have run. */
  async rollback(): Promise<void> {
    let first: unknown;
    for (const step of this.#undo.reverse()) {
      try {
        await step();
      } catch (e) {
        first ??= e;
      }
    }
    this.#undo.length = 0;
    if (first !== undefined) throw first;
  }
}

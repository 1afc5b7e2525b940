/**
 * CHECKPOINT CREATE / RELEASE and BACKUP TABLE / DATABASE (spec/sql.md §5.5): operations on the
 * data root as a whole, for backups taken by an external file copy or by the server.
 */
import { SqlError } from "./base/errors.ts";
import { log } from "./base/log.ts";
import type { BackupStmt, CheckpointStmt } from "./sql/ast.ts";
import type { Storage } from "./storage/api.ts";
import { createCheckpoint, releaseCheckpoint } from "./storage/checkpoint.ts";
import { backup } from "./storage/backup.ts";
import type { Session } from "./session.ts";

export interface OperationsOptions {
  /** `cairo.sql.backup.root` */
  backupRoot?: string;
  /** `cairo.sql.backup.dir.datetime.format` (default `yyyy-MM-dd`). */
  backupDirFormat?: string;
  /** `cairo.sql.backup.dir.tmp.name` (default `tmp`). */
  backupTmpName?: string;
}

export class Operations {
  readonly #storage: Storage;
  readonly #options: OperationsOptions;

  constructor(storage: Storage, options: OperationsOptions) {
    this.#storage = storage;
    this.#options = options;
  }

  async run(stmt: CheckpointStmt | BackupStmt, session: Session): Promise<{ kind: "ddl" }> {
    // Both freeze or copy every table: the database-level BACKUP DATABASE permission (security.md §2.2).
    const can = session.principal.can;
    if (can && !can.call(session.principal, "BACKUP DATABASE")) {
      throw new SqlError(
        `Access denied for ${session.principal.name} [BACKUP DATABASE]`,
        stmt.pos,
        "permission",
      );
    }
    if (stmt.kind === "checkpoint") {
      if (stmt.action === "create") await createCheckpoint(this.#storage.root, () => this.#txns());
      else await releaseCheckpoint(this.#storage.root);
      log(
        "A",
        "checkpoint",
        `${stmt.action === "create" ? "created" : "released"} [user=${session.principal.name}]`,
      );
      return { kind: "ddl" };
    }
    return await this.#backup(stmt, session);
  }

  /** BACKUP TABLE t, ... | BACKUP DATABASE into `cairo.sql.backup.root` (storage/backup.ts). */
  async #backup(stmt: BackupStmt, session: Session): Promise<{ kind: "ddl" }> {
    const backupRoot = this.#options.backupRoot;
    if (!backupRoot) {
      throw new SqlError("backup is disabled, server.conf property 'cairo.sql.backup.root' is not set", 0);
    }
    const named = stmt.tables;
    for (const t of named ?? []) {
      if (!this.#storage.table(t.name)) throw new SqlError(`table does not exist [table=${t.name}]`, t.pos);
    }
    await backup({
      root: this.#storage.root,
      backupRoot,
      // Resolved under the freeze: a table dropped meanwhile is simply not copied.
      tableDirs: () =>
        named
          ? named.flatMap((t) => this.#storage.table(t.name)?.meta.dirName ?? [])
          : this.#storage.tables().map((m) => m.dirName),
      dirFormat: this.#options.backupDirFormat,
      tmpName: this.#options.backupTmpName,
      user: session.principal.name,
    });
    return { kind: "ddl" };
  }

  /** Transaction number of every table, recorded in the checkpoint for whoever restores it. */
  #txns(): Record<string, number> {
    const txns: Record<string, number> = {};
    for (const m of this.#storage.tables()) txns[m.name] = this.#storage.table(m.name)?.txn ?? 0;
    return txns;
  }
}

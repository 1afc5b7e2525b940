/**
 * CHECKPOINT CREATE / RELEASE and BACKUP TABLE / DATABASE (spec/sql.md §5.5): operations on the
 * data root as a whole, for backups taken by the server or by an external file copy.
 */
import { SqlError } from "./base/errors.ts";
import type { BackupStmt, CheckpointStmt } from "./sql/ast.ts";
import type { Storage } from "./storage/api.ts";
import type { Session } from "./session.ts";

export interface OperationsOptions {
  /** `cairo.sql.backup.root` */
  backupRoot?: string;
}

export class Operations {
  readonly #storage: Storage;
  readonly #options: OperationsOptions;

  constructor(storage: Storage, options: OperationsOptions) {
    this.#storage = storage;
    this.#options = options;
  }

  run(stmt: CheckpointStmt | BackupStmt, _session: Session): Promise<{ kind: "ddl" }> {
    void this.#storage;
    void this.#options;
    const what = stmt.kind === "checkpoint" ? "CHECKPOINT" : "BACKUP";
    return Promise.reject(new SqlError(`${what} is not supported yet`, stmt.pos));
  }
}

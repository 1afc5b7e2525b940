/**
 * Names of things on disk: table folders, partition version folders, column and dictionary
 * files (docs/storage.md "Layout").
 *
 * A table name may hold anything a quoted identifier can (`/`, `..`, spaces, non-ASCII), so
 * the folder name is a sanitized prefix plus `~` and the table id: unique, stable across
 * RENAME TABLE, and safe on every file system.
 */

/** Longest sanitized name prefix kept in a table folder name. */
const DIR_PREFIX_LENGTH_MAX = 40;
/** Table folders end in `~<id>`; nothing else in the root is mistaken for a table. */
const TABLE_DIR_PATTERN = /~(\d+)$/;

/** The folder name of a table: `[A-Za-z0-9_-]` kept, anything else becomes `_`, then `~id`. */
export function tableDirName(name: string, id: number): string {
  const safe = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, DIR_PREFIX_LENGTH_MAX);
  return `${safe}~${id}`;
}

/** The table id encoded in a folder name, or undefined when the folder is not a table's. */
export function tableIdOfDir(dirName: string): number | undefined {
  const m = TABLE_DIR_PATTERN.exec(dirName);
  return m ? Number(m[1]) : undefined;
}

/** The folder of one version of a partition: version 0 is the bare name, later ones `name.N`. */
export function partitionDirName(name: string, version: number): string {
  return version === 0 ? name : `${name}.${version}`;
}

/** The data file of a column (fixed-width values, or var-size records). */
export function dataFileName(columnId: number): string {
  return `${columnId}.d`;
}

/** The offsets file of a var-size column (STRING, VARCHAR, BINARY). */
export function indexFileName(columnId: number): string {
  return `${columnId}.i`;
}

/** The dictionary file of a SYMBOL column, in the table folder. */
export function symbolFileName(columnId: number): string {
  return `${columnId}.sym`;
}

/** The metadata file of one metadata version, in the table folder. */
export function metaFileName(version: number): string {
  return `_meta.${version}`;
}

/** The transaction file, the one root of trust of a table. */
export const TXN_FILE = "_txn";
/** The root file holding the next table id. */
export const IDS_FILE = "_ids";

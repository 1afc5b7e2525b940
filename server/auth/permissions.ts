/**
 * The permission catalogue of security.md §2: every name with its granularity (D database
 * only, T database or table, C database, table or column), and the greedy reading of
 * multi-word names (`ALTER COLUMN TYPE`, `DATABASE ADMIN`) from a statement's words.
 */

export type Granularity = "D" | "T" | "C";

export const CATALOGUE: ReadonlyMap<string, Granularity> = new Map<string, Granularity>([
  // §2.1 endpoints
  ["HTTP", "D"],
  ["PGWIRE", "D"],
  ["ILP", "D"],
  // §2.2 data and DDL
  ["SELECT", "C"],
  ["INSERT", "T"],
  ["UPDATE", "C"],
  ["CREATE TABLE", "D"],
  ["DROP TABLE", "T"],
  ["TRUNCATE TABLE", "T"],
  ["RENAME TABLE", "T"],
  ["ADD COLUMN", "T"],
  ["DROP COLUMN", "C"],
  ["RENAME COLUMN", "C"],
  ["ALTER COLUMN TYPE", "C"],
  ["ALTER COLUMN CACHE", "C"],
  ["ADD INDEX", "C"],
  ["DROP INDEX", "C"],
  ["REINDEX", "C"],
  ["ATTACH PARTITION", "T"],
  ["DETACH PARTITION", "T"],
  ["DROP PARTITION", "T"],
  ["DEDUP ENABLE", "T"],
  ["DEDUP DISABLE", "T"],
  ["SET TABLE PARAM", "T"],
  ["SET TABLE TYPE", "T"],
  ["RESUME WAL", "T"],
  ["VACUUM TABLE", "T"],
  ["CREATE MATERIALIZED VIEW", "D"],
  ["DROP MATERIALIZED VIEW", "T"],
  ["REFRESH MATERIALIZED VIEW", "T"],
  ["CREATE VIEW", "D"],
  ["ALTER VIEW", "T"],
  ["DROP VIEW", "T"],
  ["BACKUP DATABASE", "D"],
  ["SNAPSHOT", "D"],
  ["CANCEL ANY COPY", "D"],
  // CANCEL QUERY of another user's statement (engine/activity.ts; the name for it).
  ["CANCEL ANY COMMAND", "D"],
  ["SQL ENGINE ADMIN", "D"],
  ["SYSTEM ADMIN", "D"],
  ["SETTINGS", "D"],
  // §2.3 user management
  ["CREATE USER", "D"],
  ["DROP USER", "D"],
  ["ENABLE USER", "D"],
  ["DISABLE USER", "D"],
  ["ADD PASSWORD", "D"],
  ["REMOVE PASSWORD", "D"],
  ["CREATE JWK", "D"],
  ["DROP JWK", "D"],
  ["CREATE REST TOKEN", "D"],
  ["DROP REST TOKEN", "D"],
  ["CREATE GROUP", "D"],
  ["DROP GROUP", "D"],
  ["ADD USER", "D"],
  ["REMOVE USER", "D"],
  ["CREATE SERVICE ACCOUNT", "D"],
  ["DROP SERVICE ACCOUNT", "D"],
  ["ADD EXTERNAL ALIAS", "D"],
  ["REMOVE EXTERNAL ALIAS", "D"],
  ["LIST USERS", "D"],
  ["USER DETAILS", "D"],
  // §2.4
  ["DATABASE ADMIN", "D"],
]);

/** Names by word count, longest first, so that reading is greedy. */
const BY_LENGTH = [...CATALOGUE.keys(), "ALL"].map((n) => n.split(" ")).sort((a, b) => b.length - a.length);

/**
 * Reads the permission name starting at `words[at]` (upper-cased words); returns it and the
 * number of words it took, or undefined when no name starts there.
 */
export function readPermission(words: string[], at: number): { name: string; length: number } | undefined {
  for (const parts of BY_LENGTH) {
    if (parts.every((p, k) => words[at + k] === p)) return { name: parts.join(" "), length: parts.length };
  }
  return undefined;
}

/** The level a grant is made at. */
export type Level = "database" | "table" | "column";

/** True when a permission may be granted at `level`. */
export function grantableAt(permission: string, level: Level): boolean {
  const g = CATALOGUE.get(permission);
  if (!g) return false;
  if (level === "database") return true;
  if (level === "table") return g !== "D";
  return g === "C";
}

/** `ALL` at a level: every permission applicable there (a snapshot, security.md §2.4). */
export function allAt(level: Level): string[] {
  return [...CATALOGUE.keys()].filter((p) => p !== "DATABASE ADMIN" && grantableAt(p, level));
}

/**
 * Users, groups, service accounts, grants, group membership and external aliases
 * (security.md §1, §3), kept in one JSON file in the data root. Every change writes a new
 * file and replaces the old one atomically (write a temporary file, fsync, rename, fsync the
 * folder), so a crash leaves either the old or the new state, never a torn one. Passwords are
 * stored only as salted PBKDF2 hashes (password.ts).
 */
import type { PasswordHash } from "./password.ts";
import type { ScramVerifier } from "../scram.ts";
import type { StoredToken } from "./rest_tokens.ts";

export type EntityKind = "user" | "group" | "service account";

export interface Entity {
  kind: EntityKind;
  name: string;
  enabled: boolean;
  password?: PasswordHash;
  /**
   * SCRAM-SHA-256 verifier of the same password, for pgwire with pg.auth.method=scram
   * (server/scram.ts). Missing for passwords set before SCRAM support: set them again.
   */
  scram?: ScramVerifier;
  /** Cookie sessions opened and REST tokens issued before this time (ms) are dead: set at CREATE and DISABLE (T10). */
  sessionsFrom?: number;
}

export interface Grant {
  entity: string;
  permission: string;
  /** Undefined at database level. Compared case-insensitively, as table names are. */
  table?: string;
  /** Undefined at database and table level. */
  column?: string;
  grantOption: boolean;
}

export interface AclData {
  version: 1;
  entities: Entity[];
  grants: Grant[];
  members: { user: string; group: string }[];
  aliases: { alias: string; group: string }[];
  /** `GRANT ASSUME SERVICE ACCOUNT account TO entity` (security.md §4.5). */
  assumes: Assume[];
  /** REST tokens, as digests (rest_tokens.ts); transient ones are never written. */
  tokens: StoredToken[];
  /** JWK public keys for ILP over TCP (jwk_tokens.ts); the private key is never kept. */
  jwks: { entity: string; x: string; y: string }[];
}

export interface Assume {
  entity: string;
  account: string;
  grantOption: boolean;
}

export const STORE_FILE = "acl.json";

function empty(): AclData {
  return {
    version: 1,
    entities: [],
    grants: [],
    members: [],
    aliases: [],
    assumes: [],
    tokens: [],
    jwks: [],
  };
}

export function sameName(a: string | undefined, b: string | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase());
}

/** True when `g` covers `permission` at the table/column asked (a higher level covers lower ones). */
export function covers(g: Grant, permission: string, table?: string, column?: string): boolean {
  if (g.permission !== permission) return false;
  if (g.table === undefined) return true;
  if (table === undefined || !sameName(g.table, table)) return false;
  if (g.column === undefined) return true;
  return column !== undefined && sameName(g.column, column);
}

/** The access list of a set of grants: DATABASE ADMIN holds everything, with grant option. */
export function holds(
  grants: Grant[],
  permission: string,
  table?: string,
  column?: string,
  grantOption = false,
): boolean {
  return grants.some((g) =>
    (g.permission === "DATABASE ADMIN" || covers(g, permission, table, column)) &&
    (!grantOption || g.grantOption)
  );
}

export class AclStore {
  readonly #path: string;
  #data: AclData;
  #writing: Promise<void> = Promise.resolve();

  private constructor(path: string, data: AclData) {
    this.#path = path;
    this.#data = data;
  }

  /** Opens (or starts empty) the store file `acl.json` in `root`. */
  static async open(root: string): Promise<AclStore> {
    const path = `${root}/${STORE_FILE}`;
    let data = empty();
    try {
      data = { ...empty(), ...JSON.parse(await Deno.readTextFile(path)) };
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) {
        throw new Error(`cannot read ${path}: ${(err as Error).message}`);
      }
    }
    return new AclStore(path, data);
  }

  /** The current state; treat as read-only (changes go through `update`). */
  get data(): Readonly<AclData> {
    return this.#data;
  }

  entity(name: string): Entity | undefined {
    return this.#data.entities.find((e) => e.name === name);
  }

  /** Groups a user is a member of. */
  groupsOf(user: string): string[] {
    return this.#data.members.filter((m) => m.user === user).map((m) => m.group);
  }

  membersOf(group: string): string[] {
    return this.#data.members.filter((m) => m.group === group).map((m) => m.user);
  }

  /** Groups mapped by external aliases (exact string match; never by group name, T8). */
  groupsOfAliases(aliases: string[]): string[] {
    const set = new Set(aliases);
    return [...new Set(this.#data.aliases.filter((a) => set.has(a.alias)).map((a) => a.group))];
  }

  /** Grants held directly by the named entities. */
  grantsOf(names: string[]): Grant[] {
    const set = new Set(names);
    return this.#data.grants.filter((g) => set.has(g.entity));
  }

  /** ASSUME grants held directly by the named entities. */
  assumesOf(names: string[]): Assume[] {
    const set = new Set(names);
    return this.#data.assumes.filter((a) => set.has(a.entity));
  }

  /**
   * Applies `change` to a copy of the state, writes it durably, then makes it current;
   * changes run one at a time. An error thrown by `change` leaves everything as it was.
   */
  update<R>(change: (data: AclData) => R): Promise<R> {
    const run = this.#writing.then(async () => {
      const next = structuredClone(this.#data);
      const result = change(next);
      await writeAtomic(this.#path, JSON.stringify(next, null, 1));
      this.#data = next;
      return result;
    });
    this.#writing = run.then(() => {}, () => {});
    return run;
  }
}

/** Write temp, fsync, rename over the target, fsync the folder. */
async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.tmp`;
  const file = await Deno.open(tmp, { write: true, create: true, truncate: true, mode: 0o600 });
  try {
    const bytes = new TextEncoder().encode(text);
    let offset = 0;
    while (offset < bytes.length) offset += await file.write(bytes.subarray(offset));
    await file.sync();
  } finally {
    file.close();
  }
  await Deno.rename(tmp, path);
  const dir = path.slice(0, path.lastIndexOf("/")) || ".";
  try {
    const d = await Deno.open(dir, { read: true });
    try {
      await d.sync();
    } finally {
      d.close();
    }
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

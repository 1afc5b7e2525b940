/**
 * `ALTER USER|SERVICE ACCOUNT name CREATE TOKEN TYPE {REST WITH TTL '<ttl>' [REFRESH]
 * [TRANSIENT] | JWK}` and `... DROP TOKEN TYPE {REST ['<token>'] | JWK}` (security.md §4.1,
 * §4.2). Principals manage their own REST tokens freely (the Web Console logs in by creating
 * one) and may drop their own JWK; creating a JWK, and anything for others, needs CREATE/DROP
 * REST TOKEN or CREATE/DROP JWK. The built-in admin's tokens
 * are the admin's alone. The secret is returned once, in the result row, and never stored.
 */
import { type AclResult, SqlError, T } from "../../engine/mod.ts";
import type { AclStore } from "./acl_store.ts";
import type { Words } from "./acl_words.ts";
import type { JwkKeys } from "./jwk_keys.ts";
import { parseTtl, type RestTokens } from "./rest_tokens.ts";

export interface TokenTarget {
  name: { name: string; pos: number };
  kind: "user" | "service account";
}

export interface TokenContext {
  store: AclStore;
  tokens: RestTokens;
  jwks: JwkKeys;
  adminName: string;
  /** Throws unless the actor holds the permission. */
  need(permission: string, pos: number): void;
  /** The logged-in principal managing its own tokens; undefined while a service account is assumed. */
  actorName: string | undefined;
}

/** Handles the words from CREATE/DROP on. */
export async function tokenStatement(w: Words, target: TokenTarget, c: TokenContext): Promise<AclResult> {
  const create = w.accept("CREATE");
  if (!create) w.expect("DROP");
  w.expect("TOKEN", "TYPE");
  const rest = w.accept("REST");
  if (!rest) w.expect("JWK");
  const self = target.name.name === c.actorName;
  if (target.name.name === c.adminName && !self) {
    throw new SqlError("the built-in admin cannot be changed", target.name.pos, "permission");
  }
  // A principal's own REST tokens are free (the Web Console logs in by creating one), and so is
  // dropping its own key. A JWK is a lasting credential of its own (ILP over TCP), so creating
  // one needs CREATE JWK even for oneself (security.md §2.3, issue #24).
  const free = self && (rest || !create);
  if (!free) c.need(`${create ? "CREATE" : "DROP"} ${rest ? "REST TOKEN" : "JWK"}`, target.name.pos);
  if (target.name.name !== c.adminName) {
    const e = c.store.entity(target.name.name);
    if (!e || e.kind !== target.kind) {
      throw new SqlError(`${target.kind} does not exist [name=${target.name.name}]`, target.name.pos);
    }
  }
  const entity = target.name.name;
  if (rest && create) {
    w.expect("WITH", "TTL");
    const pos = w.pos();
    const ttl = parseTtl(w.literal("ttl"));
    if (ttl === undefined) {
      throw new SqlError("invalid TTL, expected '<n><s|m|h|d>' between 1 minute and 3650 days", pos);
    }
    let refresh = false, transient = false;
    while (!w.atEnd()) {
      if (w.accept("REFRESH")) refresh = true;
      else if (w.accept("TRANSIENT")) transient = true;
      else throw w.error("'REFRESH' or 'TRANSIENT' expected");
    }
    const made = await c.tokens.create(entity, ttl, refresh, transient);
    return {
      kind: "rows",
      columns: [
        { name: "name", type: T.STRING },
        { name: "token", type: T.STRING },
        { name: "expires_at", type: T.TIMESTAMP },
        { name: "refresh", type: T.BOOLEAN },
      ],
      rows: [[entity, made.token, BigInt(made.expiresAt) * 1000n, refresh]],
    };
  }
  if (rest) {
    const token = w.atEnd() ? undefined : w.literal("token");
    w.expectEnd();
    if (!(await c.tokens.drop(entity, token)) && token !== undefined) {
      throw new SqlError("token does not exist", target.name.pos); // never echo the token (T18)
    }
    return { kind: "ddl" };
  }
  w.expectEnd();
  if (!create) {
    await c.jwks.drop(entity);
    return { kind: "ddl" };
  }
  const keys = await c.jwks.create(entity);
  return {
    kind: "rows",
    columns: [
      { name: "name", type: T.STRING },
      { name: "public_key_x", type: T.STRING },
      { name: "public_key_y", type: T.STRING },
      { name: "private_key", type: T.STRING },
    ],
    rows: [[entity, keys.x, keys.y, keys.d]],
  };
}

/**
 * Service-account assumption (security.md §3.4, §3.9, §4.5, T12): `GRANT/REVOKE ASSUME
 * SERVICE ACCOUNT sa TO|FROM user_or_group [WITH GRANT OPTION]`, `ASSUME SERVICE ACCOUNT sa`,
 * `EXIT SERVICE ACCOUNT [sa]`, the owner grant a creator receives, and the rows of
 * `SHOW SERVICE ACCOUNTS entity`. Assuming replaces the session's permissions with the
 * account's own (never a union) until EXIT; it lasts as long as the principal does: the
 * pgwire connection, or one REST request.
 */
import { type AclResult, type Principal, SqlError, T } from "../../engine/mod.ts";
import type { AclData, AclStore } from "./acl_store.ts";
import type { Words } from "./acl_words.ts";
import type { Identity, Principals } from "./principals.ts";

export type Actor = { identity: Identity; name: string };

const PERMISSION = "ASSUME SERVICE ACCOUNT";

export class ServiceAccounts {
  constructor(readonly store: AclStore, readonly principals: Principals) {}

  /** `GRANT|REVOKE ASSUME SERVICE ACCOUNT sa TO|FROM entity [WITH GRANT OPTION]` (w after GRANT/REVOKE). */
  async grant(w: Words, actor: Actor, revoke: boolean): Promise<AclResult> {
    w.expect("ASSUME", "SERVICE", "ACCOUNT");
    const account = w.name("service account name");
    w.expect(revoke ? "FROM" : "TO");
    const entity = w.name("user or group name");
    const grantOption = !revoke && w.accept("WITH", "GRANT", "OPTION");
    w.expectEnd();
    this.#existingAccount(this.store.data, account);
    // T11/T12: passing the right on needs it with grant option (DATABASE ADMIN, admin included).
    if (!this.principals.canAssume(actor.identity, account.name, true)) {
      throw new SqlError(
        `Access denied for ${actor.name} [${PERMISSION} ${account.name} WITH GRANT OPTION]`,
        account.pos,
        "permission",
      );
    }
    await this.store.update((d) => {
      const target = d.entities.find((e) => e.name === entity.name);
      if (target?.kind === "service account") {
        throw new SqlError("service accounts cannot assume service accounts", entity.pos);
      }
      d.assumes = d.assumes.filter((a) => !(a.entity === entity.name && a.account === account.name));
      if (!revoke) d.assumes.push({ entity: entity.name, account: account.name, grantOption });
    });
    return { kind: "ddl" };
  }

  /** The creator (or the OWNED BY user/group) may assume, with grant option (§3.4). */
  ownerGrant(d: AclData, account: string, owner: string | undefined, actor: Actor, pos: number): void {
    if (owner === undefined) {
      if (actor.identity.kind === "external") {
        throw new SqlError("external users must name an owner: CREATE SERVICE ACCOUNT ... OWNED BY", pos);
      }
      if (actor.identity.kind !== "user") return; // the built-in admin may assume anything
      owner = actor.identity.name;
    } else {
      const e = d.entities.find((x) => x.name === owner);
      if (!e || e.kind === "service account") {
        throw new SqlError(`owner must be an existing user or group [name=${owner}]`, pos);
      }
    }
    d.assumes = d.assumes.filter((a) => !(a.entity === owner && a.account === account));
    d.assumes.push({ entity: owner, account, grantOption: true });
  }

  /** `ASSUME SERVICE ACCOUNT sa` (w after the verb). */
  assume(w: Words, principal: Principal): AclResult {
    const account = w.name("service account name");
    w.expectEnd();
    const self = this.principals.loggedInOf(principal);
    if (!self) throw new SqlError("ASSUME SERVICE ACCOUNT needs a logged-in user", account.pos);
    const e = this.#existingAccount(this.store.data, account);
    if (!this.principals.canAssume(self, account.name)) {
      throw new SqlError(
        `Access denied for ${self.name} [${PERMISSION} ${account.name}]`,
        account.pos,
        "permission",
      );
    }
    if (!e.enabled) {
      throw new SqlError(`service account is disabled [name=${account.name}]`, account.pos, "permission");
    }
    this.principals.assume(principal, account.name);
    return { kind: "ddl" };
  }

  /** `EXIT SERVICE ACCOUNT [sa]`: back to the logged-in user's own permissions. */
  exit(w: Words, principal: Principal): AclResult {
    const named = w.atEnd() ? undefined : w.name("service account name");
    w.expectEnd();
    const acting = this.principals.identityOf(principal);
    const self = this.principals.loggedInOf(principal);
    if (!acting || acting === self || acting.kind !== "service account") {
      throw new SqlError("no service account is assumed", named?.pos ?? w.pos());
    }
    if (named && named.name !== acting.name) {
      throw new SqlError(`service account is not assumed [name=${named.name}]`, named.pos);
    }
    this.principals.assume(principal, undefined);
    return { kind: "ddl" };
  }

  /** `SHOW SERVICE ACCOUNTS entity`: what it may assume (own and, for users, via groups). */
  showFor(entity: string): AclResult {
    const e = this.store.entity(entity);
    const names = e?.kind === "user" ? [entity, ...this.store.groupsOf(entity)] : [entity];
    const best = new Map<string, boolean>();
    for (const a of this.store.assumesOf(names)) {
      best.set(a.account, (best.get(a.account) ?? false) || a.grantOption);
    }
    return {
      kind: "rows",
      columns: [{ name: "name", type: T.STRING }, { name: "grant_option", type: T.BOOLEAN }],
      rows: [...best].sort((a, b) => a[0].localeCompare(b[0])).map(([n, g]) => [n, g]),
    };
  }

  #existingAccount(d: Readonly<AclData>, account: { name: string; pos: number }) {
    const e = d.entities.find((x) => x.name === account.name && x.kind === "service account");
    if (!e) throw new SqlError(`service account does not exist [name=${account.name}]`, account.pos);
    return e;
  }
}

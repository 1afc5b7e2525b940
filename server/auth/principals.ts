/**
 * Turns an authenticated identity (the built-in admin, a stored user or service account, or
 * an external OIDC user with its mapped groups) into the engine's Principal, whose `can`
 * reads the store on every call: a REVOKE, DISABLE or DROP takes effect on the very next
 * statement of an open connection (security.md T10).
 */
import type { Principal } from "../../engine/mod.ts";
import { type AclStore, type Grant, holds, sameName } from "./acl_store.ts";
import { CATALOGUE } from "./permissions.ts";

export interface Identity {
  kind: "admin" | "user" | "service account" | "external";
  name: string;
  /** QuestDB groups: stored membership for users; mapped through external aliases for OIDC users. */
  groups: string[];
}

export class Principals {
  readonly #store: AclStore;
  readonly #identities = new WeakMap<Principal, Identity>();
  /** Principal → the service account it assumed (security.md §3.9, §4.5). */
  readonly #assumed = new WeakMap<Principal, Identity>();

  constructor(store: AclStore) {
    this.#store = store;
  }

  /**
   * The engine-facing principal of an identity. Name, groups and permissions are read through
   * the assumed service account while there is one; the logged-in identity must stay enabled.
   */
  principalOf(identity: Identity): Principal {
    // deno-lint-ignore no-this-alias -- the getters below run with `this` = the principal
    const principals = this;
    const acting = () => principals.identityOf(principal) ?? identity;
    const principal: Principal = {
      get name() {
        return acting().name;
      },
      get groups() {
        return principals.groupsOf(acting());
      },
      can: (permission, table, column) =>
        this.enabled(identity) && this.can(acting(), permission, table, column),
      sees: (table) => this.enabled(identity) && this.sees(acting(), table),
      // The login itself: a disabled assumed account still lets its assumer EXIT.
      active: () => this.enabled(identity),
    };
    this.#identities.set(principal, identity);
    return principal;
  }

  /**
   * The identity a principal made here acts as: the assumed service account, else the one
   * that logged in; undefined for other principals (adminSession).
   */
  identityOf(principal: Principal): Identity | undefined {
    return this.#assumed.get(principal) ?? this.#identities.get(principal);
  }

  /** The identity that logged in, whatever it assumed. */
  loggedInOf(principal: Principal): Identity | undefined {
    return this.#identities.get(principal);
  }

  /** Starts (a name) or ends (undefined) acting as a service account; checks are the caller's. */
  assume(principal: Principal, account: string | undefined): void {
    if (account === undefined) this.#assumed.delete(principal);
    else this.#assumed.set(principal, { kind: "service account", name: account, groups: [] });
  }

  /** May assume the service account: an ASSUME grant (own or a group's), DATABASE ADMIN, or admin. */
  canAssume(identity: Identity, account: string, grantOption = false): boolean {
    if (identity.kind === "admin") return true;
    if (!this.enabled(identity)) return false;
    const names = identity.kind === "external"
      ? identity.groups
      : [identity.name, ...this.groupsOf(identity)];
    if (holds(this.#store.grantsOf(names), "DATABASE ADMIN", undefined, undefined, grantOption)) return true;
    return this.#store.assumesOf(names).some((a) => a.account === account && (!grantOption || a.grantOption));
  }

  groupsOf(identity: Identity): string[] {
    if (identity.kind === "user") return this.#store.groupsOf(identity.name);
    if (identity.kind === "external") return identity.groups;
    return [];
  }

  /** Still allowed to act: stored principals must exist and be enabled. */
  enabled(identity: Identity): boolean {
    if (identity.kind === "admin" || identity.kind === "external") return true;
    const e = this.#store.entity(identity.name);
    return e !== undefined && e.kind === identity.kind && e.enabled;
  }

  /** Own grants plus those of the groups (service accounts never inherit, §3.9). */
  grantsOf(identity: Identity): Grant[] {
    if (identity.kind === "external") return this.#store.grantsOf(identity.groups);
    return this.#store.grantsOf([identity.name, ...this.groupsOf(identity)]);
  }

  can(identity: Identity, permission: string, table?: string, column?: string): boolean {
    if (identity.kind === "admin") return true;
    if (!this.enabled(identity)) return false;
    return holds(this.grantsOf(identity), permission, table, column);
  }

  /**
   * Any permission on the table: a database-level table/column permission, or any grant
   * naming the table (column-level included). Listings hide the other tables.
   */
  sees(identity: Identity, table: string): boolean {
    if (identity.kind === "admin") return true;
    if (!this.enabled(identity)) return false;
    return this.grantsOf(identity).some((g) =>
      g.permission === "DATABASE ADMIN" ||
      (g.table === undefined ? CATALOGUE.get(g.permission) !== "D" : sameName(g.table, table))
    );
  }

  canGrant(identity: Identity, permission: string, table?: string, column?: string): boolean {
    if (identity.kind === "admin") return true;
    if (!this.enabled(identity)) return false;
    return holds(this.grantsOf(identity), permission, table, column, true);
  }
}

/**
 * Turns an authenticated identity (the built-in admin, a stored user or service account, or
 * an external OIDC user with its mapped groups) into the engine's Principal, whose `can`
 * reads the store on every call: a REVOKE, DISABLE or DROP takes effect on the very next
 * statement of an open connection (security.md T10).
 */
import type { Principal } from "../../engine/mod.ts";
import { type AclStore, type Grant, holds } from "./acl_store.ts";

export interface Identity {
  kind: "admin" | "user" | "service account" | "external";
  name: string;
  /** QuestDB groups: stored membership for users; mapped through external aliases for OIDC users. */
  groups: string[];
}

export class Principals {
  readonly #store: AclStore;
  readonly #identities = new WeakMap<Principal, Identity>();

  constructor(store: AclStore) {
    this.#store = store;
  }

  /** The engine-facing principal of an identity. */
  principalOf(identity: Identity): Principal {
    const principal: Principal = {
      name: identity.name,
      groups: this.groupsOf(identity),
      can: (permission, table, column) => this.can(identity, permission, table, column),
    };
    this.#identities.set(principal, identity);
    return principal;
  }

  /** The identity behind a principal made here; undefined for others (adminSession). */
  identityOf(principal: Principal): Identity | undefined {
    return this.#identities.get(principal);
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

  canGrant(identity: Identity, permission: string, table?: string, column?: string): boolean {
    if (identity.kind === "admin") return true;
    if (!this.enabled(identity)) return false;
    return holds(this.grantsOf(identity), permission, table, column, true);
  }
}

/**
 * The engine-facing handler of access-control SQL (security.md §4): CREATE/ALTER/DROP USER and
 * SERVICE ACCOUNT, CREATE/ALTER/DROP GROUP with external aliases, ADD/REMOVE USER, GRANT and
 * REVOKE, and the SHOW statements of §4.6. Each statement first checks the user-management
 * permission it needs (§2.3); the built-in admin cannot be changed by anyone.
 */
import {
  type AccessControl,
  type AclRequest,
  type AclResult,
  type Session,
  SqlError,
  T,
} from "../../engine/mod.ts";
import { type AclData, type Entity, type EntityKind, type Grant } from "./acl_store.ts";
import type { AclStore } from "./acl_store.ts";
import { Words } from "./acl_words.ts";
import { addGrant, type Catalog, grantItems, parseGrant, removeGrant } from "./grant_statement.ts";
import { hashPassword } from "./password.ts";
import { scramVerifier } from "../scram.ts";
import { permissionRows } from "./show_permissions.ts";
import { ServiceAccounts } from "./service_accounts.ts";
import type { JwkKeys } from "./jwk_keys.ts";
import type { RestTokens } from "./rest_tokens.ts";
import { tokenStatement } from "./token_statements.ts";
import { allAt } from "./permissions.ts";
import type { Identity, Principals } from "./principals.ts";

export interface AclStatementsOptions {
  store: AclStore;
  principals: Principals;
  catalog: Catalog;
  /** Name of the built-in admin (acl.admin.user). */
  adminName: string;
  /** acl.password.hash.iteration.count */
  iterations: number;
  tokens: RestTokens;
  jwks: JwkKeys;
}

/** Who runs a statement; `assuming` when acting as an assumed service account (§4.5). */
type Actor = { identity: Identity; name: string; assuming: boolean };

export class AclStatements implements AccessControl {
  readonly #o: AclStatementsOptions;
  readonly #accounts: ServiceAccounts;

  constructor(options: AclStatementsOptions) {
    this.#o = options;
    this.#accounts = new ServiceAccounts(options.store, options.principals);
  }

  execute(request: AclRequest, session: Session): Promise<AclResult> {
    const actor = this.#actor(session);
    if (request.kind === "show") return Promise.resolve(this.#show(request, actor));
    const w = new Words(request.words, request.pos + request.verb.length);
    switch (request.verb) {
      case "create user":
        return this.#createEntity(w, actor, "user");
      case "create service account":
        return this.#createEntity(w, actor, "service account");
      case "alter user":
        return this.#alterEntity(w, actor, "user");
      case "alter service account":
        return this.#alterEntity(w, actor, "service account");
      case "drop user":
        return this.#dropEntity(w, actor, "user");
      case "drop service account":
        return this.#dropEntity(w, actor, "service account");
      case "create group":
        return this.#createGroup(w, actor);
      case "alter group":
        return this.#alterGroup(w, actor);
      case "drop group":
        return this.#dropEntity(w, actor, "group");
      case "add user":
        return this.#membership(w, actor, true);
      case "remove user":
        return this.#membership(w, actor, false);
      case "grant":
      case "revoke":
        if (w.keyword() === "ASSUME") return this.#accounts.grant(w, actor, request.verb === "revoke");
        return this.#grant(w, actor, request.verb === "revoke");
      case "assume service account":
        return Promise.resolve(this.#accounts.assume(w, session.principal));
      case "exit service account":
        return Promise.resolve(this.#accounts.exit(w, session.principal));
      default:
        throw new SqlError(`${request.verb.toUpperCase()} is not supported`, request.pos);
    }
  }

  /** Owner grants: the creator of a table gets every table-level permission on it with grant option (§3.4). */
  async tableCreated(table: string, session: Session): Promise<void> {
    const { identity } = this.#actor(session);
    if (identity.kind !== "user" && identity.kind !== "service account") return;
    await this.#o.store.update((d) => {
      for (const permission of allAt("table")) {
        addGrant(d, identity.name, { permission, pos: 0, target: { level: "table", table } }, true);
      }
    });
  }

  #actor(session: Session): Actor {
    const identity = this.#o.principals.identityOf(session.principal) ??
      // A principal without `can` is the engine's own (adminSession): everything is allowed.
      (session.principal.can
        ? { kind: "external" as const, name: session.principal.name, groups: [] }
        : { kind: "admin" as const, name: session.principal.name, groups: [] });
    const loggedIn = this.#o.principals.loggedInOf(session.principal);
    return {
      identity,
      name: session.principal.name,
      assuming: loggedIn !== undefined && loggedIn !== identity,
    };
  }

  #need(actor: Actor, permission: string, pos: number): void {
    if (!this.#o.principals.can(actor.identity, permission)) {
      throw new SqlError(`Access denied for ${actor.name} [${permission}]`, pos, "permission");
    }
  }

  #notAdmin(name: { name: string; pos: number }): void {
    if (name.name === this.#o.adminName) {
      throw new SqlError("the built-in admin cannot be changed", name.pos, "permission");
    }
  }

  async #createEntity(w: Words, actor: Actor, kind: "user" | "service account"): Promise<AclResult> {
    this.#need(actor, kind === "user" ? "CREATE USER" : "CREATE SERVICE ACCOUNT", w.pos());
    const ifNotExists = w.accept("IF", "NOT", "EXISTS");
    const name = w.name(`${kind} name`);
    this.#notAdmin(name);
    const password = this.#passwordClause(w);
    const owner = kind === "service account" && w.accept("OWNED", "BY") ? w.name("owner name") : undefined;
    w.expectEnd();
    const hash = password ? await hashPassword(password, this.#o.iterations) : undefined;
    const scram = password ? await scramVerifier(password) : undefined;
    await this.#o.store.update((d) => {
      const existing = d.entities.find((e) => e.name === name.name);
      if (existing) {
        if (ifNotExists && existing.kind === kind) return;
        throw new SqlError(`${existing.kind} already exists [name=${name.name}]`, name.pos);
      }
      const e: Entity = { kind, name: name.name, enabled: true, sessionsFrom: Date.now() };
      if (hash) e.password = hash;
      if (scram) e.scram = scram;
      d.entities.push(e);
      if (kind === "service account") {
        this.#accounts.ownerGrant(d, name.name, owner?.name, actor, owner?.pos ?? name.pos);
      }
    });
    return { kind: "ddl" };
  }

  /** `WITH PASSWORD 'p'` → the password, `WITH NO PASSWORD` or nothing → undefined. */
  #passwordClause(w: Words): string | undefined {
    if (!w.accept("WITH")) return undefined;
    if (w.accept("NO", "PASSWORD")) return undefined;
    w.expect("PASSWORD");
    const pos = w.pos();
    const password = w.literal("password");
    if (password === "") throw new SqlError("empty password is not allowed, use WITH NO PASSWORD", pos);
    return password;
  }

  async #alterEntity(w: Words, actor: Actor, kind: "user" | "service account"): Promise<AclResult> {
    const name = w.name(`${kind} name`);
    if (w.keyword() === "CREATE" || w.keyword() === "DROP") {
      const { store, tokens, jwks, adminName } = this.#o;
      return await tokenStatement(w, { name, kind }, {
        store,
        tokens,
        jwks,
        adminName,
        // An assumed account's own credentials are not the assumer's to mint: they would
        // outlive a revoked ASSUME grant (T12). Only a real login manages its own tokens.
        actorName: actor.assuming ? undefined : actor.name,
        need: (p, pos) => this.#need(actor, p, pos),
      });
    }
    this.#notAdmin(name);
    let change: (e: Entity) => void;
    if (w.accept("ENABLE") || w.accept("DISABLE")) {
      const enable = w.words[w.index - 1].text.toUpperCase() === "ENABLE";
      this.#need(actor, enable ? "ENABLE USER" : "DISABLE USER", name.pos);
      change = (e) => {
        e.enabled = enable;
        // A later ENABLE revives no session opened or REST token issued before, even in the same
        // millisecond as this DISABLE (hence the +1).
        if (!enable) e.sessionsFrom = Date.now() + 1;
      };
    } else if (w.keyword() === "WITH") {
      const noPassword = w.keyword(1) === "NO";
      this.#need(actor, noPassword ? "REMOVE PASSWORD" : "ADD PASSWORD", name.pos);
      const password = this.#passwordClause(w);
      const hash = password ? await hashPassword(password, this.#o.iterations) : undefined;
      const scram = password ? await scramVerifier(password) : undefined;
      change = (e) => {
        if (hash && scram) {
          e.password = hash;
          e.scram = scram;
        } else {
          delete e.password;
          delete e.scram;
        }
      };
    } else {
      throw w.error("'ENABLE', 'DISABLE' or 'WITH PASSWORD' expected");
    }
    w.expectEnd();
    await this.#o.store.update((d) => change(this.#existing(d, name, kind)));
    return { kind: "ddl" };
  }

  #existing(d: AclData, name: { name: string; pos: number }, kind: EntityKind): Entity {
    const e = d.entities.find((x) => x.name === name.name && x.kind === kind);
    if (!e) throw new SqlError(`${kind} does not exist [name=${name.name}]`, name.pos);
    return e;
  }

  async #dropEntity(w: Words, actor: Actor, kind: EntityKind): Promise<AclResult> {
    this.#need(
      actor,
      kind === "user" ? "DROP USER" : kind === "group" ? "DROP GROUP" : "DROP SERVICE ACCOUNT",
      w.pos(),
    );
    const ifExists = w.accept("IF", "EXISTS");
    const name = w.name(`${kind} name`);
    this.#notAdmin(name);
    w.expectEnd();
    this.#o.tokens.forget(name.name);
    await this.#o.store.update((d) => {
      if (!d.entities.some((e) => e.name === name.name && e.kind === kind)) {
        if (ifExists) return;
        this.#existing(d, name, kind);
      }
      d.entities = d.entities.filter((e) => e.name !== name.name);
      d.grants = d.grants.filter((g) => g.entity !== name.name);
      d.members = d.members.filter((m) => m.user !== name.name && m.group !== name.name);
      d.aliases = d.aliases.filter((a) => a.group !== name.name);
      d.assumes = d.assumes.filter((a) => a.entity !== name.name && a.account !== name.name);
      d.tokens = d.tokens.filter((t) => t.entity !== name.name); // DROP deletes its secrets (§4.1)
      d.jwks = d.jwks.filter((k) => k.entity !== name.name);
    });
    return { kind: "ddl" };
  }

  async #createGroup(w: Words, actor: Actor): Promise<AclResult> {
    this.#need(actor, "CREATE GROUP", w.pos());
    const ifNotExists = w.accept("IF", "NOT", "EXISTS");
    const name = w.name("group name");
    this.#notAdmin(name);
    let alias: string | undefined;
    if (w.accept("WITH", "EXTERNAL", "ALIAS")) {
      this.#need(actor, "ADD EXTERNAL ALIAS", w.pos());
      alias = w.literal("external alias");
    }
    w.expectEnd();
    await this.#o.store.update((d) => {
      const existing = d.entities.find((e) => e.name === name.name);
      if (existing && !(ifNotExists && existing.kind === "group")) {
        throw new SqlError(`${existing.kind} already exists [name=${name.name}]`, name.pos);
      }
      if (!existing) d.entities.push({ kind: "group", name: name.name, enabled: true });
      if (alias !== undefined) addAlias(d, alias, name.name, name.pos);
    });
    return { kind: "ddl" };
  }

  async #alterGroup(w: Words, actor: Actor): Promise<AclResult> {
    const name = w.name("group name");
    let add: boolean;
    if (w.accept("WITH", "EXTERNAL", "ALIAS")) add = true;
    else if (w.accept("DROP", "EXTERNAL", "ALIAS")) add = false;
    else throw w.error("'WITH EXTERNAL ALIAS' or 'DROP EXTERNAL ALIAS' expected");
    this.#need(actor, add ? "ADD EXTERNAL ALIAS" : "REMOVE EXTERNAL ALIAS", name.pos);
    const alias = w.literal("external alias");
    w.expectEnd();
    await this.#o.store.update((d) => {
      this.#existing(d, name, "group");
      if (add) addAlias(d, alias, name.name, name.pos);
      else d.aliases = d.aliases.filter((a) => !(a.alias === alias && a.group === name.name));
    });
    return { kind: "ddl" };
  }

  async #membership(w: Words, actor: Actor, add: boolean): Promise<AclResult> {
    this.#need(actor, add ? "ADD USER" : "REMOVE USER", w.pos());
    const user = w.name("user name");
    this.#notAdmin(user);
    w.expect(add ? "TO" : "FROM");
    const groups: { name: string; pos: number }[] = [];
    do groups.push(w.name("group name")); while (w.acceptOp(","));
    w.expectEnd();
    await this.#o.store.update((d) => {
      const e = d.entities.find((x) => x.name === user.name);
      if (e?.kind === "service account") {
        throw new SqlError("service accounts cannot be members of groups", user.pos);
      }
      this.#existing(d, user, "user");
      for (const g of groups) {
        this.#existing(d, g, "group");
        d.members = d.members.filter((m) => !(m.user === user.name && m.group === g.name));
        if (add) d.members.push({ user: user.name, group: g.name });
      }
    });
    return { kind: "ddl" };
  }

  async #grant(w: Words, actor: Actor, revoke: boolean): Promise<AclResult> {
    const spec = parseGrant(w, revoke, this.#o.catalog);
    this.#notAdmin(spec.entity);
    const principals = this.#o.principals;
    const mayGrant = (p: string, t: { table?: string; column?: string }) =>
      principals.canGrant(actor.identity, p, t.table, t.column);
    const items = grantItems(spec, mayGrant);
    for (const item of items) {
      if (!mayGrant(item.permission, item.target)) {
        const { table, column } = item.target;
        const on = table === undefined
          ? ""
          : column === undefined
          ? ` on ${table}`
          : ` on ${table}.${column}`;
        throw new SqlError(
          `Access denied for ${actor.name} [${item.permission}${on} WITH GRANT OPTION]`,
          item.pos,
          "permission",
        );
      }
    }
    if (spec.verification) this.#verify(spec, items);
    await this.#o.store.update((d) => {
      const target = d.entities.find((e) => e.name === spec.entity.name);
      if (!revoke && target === undefined && spec.verification) {
        throw new SqlError(`entity does not exist [name=${spec.entity.name}]`, spec.entity.pos);
      }
      for (const item of items) {
        if (revoke) removeGrant(d, spec.entity.name, item, this.#o.catalog);
        else addGrant(d, spec.entity.name, item, spec.grantOption);
      }
    });
    return { kind: "ddl" };
  }

  #verify(
    spec: ReturnType<typeof parseGrant>,
    items: { target: { table?: string; column?: string }; pos: number }[],
  ): void {
    for (const { target, pos } of items) {
      if (target.table === undefined) continue;
      const columns = this.#o.catalog.columns(target.table);
      if (!columns) throw new SqlError(`table does not exist [table=${target.table}]`, pos);
      if (
        target.column !== undefined && !columns.some((c) => c.toLowerCase() === target.column!.toLowerCase())
      ) {
        throw new SqlError(`column does not exist [column=${target.column}]`, pos);
      }
    }
    void spec;
  }

  #show(s: Extract<AclRequest, { kind: "show" }>, actor: Actor): AclResult {
    const { store, principals } = this.#o;
    const names = (list: string[]): AclResult => ({
      kind: "rows",
      columns: [{ name: "name", type: T.STRING }],
      rows: list.map((n) => [n]),
    });
    const self = s.target === undefined || s.target.name === actor.name;
    const details = () => {
      if (!self) this.#need(actor, "USER DETAILS", s.target!.pos);
    };
    const entities = (kind: EntityKind) =>
      store.data.entities.filter((e) => e.kind === kind).map((e) => e.name);
    switch (s.what) {
      case "users":
        this.#need(actor, "LIST USERS", s.pos);
        return names([this.#o.adminName, ...entities("user")]);
      case "serviceAccounts":
        if (s.target !== undefined) {
          details();
          return this.#accounts.showFor(s.target.name);
        }
        this.#need(actor, "LIST USERS", s.pos);
        return names(entities("service account"));
      case "groups":
        if (s.target === undefined) {
          if (actor.identity.kind === "user" || actor.identity.kind === "external") {
            if (!principals.can(actor.identity, "LIST USERS")) {
              return names(principals.groupsOf(actor.identity));
            }
          }
          this.#need(actor, "LIST USERS", s.pos);
          return names(entities("group"));
        }
        details();
        return names(store.groupsOf(s.target.name));
      case "group":
        this.#need(actor, "LIST USERS", s.pos);
        return names(store.membersOf(s.target?.name ?? ""));
      case "user":
      case "serviceAccount": {
        details();
        const name = s.target?.name ?? actor.name;
        const e = store.entity(name);
        const enabled = name === this.#o.adminName || (e?.enabled ?? false);
        return {
          kind: "rows",
          columns: [{ name: "auth_type", type: T.STRING }, { name: "enabled", type: T.BOOLEAN }],
          rows: [
            ["Password", enabled && (name === this.#o.adminName || e?.password !== undefined)],
            ["JWK Token", enabled && this.#o.jwks.has(name)],
            ["REST Token", enabled && this.#o.tokens.has(name)],
          ],
        };
      }
      case "permissions": {
        details();
        const timestampOf = (t: string) => this.#o.catalog.timestamp?.(t);
        const inherited = (groups: string[]) => new Map(groups.map((g) => [g, store.grantsOf([g])]));
        let result;
        const target = s.target?.name ?? actor.name;
        if (target === this.#o.adminName) {
          const all: Grant[] = [{ entity: target, permission: "DATABASE ADMIN", grantOption: true }];
          result = permissionRows(all, new Map(), timestampOf);
        } else if (s.target === undefined && actor.identity.kind === "external") {
          // External users hold nothing themselves: everything comes from mapped groups.
          result = permissionRows([], inherited(actor.identity.groups), timestampOf);
        } else {
          const e = store.entity(target);
          const groups = e?.kind === "user" ? store.groupsOf(target) : [];
          result = permissionRows(store.grantsOf([target]), inherited(groups), timestampOf);
        }
        return { kind: "rows", ...result };
      }
      default:
        throw new SqlError(`SHOW ${s.what} is not supported`, s.pos);
    }
  }
}

function addAlias(d: AclData, alias: string, group: string, pos: number): void {
  const taken = d.aliases.find((a) => a.alias === alias);
  if (taken && taken.group !== group) {
    throw new SqlError(
      `external alias is already mapped to another group [alias=${alias}, group=${taken.group}]`,
      pos,
    );
  }
  if (!taken) d.aliases.push({ alias, group });
}

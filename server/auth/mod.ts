/**
 * @module
 * Access control (security.md): users, groups, service accounts, permissions and external
 * aliases stored in the data root and changed with SQL; password checks for REST Basic
 * authentication and pgwire; REST tokens (`qt1…` Bearer or pgwire password); the OIDC
 * resource server for other Bearer tokens; cookie sessions; JWK keys for the ILP/TCP
 * handshake. Entry point: `AuthService.open(engine, config, root)`, which also registers the
 * ACL statement handler with the engine. The listeners use `authenticateHttp`,
 * `authenticatePg` and `ilpTcp()` (ilp_access.ts); every statement's own permission check,
 * and every write's through the engine's ingest door (ILP, CSV import, COPY), runs in the
 * engine against `Principal.can`, and catalog listings against `Principal.sees`. Imports only engine/mod.ts and this folder.
 */
import { type Engine, log, type Principal } from "../../engine/mod.ts";
import { AclStatements } from "./acl_statements.ts";
import { AclStore } from "./acl_store.ts";
import { type Credentials, credentialsOf, SESSION_COOKIE } from "./http_credentials.ts";
import { endSessionEndpointOf, type OidcEndpoints, oidcSettings } from "./oidc_config.ts";
import { OidcResourceServer } from "./oidc_resource_server.ts";
import {
  constantTimeEqualText,
  hashPassword,
  ITERATIONS_DEFAULT,
  type PasswordHash,
  verifyPassword,
} from "./password.ts";
import { type Identity, Principals } from "./principals.ts";
import { type ScramVerifier, scramVerifier } from "../scram.ts";
import { JwkKeys } from "./jwk_keys.ts";
import { ilpHandshake } from "./ilp_handshake.ts";
import type { IlpTcpAccess } from "./ilp_access.ts";
import { RestTokens, TOKEN_PREFIX } from "./rest_tokens.ts";

export type { IlpTcpAccess } from "./ilp_access.ts";
export { credentialsOf } from "./http_credentials.ts";
export type { Identity } from "./principals.ts";

/** The configuration keys read here (server/config.ts's Config satisfies it). */
export interface AuthConfig {
  get(key: string): string | undefined;
  bool(key: string): boolean;
  int(key: string, fallback: number): number;
}

export type HttpAuth =
  | { ok: true; principal: Principal; identity: Identity }
  | { ok: false; status: 401 | 403; message: string };

/** A pgwire login: the principal, nothing (bad credentials), or a refusal with its reason. */
export type PgAuth = Principal | undefined | { refused: string };

interface HttpSession {
  identity: Identity;
  /** The Bearer token a session opened with, re-validated through the OIDC cache on each use. */
  token?: string;
  expiresAt: number;
  openedAt: number;
}

const SESSION_MAX_AGE_S = 2_592_000;
const VERIFIED_MAX = 1_000;

export class AuthService {
  readonly aclEnabled: boolean;
  readonly oidc: OidcResourceServer | undefined;
  readonly store: AclStore;
  readonly principals: Principals;
  readonly #admin: { name: string; password: string; enabled: boolean };
  readonly #sessions = new Map<string, HttpSession>();
  /** Digests of recently verified user:password pairs → the hash they matched (PBKDF2 is slow). */
  readonly #verified = new Map<string, string>();
  readonly #dummy: PasswordHash;
  #statements: AclStatements | undefined;
  readonly tokens: RestTokens;
  readonly jwks: JwkKeys;

  private constructor(config: AuthConfig, store: AclStore, dummy: PasswordHash) {
    this.aclEnabled = config.bool("acl.enabled");
    this.store = store;
    this.principals = new Principals(store);
    this.#admin = {
      name: config.get("acl.admin.user") ?? "admin",
      password: config.get("acl.admin.password") ?? "quest",
      enabled: (config.get("acl.admin.user.enabled") ?? "true").toLowerCase() !== "false",
    };
    this.#dummy = dummy;
    this.tokens = new RestTokens(store, config.int("acl.rest.token.refresh.threshold", 10) * 1000);
    this.jwks = new JwkKeys(store);
    const oidc = oidcSettings(config);
    this.oidc = this.aclEnabled && oidc.enabled ? new OidcResourceServer(oidc) : undefined;
  }

  /** Opens the store in `root` and, when acl.enabled, registers the ACL statements with the engine. */
  static async open(engine: Engine, config: AuthConfig, root: string): Promise<AuthService> {
    const store = await AclStore.open(root);
    const iterations = config.int("acl.password.hash.iteration.count", ITERATIONS_DEFAULT);
    const service = new AuthService(config, store, await hashPassword(crypto.randomUUID(), iterations));
    if (service.aclEnabled) {
      service.#statements = new AclStatements({
        store,
        principals: service.principals,
        adminName: service.#admin.name,
        iterations,
        tokens: service.tokens,
        jwks: service.jwks,
        catalog: {
          tables: () => engine.tableMetas().map((t) => t.name),
          columns: (t) => engine.tableMeta(t)?.columns.map((c) => c.name),
          timestamp: (t) => {
            const meta = engine.tableMeta(t);
            return meta && meta.timestampIndex >= 0 ? meta.columns[meta.timestampIndex].name : undefined;
          },
        },
      });
      engine.setAccessControl(service.#statements);
      if (service.oidc) {
        // Resolve the provider now so /settings can publish its endpoints; retried on demand.
        await service.oidc.endpoints().catch((err) => log("E", "oidc", err.message));
      }
    }
    return service;
  }

  /**
   * Authenticates an HTTP request (security.md §5.1): 401 without valid credentials, 403 when
   * the principal is disabled or lacks the HTTP permission.
   */
  async authenticateHttp(headers: Headers): Promise<HttpAuth> {
    const identity = await this.#identify(credentialsOf(headers));
    if (identity === undefined) return { ok: false, status: 401, message: "Unauthorized" };
    if (identity === "disabled") return { ok: false, status: 403, message: "user is disabled" };
    const principal = this.principals.principalOf(identity);
    if (!principal.can!("HTTP")) {
      return { ok: false, status: 403, message: `Access denied for ${identity.name} [HTTP]` };
    }
    return { ok: true, principal, identity };
  }

  async #identify(c: Credentials): Promise<Identity | "disabled" | undefined> {
    switch (c.kind) {
      case "basic":
        return await this.checkPassword(c.user, c.password);
      case "bearer":
        return await this.#bearer(c.token);
      case "session": {
        const s = this.#sessions.get(c.id);
        if (!s || s.expiresAt < Date.now()) return undefined;
        if (s.token !== undefined) return await this.#bearer(s.token);
        const stored = s.identity.kind === "user" || s.identity.kind === "service account";
        const e = stored ? this.store.entity(s.identity.name) : undefined;
        if (stored && (!e || s.openedAt < (e.sessionsFrom ?? 0))) {
          this.#sessions.delete(c.id); // opened before a DISABLE, or by a dropped namesake
          return undefined;
        }
        if (this.principals.enabled(s.identity)) return s.identity;
        this.#sessions.delete(c.id); // security.md T10: DISABLE / DROP USER ends the session
        return "disabled";
      }
      default:
        return undefined;
    }
  }

  async #bearer(token: string): Promise<Identity | "disabled" | undefined> {
    if (token.startsWith(TOKEN_PREFIX)) return this.#storedIdentity(await this.tokens.identify(token));
    if (!this.oidc) return undefined;
    const external = await this.oidc.identify(token);
    if (!external) return undefined;
    return { kind: "external", name: external.name, groups: this.store.groupsOfAliases(external.groups) };
  }

  /** The principal a REST token or JWK key id names, if it still may log in. */
  #storedIdentity(owner: string | undefined): Identity | "disabled" | undefined {
    if (owner === undefined) return undefined;
    if (owner === this.#admin.name) {
      return this.#admin.enabled ? { kind: "admin", name: owner, groups: [] } : "disabled";
    }
    const e = this.store.entity(owner);
    if (!e || e.kind === "group") return undefined;
    return e.enabled ? { kind: e.kind, name: e.name, groups: [] } : "disabled";
  }

  /** A user name and password: the built-in admin, or a stored user or service account. */
  async checkPassword(user: string, password: string): Promise<Identity | "disabled" | undefined> {
    const admin = this.#admin;
    if (user === admin.name) {
      return admin.enabled && constantTimeEqualText(password, admin.password)
        ? { kind: "admin", name: user, groups: [] }
        : undefined;
    }
    const e = this.store.entity(user);
    if (!e || e.kind === "group" || !e.password) {
      await verifyPassword(password, this.#dummy); // the same time for unknown users (T20)
      return undefined;
    }
    const key = await digestHex(`${user}\u0000${password}`);
    let ok = this.#verified.get(key) === e.password.hash;
    if (!ok) {
      ok = await verifyPassword(password, e.password);
      if (ok) {
        this.#verified.set(key, e.password.hash);
        if (this.#verified.size > VERIFIED_MAX) this.#verified.delete(this.#verified.keys().next().value!);
      }
    }
    if (!ok) return undefined;
    if (!e.enabled) return "disabled";
    return { kind: e.kind, name: e.name, groups: [] };
  }

  /**
   * ILP over TCP (security.md §5.3): the JWK handshake against keys made by CREATE TOKEN
   * TYPE JWK, then ILP; each write's table permissions are checked by the engine's ingest door.
   */
  ilpTcp(): IlpTcpAccess {
    return {
      handshake: async (conn) => {
        const r = await ilpHandshake(conn, (kid, c, sig) => this.jwks.verify(kid, c, sig));
        const identity = r && this.#storedIdentity(r.keyId);
        if (!r || !identity || identity === "disabled") return undefined;
        const principal = this.principals.principalOf(identity);
        if (!principal.can!("ILP")) return undefined;
        return { principal, rest: r.rest };
      },
      // ILP is rechecked per batch: a REVOKE or DISABLE reaches an open connection (T10).
      endpointRefusal: (principal) =>
        principal.can && !principal.can("ILP") ? `Access denied for ${principal.name} [ILP]` : undefined,
    };
  }

  /** Opens a cookie session for an authenticated request (`/exec?session=true`); returns Set-Cookie. */
  openSession(identity: Identity, headers: Headers): string {
    const id = "qs1" + base64url(crypto.getRandomValues(new Uint8Array(24)));
    const c = credentialsOf(headers);
    const session: HttpSession = {
      identity,
      expiresAt: Date.now() + SESSION_MAX_AGE_S * 1000,
      openedAt: Date.now(),
    };
    if (c.kind === "bearer") session.token = c.token;
    else if (c.kind === "session") {
      const old = this.#sessions.get(c.id);
      if (old?.token) session.token = old.token;
    }
    this.#sessions.set(id, session);
    return `${SESSION_COOKIE}=${id}; HttpOnly; Path=/; SameSite=Strict; Max-Age=${SESSION_MAX_AGE_S}`;
  }

  /** Ends the request's cookie session (`session=false`); returns the Set-Cookie that clears it. */
  closeSession(headers: Headers): string {
    const c = credentialsOf(headers);
    const id = c.kind === "session" ? c.id : cookieValue(headers.get("cookie"));
    if (id) this.#sessions.delete(id);
    return `${SESSION_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/`;
  }

  /**
   * The pgwire password check (security.md §5.2): user `_sso` (or empty) with an access token
   * when acl.oidc.pg.token.as.password.enabled, else users and passwords; then PGWIRE.
   */
  async authenticatePg(user: string, password: string): Promise<PgAuth> {
    let identity: Identity | "disabled" | undefined;
    if (this.oidc?.settings.pgTokenAsPassword && (user === "_sso" || user === "")) {
      identity = await this.#bearer(password);
    } else if (password.startsWith(TOKEN_PREFIX)) {
      // A REST token as the password: it must belong to the user named (§5.2 [design]).
      const owner = await this.tokens.identify(password);
      identity = owner !== undefined && owner === user
        ? this.#storedIdentity(owner)
        : await this.checkPassword(user, password);
    } else identity = await this.checkPassword(user, password);
    if (identity === undefined) return undefined;
    if (identity === "disabled") return { refused: "user is disabled" };
    const principal = this.principals.principalOf(identity);
    if (!principal.can!("PGWIRE")) return { refused: `Access denied for ${identity.name} [PGWIRE]` };
    return principal;
  }

  /**
   * pgwire SCRAM-SHA-256 (pg.auth.method=scram): the verifier of a user, and the principal of
   * one who proved the password (then the same disabled / PGWIRE checks as authenticatePg).
   * Users whose password predates SCRAM support have no verifier and cannot log in this way
   * until the password is set again; access tokens as passwords (`_sso`) need the cleartext
   * method. The built-in admin's verifier is derived here, once, from acl.admin.password.
   */
  async pgScram(): Promise<
    { verifier(user: string): ScramVerifier | undefined; principal(user: string): PgAuth }
  > {
    const admin = this.#admin;
    const adminVerifier = await scramVerifier(admin.password);
    const checked = (identity: Identity): PgAuth => {
      if (identity.kind !== "admin" && !this.principals.enabled(identity)) {
        return { refused: "user is disabled" };
      }
      const principal = this.principals.principalOf(identity);
      if (!principal.can!("PGWIRE")) return { refused: `Access denied for ${identity.name} [PGWIRE]` };
      return principal;
    };
    return {
      verifier: (user) => {
        if (user === admin.name) return admin.enabled ? adminVerifier : undefined;
        const e = this.store.entity(user);
        return e && e.kind !== "group" && e.password ? e.scram : undefined;
      },
      principal: (user) => {
        if (user === admin.name) {
          return admin.enabled ? checked({ kind: "admin", name: user, groups: [] }) : undefined;
        }
        const e = this.store.entity(user);
        if (!e || e.kind === "group") return undefined;
        return checked({ kind: e.kind, name: e.name, groups: [] });
      },
    };
  }

  /** What /settings publishes about access control (security.md §6.2); never a secret. */
  async settingsKeys(): Promise<Record<string, unknown>> {
    const o = this.oidc?.settings;
    let endpoints: OidcEndpoints | undefined;
    try {
      endpoints = this.oidc ? await this.oidc.endpoints() : undefined;
    } catch {
      endpoints = undefined;
    }
    return {
      "release.type": "EE",
      "acl.enabled": this.aclEnabled,
      "acl.basic.auth.realm.enabled": false,
      "acl.oidc.enabled": this.oidc !== undefined,
      "acl.oidc.client.id": o?.clientId ?? null,
      "acl.oidc.authorization.endpoint": endpoints?.authorization ?? null,
      "acl.oidc.token.endpoint": endpoints?.token ?? null,
      "acl.oidc.pkce.required": o ? o.pkceEnabled : false,
      "acl.oidc.state.required": o ? o.stateRequired : false,
      "acl.oidc.groups.encoded.in.token": o ? o.groupsEncodedInToken : false,
      "acl.oidc.scope": o?.scope ?? null,
      "acl.oidc.redirect.uri": o?.redirectUri ?? null,
      "acl.oidc.end.session.endpoint": o ? endSessionEndpointOf(o, endpoints) : null,
    };
  }
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function cookieValue(header: string | null): string | undefined {
  const m = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]*)`).exec(header ?? "");
  return m?.[1] || undefined;
}

async function digestHex(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}
export { allowProviderInCsp, gate, needsCredentials, sessionCookie } from "./http_gate.ts";

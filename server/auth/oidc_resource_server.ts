/**
 * The OIDC resource server (security.md §6.4): turns a Bearer token into an external identity
 * (name from the sub claim, provider groups from the groups claim). Mode A asks the provider's
 * User Info endpoint, which is the token's validation, and caches the answer per token for
 * `acl.oidc.cache.ttl`; Mode B (`groups.encoded.in.token`) verifies the JWT locally with jose
 * against the provider's JWKS (signature, issuer, audience, expiry). Failures never fail open.
 * The cache is keyed by a SHA-256 of the token, so no token sits in memory as a map key or in
 * a log line.
 */
import { createRemoteJWKSet, jwtVerify } from "jose";
import { type OidcEndpoints, type OidcSettings, resolveEndpoints } from "./oidc_config.ts";
import { log } from "../../engine/mod.ts";

export interface ExternalIdentity {
  /** Value of the sub claim (acl.oidc.sub.claim). */
  name: string;
  /** The provider's group ids (acl.oidc.groups.claim), mapped to groups by external alias. */
  groups: string[];
}

interface CacheEntry {
  identity: ExternalIdentity;
  /** Entry is fresh until then (ms since the epoch). */
  freshUntil: number;
}

const CACHE_ENTRIES_MAX = 10_000;
/** Only asymmetric algorithms: `none` and HMAC are refused (T4). */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const CLOCK_SKEW_S = 5;

export class OidcResourceServer {
  readonly settings: OidcSettings;
  readonly #fetch: typeof fetch;
  #endpoints: Promise<OidcEndpoints> | undefined;
  #jwks: ReturnType<typeof createRemoteJWKSet> | undefined;
  readonly #cache = new Map<string, CacheEntry>();
  readonly #pending = new Map<string, Promise<ExternalIdentity | undefined>>();
  /** Calls made to User Info, for logs and tests. */
  userinfoCalls = 0;

  constructor(settings: OidcSettings) {
    this.settings = settings;
    let client: Deno.HttpClient | undefined;
    if (settings.caPath) {
      client = Deno.createHttpClient({ caCerts: [Deno.readTextFileSync(settings.caPath)] });
    }
    this.#fetch = client
      ? ((input, init) => fetch(input, { ...init, client } as unknown as RequestInit))
      : fetch;
  }

  /** The provider's endpoints (discovery is retried after a failure). */
  endpoints(): Promise<OidcEndpoints> {
    if (!this.#endpoints) {
      this.#endpoints = resolveEndpoints(this.settings, this.#fetch);
      this.#endpoints.catch(() => (this.#endpoints = undefined));
    }
    return this.#endpoints;
  }

  /** The identity behind a token, or undefined when the provider does not vouch for it. */
  async identify(token: string): Promise<ExternalIdentity | undefined> {
    if (!token || token.length > 16_384) return undefined;
    const key = await digest(token);
    const hit = this.#cache.get(key);
    if (hit && hit.freshUntil > Date.now()) return hit.identity;
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const lookup = this.#lookup(token, key).finally(() => this.#pending.delete(key));
    this.#pending.set(key, lookup);
    return lookup;
  }

  async #lookup(token: string, key: string): Promise<ExternalIdentity | undefined> {
    this.#cache.delete(key);
    let found: { identity: ExternalIdentity; expiresAt?: number } | undefined;
    try {
      found = this.settings.groupsEncodedInToken ? await this.#verifyJwt(token) : await this.#userinfo(token);
    } catch (err) {
      log("I", "oidc", `token refused: ${(err as Error).message}`);
      return undefined;
    }
    if (!found) return undefined;
    const ttlEnd = Date.now() + this.settings.cacheTtlMs;
    this.#cache.set(key, {
      identity: found.identity,
      freshUntil: Math.min(ttlEnd, found.expiresAt ?? ttlEnd),
    });
    while (this.#cache.size > CACHE_ENTRIES_MAX) this.#cache.delete(this.#cache.keys().next().value!);
    log("D", "oidc", `authenticated ${found.identity.name} [groups=${found.identity.groups.join(",")}]`);
    return found.identity;
  }

  /** Mode A: the User Info endpoint validates the token; any non-2xx refuses it. */
  async #userinfo(token: string): Promise<{ identity: ExternalIdentity } | undefined> {
    const { userinfo } = await this.endpoints();
    this.userinfoCalls++;
    const res = await this.#fetch(userinfo, {
      headers: { Authorization: `Bearer ${token}`, Accept: "application/json" },
      signal: AbortSignal.timeout(this.settings.httpTimeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      log("E", "oidc", `user info refused a token [status=${res.status}]`);
      return undefined;
    }
    const identity = this.identityOf(await res.json());
    return identity ? { identity } : undefined;
  }

  /** Mode B: a JWT signed by a JWKS key, for our audience and issuer, not expired. */
  async #verifyJwt(token: string): Promise<{ identity: ExternalIdentity; expiresAt?: number } | undefined> {
    const endpoints = await this.endpoints();
    this.#jwks ??= createRemoteJWKSet(new URL(endpoints.jwks), {
      timeoutDuration: this.settings.httpTimeoutMs,
      cooldownDuration: 30_000,
    });
    const { payload } = await jwtVerify(token, this.#jwks, {
      algorithms: ALGORITHMS,
      audience: this.settings.audience,
      issuer: endpoints.issuer,
      clockTolerance: CLOCK_SKEW_S,
      requiredClaims: ["exp"],
    });
    const identity = this.identityOf(payload as Record<string, unknown>);
    return identity ? { identity, expiresAt: (payload.exp ?? 0) * 1000 } : undefined;
  }

  /** Name from the sub claim (required, T5), groups from the groups claim (array, or one string). */
  identityOf(claims: Record<string, unknown>): ExternalIdentity | undefined {
    const name = claims[this.settings.subClaim];
    if (typeof name !== "string" || name === "") return undefined;
    const raw = claims[this.settings.groupsClaim];
    const groups = Array.isArray(raw)
      ? raw.filter((g): g is string => typeof g === "string")
      : typeof raw === "string"
      ? [raw]
      : [];
    return { name, groups };
  }
}

async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

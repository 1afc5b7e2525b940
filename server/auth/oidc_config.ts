/**
 * The `acl.oidc.*` settings of security.md §6.1 read from the server configuration, and the
 * provider's endpoints resolved from them: from the discovery document at
 * `acl.oidc.configuration.url`, or from `acl.oidc.host`/`port`/`tls.enabled` plus the endpoint
 * paths (Ping Federate defaults).
 */

/** The part of server/config.ts that is read here. */
export interface ConfigReader {
  get(key: string): string | undefined;
}

export interface OidcSettings {
  enabled: boolean;
  clientId: string;
  audience: string;
  configurationUrl?: string;
  host?: string;
  port: number;
  tlsEnabled: boolean;
  tlsValidation: boolean;
  /** PEM file with extra CA certificates to trust (acl.oidc.tls.keystore.path). */
  caPath?: string;
  httpTimeoutMs: number;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  userinfoEndpoint: string;
  publicKeysEndpoint: string;
  redirectUri?: string;
  /**
   * acl.oidc.end.session.endpoint (our extension): where the console sends the browser on
   * logout (RP-initiated logout). Unset: logout keeps the provider's session; `auto`: the
   * discovery document's `end_session_endpoint`; otherwise an absolute URL.
   */
  endSessionEndpoint?: string;
  scope: string;
  pkceEnabled: boolean;
  stateRequired: boolean;
  cacheTtlMs: number;
  groupsClaim: string;
  subClaim: string;
  groupsEncodedInToken: boolean;
  pgTokenAsPassword: boolean;
}

export function oidcSettings(config: ConfigReader): OidcSettings {
  const get = (k: string) => {
    const v = config.get(`acl.oidc.${k}`)?.trim();
    return v === "" ? undefined : v;
  };
  const bool = (k: string, d: boolean) => (get(k) === undefined ? d : get(k)!.toLowerCase() === "true");
  const int = (k: string, d: number) => {
    const n = Number(get(k));
    return get(k) !== undefined && Number.isFinite(n) ? n : d;
  };
  const clientId = get("client.id") ?? "";
  return {
    enabled: bool("enabled", false),
    clientId,
    audience: get("audience") ?? clientId,
    configurationUrl: get("configuration.url"),
    host: get("host"),
    port: int("port", 443),
    tlsEnabled: bool("tls.enabled", true),
    tlsValidation: bool("tls.validation.enabled", true),
    caPath: get("tls.keystore.path"),
    httpTimeoutMs: int("http.timeout", 30_000),
    authorizationEndpoint: get("authorization.endpoint") ?? "/as/authorization.oauth2",
    tokenEndpoint: get("token.endpoint") ?? "/as/token.oauth2",
    userinfoEndpoint: get("userinfo.endpoint") ?? "/idp/userinfo.openid",
    publicKeysEndpoint: get("public.keys.endpoint") ?? "/pf/JWKS",
    redirectUri: get("redirect.uri"),
    endSessionEndpoint: get("end.session.endpoint"),
    scope: get("scope") ?? "openid",
    pkceEnabled: bool("pkce.enabled", true),
    stateRequired: bool("state.required", true),
    cacheTtlMs: int("cache.ttl", 30_000),
    groupsClaim: get("groups.claim") ?? "groups",
    subClaim: get("sub.claim") ?? "sub",
    groupsEncodedInToken: bool("groups.encoded.in.token", false),
    pgTokenAsPassword: bool("pg.token.as.password.enabled", false),
  };
}

export interface OidcEndpoints {
  issuer?: string;
  authorization: string;
  token: string;
  userinfo: string;
  jwks: string;
  /** The discovery document's end_session_endpoint, when it has one. */
  endSession?: string;
}

/** Absolute endpoint URLs: discovery first, else host/port plus the configured paths. */
export async function resolveEndpoints(s: OidcSettings, fetcher: typeof fetch): Promise<OidcEndpoints> {
  if (s.configurationUrl) {
    const res = await fetcher(s.configurationUrl, { signal: AbortSignal.timeout(s.httpTimeoutMs) });
    if (!res.ok) throw new Error(`OIDC discovery answered ${res.status} [url=${s.configurationUrl}]`);
    const d = await res.json();
    for (const k of ["authorization_endpoint", "token_endpoint"]) {
      if (typeof d[k] !== "string") throw new Error(`OIDC discovery document lacks ${k}`);
    }
    return {
      issuer: typeof d.issuer === "string" ? d.issuer : undefined,
      authorization: d.authorization_endpoint,
      token: d.token_endpoint,
      userinfo: d.userinfo_endpoint ?? absolute(s, s.userinfoEndpoint),
      jwks: d.jwks_uri ?? absolute(s, s.publicKeysEndpoint),
      endSession: typeof d.end_session_endpoint === "string" ? d.end_session_endpoint : undefined,
    };
  }
  return {
    authorization: absolute(s, s.authorizationEndpoint),
    token: absolute(s, s.tokenEndpoint),
    userinfo: absolute(s, s.userinfoEndpoint),
    jwks: absolute(s, s.publicKeysEndpoint),
  };
}

/**
 * The logout endpoint the console calls (acl.oidc.end.session.endpoint), or null when logout
 * should keep the provider's session: unset, or `auto` with no end_session_endpoint discovered.
 */
export function endSessionEndpointOf(s: OidcSettings, endpoints: OidcEndpoints | undefined): string | null {
  const value = s.endSessionEndpoint;
  if (value === undefined) return null;
  if (value.toLowerCase() === "auto") return endpoints?.endSession ?? null;
  try {
    return absolute(s, value);
  } catch {
    return null;
  }
}

function absolute(s: OidcSettings, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  if (!s.host) {
    throw new Error("acl.oidc.host or acl.oidc.configuration.url is required when acl.oidc.enabled=true");
  }
  return `${s.tlsEnabled ? "https" : "http"}://${s.host}:${s.port}${path.startsWith("/") ? "" : "/"}${path}`;
}

/**
 * Single sign-on with the OIDC Authorization Code flow and PKCE (spec/console.md §2.14,
 * security.md §6.3). The console is a public client: it sends the browser to the provider
 * with an S256 challenge of a random 60-byte verifier and a random `state`, checks the state
 * when the provider sends the browser back, exchanges the code at the token endpoint, and
 * hands the access token (the ID token when groups are encoded in it) to `setBearerToken`.
 * Tokens live in memory only; the verifier and state sit in sessionStorage (this tab) and
 * are deleted on use. The access token is refreshed with the refresh token before it expires,
 * and logging out drops the tokens and the server's session cookie, then ends the provider's
 * session too when the server publishes `acl.oidc.end.session.endpoint` (RP-initiated logout).
 *
 * Reload (spec/console.md §2.14.7, P0 item 3): the tokens are gone, so a browser that had an SSO
 * session goes straight back to the provider with `prompt=none`; with a live provider session
 * the user is back without seeing a login page. If the provider answers `login_required` (or
 * any error to a silent request), the login screen offers "Continue as <user>" (no prompt)
 * and "Choose a different account" (`prompt=login`). Only two non-secret crumbs are kept in
 * localStorage for this: `sso.session.active` and `sso.username.<clientId>`.
 */
import { basicProbeStatus, setBearerToken, setSignOutHook, setTokenKeeper } from "./auth_state.ts";

const VERIFIER_KEY = "pkce.code.verifier";
const STATE_KEY = "oauth.state";
const RETURN_KEY = "oauth.return.params";
const PROMPT_KEY = "oauth.prompt";
const ACTIVE_KEY = "sso.session.active";
const USER_KEY_PREFIX = "sso.username.";
const OAUTH_PARAMS = ["code", "state", "error", "error_description", "session_state", "iss"];

function clientIdOf(config: Record<string, unknown>): string {
  return String(config["acl.oidc.client.id"] ?? "");
}

/** localStorage that never throws (storage can be disabled); only non-secret crumbs go here. */
const crumbs = {
  get: (k: string) => {
    try {
      return localStorage.getItem(k);
    } catch {
      return null;
    }
  },
  set: (k: string, v: string | null) => {
    try {
      if (v === null) localStorage.removeItem(k);
      else localStorage.setItem(k, v);
    } catch { /* no storage: no silent re-auth */ }
  },
};

let signedInClientId: string | null = null;

/** The user who last signed in with SSO in this browser, for "Continue as <user>". */
export function rememberedSingleSignOnUser(config: Record<string, unknown>): string | null {
  return crumbs.get(USER_KEY_PREFIX + clientIdOf(config));
}

/** Called once `current_user` is known after an SSO sign-in. */
export function rememberSingleSignOnUser(user: string): void {
  if (signedInClientId !== null) crumbs.set(USER_KEY_PREFIX + signedInClientId, user);
}

/**
 * On boot without a callback in the URL: if this browser had an SSO session, starts the
 * silent `prompt=none` redirect and returns true (the page is about to leave).
 */
export async function resumeSingleSignOn(config: Record<string, unknown>): Promise<boolean> {
  if (crumbs.get(ACTIVE_KEY) !== "true" || !rememberedSingleSignOnUser(config)) return false;
  await startSingleSignOn(config, "none");
  return true;
}

interface Tokens {
  access: string;
  id?: string;
  refresh?: string;
  /** ms since the epoch */
  expiresAt: number;
}

/** In memory only (never localStorage). */
let tokens: Tokens | null = null;
/**
 * The latest ID token, for `id_token_hint` at logout (a refresh reply may carry none), and the
 * configuration of the sign-in, whose `acl.oidc.end.session.endpoint` logout goes through.
 * In memory only.
 */
let idTokenHint: string | null = null;
let signedInConfig: Record<string, unknown> | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
let lastError: string | null = null;

/** The error of the last sign-in attempt, for the login screen (cleared when read). */
export function takeSingleSignOnError(): string | null {
  const e = lastError;
  lastError = null;
  return e;
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function randomText(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(60)));
}

async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

function endpoint(config: Record<string, unknown>, which: "authorization" | "token"): string {
  const value = String(config[`acl.oidc.${which}.endpoint`] ?? "");
  if (!value) throw new Error("single sign-on is not configured on this server");
  if (/^https?:\/\//i.test(value) || !config["acl.oidc.host"]) return value;
  // Legacy configuration: host and port plus a path (spec/console.md §2.14.2).
  const scheme = config["acl.oidc.tls.enabled"] === false ? "http" : "https";
  return `${scheme}://${config["acl.oidc.host"]}:${config["acl.oidc.port"] ?? 443}${value}`;
}

function redirectUri(config: Record<string, unknown>): string {
  return String(config["acl.oidc.redirect.uri"] ?? "") || location.origin + location.pathname;
}

function scopeOf(config: Record<string, unknown>): string {
  const scope = String(config["acl.oidc.scope"] ?? "") || "openid";
  return scope.split(/\s+/).includes("openid") ? scope : `openid ${scope}`;
}

/** Starts the redirect to the identity provider (`prompt=login` from the SSO button). */
export async function startSingleSignOn(
  config: Record<string, unknown>,
  prompt: "login" | "none" | null = "login",
): Promise<void> {
  const url = new URL(endpoint(config, "authorization"));
  const p = url.searchParams;
  p.set("client_id", String(config["acl.oidc.client.id"] ?? ""));
  p.set("response_type", "code");
  p.set("scope", scopeOf(config));
  p.set("redirect_uri", redirectUri(config));
  if (config["acl.oidc.pkce.required"] !== false) {
    const verifier = randomText();
    sessionStorage.setItem(VERIFIER_KEY, verifier);
    p.set("code_challenge", await s256(verifier));
    p.set("code_challenge_method", "S256");
  }
  const state = randomText();
  sessionStorage.setItem(STATE_KEY, state);
  p.set("state", state);
  if (prompt) p.set("prompt", prompt);
  sessionStorage.setItem(PROMPT_KEY, prompt ?? "");
  // Keep a share link's parameters across the round trip (spec/console.md §2.14.3).
  const keep = new URLSearchParams(location.search);
  for (const k of OAUTH_PARAMS) keep.delete(k);
  sessionStorage.setItem(RETURN_KEY, keep.toString());
  location.assign(url.toString());
}

/** Removes the OAuth parameters from the address bar and restores the saved ones. */
function cleanUrl(): void {
  const saved = sessionStorage.getItem(RETURN_KEY) ?? "";
  sessionStorage.removeItem(RETURN_KEY);
  const here = new URLSearchParams(location.search);
  for (const k of OAUTH_PARAMS) here.delete(k);
  for (const [k, v] of new URLSearchParams(saved)) if (!here.has(k)) here.set(k, v);
  const search = here.toString();
  history.replaceState(null, "", location.pathname + (search ? `?${search}` : "") + location.hash);
}

async function tokenRequest(config: Record<string, unknown>, form: Record<string, string>): Promise<Tokens> {
  const res = await fetch(endpoint(config, "token"), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...form, client_id: String(config["acl.oidc.client.id"] ?? "") }),
  });
  // deno-lint-ignore no-explicit-any
  const data: any = await res.json().catch(() => ({}));
  if (!res.ok || typeof data.access_token !== "string") {
    throw new Error(data.error_description ?? data.error ?? `token endpoint answered ${res.status}`);
  }
  return {
    access: data.access_token,
    id: data.id_token,
    // A refresh reply without a new refresh token keeps the old one (spec/console.md §2.14.6).
    refresh: data.refresh_token ?? tokens?.refresh,
    expiresAt: Date.now() + Number(data.expires_in ?? 300) * 1000,
  };
}

function bearerOf(config: Record<string, unknown>, t: Tokens): string {
  return config["acl.oidc.groups.encoded.in.token"] === true && t.id ? t.id : t.access;
}

/** The refresh under way, shared so concurrent requests wait for one token request. */
let refreshing: Promise<boolean> | null = null;
const LAZY_REFRESH_MS = 30_000;

/** Swaps in a new access token via the refresh token; false when there is none or it failed. */
function refreshNow(config: Record<string, unknown>): Promise<boolean> {
  refreshing ??= (async () => {
    if (!tokens?.refresh) return false;
    try {
      tokens = await tokenRequest(config, { grant_type: "refresh_token", refresh_token: tokens.refresh });
      if (tokens.id) idTokenHint = tokens.id;
      setBearerToken(bearerOf(config, tokens), null);
      scheduleRefresh(config);
      return true;
    } catch (err) {
      lastError = `session expired: ${(err as Error).message}`;
      return false;
    }
  })().finally(() => (refreshing = null));
  return refreshing;
}

/**
 * Refreshes ahead of expiry: at half the lifetime, and at the latest 30 s before the end.
 * Background tabs may run timers late, so requests also refresh lazily (the token keeper).
 */
function scheduleRefresh(config: Record<string, unknown>): void {
  clearTimeout(refreshTimer);
  if (!tokens?.refresh) return;
  const left = tokens.expiresAt - Date.now();
  const delay = Math.max(1000, Math.min(left - LAZY_REFRESH_MS, left / 2));
  refreshTimer = setTimeout(() => void refreshNow(config), delay);
}

/** Plugs the lazy refresh and the one-shot 401 recovery into every API call. */
function keepTokens(config: Record<string, unknown>): void {
  let lastRecovery = 0;
  setTokenKeeper({
    async before() {
      if (refreshing) await refreshing;
      else if (tokens?.refresh && tokens.expiresAt - Date.now() < LAZY_REFRESH_MS) await refreshNow(config);
    },
    async recover() {
      // One refresh per 10 s at most: a server that keeps refusing fresh tokens must end on the
      // login screen, not in a refresh loop.
      if (Date.now() - lastRecovery < 10_000) return false;
      lastRecovery = Date.now();
      return await refreshNow(config);
    },
  });
}

/**
 * Handles `?code=…&state=…` (or `?error=…`) on load. Returns true when it signed the user in;
 * otherwise the reason is kept for the login screen (`takeSingleSignOnError`).
 */
export async function completeSingleSignOn(config: Record<string, unknown>): Promise<boolean> {
  const params = new URLSearchParams(location.search);
  const code = params.get("code");
  const error = params.get("error");
  if (!code && !error) return false;
  const expected = sessionStorage.getItem(STATE_KEY);
  const verifier = sessionStorage.getItem(VERIFIER_KEY);
  const silent = sessionStorage.getItem(PROMPT_KEY) === "none";
  sessionStorage.removeItem(STATE_KEY);
  sessionStorage.removeItem(VERIFIER_KEY);
  sessionStorage.removeItem(PROMPT_KEY);
  cleanUrl();
  try {
    if (error && silent) {
      // The provider's session ended (login_required and the like). Not the user's mistake:
      // stop trying silently (no redirect loop) and let the login screen offer "Continue as".
      crumbs.set(ACTIVE_KEY, null);
      lastError = null;
      return false;
    }
    if (error) throw new Error(`${error}: ${params.get("error_description") ?? ""}`.replace(/: $/, ""));
    if (!expected || params.get("state") !== expected) {
      // A forged or replayed callback: also forget who signed in here (spec/console.md §2.14.4).
      crumbs.set(USER_KEY_PREFIX + clientIdOf(config), null);
      crumbs.set(ACTIVE_KEY, null);
      throw new Error("sign-in rejected: state mismatch, please sign in again");
    }
    const form: Record<string, string> = {
      grant_type: "authorization_code",
      code: code!,
      redirect_uri: redirectUri(config),
    };
    if (verifier) form.code_verifier = verifier;
    const got = await tokenRequest(config, form);
    const header = `Bearer ${bearerOf(config, got)}`;
    const status = await basicProbeStatus(header);
    if (status.status !== 200) {
      throw new Error(
        status.status === 403
          ? `Not authorized to use the Web Console: ${status.message}`
          : status.status === 401
          ? "The identity provider's token was not accepted"
          : `Server answered ${status.status}`,
      );
    }
    tokens = got;
    idTokenHint = got.id ?? null;
    signedInConfig = config;
    signedInClientId = clientIdOf(config);
    crumbs.set(ACTIVE_KEY, "true");
    setBearerToken(bearerOf(config, got), null);
    scheduleRefresh(config);
    keepTokens(config);
    return true;
  } catch (err) {
    lastError = (err as Error).message;
    return false;
  }
}

/**
 * The provider's logout URL for RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0),
 * or null when the server publishes no `acl.oidc.end.session.endpoint`: then logout keeps the
 * provider's session and "Continue as <user>" signs back in without a prompt.
 */
export function endSessionUrl(
  config: Record<string, unknown>,
  idToken: string | null,
  origin: string,
): string | null {
  const value = config["acl.oidc.end.session.endpoint"];
  if (typeof value !== "string" || !/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const p = url.searchParams;
  p.set("client_id", clientIdOf(config));
  if (idToken) p.set("id_token_hint", idToken);
  p.set("post_logout_redirect_uri", `${origin}/`);
  return url.toString();
}

/**
 * Logging out drops the tokens and the server's session cookie (security.md §6.3 step 6); with
 * an end-session endpoint published, the browser then goes to the provider to end its session
 * too and comes back to the login screen (spec/console.md §3 item 3).
 */
setSignOutHook(() => {
  clearTimeout(refreshTimer);
  const hint = idTokenHint;
  const config = signedInConfig;
  tokens = null;
  idTokenHint = null;
  signedInConfig = null;
  setTokenKeeper(null);
  // The remembered user stays, so the login screen can offer "Continue as <user>".
  crumbs.set(ACTIVE_KEY, null);
  sessionStorage.removeItem(PROMPT_KEY);
  sessionStorage.removeItem(RETURN_KEY);
  const logoutUrl = config && endSessionUrl(config, hint, location.origin);
  // The keepalive `session=false` request is already under way and survives the navigation.
  if (logoutUrl) location.assign(logoutUrl);
});

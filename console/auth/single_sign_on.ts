/**
 * Single sign-on with the OIDC Authorization Code flow and PKCE (spec/console.md §2.14,
 * security.md §6.3). The console is a public client: it sends the browser to the provider
 * with an S256 challenge of a random 60-byte verifier and a random `state`, checks the state
 * when the provider sends the browser back, exchanges the code at the token endpoint, and
 * hands the access token (the ID token when groups are encoded in it) to `setBearerToken`.
 * Tokens live in memory only; the verifier and state sit in sessionStorage (this tab) and
 * are deleted on use. The access token is refreshed with the refresh token before it expires,
 * and logging out drops the tokens and the server's session cookie.
 */
import { basicProbeStatus, setBearerToken, setSignOutHook } from "./auth_state.ts";

const VERIFIER_KEY = "pkce.code.verifier";
const STATE_KEY = "oauth.state";
const RETURN_KEY = "oauth.return.params";
const OAUTH_PARAMS = ["code", "state", "error", "error_description", "session_state", "iss"];

interface Tokens {
  access: string;
  id?: string;
  refresh?: string;
  /** ms since the epoch */
  expiresAt: number;
}

/** In memory only (never localStorage). */
let tokens: Tokens | null = null;
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

/** Refreshes ahead of expiry: at half the lifetime, and at the latest 30 s before the end. */
function scheduleRefresh(config: Record<string, unknown>, user: string | null): void {
  clearTimeout(refreshTimer);
  if (!tokens?.refresh) return;
  const left = tokens.expiresAt - Date.now();
  const delay = Math.max(1000, Math.min(left - 30_000, left / 2));
  refreshTimer = setTimeout(async () => {
    if (!tokens?.refresh) return;
    try {
      tokens = await tokenRequest(config, { grant_type: "refresh_token", refresh_token: tokens.refresh });
      setBearerToken(bearerOf(config, tokens), user);
      scheduleRefresh(config, user);
    } catch (err) {
      lastError = `session expired: ${(err as Error).message}`;
    }
  }, delay);
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
  sessionStorage.removeItem(STATE_KEY);
  sessionStorage.removeItem(VERIFIER_KEY);
  cleanUrl();
  try {
    if (error) throw new Error(`${error}: ${params.get("error_description") ?? ""}`.replace(/: $/, ""));
    if (!expected || params.get("state") !== expected) {
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
    setBearerToken(bearerOf(config, got), null);
    scheduleRefresh(config, null);
    return true;
  } catch (err) {
    lastError = (err as Error).message;
    return false;
  }
}

/** Logging out drops the tokens and the server's session cookie (security.md §6.3 step 6). */
setSignOutHook(() => {
  clearTimeout(refreshTimer);
  tokens = null;
});

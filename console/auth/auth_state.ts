/**
 * Who the console is signed in as, kept in memory only: no password, Basic header or token is
 * ever written to localStorage or IndexedDB (spec/console.md §2.14.8), so a reload asks again.
 * The OIDC flow (single_sign_on.ts) plugs in through `setBearerToken` and `setSignOutHook`.
 */
import { Store } from "../ui/store.ts";

export type AuthMode = "none" | "password" | "oidc";

export interface AuthState {
  mode: AuthMode;
  /** Authorization header value for every API call, or null when the server needs none. */
  header: string | null;
  user: string | null;
  signedIn: boolean;
  /**
   * True once the server opened its `qdb_session` cookie for this browser (`session=true`,
   * spec/console.md §1.3): downloads through `exp` then need no Authorization header, and a
   * reload can resume without asking for the password again.
   */
  session: boolean;
}

export const authStore = new Store<AuthState>({
  mode: "none",
  header: null,
  user: null,
  signedIn: true,
  session: false,
});

/**
 * A hint, not a credential: "this browser has a server session cookie". The cookie itself is
 * HttpOnly, so the page cannot see it; without the hint every first visit would send a
 * credential-less probe. Only "1" is ever stored.
 */
const SESSION_HINT_KEY = "auth.session.hint";

function setSessionHint(on: boolean): void {
  try {
    if (on) localStorage.setItem(SESSION_HINT_KEY, "1");
    else localStorage.removeItem(SESSION_HINT_KEY);
  } catch { /* storage disabled: no resume after reload */ }
}

function hasSessionHint(): boolean {
  try {
    return localStorage.getItem(SESSION_HINT_KEY) === "1";
  } catch {
    return false;
  }
}

export function authHeader(): string | null {
  return authStore.get().header;
}

/** Decides the mode from /settings config keys (spec/console.md §2.14.1). */
export function authModeOf(config: Record<string, unknown>): AuthMode {
  if (config["acl.enabled"] !== true) return "none";
  return config["acl.oidc.enabled"] === true ? "oidc" : "password";
}

export function basicHeader(user: string, password: string): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  return "Basic " + btoa(String.fromCharCode(...bytes));
}

export function signIn(header: string | null, user: string | null, session = false): void {
  if (session) setSessionHint(true);
  authStore.set({
    ...authStore.get(),
    header,
    user,
    signedIn: true,
    session: session || authStore.get().session,
  });
}

/**
 * On boot, when auth is on and this browser had a session: checks that the server still
 * honours its cookie (a query with no Authorization header) and signs in on it. Returns
 * whether it did; a dead session clears the hint so the next visit does not probe.
 */
export async function resumeCookieSession(): Promise<boolean> {
  if (!hasSessionHint()) return false;
  try {
    const res = await fetch("exec?query=select%201&limit=1", { credentials: "same-origin" });
    await res.body?.cancel();
    if (res.status === 200) {
      signIn(null, null, true);
      return true;
    }
  } catch { /* unreachable: the login screen will say so */ }
  setSessionHint(false);
  return false;
}

/** Seam for the OIDC flow: the access token becomes the Bearer header (a refresh keeps the user shown). */
export function setBearerToken(token: string, user: string | null): void {
  // No session flag: OIDC keeps sending the (refreshed) Bearer token and never resumes from the cookie.
  signIn(`Bearer ${token}`, user ?? authStore.get().user);
}

let signOutHook: (() => void) | null = null;

/**
 * Lets the OIDC flow drop its in-memory tokens on logout (and, with an end-session endpoint
 * published, send the browser to the provider to end its session too). Runs after the
 * keepalive `session=false` request is sent.
 */
export function setSignOutHook(hook: () => void): void {
  signOutHook = hook;
}

/**
 * Logs out: ends the server's session cookie (`session=false`, spec/console.md §2.14.7),
 * drops the credentials held in memory, and shows the login screen.
 */
export function signOut(): void {
  const s = authStore.get();
  setSessionHint(false);
  if (s.header || s.session) {
    // Sent even without a header: a resumed session is identified by its cookie alone.
    void fetch("exec?query=select%202&session=false", {
      headers: s.header ? { Authorization: s.header } : {},
      keepalive: true,
    })
      .then((r) => r.body?.cancel(), () => {});
  }
  signOutHook?.();
  authStore.set({ ...s, header: null, user: null, signedIn: s.mode === "none", session: false });
}

/**
 * The login probe: `select 2` with `session=true` (so the server opens the cookie session the
 * export downloads rely on). Returns the status and, for a refusal, the server's reason.
 */
export async function basicProbeStatus(header: string): Promise<{ status: number; message: string }> {
  const res = await fetch("exec?query=select%202&session=true", { headers: { Authorization: header } });
  const body = await res.text();
  let message = body;
  try {
    message = JSON.parse(body).error ?? body;
  } catch { /* a text body */ }
  return { status: res.status, message };
}

/**
 * Seam for the OIDC flow (P0 item 3): `before` runs ahead of every API call so an access token
 * about to expire is refreshed first (in-flight callers wait for the same refresh);
 * `recover` gets one chance to fix a 401 (a refresh) before the login screen shows.
 */
export interface TokenKeeper {
  before(): Promise<void>;
  recover(): Promise<boolean>;
}

let keeper: TokenKeeper | null = null;

export function setTokenKeeper(k: TokenKeeper | null): void {
  keeper = k;
}

/** Awaited by the API client before each request. */
export function beforeRequest(): Promise<void> {
  return keeper ? keeper.before().catch(() => {}) : Promise.resolve();
}

/**
 * Handles a 401: the token keeper may refresh and keep the user signed in (true: the caller
 * may retry once); otherwise the credentials no longer work and the login screen shows.
 */
export async function handleUnauthorized(): Promise<boolean> {
  if (keeper && authStore.get().mode === "oidc" && (await keeper.recover().catch(() => false))) return true;
  notifyUnauthorized();
  return false;
}

/** A 401 from any call means the credentials no longer work: back to the login screen. */
export function notifyUnauthorized(): void {
  // A server that needs a password without saying so in /settings still gets a login form.
  const s = authStore.get();
  setSessionHint(false);
  authStore.set({
    ...s,
    mode: s.mode === "none" ? "password" : s.mode,
    header: null,
    signedIn: false,
    session: false,
  });
}

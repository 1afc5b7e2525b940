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
}

export const authStore = new Store<AuthState>({ mode: "none", header: null, user: null, signedIn: true });

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

export function signIn(header: string | null, user: string | null): void {
  authStore.set({ ...authStore.get(), header, user, signedIn: true });
}

/** Seam for the OIDC flow: the access token becomes the Bearer header (a refresh keeps the user shown). */
export function setBearerToken(token: string, user: string | null): void {
  signIn(`Bearer ${token}`, user ?? authStore.get().user);
}

let signOutHook: (() => void) | null = null;

/** Lets the OIDC flow drop its in-memory tokens on logout. */
export function setSignOutHook(hook: () => void): void {
  signOutHook = hook;
}

/**
 * Logs out: ends the server's session cookie (`session=false`, spec/console.md §2.14.7),
 * drops the credentials held in memory, and shows the login screen.
 */
export function signOut(): void {
  const s = authStore.get();
  if (s.header) {
    void fetch("exec?query=select%202&session=false", {
      headers: { Authorization: s.header },
      keepalive: true,
    })
      .then((r) => r.body?.cancel(), () => {});
  }
  signOutHook?.();
  authStore.set({ ...s, header: null, user: null, signedIn: s.mode === "none" });
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

/** A 401 from any call means the credentials no longer work: back to the login screen. */
export function notifyUnauthorized(): void {
  // A server that needs a password without saying so in /settings still gets a login form.
  const s = authStore.get();
  authStore.set({ ...s, mode: s.mode === "none" ? "password" : s.mode, header: null, signedIn: false });
}

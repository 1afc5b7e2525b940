/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The console's root: boots from /settings (a Retry screen when the server cannot be
 * reached), decides the auth mode, restores the tabs, loads the schema, and lays out the
 * workspace. `app-root[data-state]` is loading, login, ready or error (spec/console.md §6.2).
 */
import { useEffect, useState } from "preact/hooks";
import { fetchSettings, probe, queryObjects } from "./api/exec_client.ts";
import { authModeOf, authStore, resumeCookieSession, signOut } from "./auth/auth_state.ts";
import { LoginScreen } from "./auth/login_screen.tsx";
import { completeSingleSignOn, rememberSingleSignOnUser, resumeSingleSignOn } from "./auth/single_sign_on.ts";
import { refreshSchema } from "./schema/schema_store.ts";
import { loadTabs } from "./tabs/tab_store.ts";
import { loadHistory } from "./history/history_store.ts";
import { runStatements } from "./results/query_runner.ts";
import { splitStatements } from "./editor/statements.ts";
import { openSharedQuery, type SharedQuery } from "./ui/share_link.ts";
import { connectionStore } from "./ui/connection_state.ts";
import { useStore } from "./ui/store.ts";
import { ToastHost } from "./ui/toast_host.tsx";
import { Workspace } from "./workspace.tsx";
import { WarningsBanner } from "./ui/warnings_banner.tsx";
import { ThemeSelect } from "./ui/theme_select.tsx";
import { StorageNotice } from "./ui/storage_notice.tsx";
import { ShareConfirmDialog, shareConfirmStore } from "./ui/share_confirm_dialog.tsx";

type Boot = { state: "loading" } | { state: "error"; message: string } | {
  state: "done";
  config: Record<string, unknown>;
};
/** A shared link opened at boot, run once the editor shows it. */
let shared: SharedQuery | null = null;

async function boot(): Promise<Record<string, unknown>> {
  const { config } = await fetchSettings();
  const mode = authModeOf(config);
  authStore.set({ mode, header: null, user: null, signedIn: mode === "none", session: false });
  if (mode === "oidc") {
    const callback = /[?&](code|error)=/.test(location.search);
    if (callback) await completeSingleSignOn(config);
    // A reload of a signed-in SSO tab: back through the provider silently. The page leaves,
    // so boot never finishes and the loading screen stays up meanwhile.
    else if (await resumeSingleSignOn(config)) return new Promise(() => {});
  }
  if (mode === "none" && (await probe(null)) === 401) {
    authStore.set({ mode: "password", header: null, user: null, signedIn: false, session: false });
  }
  // A password login survives a reload through the server's session cookie, never a stored password.
  if (authStore.get().mode === "password") await resumeCookieSession();
  await Promise.all([loadTabs(), loadHistory()]);
  shared = openSharedQuery();
  return config;
}

async function loadCurrentUser(): Promise<void> {
  try {
    const rows = await queryObjects("select current_user()", "1");
    const user = rows[0] ? String(Object.values(rows[0])[0]) : null;
    if (user) {
      authStore.set({ ...authStore.get(), user });
      if (authStore.get().mode === "oidc") rememberSingleSignOnUser(user);
    }
  } catch { /* older servers have no current_user(): no badge */ }
}

function Footer(props: { config: Record<string, unknown> }) {
  const connection = useStore(connectionStore);
  return (
    <footer class="footer">
      <span class="connection" data-testid="connection-status" data-state={connection}>
        <span class={`dot is-${connection}`} /> {connection === "connected" ? "Connected" : "Disconnected"}
      </span>
      <span class="dim">
        {String(props.config["release.type"] ?? "")} {String(props.config["release.version"] ?? "")}
      </span>
    </footer>
  );
}

export function App() {
  const [bootState, setBoot] = useState<Boot>({ state: "loading" });
  const auth = useStore(authStore);
  const start = () => {
    setBoot({ state: "loading" });
    boot().then(
      (config) => setBoot({ state: "done", config }),
      (err) => setBoot({ state: "error", message: String(err.message ?? err) }),
    );
  };
  useEffect(start, []);
  useEffect(() => {
    if (bootState.state === "done" && auth.signedIn) {
      void refreshSchema();
      void loadCurrentUser();
      const run = shared?.execute ? shared.text : null;
      const confirm = shared && shared.writes.length > 0
        ? { text: shared.text, writes: shared.writes }
        : null;
      shared = null;
      // After this render the editor holds the shared text, so statement offsets match the document.
      if (run) setTimeout(() => void runStatements(splitStatements(run), { stopAfterFailure: true }), 0);
      if (confirm) shareConfirmStore.set(confirm);
    }
  }, [bootState.state, auth.signedIn]);

  if (bootState.state === "loading") {
    return <div class="app-loading" data-testid="app-root" data-state="loading">Loading…</div>;
  }
  if (bootState.state === "error") {
    return (
      <div class="app-error" data-testid="app-root" data-state="error">
        <h1>Cannot connect to the database</h1>
        <p class="dim">{bootState.message}</p>
        <button type="button" class="btn primary" data-testid="retry-button" onClick={start}>Retry</button>
      </div>
    );
  }
  const config = bootState.config;
  if (!auth.signedIn) {
    return (
      <div class="app" data-testid="app-root" data-state="login">
        <LoginScreen oidc={auth.mode === "oidc"} config={config} />
        <ToastHost />
      </div>
    );
  }
  return (
    <div class="app" data-testid="app-root" data-state="ready">
      <WarningsBanner />
      <header class="top-bar">
        <span class="logo" aria-hidden="true" />
        <span class="product">Web Console</span>
        <span class="spacer" />
        <StorageNotice />
        <ThemeSelect />
        {auth.user && <span class="user-badge" data-testid="current-user">{auth.user}</span>}
        {auth.mode !== "none" && (
          <button type="button" class="btn small ghost" data-testid="logout-button" onClick={signOut}>
            Log out
          </button>
        )}
      </header>
      <Workspace />
      <ShareConfirmDialog />
      <Footer config={config} />
      <ToastHost />
    </div>
  );
}

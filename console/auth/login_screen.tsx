/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The login screen shown when the server needs credentials: a username/password form whose
 * Basic header is checked with a harmless query and then kept in memory only, and, when
 * /settings says OIDC is enabled, the single sign-on button (single_sign_on.ts), whose
 * failures (a refused state, a provider error, a user without the HTTP permission) show here.
 */
import { useState } from "preact/hooks";
import { basicHeader, basicProbeStatus, signIn } from "./auth_state.ts";
import { rememberedSingleSignOnUser, startSingleSignOn, takeSingleSignOnError } from "./single_sign_on.ts";

export function LoginScreen(props: { oidc: boolean; config: Record<string, unknown> }) {
  const [user, setUser] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(() => takeSingleSignOnError());
  const [busy, setBusy] = useState(false);
  const known = props.oidc ? rememberedSingleSignOnUser(props.config) : null;
  const sso = (prompt: "login" | null) =>
    startSingleSignOn(props.config, prompt).catch((err) => setError(String(err.message ?? err)));

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const header = basicHeader(user, password);
    try {
      // session=true: the server also opens its cookie session, which CSV downloads and a
      // reload use, so the password itself is never stored (spec/console.md §1.3, §2.14.8).
      const { status } = await basicProbeStatus(header);
      if (status === 200) signIn(header, user, true);
      else {setError(
          status === 401
            ? "Invalid username or password"
            : status === 403
            ? "Not authorized to use the Web Console"
            : `Server answered ${status}`,
        );}
    } catch (err) {
      setError(`Server is not reachable: ${(err as Error).message}`);
    } finally {
      setBusy(false);
      setPassword("");
    }
  };

  return (
    <div class="login-screen" data-testid="login-screen">
      <form class="login-card" onSubmit={submit}>
        <h1>Sign in</h1>
        <label>
          Username<input
            data-testid="login-username"
            autocomplete="username"
            value={user}
            required
            onInput={(e) => setUser((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <label>
          Password<input
            data-testid="login-password"
            type="password"
            autocomplete="current-password"
            value={password}
            onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)}
          />
        </label>
        {error && <div class="login-error" data-testid="login-error" role="alert">{error}</div>}
        <button type="submit" class="btn primary" data-testid="login-submit" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
        {known && (
          // No prompt: a live provider session signs straight back in (spec/console.md §2.14.3).
          <button
            type="button"
            class="btn primary"
            data-testid="sso-continue-button"
            onClick={() => sso(null)}
          >
            Continue as {known}
          </button>
        )}
        {props.oidc && (
          <button
            type="button"
            class="btn"
            data-testid="sso-login-button"
            onClick={() => sso("login")}
          >
            {known ? "Choose a different account" : "Single Sign-On (SSO)"}
          </button>
        )}
      </form>
    </div>
  );
}

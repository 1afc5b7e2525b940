/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The login screen shown when the server needs credentials: a username/password form whose
 * Basic header is checked with a harmless query and then kept in memory only, and, when
 * /settings says OIDC is enabled, the single sign-on button (single_sign_on.ts), whose
 * failures (a refused state, a provider error, a user without the HTTP permission) show here.
 */
import { useState } from "preact/hooks";
import { probe } from "../api/exec_client.ts";
import { basicHeader, signIn } from "./auth_state.ts";
import { startSingleSignOn, takeSingleSignOnError } from "./single_sign_on.ts";

export function LoginScreen(props: { oidc: boolean; config: Record<string, unknown> }) {
  const [user, setUser] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(() => takeSingleSignOnError());
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const header = basicHeader(user, password);
    try {
      const status = await probe(header);
      if (status === 200) signIn(header, user);
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
        {props.oidc && (
          <button
            type="button"
            class="btn"
            data-testid="sso-login-button"
            onClick={() =>
              startSingleSignOn(props.config).catch((err) => setError(String(err.message ?? err)))}
          >
            Single Sign-On (SSO)
          </button>
        )}
      </form>
    </div>
  );
}

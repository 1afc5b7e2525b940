/**
 * The seam for single sign-on. The access-control issue implements the OIDC Authorization
 * Code flow with PKCE (S256) here (spec/console.md §2.14): build the authorize URL from the
 * /settings keys, keep verifier and state in sessionStorage, handle the callback in
 * `completeSingleSignOn`, and hand the access token to `setBearerToken` (auth_state.ts), which
 * keeps it in memory only.
 */

/** Starts the redirect to the identity provider. */
export function startSingleSignOn(config: Record<string, unknown>): Promise<void> {
  if (!config["acl.oidc.authorization.endpoint"]) {
    return Promise.reject(new Error("single sign-on is not configured on this server"));
  }
  return Promise.reject(new Error("single sign-on is not available in this build yet"));
}

/** Handles `?code=…&state=…` on load; returns true when it signed the user in. */
export function completeSingleSignOn(_config: Record<string, unknown>): Promise<boolean> {
  return Promise.resolve(false);
}

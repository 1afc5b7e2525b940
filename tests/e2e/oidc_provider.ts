/**
 * A real OpenID Connect provider for the access-control end-to-end tests: npm `oidc-provider`
 * (a certified implementation) on a free loopback port, with public clients that must use
 * PKCE, accounts whose groups a test can change, short token lifetimes, its own login and
 * consent pages (devInteractions), and counters of the calls the tests assert on (User Info,
 * token grants). `signIn` walks the same pages headlessly for the plain-HTTP tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import Provider from "oidc-provider";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { Page } from "playwright-core";

export interface IdpAccount {
  name: string;
  /** undefined = no groups claim at all */
  groups?: string[];
}

export interface IdpOptions {
  accounts: Record<string, IdpAccount>;
  /**
   * client id → redirect URIs (public clients, PKCE required), or the redirect URIs plus the
   * `post_logout_redirect_uris` RP-initiated logout may return to.
   */
  clients: Record<string, string[] | IdpClient>;
  accessTokenTtlS?: number;
  idTokenTtlS?: number;
}

export interface IdpClient {
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
}

export interface TestIdp {
  issuer: string;
  discoveryUrl: string;
  /** The provider's signing key (private): tests mint expired or other-audience tokens with it. */
  signingKey: JWK;
  accounts: Record<string, IdpAccount>;
  userinfoCalls(): number;
  /** grant_type of each token request, with whether it carried a code_verifier. */
  tokenRequests: { grantType: string; codeVerifier: boolean }[];
  /** Authorize requests seen (their query parameters). */
  authorizeRequests: URLSearchParams[];
  /** GET requests to the end_session endpoint seen (their query parameters). */
  endSessionRequests: URLSearchParams[];
  signIn(user: string, clientId: string, redirectUri: string): Promise<TokenSet>;
  close(): Promise<void>;
}

export interface TokenSet {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  expires_in: number;
}

export async function startIdp(opts: IdpOptions): Promise<TestIdp> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_q, r) => r.end();
  let userinfo = 0;
  const authorizeRequests: URLSearchParams[] = [];
  const endSessionRequests: URLSearchParams[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/me") userinfo++;
    if (url.pathname === "/auth") authorizeRequests.push(url.searchParams);
    if (url.pathname === "/session/end" && req.method === "GET") endSessionRequests.push(url.searchParams);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const issuer = `http://127.0.0.1:${port}`;

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const accounts = opts.accounts;
  const provider = new Provider(issuer, {
    clients: Object.entries(opts.clients).map(([client_id, c]) => ({
      client_id,
      redirect_uris: Array.isArray(c) ? c : c.redirectUris,
      post_logout_redirect_uris: Array.isArray(c) ? [] : c.postLogoutRedirectUris ?? [],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    })),
    jwks: { keys: [signingKey] },
    pkce: { required: () => true },
    // Tokens expire exactly at their lifetime (the in-memory store would add 15 s).
    clockTolerance: 0,
    claims: { openid: ["sub"], profile: ["name", "groups"] },
    conformIdTokenClaims: false,
    // RP-initiated logout (on by default in oidc-provider 9): /session/end asks to confirm.
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) =>
      Promise.resolve(client.grantTypeAllowed("refresh_token")),
    clientBasedCORS: () => true,
    ttl: {
      AccessToken: opts.accessTokenTtlS ?? 60,
      IdToken: opts.idTokenTtlS ?? 60,
      AuthorizationCode: 60,
      RefreshToken: 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
    },
    findAccount: (_ctx: unknown, id: string) => {
      if (!accounts[id]) return undefined;
      return {
        accountId: id,
        // Read at each call: a test changes a user's groups "at the provider".
        claims: () => {
          const a = accounts[id];
          return a.groups === undefined
            ? { sub: id, name: a.name }
            : { sub: id, name: a.name, groups: a.groups };
        },
      };
    },
    // deno-lint-ignore no-explicit-any
  } as any);
  const tokenRequests: TestIdp["tokenRequests"] = [];
  // deno-lint-ignore no-explicit-any
  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    if (ctx.path === "/token" && ctx.oidc?.params) {
      tokenRequests.push({
        grantType: String(ctx.oidc.params.grant_type),
        codeVerifier: !!ctx.oidc.params.code_verifier,
      });
    }
  });
  handler = provider.callback();

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    signingKey,
    accounts,
    userinfoCalls: () => userinfo,
    tokenRequests,
    authorizeRequests,
    endSessionRequests,
    signIn: (user, clientId, redirectUri) => headlessSignIn(issuer, user, clientId, redirectUri),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The authorization code flow with PKCE through the provider's own login and consent pages. */
async function headlessSignIn(
  issuer: string,
  user: string,
  clientId: string,
  redirectUri: string,
): Promise<TokenSet> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(48)));
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
  );
  const jar = new Map<string, string>();
  const request = async (url: string, init: RequestInit = {}) => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers ?? {}), cookie },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const body = await res.text();
    return { res, body, location: res.headers.get("location") };
  };
  const auth = new URL(`${issuer}/auth`);
  for (
    const [k, v] of Object.entries({
      client_id: clientId,
      response_type: "code",
      scope: "openid profile",
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1",
      prompt: "login",
    })
  ) auth.searchParams.set(k, v);
  let step = await request(auth.toString());
  for (let hops = 0; hops < 12; hops++) {
    const location = step.location ? new URL(step.location, issuer).toString() : undefined;
    if (location?.startsWith(redirectUri)) {
      const code = new URL(location).searchParams.get("code");
      if (!code) throw new Error(`provider refused: ${location}`);
      const res = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          code_verifier: verifier,
          client_id: clientId,
          redirect_uri: redirectUri,
        }),
      });
      const tokens = await res.json();
      if (!res.ok) throw new Error(`token endpoint: ${JSON.stringify(tokens)}`);
      return tokens;
    }
    if (location) {
      step = await request(location);
      continue;
    }
    // An interaction page: submit its form (login first, then consent).
    const action = /<form[^>]*action="([^"]+)"/.exec(step.body)?.[1];
    if (!action) {
      throw new Error(`unexpected page from the provider: ${step.res.status} ${step.body.slice(0, 300)}`);
    }
    const prompt = /name="prompt" value="(\w+)"/.exec(step.body)?.[1] ?? "consent";
    const form: Record<string, string> = prompt === "login"
      ? { prompt, login: user, password: "any" }
      : { prompt };
    step = await request(new URL(action, issuer).toString(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
    });
  }
  throw new Error("sign-in did not finish");
}

/**
 * In a browser already sent to the provider: fills its login page and, when the provider
 * shows it (nothing is skipped while consent is missing), its consent page.
 */
export async function loginAtProvider(page: Page, issuer: string, user: string): Promise<void> {
  await page.waitForURL((u) => u.toString().startsWith(issuer), { timeout: 15_000 });
  await page.locator('input[name="login"]').fill(user);
  await page.locator('input[name="password"]').fill("any");
  await page.locator('button[type="submit"]').click();
  await page.waitForLoadState();
  if (page.url().startsWith(issuer)) await page.locator('button[type="submit"]').first().click();
}

/**
 * The HTTP side of access control as one function a Hono app calls per request: which routes
 * need credentials (protocols.md §1.2: `/settings` GET, `/ping`, `/warnings` and the console's
 * static files never do), the 401/403 replies in the shapes clients expect, and the session
 * cookie of `/exec?session=true|false` (§1.3).
 */
import type { Principal } from "../../engine/mod.ts";
import type { AuthService } from "./mod.ts";

/** Paths that run SQL or write data. */
const PROTECTED = new Set([
  "/exec",
  "/exp",
  "/imp",
  "/chk",
  "/write",
  "/api/v2/write",
  "/api/v1/sql/validate",
]);
const ILP_PATHS = new Set(["/write", "/api/v2/write"]);

export function needsCredentials(method: string, path: string): boolean {
  if (PROTECTED.has(path)) return true;
  return method !== "GET" && method !== "HEAD" && method !== "OPTIONS";
}

/** The principal of an allowed request, or the refusal to send. */
export async function gate(
  auth: AuthService,
  request: Request,
): Promise<{ principal: Principal } | Response> {
  const url = new URL(request.url);
  if (!needsCredentials(request.method, url.pathname)) return { principal: openPrincipal() };
  const result = await auth.authenticateHttp(request.headers);
  if (!result.ok) return refusal(result.status, result.message, url);
  return { principal: result.principal };
}

/** Requests that need no credentials run as nobody in particular: they never reach SQL. */
function openPrincipal(): Principal {
  return { name: "", groups: [], can: () => false };
}

function refusal(status: 401 | 403, message: string, url: URL): Response {
  if (status === 401) {
    return new Response("Unauthorized", { status, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const body = ILP_PATHS.has(url.pathname)
    ? { code: "unauthorised", message, line: 0, errorId: crypto.randomUUID() }
    : { query: url.searchParams.get("query") ?? "", error: message, position: 0 };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8" },
  });
}

/** Adds or clears the session cookie after an `/exec` that asked for it. */
export async function sessionCookie(auth: AuthService, request: Request, response: Response): Promise<void> {
  const url = new URL(request.url);
  const wanted = url.searchParams.get("session");
  if (url.pathname !== "/exec" || (wanted !== "true" && wanted !== "false")) return;
  if (wanted === "false") {
    response.headers.append("Set-Cookie", auth.closeSession(request.headers));
    return;
  }
  if (response.status !== 200) return;
  const result = await auth.authenticateHttp(request.headers);
  if (result.ok) response.headers.append("Set-Cookie", auth.openSession(result.identity, request.headers));
}

/**
 * Lets the console reach the provider's token endpoint (the code exchange and refresh happen
 * in the browser, security.md §6.3): adds that one origin to the CSP's connect-src.
 */
export async function allowProviderInCsp(auth: AuthService, response: Response): Promise<void> {
  const csp = response.headers.get("content-security-policy");
  if (!csp || !auth.oidc) return;
  let origin: string;
  try {
    origin = new URL((await auth.oidc.endpoints()).token).origin;
  } catch {
    return;
  }
  response.headers.set(
    "content-security-policy",
    csp.replace("connect-src 'self'", `connect-src 'self' ${origin}`),
  );
}

/**
 * Reading the credentials of an HTTP request (security.md §5.1): `Authorization: Basic`
 * (split at the first colon, so a password may hold colons), `Authorization: Bearer`, and the
 * `qdb_session` cookie (protocols.md §1.3). Anything malformed reads as "no credentials".
 */

export type Credentials =
  | { kind: "basic"; user: string; password: string }
  | { kind: "bearer"; token: string }
  | { kind: "session"; id: string }
  | { kind: "none" }
  | { kind: "malformed" };

/** Longest Authorization header considered (T2: oversize headers are refused, never parsed). */
const HEADER_CHARS_MAX = 16_384;
export const SESSION_COOKIE = "qdb_session";

export function credentialsOf(headers: Headers): Credentials {
  const auth = headers.get("authorization");
  if (auth !== null) {
    if (auth.length > HEADER_CHARS_MAX) return { kind: "malformed" };
    const space = auth.indexOf(" ");
    const scheme = (space < 0 ? auth : auth.slice(0, space)).toLowerCase();
    const value = space < 0 ? "" : auth.slice(space + 1).trim();
    if (scheme === "basic") return basic(value);
    if (scheme === "bearer" && value) return { kind: "bearer", token: value };
    return { kind: "malformed" };
  }
  const id = cookie(headers.get("cookie"), SESSION_COOKIE);
  return id ? { kind: "session", id } : { kind: "none" };
}

function basic(value: string): Credentials {
  let text: string;
  try {
    const bytes = Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { kind: "malformed" };
  }
  const colon = text.indexOf(":");
  if (colon < 0) return { kind: "malformed" };
  return { kind: "basic", user: text.slice(0, colon), password: text.slice(colon + 1) };
}

function cookie(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * SCRAM-SHA-256 keys (RFC 5802, RFC 7677), shared by server/auth, which stores a verifier
 * next to each password hash, and server/pg, which runs the exchange. A verifier holds only
 * the salt, the iteration count, StoredKey and ServerKey: enough to check a client's proof
 * and to prove the server knows the password, never enough to log in as the user.
 */

export interface ScramVerifier {
  /** base64 of the random salt. */
  salt: string;
  iterations: number;
  /** base64 of SHA-256(ClientKey). */
  storedKey: string;
  /** base64 of HMAC(SaltedPassword, "Server Key"). */
  serverKey: string;
}

/** PostgreSQL's default (`scram_iterations`); what libpq and other clients expect to pay. */
export const SCRAM_ITERATIONS = 4096;

const enc = new TextEncoder();

export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

export async function hmac(key: Uint8Array, data: Uint8Array | string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const bytes = typeof data === "string" ? enc.encode(data) : data;
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, bytes as Uint8Array<ArrayBuffer>));
}

export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
}

/**
 * SASLprep stand-in: NFKC, as PostgreSQL and libpq apply before hashing (they fall back to
 * the raw bytes when SASLprep refuses a string; for ASCII passwords both are the identity).
 */
function prepare(password: string): Uint8Array {
  // deno-lint-ignore no-control-regex
  return enc.encode(/^[\x00-\x7f]*$/.test(password) ? password : password.normalize("NFKC"));
}

async function saltedPassword(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    prepare(password) as Uint8Array<ArrayBuffer>,
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    256,
  );
  return new Uint8Array(bits);
}

/** A verifier for `password` with a fresh random salt (or the given one, for tests). */
export async function scramVerifier(
  password: string,
  iterations = SCRAM_ITERATIONS,
  salt: Uint8Array = crypto.getRandomValues(new Uint8Array(16)),
): Promise<ScramVerifier> {
  const salted = await saltedPassword(password, salt, iterations);
  const clientKey = await hmac(salted, "Client Key");
  return {
    salt: toBase64(salt),
    iterations,
    storedKey: toBase64(await sha256(clientKey)),
    serverKey: toBase64(await hmac(salted, "Server Key")),
  };
}

/**
 * A verifier no password matches, the same for the same `user` across attempts, so an
 * unknown user goes through an exchange that looks like a real one (PostgreSQL's "mock"
 * authentication: no user enumeration from the salt or from an early refusal).
 */
export async function mockScramVerifier(secret: Uint8Array, user: string): Promise<ScramVerifier> {
  const salt = (await hmac(secret, `salt\u0000${user}`)).subarray(0, 16);
  const random = crypto.getRandomValues(new Uint8Array(32));
  return {
    salt: toBase64(salt),
    iterations: SCRAM_ITERATIONS,
    storedKey: toBase64(random),
    serverKey: toBase64(random),
  };
}

/** Compares two byte strings without stopping at the first difference. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * Checks a client proof against the verifier for `authMessage`; on success returns the
 * server signature the client checks in turn (RFC 5802 §3).
 */
export async function checkScramProof(
  verifier: ScramVerifier,
  authMessage: string,
  proof: Uint8Array,
): Promise<Uint8Array | undefined> {
  const storedKey = fromBase64(verifier.storedKey);
  const clientSignature = await hmac(storedKey, authMessage);
  const clientKey = new Uint8Array(clientSignature.length);
  for (let i = 0; i < clientKey.length; i++) clientKey[i] = (proof[i] ?? 0) ^ clientSignature[i];
  const ok = proof.length === clientSignature.length && constantTimeEqual(await sha256(clientKey), storedKey);
  if (!ok) return undefined;
  return await hmac(fromBase64(verifier.serverKey), authMessage);
}

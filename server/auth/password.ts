/**
 * Password hashing for stored users (security.md §5.1): PBKDF2-HMAC-SHA256 from WebCrypto with
 * a random 16-byte salt per password and `acl.password.hash.iteration.count` rounds (100000).
 * Only the salt, the iteration count and the derived key are stored, never the password, and
 * comparisons take the same time whatever the bytes (T2).
 */

export interface PasswordHash {
  /** base64 of the random salt. */
  salt: string;
  iterations: number;
  /** base64 of the 32-byte derived key. */
  hash: string;
}

export const ITERATIONS_DEFAULT = 100_000;
const KEY_BITS = 256;

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as Uint8Array<ArrayBuffer>, iterations },
    key,
    KEY_BITS,
  );
  return new Uint8Array(bits);
}

/** A fresh salted hash of `password`. */
export async function hashPassword(password: string, iterations = ITERATIONS_DEFAULT): Promise<PasswordHash> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return { salt: toBase64(salt), iterations, hash: toBase64(await derive(password, salt, iterations)) };
}

/** True when `password` matches the stored hash; takes the same time for any wrong password. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  const actual = await derive(password, fromBase64(stored.salt), stored.iterations);
  return constantTimeEqual(actual, fromBase64(stored.hash));
}

/** Compares two byte strings without stopping at the first difference. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    diff |= (a[i % (a.length || 1)] ?? 0) ^ (b[i % (b.length || 1)] ?? 0);
  }
  return diff === 0;
}

/** Compares two strings (UTF-8) in constant time. */
export function constantTimeEqualText(a: string, b: string): boolean {
  const enc = new TextEncoder();
  return constantTimeEqual(enc.encode(a), enc.encode(b));
}

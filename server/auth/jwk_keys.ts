/**
 * JWK keys for ILP over TCP (security.md §5.3, protocols.md §11.1): `CREATE TOKEN TYPE JWK`
 * makes an ECDSA P-256 key pair, keeps only the public point (x, y) and returns the private
 * scalar d once; one key per principal (creating again replaces it). `verify` checks a
 * challenge signature (raw 64-byte P1363 or DER), rejecting all-zero signatures (T21).
 */
import type { AclStore } from "./acl_store.ts";

export class JwkKeys {
  readonly #store: AclStore;

  constructor(store: AclStore) {
    this.#store = store;
  }

  async create(entity: string): Promise<{ x: string; y: string; d: string }> {
    const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
      "verify",
    ]);
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    const key = { entity, x: jwk.x!, y: jwk.y! };
    await this.#store.update((d) => {
      d.jwks = d.jwks.filter((k) => k.entity !== entity);
      d.jwks.push(key);
    });
    return { x: key.x, y: key.y, d: jwk.d! };
  }

  async drop(entity: string): Promise<void> {
    await this.#store.update((d) => void (d.jwks = d.jwks.filter((k) => k.entity !== entity)));
  }

  has(entity: string): boolean {
    return this.#store.data.jwks.some((k) => k.entity === entity);
  }

  /** True when `signature` signs `challenge` with the key of `entity`. */
  async verify(entity: string, challenge: Uint8Array, signature: Uint8Array): Promise<boolean> {
    const stored = this.#store.data.jwks.find((k) => k.entity === entity);
    if (!stored) return false;
    const raw = signature.length === 64 ? signature : derToP1363(signature);
    if (!raw || raw.every((b) => b === 0)) return false;
    try {
      const key = await crypto.subtle.importKey(
        "jwk",
        { kty: "EC", crv: "P-256", x: stored.x, y: stored.y, ext: true },
        { name: "ECDSA", namedCurve: "P-256" },
        false,
        ["verify"],
      );
      return await crypto.subtle.verify(
        { name: "ECDSA", hash: "SHA-256" },
        key,
        raw as Uint8Array<ArrayBuffer>,
        challenge as Uint8Array<ArrayBuffer>,
      );
    } catch {
      return false;
    }
  }
}

/** DER `SEQUENCE { INTEGER r, INTEGER s }` → r‖s (32 bytes each); undefined when malformed. */
export function derToP1363(der: Uint8Array): Uint8Array | undefined {
  if (der.length < 8 || der.length > 72 || der[0] !== 0x30 || der[1] !== der.length - 2) return undefined;
  const out = new Uint8Array(64);
  let at = 2;
  for (let part = 0; part < 2; part++) {
    if (der[at] !== 0x02) return undefined;
    const len = der[at + 1];
    let value = der.subarray(at + 2, at + 2 + len);
    if (value.length !== len) return undefined;
    while (value.length > 32 && value[0] === 0) value = value.subarray(1);
    if (value.length > 32) return undefined;
    out.set(value, part * 32 + (32 - value.length));
    at += 2 + len;
  }
  return at === der.length ? out : undefined;
}

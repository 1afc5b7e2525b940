/**
 * REST API tokens (security.md §4.1, §5.1, T3): `qt1` + 43 url-safe characters (256 random
 * bits). Only a SHA-256 digest is kept (enough for a random secret of that size; a password
 * hash would only slow every request), looked up by an 8-character public prefix and compared
 * in constant time. Expiry is checked on every use; REFRESH tokens move their expiry forward
 * on use unless refreshed within `acl.rest.token.refresh.threshold` seconds; TRANSIENT tokens
 * (the console's login) live in memory only and die with the server. DROP takes effect at
 * once: there is no cache.
 */
import type { AclStore } from "./acl_store.ts";
import { constantTimeEqualText } from "./password.ts";

export const TOKEN_PREFIX = "qt1";
const TTL_MIN_MS = 60_000;
const TTL_MAX_MS = 3650 * 86_400_000;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface StoredToken {
  entity: string;
  /** Public lookup key: the 8 characters after the prefix. */
  id: string;
  /** hex SHA-256 of the whole token. */
  digest: string;
  expiresAt: number;
  ttlMs: number;
  refresh: boolean;
  /** Last time the expiry moved (refresh tokens). */
  refreshedAt: number;
  /** Creation time (ms); tokens stored before it was recorded count from refreshedAt. */
  issuedAt?: number;
}

/** `'<n><s|m|h|d>'` → milliseconds within [1 minute, 10 years]; undefined when malformed or out of range. */
export function parseTtl(text: string): number | undefined {
  const m = /^(\d{1,12})([smhd])$/i.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2].toLowerCase()];
  return ms >= TTL_MIN_MS && ms <= TTL_MAX_MS ? ms : undefined;
}

export class RestTokens {
  readonly #store: AclStore;
  readonly #thresholdMs: number;
  readonly #transient: StoredToken[] = [];

  constructor(store: AclStore, refreshThresholdMs: number) {
    this.#store = store;
    this.#thresholdMs = refreshThresholdMs;
  }

  /** A new token for `entity`; the clear text is returned once and never stored. */
  async create(
    entity: string,
    ttlMs: number,
    refresh: boolean,
    transient: boolean,
  ): Promise<{ token: string; expiresAt: number }> {
    const token = TOKEN_PREFIX + base64url(crypto.getRandomValues(new Uint8Array(32)));
    const now = Date.now();
    const stored: StoredToken = {
      entity,
      id: token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 8),
      digest: await digestHex(token),
      expiresAt: now + ttlMs,
      ttlMs,
      refresh,
      refreshedAt: now,
      issuedAt: now,
    };
    if (transient) this.#transient.push(stored);
    else {
      await this.#store.update((d) => {
        d.tokens = d.tokens.filter((t) => t.expiresAt > now); // expired ones are dead weight
        d.tokens.push(stored);
      });
    }
    for (let i = this.#transient.length - 1; i >= 0; i--) {
      if (this.#transient[i].expiresAt <= now) this.#transient.splice(i, 1);
    }
    return { token, expiresAt: stored.expiresAt };
  }

  /** Drops one token of `entity` (by its text) or all of them; false when the named one is not there. */
  async drop(entity: string, token?: string): Promise<boolean> {
    const digest = token === undefined ? undefined : await digestHex(token);
    const match = (t: StoredToken) =>
      t.entity === entity && (digest === undefined || constantTimeEqualText(t.digest, digest));
    const before = this.#transient.length;
    for (let i = this.#transient.length - 1; i >= 0; i--) {
      if (match(this.#transient[i])) this.#transient.splice(i, 1);
    }
    let dropped = this.#transient.length !== before;
    await this.#store.update((d) => {
      const n = d.tokens.length;
      d.tokens = d.tokens.filter((t) => !match(t) && t.expiresAt > Date.now());
      dropped ||= d.tokens.length !== n;
    });
    return dropped;
  }

  /** Forgets the tokens of a dropped entity (the stored ones go with the entity's other data). */
  forget(entity: string): void {
    for (let i = this.#transient.length - 1; i >= 0; i--) {
      if (this.#transient[i].entity === entity) this.#transient.splice(i, 1);
    }
  }

  /** Whether `entity` holds an unexpired token (SHOW USER's `REST Token` row). */
  has(entity: string): boolean {
    const now = Date.now();
    return [...this.#transient, ...this.#store.data.tokens].some((t) =>
      t.entity === entity && t.expiresAt > now
    );
  }

  /** The entity a token belongs to, if it is valid now; refreshes its expiry when asked to. */
  async identify(token: string): Promise<string | undefined> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length !== TOKEN_PREFIX.length + 43) return undefined;
    const id = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 8);
    const digest = await digestHex(token);
    const now = Date.now();
    const transient = this.#transient.find((t) => t.id === id && constantTimeEqualText(t.digest, digest));
    const stored = transient ??
      this.#store.data.tokens.find((t) => t.id === id && constantTimeEqualText(t.digest, digest));
    if (!stored || stored.expiresAt <= now) return undefined;
    // Issued before its owner's last DISABLE: dead for good, even once the owner is enabled again
    // (issue #24). While the owner is disabled it still names them, so the answer is "disabled".
    const owner = this.#store.entity(stored.entity);
    if (owner?.enabled && (stored.issuedAt ?? stored.refreshedAt) < (owner.sessionsFrom ?? 0)) {
      return undefined;
    }
    if (stored.refresh && now - stored.refreshedAt >= this.#thresholdMs) {
      if (transient) {
        transient.expiresAt = now + transient.ttlMs;
        transient.refreshedAt = now;
      } else {
        // Persisted at most once per threshold per token, so a busy client does not rewrite the store per request.
        await this.#store.update((d) => {
          const t = d.tokens.find((x) => x.digest === stored.digest);
          if (t) {
            t.expiresAt = now + t.ttlMs;
            t.refreshedAt = now;
          }
        });
      }
    }
    return stored.entity;
  }
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

async function digestHex(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

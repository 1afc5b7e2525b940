/**
 * Bytes to strings for the line parser: strict UTF-8 decoding (invalid input is refused, never
 * replaced) and an interner that returns the same string for the same bytes, so the names and
 * tag values repeated on every line are decoded once.
 */

const strict = new TextDecoder("utf-8", { fatal: true });
const BACKSLASH = 0x5c;

/** Decodes `buf[from, to)`; undefined when it is not valid UTF-8. */
export function decodeUtf8(buf: Uint8Array, from: number, to: number): string | undefined {
  let ascii = to - from <= 64;
  if (ascii) {
    for (let i = from; i < to; i++) {
      if (buf[i] >= 0x80) {
        ascii = false;
        break;
      }
    }
  }
  if (ascii) {
    let s = "";
    for (let i = from; i < to; i++) s += String.fromCharCode(buf[i]);
    return s;
  }
  try {
    return strict.decode(buf.subarray(from, to));
  } catch {
    return undefined;
  }
}

/** Removes ILP escapes (a backslash takes the next byte literally) and decodes. */
function unescapeUtf8(buf: Uint8Array, from: number, to: number): string | undefined {
  const out = new Uint8Array(to - from);
  let n = 0;
  for (let i = from; i < to; i++) {
    if (buf[i] === BACKSLASH && i + 1 < to) i++;
    out[n++] = buf[i];
  }
  return decodeUtf8(out, 0, n);
}

const SLOTS = 4096;
const KEY_BYTES_MAX = 128;

/** Stands for "no key" in the interner's slots, so the arrays stay packed (never holey). */
const NO_KEY = new Uint8Array(0);

/** A fixed-size cache from byte strings to decoded strings (collisions simply replace). */
export class ByteInterner {
  readonly #keys: Uint8Array[] = new Array<Uint8Array>(SLOTS).fill(NO_KEY);
  readonly #values: string[] = new Array<string>(SLOTS).fill("");
  /**
   * The raw bytes of the last string `get` returned, owned by the interner and never changed
   * (a collision replaces the slot's array, not its content), or NO_KEY when the bytes were not
   * kept (too long). The line parser keeps it to recognise the same name on the next line.
   */
  key: Uint8Array = NO_KEY;

  /**
   * The unescaped string of `buf[from, to)`; undefined when not UTF-8. `hash` is the caller's
   * hash of those bytes (any function of them: the scan that found their end computes it).
   */
  get(buf: Uint8Array, from: number, to: number, hash: number): string | undefined {
    const len = to - from;
    if (len > KEY_BYTES_MAX || len === 0) {
      this.key = NO_KEY;
      return this.#decode(buf, from, to);
    }
    const slot = ((hash ^ (hash >>> 16)) >>> 0) & (SLOTS - 1);
    const key = this.#keys[slot];
    if (key.length === len) {
      let j = 0;
      while (j < len && key[j] === buf[from + j]) j++;
      if (j === len) {
        this.key = key;
        return this.#values[slot];
      }
    }
    const s = this.#decode(buf, from, to);
    if (s !== undefined) {
      this.key = this.#keys[slot] = buf.slice(from, to);
      this.#values[slot] = s;
    } else this.key = NO_KEY;
    return s;
  }

  #decode(buf: Uint8Array, from: number, to: number): string | undefined {
    for (let i = from; i < to; i++) if (buf[i] === BACKSLASH) return unescapeUtf8(buf, from, to);
    return decodeUtf8(buf, from, to);
  }
}

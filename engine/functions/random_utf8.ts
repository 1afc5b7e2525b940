/**
 * rnd_varchar's text, drawn as QuestDB's `Rnd.nextUtf8AsciiStr` and `Rnd.nextUtf8Str` draw it,
 * so seeded rows (`long_sequence(n, s0, s1)`) hold the same strings as a QuestDB test's: ASCII
 * 32..126, or characters of 1 to 4 UTF-8 bytes whose bytes come from single draws, redrawn
 * where they would not be valid UTF-8 (C0/C1 leads, surrogates, code points past U+10FFFF).
 */
import type { RandomSource } from "./registry_types.ts";
import { nextInt32, nextPositiveInt } from "./_random_args.ts";

const decoder = new TextDecoder();

/** A printable ASCII byte, 32..126. */
function asciiByte(r: RandomSource): number {
  return 32 + (nextPositiveInt(r) % 95);
}

/** `Rnd.nextUtf8Byte(wipe, set)`: a draw's low byte without `wipe` bits, redrawn while 0, with `set`. */
function utf8Byte(r: RandomSource, wipe: number, set: number): number {
  for (;;) {
    const k = nextInt32(r) & ~wipe & 0xff;
    if (k !== 0) return k | set;
  }
}

const continuation = (r: RandomSource) => utf8Byte(r, 0xc0, 0x80);

/** Java's (byte) widening to int: bytes >= 0x80 are negative. */
const signed = (b: number) => (b << 24) >> 24;

/** Appends one character of 1 to 4 bytes (`Rnd.nextUtf8Str`'s loop body). */
function pushUtf8Char(r: RandomSource, out: number[]): void {
  switch (Math.max(1, nextPositiveInt(r) % 5)) {
    case 1:
      out.push(asciiByte(r));
      return;
    case 2:
      for (;;) {
        const b1 = utf8Byte(r, 0xe0, 0xc0), b2 = continuation(r);
        // C0 and C1 would be overlong encodings of ASCII.
        if ((b1 & 30) !== 0) return void out.push(b1, b2);
      }
    case 3:
      for (;;) {
        const b1 = utf8Byte(r, 0xf0, 0xe0), b2 = continuation(r), b3 = continuation(r);
        const c = ((b1 & 0x0f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
        if (c < 0xd800 || c > 0xdfff) return void out.push(b1, b2, b3);
      }
    default:
      for (;;) {
        const b1 = utf8Byte(r, 0xf8, 0xf0), b2 = continuation(r), b3 = continuation(r), b4 = continuation(r);
        // Utf8s.getUtf8Codepoint over Java's signed bytes.
        const cp = (signed(b1) << 18) ^ (signed(b2) << 12) ^ (signed(b3) << 6) ^ signed(b4) ^ 3678080;
        if (cp >= 0x10000 && cp <= 0x10ffff) return void out.push(b1, b2, b3, b4);
      }
  }
}

/** `Rnd.nextUtf8Str(len)`: `len` characters of 1 to 4 UTF-8 bytes. */
export function randomUtf8(r: RandomSource, len: number): string {
  const out: number[] = [];
  for (let i = 0; i < len; i++) pushUtf8Char(r, out);
  return decoder.decode(new Uint8Array(out));
}

/** `Rnd.nextUtf8AsciiStr(len)`: `len` printable ASCII characters. */
export function randomAscii(r: RandomSource, len: number): string {
  let s = "";
  for (let i = 0; i < len; i++) s += String.fromCharCode(asciiByte(r));
  return s;
}

/**
 * RndVarcharFunction's string: its length `lo + nextPositiveInt() % range`, then a coin
 * (`nextBoolean`, the draw's top bit) between ASCII and UTF-8 text.
 */
export function randomVarchar(r: RandomSource, lo: number, hi: number): string {
  const len = lo + (nextPositiveInt(r) % (hi - lo + 1));
  return r.nextLong() < 0n ? randomAscii(r, len) : randomUtf8(r, len);
}

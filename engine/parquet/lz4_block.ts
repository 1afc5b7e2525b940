/**
 * LZ4 block compression for Parquet's LZ4_RAW codec (QuestDB's default export codec).
 *
 * Written here rather than taken from lz4js: its block compressor starts matches up to 9
 * bytes before the end of the block, which the LZ4 format forbids (the last match must start
 * at least 12 bytes before the end, the last 5 bytes are literals) and strict decoders
 * (DuckDB, liblz4's LZ4_decompress_safe) refuse. Greedy, one 16-bit hash table, 64 KiB window.
 */

const MIN_MATCH = 4;
/** The last match starts at least this many bytes before the end. */
const MF_LIMIT = 12;
/** The last bytes are always literals. */
const LAST_LITERALS = 5;

function read32(b: Uint8Array, i: number): number {
  return b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24);
}

export function lz4CompressBlock(src: Uint8Array): Uint8Array {
  const n = src.length;
  const out = new Uint8Array(n + Math.ceil(n / 255) + 16);
  const table = new Int32Array(1 << 16).fill(-1);
  let op = 0;
  let anchor = 0;
  let ip = 0;
  let misses = 0;
  const mfLimit = n - MF_LIMIT;
  const matchLimit = n - LAST_LITERALS;
  while (ip < mfLimit) {
    const seq = read32(src, ip);
    const h = Math.imul(seq, 2654435761) >>> 16;
    const ref = table[h];
    table[h] = ip;
    if (ref < 0 || ip - ref > 65535 || read32(src, ref) !== seq) {
      ip += 1 + (misses++ >> 6); // skip faster through incompressible data, as liblz4 does
      continue;
    }
    misses = 0;
    let len = MIN_MATCH;
    while (ip + len < matchLimit && src[ip + len] === src[ref + len]) len++;
    op = writeSequence(out, op, src, anchor, ip - anchor, ip - ref, len - MIN_MATCH);
    ip += len;
    anchor = ip;
  }
  // The last literals: a token with no match.
  return out.subarray(0, writeSequence(out, op, src, anchor, n - anchor, 0, -1));
}

/** Writes token, literal run and (when `matchLen` ≥ 0) offset and match length; returns the new end. */
function writeSequence(
  out: Uint8Array,
  op: number,
  src: Uint8Array,
  from: number,
  literals: number,
  offset: number,
  matchLen: number,
): number {
  const tokenAt = op++;
  let token = Math.min(literals, 15) << 4;
  if (literals >= 15) op = writeLength(out, op, literals - 15);
  out.set(src.subarray(from, from + literals), op);
  op += literals;
  if (matchLen >= 0) {
    out[op++] = offset & 0xff;
    out[op++] = offset >> 8;
    token |= Math.min(matchLen, 15);
    if (matchLen >= 15) op = writeLength(out, op, matchLen - 15);
  }
  out[tokenAt] = token;
  return op;
}

function writeLength(out: Uint8Array, op: number, rest: number): number {
  while (rest >= 255) {
    out[op++] = 255;
    rest -= 255;
  }
  out[op++] = rest;
  return op;
}

/**
 * Decompresses one LZ4 block (Parquet's LZ4_RAW) of `outputLength` bytes. Short literal runs
 * and matches are copied byte by byte (a subarray per token costs more than the copy, and
 * Parquet's sorted timestamps are mostly tokens of a few bytes); long ones with `set` /
 * `copyWithin`. Malformed input throws.
 */
export function lz4DecompressBlock(input: Uint8Array, outputLength: number): Uint8Array {
  const out = new Uint8Array(outputLength);
  let i = 0, o = 0;
  const n = input.length;
  while (i < n) {
    const token = input[i++];
    let lit = token >> 4;
    if (lit === 15) {
      let b;
      do {
        b = input[i++];
        lit += b;
      } while (b === 255);
    }
    if (lit) {
      if (i + lit > n || o + lit > outputLength) throw new Error("lz4: literals out of range");
      if (lit < 16) { for (let k = 0; k < lit; k++) out[o++] = input[i++]; }
      else {
        out.set(input.subarray(i, i + lit), o);
        i += lit;
        o += lit;
      }
    }
    if (i >= n) break; // the last sequence has literals only
    const offset = input[i] | (input[i + 1] << 8);
    i += 2;
    if (offset === 0 || offset > o) throw new Error(`lz4: offset out of range ${offset}`);
    let len = token & 15;
    if (len === 15) {
      let b;
      do {
        b = input[i++];
        len += b;
      } while (b === 255);
    }
    len += 4;
    if (o + len > outputLength) throw new Error("lz4: match out of range");
    let from = o - offset;
    if (len >= 32 && offset >= len) {
      out.copyWithin(o, from, from + len);
      o += len;
    } else {
      const end = o + len;
      while (o < end) out[o++] = out[from++];
    }
  }
  if (o !== outputLength) throw new Error(`lz4: decompressed ${o} bytes, expected ${outputLength}`);
  return out;
}

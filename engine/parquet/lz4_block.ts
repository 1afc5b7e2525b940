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
 * and matches (Parquet's sorted timestamps are mostly tokens of a few bytes) are copied 4
 * bytes at a time through DataViews, possibly writing up to 3 bytes past their end: the next
 * token overwrites those, and near the end of the output the copy goes byte by byte. Long
 * runs use `set` / `copyWithin`. Written into `into` when given (a page decoded straight into
 * its place in a column), else into a new array. Malformed input throws.
 */
export function lz4DecompressBlock(input: Uint8Array, outputLength: number, into?: Uint8Array): Uint8Array {
  const out = into ? into.subarray(0, outputLength) : new Uint8Array(outputLength);
  if (out.length !== outputLength) throw new Error("lz4: output buffer too small");
  const inView = new DataView(input.buffer, input.byteOffset, input.byteLength);
  const outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let i = 0, o = 0;
  const n = input.length;
  // Past these, a 4-byte read or write could leave the buffer: byte loops from there.
  const inSafe = n - 4, outSafe = outputLength - 4;
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
      if (lit < 16) {
        const end = o + lit;
        if (i + lit <= inSafe && end <= outSafe) {
          for (let k = 0; k < lit; k += 4) outView.setUint32(o + k, inView.getUint32(i + k, true), true);
          i += lit;
          o = end;
        } else {
          for (let k = 0; k < lit; k++) out[o++] = input[i++];
        }
      } else {
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
    const end = o + len;
    if (end > outputLength) throw new Error("lz4: match out of range");
    let from = o - offset;
    if (len >= 32 && offset >= len) {
      out.copyWithin(o, from, from + len);
      o = end;
    } else if (offset >= 4 && end <= outSafe) {
      // Each 4-byte read lies before the write (offset >= 4), so overlapping matches repeat
      // their pattern as they must.
      for (; o < end; o += 4, from += 4) outView.setUint32(o, outView.getUint32(from, true), true);
      o = end;
    } else {
      while (o < end) out[o++] = out[from++];
    }
  }
  if (o !== outputLength) throw new Error(`lz4: decompressed ${o} bytes, expected ${outputLength}`);
  return out;
}

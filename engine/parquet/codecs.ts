/**
 * Parquet page compression (docs/parquet.md): compressors for writing, decompressors for
 * reading. ZSTD, GZIP and BROTLI use the runtime's native node:zlib; SNAPPY is hyparquet-writer's
 * own; LZ4_RAW is lz4_block.ts.
 */
import type { CompressionCodec } from "hyparquet";
import { compressors as jsDecompressors } from "hyparquet-compressors";
import { brotliCompressSync, constants, gzipSync, zstdCompressSync, zstdDecompressSync } from "node:zlib";
import { SqlError } from "../base/errors.ts";
import { lz4CompressBlock, lz4DecompressBlock } from "./lz4_block.ts";

/** The codecs QuestDB names for `compression_codec` (LZ4 and LZO are not writable here). */
const WRITABLE: readonly CompressionCodec[] = ["UNCOMPRESSED", "SNAPPY", "GZIP", "BROTLI", "ZSTD", "LZ4_RAW"];

/** Parses a codec name case-insensitively; `position` points errors at the option. */
export function parseCodec(name: string, position = 0): CompressionCodec {
  const c = name.trim().toUpperCase() as CompressionCodec;
  if (WRITABLE.includes(c)) return c;
  if (c === "LZ4" || c === "LZO") {
    throw new SqlError(`parquet compression codec ${c} is not supported for writing, use LZ4_RAW`, position);
  }
  throw new SqlError(`invalid parquet compression codec [codec=${name}]`, position);
}

type Compress = (input: Uint8Array) => Uint8Array;

/** Compressors for hyparquet-writer; `level` ≤ 0 means the codec's default (ZSTD 9 as QuestDB). */
export function compressorsFor(level: number): Record<string, Compress> {
  return {
    ZSTD: (b) => new Uint8Array(zstdCompressSync(b, { params: { 100: level > 0 ? level : 9 } })),
    GZIP: (b) => new Uint8Array(gzipSync(b, level > 0 ? { level: Math.min(level, 9) } : {})),
    BROTLI: (b) =>
      new Uint8Array(
        brotliCompressSync(b, {
          params: { [constants.BROTLI_PARAM_QUALITY]: level > 0 ? Math.min(level, 11) : 4 },
        }),
      ),
    LZ4_RAW: lz4CompressBlock,
  };
}

/** Decompressors for hyparquet: the pure-JS set, with ZSTD through native zlib (3× faster). */
export const decompressors = {
  ...jsDecompressors,
  // Ours: 2-3x hyparquet-compressors' on sorted timestamps (lz4_block.ts).
  LZ4_RAW: lz4DecompressBlock,
  ZSTD: (input: Uint8Array, _outputLength: number) => new Uint8Array(zstdDecompressSync(input)),
};

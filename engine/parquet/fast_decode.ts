/**
 * A direct decoder for the column chunks of the common flat columns (issue #21 "Speed"):
 * INT32 / INT64 / FLOAT / DOUBLE and dictionary-encoded strings, PLAIN or RLE_DICTIONARY,
 * data pages v1 and v2, REQUIRED or OPTIONAL. It writes the values straight into the engine's
 * native column bytes (NULL as the type's sentinel), where hyparquet would build a JavaScript
 * array of decoded values that is then copied value by value. Anything else (other encodings,
 * nested columns, BYTE_ARRAY without a dictionary) returns undefined and the caller falls back
 * to hyparquet.
 */
import type { ColumnMetaData, FileMetaData } from "hyparquet";
import { decompressors } from "./codecs.ts";
import { lz4DecompressBlock } from "./lz4_block.ts";

/** A byte range reader of the file: a local buffer or ranged GETs of a remote object. */
export type ReadRange = (start: number, end: number) => Promise<Uint8Array> | Uint8Array;

/** How the values land: fixed-width native bytes; strings through `keyOf` as 32-bit keys. */
export type Target =
  | { kind: "fixed"; width: 4 | 8; nullBytes: Uint8Array }
  | { kind: "symbol"; keyOf: (s: string) => number };

/** Column chunks read ahead of the one being decoded. */
const READ_AHEAD = 4;
const EMPTY = new Uint8Array(0);

const PHYSICAL_WIDTH: Record<string, number> = { INT32: 4, FLOAT: 4, INT64: 8, DOUBLE: 8 };

/** Where decoded values go and how chunks are read besides `read`. */
export interface DecodeOptions {
  /** The caller's buffer (a cache block) of the column's size: decoded into, sparing a copy. */
  into?: Uint8Array;
  /** Gets each chunk `read` returned once it is decoded (its buffer can take another read). */
  recycle?: (chunk: Uint8Array) => void;
  /**
   * Reads bytes [start, end) of the file straight into `target` (a local file's handle): an
   * uncompressed PLAIN chunk without NULLs then lands in its place with no copy
   * (`directValues`).
   */
  readInto?: (start: number, end: number, target: Uint8Array) => Promise<void>;
  /**
   * Awaited after each row group's decode: a turn of the event loop when one is due (a group
   * of a million values decompresses in ~20-40 ms; a column of several held the loop for
   * their sum, issue #17).
   */
  turn?: () => Promise<void>;
}

/**
 * Column `at` (its index among the file's leaf columns) of every row group, as `rowCount`
 * rows of native bytes; undefined when this decoder does not handle the chunk.
 */
export async function decodeColumnFast(
  read: ReadRange,
  metadata: FileMetaData,
  at: number,
  rowCount: number,
  target: Target,
  options: DecodeOptions = {},
): Promise<Uint8Array | undefined> {
  const { into, recycle, readInto, turn } = options;
  const element = metadata.schema[at + 1];
  if (!element || element.num_children || element.repetition_type === "REPEATED") return undefined;
  const optional = element.repetition_type === "OPTIONAL";
  const width = target.kind === "fixed" ? target.width : 4;
  const fits = into && into.length === rowCount * width && into.byteOffset % 4 === 0;
  const out = fits ? into : new Uint8Array(rowCount * width);
  const groups = metadata.row_groups;
  const firstRow: number[] = [];
  let rows = 0;
  for (const group of groups) {
    const meta = group.columns[at]?.meta_data;
    if (!meta || !supported(meta, target)) return undefined;
    firstRow.push(rows);
    rows += Number(group.num_rows);
  }
  if (rows !== rowCount) return undefined;
  // The chunks are read a few row groups ahead of the decode: the reads' latency (a file
  // open and read each, or a ranged GET) overlaps instead of adding up.
  const reads: (Promise<Uint8Array> | Uint8Array)[] = [];
  /** The groups whose values were read straight into `out`; their entry in `reads` is the page header. */
  const direct: boolean[] = [];
  const request = (g: number) => {
    if (g >= groups.length || reads[g]) return;
    const meta = groups[g].columns[at].meta_data!;
    const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
    const end = start + Number(meta.total_compressed_size);
    const n = Number(groups[g].num_rows);
    const valueBytes = readInto && target.kind === "fixed" ? directValues(meta, n, width) : 0;
    let chunk: Promise<Uint8Array> | Uint8Array;
    if (valueBytes) {
      direct[g] = true;
      const header = read(start, end - valueBytes);
      const values = readInto!(
        end - valueBytes,
        end,
        out.subarray(firstRow[g] * width, (firstRow[g] + n) * width),
      );
      chunk = Promise.all([header, values]).then(([h]) => h);
    } else {
      chunk = read(start, end);
    }
    // A read left in flight when the decode gives up must not reject unhandled.
    if (chunk instanceof Promise) chunk.catch(() => {});
    reads[g] = chunk;
  };
  for (let g = 0; g < groups.length; g++) {
    for (let k = g; k < g + READ_AHEAD; k++) request(k);
    let chunk = await reads[g];
    reads[g] = EMPTY; // the chunk is garbage once decoded
    const meta = groups[g].columns[at].meta_data!;
    const n = Number(groups[g].num_rows);
    if (direct[g]) {
      const ok = isPlainPageHeader(chunk, n, n * width, optional);
      recycle?.(chunk);
      if (ok) continue;
      // Not the page the metadata suggested: the whole chunk, decoded as usual.
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      chunk = await read(start, start + Number(meta.total_compressed_size));
    }
    const ok = decodeChunk(chunk, meta, optional, target, out, firstRow[g], n);
    if (!ok) return undefined;
    // Nothing decoded keeps a view of the chunk (dictionaries are copied): its buffer can
    // take the next read.
    recycle?.(chunk);
    if (turn) await turn();
  }
  return out;
}

/**
 * The size of the values of an uncompressed chunk that, by its metadata, is one PLAIN data
 * page of `rows` values without NULLs: they are its last bytes, after the page header and
 * the definition levels (under 1 KiB). 0 when the chunk is not like that.
 */
function directValues(meta: ColumnMetaData, rows: number, width: number): number {
  if (meta.codec !== "UNCOMPRESSED" || meta.dictionary_page_offset !== undefined) return 0;
  if (meta.encodings.some((e) => e !== "PLAIN" && e !== "RLE")) return 0;
  if (meta.statistics?.null_count !== 0n || Number(meta.num_values) !== rows) return 0;
  const prefix = Number(meta.total_compressed_size) - rows * width;
  return prefix > 0 && prefix <= 1024 ? rows * width : 0;
}

/**
 * Whether `prefix` is exactly a page header (and definition levels) of one PLAIN data page of
 * `rows` values, none NULL, whose values follow it: what `directValues` assumed.
 */
function isPlainPageHeader(prefix: Uint8Array, rows: number, valueBytes: number, optional: boolean): boolean {
  try {
    const reader = new CompactReader(prefix, 0);
    const header = reader.struct();
    const body = prefix.subarray(reader.pos);
    // Page sizes (uncompressed, compressed): the levels here and the values after them.
    if (header.get(2) !== body.length + valueBytes || header.get(3) !== body.length + valueBytes) {
      return false;
    }
    if (header.get(1) === 3) {
      const dh = header.get(8) as Map<number, unknown> | undefined;
      if (!dh || dh.get(1) !== rows || dh.get(4) !== 0 || (dh.get(2) ?? 0) !== 0) return false;
      const defLen = (dh.get(5) as number) ?? 0;
      if ((dh.get(6) as number ?? 0) !== 0 || defLen !== body.length) return false;
      return !optional || allPresent(body, rows);
    }
    if (header.get(1) === 0) {
      // Data page v1: the levels' length prefix is part of the page body.
      const dh = header.get(5) as Map<number, unknown> | undefined;
      if (!dh || dh.get(1) !== rows || dh.get(2) !== 0) return false;
      if (!optional) return body.length === 0;
      if (body.length < 4) return false;
      const len = body[0] | (body[1] << 8) | (body[2] << 16) | (body[3] << 24);
      return len === body.length - 4 && allPresent(body.subarray(4), rows);
    }
    return false;
  } catch {
    return false;
  }
}

function supported(meta: ColumnMetaData, target: Target): boolean {
  if (!(meta.codec in decompressors) && meta.codec !== "UNCOMPRESSED") return false;
  if (target.kind === "fixed") return PHYSICAL_WIDTH[meta.type] === target.width;
  return meta.type === "BYTE_ARRAY";
}

/** Decodes one column chunk's pages into rows [row, row + n) of `out`. */
function decodeChunk(
  chunk: Uint8Array,
  meta: ColumnMetaData,
  optional: boolean,
  target: Target,
  out: Uint8Array,
  row: number,
  n: number,
): boolean {
  const width = target.kind === "fixed" ? target.width : 4;
  // Dictionary entries in native form: `width` bytes each.
  let dict: Uint8Array | undefined;
  let pos = 0;
  const end = row + n;
  while (row < end && pos < chunk.length) {
    const reader = new CompactReader(chunk, pos);
    const header = reader.struct();
    pos = reader.pos;
    const type = header.get(1) as number;
    const uncompressed = header.get(2) as number;
    const compressed = header.get(3) as number;
    const body = chunk.subarray(pos, pos + compressed);
    pos += compressed;
    if (type === 2) {
      const dh = header.get(7) as Map<number, unknown>;
      const count = dh.get(1) as number;
      const bytes = decompress(meta.codec, body, uncompressed);
      if (!bytes) return false;
      dict = target.kind === "fixed"
        ? bytes.slice(0, count * width)
        : symbolDictionary(bytes, count, target.keyOf);
      continue;
    }
    let values: Uint8Array, defs: Uint8Array | undefined, numValues: number, encoding: number;
    if (type === 0) {
      const dh = header.get(5) as Map<number, unknown>;
      numValues = dh.get(1) as number;
      encoding = dh.get(2) as number;
      const page = decompress(meta.codec, body, uncompressed);
      if (!page) return false;
      let at = 0;
      if (optional) {
        const len = page[0] | (page[1] << 8) | (page[2] << 16) | (page[3] << 24);
        defs = page.subarray(4, 4 + len);
        at = 4 + len;
      }
      values = page.subarray(at);
    } else if (type === 3) {
      const dh = header.get(8) as Map<number, unknown>;
      numValues = dh.get(1) as number;
      encoding = dh.get(4) as number;
      const defLen = (dh.get(5) as number) ?? 0;
      const repLen = (dh.get(6) as number) ?? 0;
      if (repLen) return false;
      defs = optional ? body.subarray(0, defLen) : undefined;
      const rest = body.subarray(defLen);
      const isCompressed = dh.get(7) !== false;
      const valueBytes = uncompressed - defLen;
      if (
        encoding === 0 && target.kind === "fixed" && valueBytes === numValues * width &&
        (!optional || allPresent(defs!, numValues))
      ) {
        // A PLAIN page without NULLs holds the native bytes: decompressed straight into place.
        if (row + numValues > end) return false;
        const dest = out.subarray(row * width, (row + numValues) * width);
        if (!isCompressed) {
          if (rest.length < valueBytes) return false;
          dest.set(rest.subarray(0, valueBytes));
        } else if (!decompressInto(meta.codec, rest, dest)) return false;
        row += numValues;
        continue;
      }
      const v = isCompressed ? decompress(meta.codec, rest, uncompressed - defLen) : rest;
      if (!v) return false;
      values = v;
    } else {
      continue; // index pages and the like
    }
    // Which of the page's rows hold a value (definition level 1).
    let present: Uint32Array | undefined;
    if (optional && !(defs && allPresent(defs, numValues))) {
      present = new Uint32Array(numValues);
      if (!defs || !readHybrid(defs, 0, 1, numValues, present)) return false;
    }
    const stored = present ? count1(present) : numValues;
    if (stored === numValues) present = undefined; // no NULL in this page: the tight loops below
    // Values as 32-bit words: a copy never goes through a double (no NaN canonicalization).
    const words = (width / 4) as 1 | 2;
    const o32 = new Int32Array(out.buffer, out.byteOffset, out.length / 4);
    let src: Int32Array, idx: Uint32Array | undefined;
    if (encoding === 0 && target.kind === "fixed") {
      if (values.length < stored * width) return false;
      if (!present) {
        out.set(values.subarray(0, numValues * width), row * width);
        row += numValues;
        continue;
      }
      const aligned = values.byteOffset % 4 === 0 ? values : values.slice();
      src = new Int32Array(aligned.buffer, aligned.byteOffset, stored * words);
    } else if ((encoding === 8 || encoding === 2) && dict) {
      src = new Int32Array(dict.buffer, dict.byteOffset, dict.length / 4);
      if (!present) {
        // No NULL: indexes unpacked and looked up in one pass, no index array.
        if (!readDictionaryIndexes(values, 1, values[0], stored, src, words, o32, row * words)) return false;
        row += numValues;
        continue;
      }
      idx = new Uint32Array(stored);
      if (!readHybrid(values, 1, values[0], stored, idx)) return false;
    } else {
      return false;
    }
    const nullWords = new Int32Array((target.kind === "fixed" ? target.nullBytes : NULL_KEY).slice().buffer);
    let v = 0;
    for (let r = 0; r < numValues; r++) {
      const o = (row + r) * words;
      if (present && !present[r]) {
        o32[o] = nullWords[0];
        if (words === 2) o32[o + 1] = nullWords[1];
        continue;
      }
      const s = (idx ? idx[v] : v) * words;
      v++;
      o32[o] = src[s];
      if (words === 2) o32[o + 1] = src[s + 1];
    }
    row += numValues;
  }
  return row === end;
}

/**
 * Whether definition levels (bit width 1) say every one of `count` rows holds a value, read
 * from the run headers alone: writers encode a page without NULLs as one RLE run of 1s, which
 * spares the per-row levels. A bit-packed run answers false (the caller decodes the levels).
 */
function allPresent(defs: Uint8Array, count: number): boolean {
  let pos = 0, covered = 0;
  while (covered < count) {
    if (pos >= defs.length) return false;
    let header = 0, shift = 0, b;
    do {
      b = defs[pos++];
      header += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if (header & 1 || defs[pos++] !== 1) return false;
    covered += Math.floor(header / 2);
  }
  return true;
}

/** Decompresses a page into `dest`, whose length is the page's uncompressed size. */
function decompressInto(codec: string, input: Uint8Array, dest: Uint8Array): boolean {
  if (codec === "LZ4_RAW") {
    lz4DecompressBlock(input, dest.length, dest);
    return true;
  }
  const bytes = decompress(codec, input, dest.length);
  if (!bytes || bytes.length !== dest.length) return false;
  dest.set(bytes);
  return true;
}

const NULL_KEY = new Uint8Array(new Int32Array([-1]).buffer);

function count1(a: Uint32Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) n += a[i];
  return n;
}

/** A PLAIN BYTE_ARRAY dictionary as the 32-bit keys of its strings. */
function symbolDictionary(bytes: Uint8Array, count: number, keyOf: (s: string) => number): Uint8Array {
  const keys = new Int32Array(count);
  const text = new TextDecoder();
  let at = 0;
  for (let i = 0; i < count; i++) {
    const len = bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
    at += 4;
    keys[i] = keyOf(text.decode(bytes.subarray(at, at + len)));
    at += len;
  }
  return new Uint8Array(keys.buffer);
}

function decompress(codec: string, input: Uint8Array, outputLength: number): Uint8Array | undefined {
  if (codec === "UNCOMPRESSED") return input;
  const f = (decompressors as Record<string, (i: Uint8Array, n: number) => Uint8Array>)[codec];
  return f ? f(input, outputLength) : undefined;
}

/**
 * `count` dictionary indexes (RLE / bit-packed hybrid, `bitWidth` bits, from `buf` at `pos`)
 * written as their dictionary entries (`words` 32-bit words each, from `dict`) into `out` from
 * word `at`. One pass: each bit-packed index is read from a 4-byte little-endian window at its
 * bit offset (a DataView load, 3-4× a loop of byte loads) and looked up at once. False when the
 * data runs out or an index is outside the dictionary.
 */
export function readDictionaryIndexes(
  buf: Uint8Array,
  pos: number,
  bitWidth: number,
  count: number,
  dict: Int32Array,
  words: 1 | 2,
  out: Int32Array,
  at: number,
): boolean {
  if (bitWidth > 24) return readDictionaryIndexesSlow(buf, pos, bitWidth, count, dict, words, out, at);
  const entries = dict.length / words;
  const mask = (1 << bitWidth) - 1;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const byteWidth = (bitWidth + 7) >> 3;
  let n = 0;
  while (n < count) {
    if (pos >= buf.length) return false;
    let header = 0, shift = 0, b;
    do {
      b = buf[pos++];
      header += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if (header & 1) {
      const groups = Math.floor(header / 2);
      const take = Math.min(count - n, groups * 8);
      // Values whose 4-byte window lies inside `buf`; the rest (at most 4 bytes' worth) below.
      const safe = Math.max(0, Math.min(take, Math.floor(((buf.length - 4 - pos) * 8) / bitWidth)));
      let bit = pos * 8;
      if (words === 1) {
        for (let i = 0; i < safe; i++, bit += bitWidth) {
          const k = (view.getUint32(bit >>> 3, true) >>> (bit & 7)) & mask;
          if (k >= entries) return false;
          out[at + n++] = dict[k];
        }
      } else {
        for (let i = 0; i < safe; i++, bit += bitWidth) {
          const k = (view.getUint32(bit >>> 3, true) >>> (bit & 7)) & mask;
          if (k >= entries) return false;
          const o = at + 2 * n++;
          out[o] = dict[2 * k];
          out[o + 1] = dict[2 * k + 1];
        }
      }
      for (let i = safe; i < take; i++, bit += bitWidth) {
        const p = bit >>> 3;
        let w = 0;
        for (let q = 0; q < 4 && p + q < buf.length; q++) w |= buf[p + q] << (8 * q);
        const k = (w >>> (bit & 7)) & mask;
        if (k >= entries) return false;
        if (words === 1) out[at + n++] = dict[k];
        else {
          const o = at + 2 * n++;
          out[o] = dict[2 * k];
          out[o + 1] = dict[2 * k + 1];
        }
      }
      pos += groups * bitWidth;
    } else {
      const run = Math.floor(header / 2);
      let k = 0;
      for (let i = 0; i < byteWidth; i++) k += buf[pos++] * 2 ** (8 * i);
      if (k >= entries) return false;
      const stop = Math.min(count, n + run);
      if (words === 1) out.fill(dict[k], at + n, at + stop);
      else {
        for (let i = n; i < stop; i++) {
          out[at + 2 * i] = dict[2 * k];
          out[at + 2 * i + 1] = dict[2 * k + 1];
        }
      }
      n = stop;
    }
  }
  return true;
}

/** Indexes wider than 24 bits (dictionaries of over 16M entries): through an index array. */
function readDictionaryIndexesSlow(
  buf: Uint8Array,
  pos: number,
  bitWidth: number,
  count: number,
  dict: Int32Array,
  words: 1 | 2,
  out: Int32Array,
  at: number,
): boolean {
  const idx = new Uint32Array(count);
  if (!readHybrid(buf, pos, bitWidth, count, idx)) return false;
  const entries = dict.length / words;
  for (let i = 0; i < count; i++) {
    const k = idx[i];
    if (k >= entries) return false;
    if (words === 1) out[at + i] = dict[k];
    else {
      out[at + 2 * i] = dict[2 * k];
      out[at + 2 * i + 1] = dict[2 * k + 1];
    }
  }
  return true;
}

/**
 * The RLE / bit-packed hybrid encoding: `count` values of `bitWidth` bits from `buf` at `pos`
 * into `out`. False when the data runs out.
 */
export function readHybrid(
  buf: Uint8Array,
  pos: number,
  bitWidth: number,
  count: number,
  out: Uint32Array,
): boolean {
  let n = 0;
  const byteWidth = (bitWidth + 7) >> 3;
  const mask = bitWidth >= 32 ? 0xffffffff : (1 << bitWidth) - 1;
  while (n < count) {
    if (pos >= buf.length) return false;
    // ULEB128 run header.
    let header = 0, shift = 0, b;
    do {
      b = buf[pos++];
      header += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    if (header & 1) {
      // Bit-packed: (header >> 1) groups of 8 values, least significant bit first.
      const groups = Math.floor(header / 2);
      const take = Math.min(count - n, groups * 8);
      if (bitWidth <= 24 && pos + groups * bitWidth <= buf.length) {
        // The common case: each value from a 4-byte little-endian window at its bit offset
        // (shift <= 7, so width + shift <= 31 bits), no per-bit loop; the last few values,
        // whose window would pass the end of `buf`, read only the bytes that are there.
        let bit = pos * 8;
        const safe = Math.max(0, Math.min(take, Math.floor(((buf.length - 4 - pos) * 8) / bitWidth)));
        for (let i = 0; i < safe; i++, bit += bitWidth) {
          const p = bit >>> 3;
          out[n++] = ((buf[p] | (buf[p + 1] << 8) | (buf[p + 2] << 16) | (buf[p + 3] << 24)) >>> (bit & 7)) &
            mask;
        }
        for (let i = safe; i < take; i++, bit += bitWidth) {
          const p = bit >>> 3;
          let w = 0;
          for (let k = 0; k < 4 && p + k < buf.length; k++) w |= buf[p + k] << (8 * k);
          out[n++] = (w >>> (bit & 7)) & mask;
        }
        pos += groups * bitWidth;
      } else {
        // Wide values or a run cut short by the end of the page (missing bytes read as 0).
        const values = groups * 8;
        let acc = 0, bits = 0;
        for (let i = 0; i < values; i++) {
          while (bits < bitWidth) {
            acc += (buf[pos++] ?? 0) * 2 ** bits;
            bits += 8;
          }
          if (n < count) out[n++] = acc % (mask + 1);
          acc = Math.floor(acc / (mask + 1));
          bits -= bitWidth;
        }
      }
    } else {
      const run = Math.floor(header / 2);
      let v = 0;
      for (let i = 0; i < byteWidth; i++) v += buf[pos++] * 2 ** (8 * i);
      const stop = Math.min(count, n + run);
      out.fill(v, n, stop);
      n = stop;
    }
  }
  return true;
}

/** Just enough of the Thrift compact protocol to read page headers: a struct as field id → value. */
class CompactReader {
  readonly #buf: Uint8Array;
  pos: number;

  constructor(buf: Uint8Array, pos: number) {
    this.#buf = buf;
    this.pos = pos;
  }

  struct(): Map<number, unknown> {
    const fields = new Map<number, unknown>();
    let id = 0;
    for (;;) {
      const b = this.#buf[this.pos++];
      const type = b & 0x0f;
      if (type === 0) return fields;
      const delta = b >> 4;
      id = delta ? id + delta : this.#zigzag();
      fields.set(id, this.#value(type));
    }
  }

  #varint(): number {
    let v = 0, shift = 0, b;
    do {
      b = this.#buf[this.pos++];
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return v;
  }

  #zigzag(): number {
    const v = this.#varint();
    return v % 2 ? -(v + 1) / 2 : v / 2;
  }

  #value(type: number): unknown {
    switch (type) {
      case 1:
        return true;
      case 2:
        return false;
      case 3:
        return this.#buf[this.pos++];
      case 4:
      case 5:
      case 6:
        return this.#zigzag();
      case 7:
        this.pos += 8;
        return undefined;
      case 8: {
        const len = this.#varint();
        this.pos += len;
        return undefined;
      }
      case 9:
      case 10: {
        const h = this.#buf[this.pos++];
        const size = (h >> 4) === 15 ? this.#varint() : h >> 4;
        const elem = h & 0x0f;
        for (let i = 0; i < size; i++) this.#value(elem === 1 || elem === 2 ? 3 : elem);
        return undefined;
      }
      case 11: {
        const size = this.#varint();
        if (size) {
          const kv = this.#buf[this.pos++];
          for (let i = 0; i < size; i++) {
            this.#value(kv >> 4);
            this.#value(kv & 0x0f);
          }
        }
        return undefined;
      }
      case 12:
        return this.struct();
      default:
        throw new Error(`parquet: unknown thrift type ${type}`);
    }
  }
}

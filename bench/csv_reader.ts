/**
 * Streams the kit's CSV part files into column chunks in the vector layout storage appends
 * (engine/storage/api.ts RowsToWrite). The files are the generator's own output, so the
 * reader knows their exact shape (one header line per part, no quoting, ISO timestamps with
 * a `Z`) and parses bytes directly: decoding 10M lines to JS strings first would cost more
 * than the append itself.
 */

/** Column types of the kit's manifest (`lib/datasets.mjs` columnsOf). */
export type KitType = "timestamp" | "symbol" | "double" | "long";

/** One column of a chunk: BigInt64Array for timestamp/long, Float64Array, or strings. */
export type ChunkColumn = BigInt64Array | Float64Array | (string | null)[];

export interface Chunk {
  rowCount: number;
  /** In the order of the `types` given to `readCsvChunks`. */
  columns: ChunkColumn[];
}

const READ_BYTES = 8 * 1024 * 1024;
const COMMA = 44;
const NEWLINE = 10;
const TWO_32 = 4294967296;
const LONG_NULL_HI = -2147483648;
const DAY_MICROS = 86_400_000_000;
/** 10^k for k ≤ 22 are exact doubles, so digits / 10^k is one correctly rounded division. */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
const LATIN1 = new TextDecoder("latin1");

/** Yields chunks of up to `chunkRows` rows from `files`, in file order. */
export async function* readCsvChunks(
  files: string[],
  options: { types: KitType[]; chunkRows: number },
): AsyncGenerator<Chunk> {
  const builder = new ChunkBuilder(options.types, options.chunkRows);
  // One buffer for the whole run: the unparsed tail of a read moves to its front and the
  // next read fills the rest, so no block is allocated or copied twice.
  const buffer = new Uint8Array(READ_BYTES);
  for (const file of files) {
    using handle = await Deno.open(file, { read: true });
    let filled = 0;
    let header = true;
    for (;;) {
      if (filled === buffer.length) {
        throw new Error(`${file} has a line longer than ${READ_BYTES} bytes`);
      }
      const n = await handle.read(buffer.subarray(filled));
      if (n === null) break;
      filled += n;
      const end = buffer.lastIndexOf(NEWLINE, filled - 1) + 1;
      let start = 0;
      if (header && end > 0) {
        start = buffer.indexOf(NEWLINE) + 1;
        header = false;
      }
      while (start < end) {
        start = builder.parseLines(buffer, start, end);
        if (builder.full) yield builder.take();
      }
      buffer.copyWithin(0, end, filled);
      filled -= end;
    }
    if (filled > 0) throw new Error(`${file} does not end with a newline`);
  }
  if (builder.rowCount > 0) yield builder.take();
}

/** Accumulates parsed rows into preallocated columns; hands them out when full. */
class ChunkBuilder {
  readonly #types: KitType[];
  readonly #chunkRows: number;
  readonly #symbols = new SymbolCache();
  #columns: ChunkColumn[] = [];
  /** Int32 views of the 64-bit columns: writing two halves avoids a BigInt per value. */
  #halves: (Int32Array | null)[] = [];
  rowCount = 0;

  constructor(types: KitType[], chunkRows: number) {
    this.#types = types;
    this.#chunkRows = chunkRows;
    this.#allocate();
  }

  get full(): boolean {
    return this.rowCount === this.#chunkRows;
  }

  take(): Chunk {
    const full = this.rowCount === this.#chunkRows;
    const columns = full ? this.#columns : this.#columns.map((c) => c.slice(0, this.rowCount) as ChunkColumn);
    const chunk = { rowCount: this.rowCount, columns };
    this.#allocate();
    return chunk;
  }

  #allocate(): void {
    const n = this.#chunkRows;
    this.#columns = this.#types.map((t) => allocColumn(t, n));
    this.#halves = this.#columns.map((c) => c instanceof BigInt64Array ? new Int32Array(c.buffer) : null);
    this.rowCount = 0;
  }

  /** Parses whole lines of `data` from `start` (< `end`, a line start) until the chunk is full. */
  parseLines(data: Uint8Array, start: number, end: number): number {
    const types = this.#types;
    let pos = start;
    while (pos < end && this.rowCount < this.#chunkRows) {
      const row = this.rowCount;
      for (let c = 0; c < types.length; c++) {
        let stop = pos;
        while (data[stop] !== COMMA && data[stop] !== NEWLINE) stop++;
        this.#parseField(c, row, data, pos, stop);
        pos = stop + 1;
      }
      if (data[pos - 1] !== NEWLINE) {
        throw new Error(`more fields than the ${types.length} expected`);
      }
      this.rowCount++;
    }
    return pos;
  }

  #parseField(
    c: number,
    row: number,
    data: Uint8Array,
    from: number,
    to: number,
  ): void {
    const type = this.#types[c];
    if (type === "symbol") {
      (this.#columns[c] as (string | null)[])[row] = from === to ? null : this.#symbols.get(data, from, to);
      return;
    }
    if (type === "double") {
      (this.#columns[c] as Float64Array)[row] = from === to ? NaN : parseDouble(data, from, to);
      return;
    }
    const halves = this.#halves[c]!;
    if (from === to) {
      halves[2 * row] = 0;
      halves[2 * row + 1] = LONG_NULL_HI;
      return;
    }
    const x = type === "timestamp" ? parseIsoMicros(data, from, to) : parseLong(data, from, to);
    const hi = Math.floor(x / TWO_32);
    halves[2 * row] = (x - hi * TWO_32) | 0;
    halves[2 * row + 1] = hi;
  }
}

function allocColumn(type: KitType, n: number): ChunkColumn {
  if (type === "symbol") return new Array<string | null>(n);
  return type === "double" ? new Float64Array(n) : new BigInt64Array(n);
}

/** Interns symbol strings by their bytes: the kit's symbol columns have ≤ 1000 values. */
class SymbolCache {
  readonly #byHash = new Map<number, { bytes: Uint8Array; text: string }[]>();

  get(data: Uint8Array, from: number, to: number): string {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ data[i], 0x01000193);
    let bucket = this.#byHash.get(h);
    if (bucket) {
      for (const e of bucket) {
        if (sameBytes(e.bytes, data, from, to)) return e.text;
      }
    } else {
      bucket = [];
      this.#byHash.set(h, bucket);
    }
    const bytes = data.slice(from, to);
    const text = LATIN1.decode(bytes);
    bucket.push({ bytes, text });
    return text;
  }
}

function sameBytes(
  a: Uint8Array,
  data: Uint8Array,
  from: number,
  to: number,
): boolean {
  if (a.length !== to - from) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== data[from + i]) return false;
  return true;
}

/**
 * A decimal as the nearest double. The generator writes JavaScript's shortest round-trip
 * form, so digits / 10^scale (both exact when there are at most 15 digits) is one correctly
 * rounded division and gives back the very double that was written. Anything else (an
 * exponent, more digits) goes through Number().
 */
export function parseDouble(
  data: Uint8Array,
  from: number,
  to: number,
): number {
  let i = from;
  const negative = data[i] === 45;
  if (negative) i++;
  let digits = 0;
  let count = 0;
  let scale = -1;
  for (; i < to; i++) {
    const b = data[i];
    if (b === 46 && scale < 0) {
      scale = 0;
      continue;
    }
    const d = b - 48;
    if (d < 0 || d > 9 || count >= 15) {
      return Number(LATIN1.decode(data.subarray(from, to)));
    }
    digits = digits * 10 + d;
    if (digits > 0) count++;
    if (scale >= 0) scale++;
  }
  const x = scale > 0 ? digits / POW10[scale] : digits;
  return negative ? -x : x;
}

/** A decimal integer; exact below 2^53, which the kit asserts for every value it writes. */
export function parseLong(data: Uint8Array, from: number, to: number): number {
  let i = from;
  const negative = data[i] === 45;
  if (negative) i++;
  let x = 0;
  for (; i < to; i++) {
    const d = data[i] - 48;
    if (d < 0 || d > 9) {
      throw new Error(`bad integer ${LATIN1.decode(data.subarray(from, to))}`);
    }
    x = x * 10 + d;
  }
  return negative ? -x : x;
}

let lastDayKey = -1;
let lastDayMicros = 0;

/** `2024-01-01T00:00:00.000000Z` (1 to 9 fraction digits, optional) as µs since the epoch. */
export function parseIsoMicros(
  data: Uint8Array,
  from: number,
  to: number,
): number {
  const year = digitsAt(data, from, 4);
  const month = digitsAt(data, from + 5, 2);
  const day = digitsAt(data, from + 8, 2);
  if (
    data[from + 4] !== 45 || data[from + 7] !== 45 || data[from + 10] !== 84 ||
    data[to - 1] !== 90
  ) {
    throw new Error(`bad timestamp ${LATIN1.decode(data.subarray(from, to))}`);
  }
  const dayKey = year * 10000 + month * 100 + day;
  if (dayKey !== lastDayKey) {
    lastDayKey = dayKey;
    lastDayMicros = daysFromCivil(year, month, day) * DAY_MICROS;
  }
  const seconds = digitsAt(data, from + 11, 2) * 3600 +
    digitsAt(data, from + 14, 2) * 60 +
    digitsAt(data, from + 17, 2);
  let micros = 0;
  let places = 0;
  for (let i = from + 20; i < to - 1 && places < 6; i++, places++) {
    micros = micros * 10 + data[i] - 48;
  }
  for (; places < 6; places++) micros *= 10;
  return lastDayMicros + seconds * 1_000_000 + micros;
}

function digitsAt(data: Uint8Array, at: number, count: number): number {
  let x = 0;
  for (let i = at; i < at + count; i++) {
    const d = data[i] - 48;
    if (d < 0 || d > 9) throw new Error(`bad digit at byte ${i}`);
    x = x * 10 + d;
  }
  return x;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

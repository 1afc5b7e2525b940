/**
 * The InfluxDB line protocol parser shared by ILP over TCP and HTTP (spec/protocols.md §10):
 * reads lines straight from bytes into per-table `IngestBlock`s, with the escapes of §10.1,
 * the suffix typing of §10.2, designated timestamps in every unit (§10.3) and the binary field
 * values of protocol v2/v3 (§10.4). Numbers are parsed from the bytes and repeated names and
 * tag values are interned, so a line costs no intermediate strings.
 */
// The block module itself rather than engine/mod.ts: the parse workers (parse_worker.ts) load
// this file, and the whole engine's module graph would add a quarter second to their start.
// block.ts is a leaf (plain data, no imports), re-exported unchanged by engine/mod.ts.
import { DoubleArray } from "../../engine/base/double_array.ts";
import { IngestBlock, K, type ValueKind } from "../../engine/ingest/block.ts";
import { ByteInterner, decodeUtf8 } from "./_bytes.ts";
import { parseDoubleBytes, parseIntBytes, parseMicrosBytes, scanPlainNumber } from "./_numbers.ts";

/** Unit of an unsuffixed designated timestamp (HTTP `precision`, TCP `line.tcp.timestamp`). */
export type Precision = "n" | "u" | "ms" | "s" | "m" | "h";

const PRECISIONS: Record<string, Precision> = {
  n: "n",
  ns: "n",
  u: "u",
  us: "u",
  ms: "ms",
  s: "s",
  m: "m",
  h: "h",
};

/** The unit named by an HTTP `precision` value or `line.tcp.timestamp`; undefined when unknown. */
export function precisionOf(text: string): Precision | undefined {
  return PRECISIONS[text];
}

/** Microseconds per unit, as a multiplier (nanoseconds divide). */
const MICROS_PER: Record<Precision, number> = { n: -1000, u: 1, ms: 1000, s: 1e6, m: 6e7, h: 3.6e9 };

export interface LineError {
  /** 1-based line of the bad line. */
  line: number;
  message: string;
}

export interface ParseResult {
  /** Offset after the last line consumed: the start of an incomplete line, or of the bad one. */
  next: number;
  error?: LineError;
}

export interface LineParserOptions {
  precision?: Precision;
  /** A line longer than this is an error (`line.tcp.max.measurement.size`); 0: no limit. */
  maxLineBytes?: number;
}

const SPACE = 0x20, COMMA = 0x2c, EQ = 0x3d, NL = 0x0a, CR = 0x0d, QUOTE = 0x22, BACKSLASH = 0x5c;
const INCOMPLETE = Symbol("incomplete");

class LineFail {
  constructor(readonly message: string) {}
}

/** Binary entity types (spec/protocols.md §10.4). */
const B_FLOAT = 2,
  B_INT = 3,
  B_BOOLEAN = 6,
  B_TIMESTAMP = 13,
  B_ARRAY = 14,
  B_LONG = 15,
  B_DOUBLE = 16,
  B_DECIMAL = 23;
/** Array element types: DOUBLE, and the marker of a NULL array (no payload follows). */
const B_ARRAY_ELEM_DOUBLE = 10, B_NULL_ARRAY = 33;
/** `cairo.max.array.element.count` default and the largest dimension length (§10.4). */
const ARRAY_ELEMENTS_MAX = 10_000_000, ARRAY_DIM_MAX = (1 << 28) - 1;

/**
 * Parses lines into blocks, one per table (`blocks`), across calls: TCP feeds it buffer after
 * buffer, HTTP the whole body once. Stops at the first bad line, which adds nothing.
 */
export class LineParser {
  readonly blocks = new Map<string, IngestBlock>();
  /** Rows held in `blocks`. */
  rowCount = 0;
  /** Lines consumed so far (the number of the last complete line). */
  line = 0;
  readonly #microsPer: number;
  readonly #maxLineBytes: number;
  readonly #names = new ByteInterner();
  readonly #values = new ByteInterner();
  #buf: Uint8Array = new Uint8Array(0);
  #view: DataView = new DataView(new ArrayBuffer(0));
  #end = 0;
  #final = false;
  #scratch = new Uint8Array(256);
  /** scanPlainNumber's result. */
  readonly #plain = new Float64Array(1);
  /** The last typed value (see #typedValue). */
  #x = 0;
  /** LONG256 and big integers (bigint) or a DECIMAL's text. */
  #big: bigint | string = 0n;
  /** FNV-1a of the bytes the last name or tag value scan went over (for the interners). */
  #hash = 0;
  #capacityHint = 0;
  /** The block of the line #parseLine just read (a field, not a returned pair: no garbage per line). */
  #rowBlock: IngestBlock | undefined;
  /**
   * The previous line's layout: its table's raw name bytes, string and block, and the raw bytes
   * and string of its k-th tag or field name. Lines nearly always repeat it, and comparing bytes
   * against the expected name is cheaper than scanning, hashing and interning them.
   */
  #tableKey: Uint8Array = new Uint8Array(0);
  #tableName = "";
  #tableBlock: IngestBlock | undefined;
  readonly #nameKeys: Uint8Array[] = [];
  readonly #nameStrings: string[] = [];

  constructor(options: LineParserOptions = {}) {
    this.#microsPer = MICROS_PER[options.precision ?? "n"];
    this.#maxLineBytes = options.maxLineBytes ?? 0;
  }

  /** Hands the blocks over and starts new ones. */
  take(): IngestBlock[] {
    const out = [...this.blocks.values()].filter((b) => b.rowCount > 0);
    this.blocks.clear();
    this.#tableBlock = undefined;
    this.rowCount = 0;
    return out;
  }

  /**
   * Parses the lines in `buf[from, end)`. With `final`, a last line without a line end is
   * taken as complete; otherwise parsing stops before it and `next` points at it.
   */
  parse(buf: Uint8Array, from: number, end: number, final: boolean): ParseResult {
    this.#buf = buf;
    this.#view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.#end = end;
    this.#final = final;
    this.#capacityHint = (end - from) >> 6;
    this.#error = undefined;
    const next = this.#lines(from);
    const error = this.#error;
    this.#error = undefined;
    return error ? { next, error } : { next };
  }

  /** The bad line #lines stopped at. */
  #error: LineError | undefined;

  /**
   * The loop of `parse`, apart from it because V8 optimises it while it runs (on-stack
   * replacement), before the code after the loop ever ran: building the result object there
   * then lacked type feedback and threw the optimised code away at the end of every body.
   * Returns where it stopped, with the bad line in #error.
   */
  #lines(from: number): number {
    const buf = this.#buf, end = this.#end;
    let pos = from;
    const max = this.#maxLineBytes;
    while (pos < end) {
      const b = buf[pos];
      if (b === NL || b === CR) {
        pos = this.#lineEnd(pos);
        this.line++; // a blank line
        continue;
      }
      try {
        const next = this.#parseLine(pos, this.line + 1);
        const block = this.#rowBlock!;
        if (max > 0 && next - pos > max) {
          block.abortRow();
          return this.#tooLong(pos);
        }
        block.endRow();
        pos = next;
        this.rowCount++;
        this.line++;
      } catch (e) {
        for (const bl of this.blocks.values()) bl.abortRow();
        if (e === INCOMPLETE) return max > 0 && end - pos > max ? this.#tooLong(pos) : pos;
        if (e instanceof LineFail) {
          this.#error = { line: this.line + 1, message: e.message };
          return pos;
        }
        throw e;
      }
    }
    return pos;
  }

  #tooLong(pos: number): number {
    this.#error = { line: this.line + 1, message: `line is too long [max=${this.#maxLineBytes}]` };
    return pos;
  }

  /** Consumes one line end (`\r\n` counts once) and counts the line. */
  #lineEnd(pos: number): number {
    const buf = this.#buf;
    if (buf[pos] === CR && pos + 1 < this.#end && buf[pos + 1] === NL) return pos + 2;
    return pos + 1;
  }

  #isEnd(i: number): boolean {
    if (i < this.#end) {
      const b = this.#buf[i];
      return b === NL || b === CR;
    }
    if (this.#final) return true;
    throw INCOMPLETE;
  }

  /** Reads the line at `start` into its block (left in #rowBlock); returns the offset after it. */
  #parseLine(start: number, line: number): number {
    const buf = this.#buf;
    let block: IngestBlock | undefined;
    let i = this.#knownTable(start);
    if (i >= 0) block = this.#tableBlock;
    else {
      i = this.#scanName(start, true);
      // A read that ends inside the name (perhaps inside a character): wait for the rest.
      if (i >= this.#end && !this.#final) throw INCOMPLETE;
      const table = this.#nameAt(start, i, true);
      this.#tableKey = this.#names.key;
      this.#tableName = table;
      block = this.blocks.get(table);
      if (!block) this.blocks.set(table, block = new IngestBlock(table, this.#capacityHint));
    }
    if (block === undefined) {
      block = this.blocks.get(this.#tableName);
      if (!block) {
        this.blocks.set(this.#tableName, block = new IngestBlock(this.#tableName, this.#capacityHint));
      }
    }
    this.#tableBlock = block;
    this.#rowBlock = block;
    const row = block.beginRow(line);
    let ordinal = 0;
    // Tags: ,name=value ...
    while (i < this.#end && buf[i] === COMMA) {
      const nameStart = i + 1;
      let name: string;
      i = this.#knownName(nameStart, ordinal);
      if (i >= 0) name = this.#nameStrings[ordinal];
      else {
        i = this.#scanName(nameStart, false);
        if (i >= this.#end && !this.#final) throw INCOMPLETE;
        if (i >= this.#end || buf[i] !== EQ) throw new LineFail("INVALID_TAG_SEPARATOR");
        name = this.#nameAt(nameStart, i, false);
        this.#learnName(ordinal, name);
      }
      const valueStart = i + 1;
      i = this.#scanTagValue(valueStart);
      if (i === valueStart) {
        throw new LineFail(`Could not parse entire line. Symbol value is missing: ${name}`);
      }
      const cell = block.cell(name, row, line, ordinal++);
      if (cell) cell.setRef(row, K.SYMBOL, this.#tagValueAt(valueStart, i));
    }
    if (this.#isEnd(i)) throw new LineFail("No fields were provided");
    if (buf[i] !== SPACE) throw new LineFail("INVALID_FIELD_SEPARATOR");
    while (i < this.#end && buf[i] === SPACE) i++;
    if (this.#isEnd(i)) throw new LineFail("No fields were provided");
    // Fields: name=value,...
    for (;;) {
      const nameStart = i;
      let name: string;
      i = this.#knownName(nameStart, ordinal);
      if (i >= 0) name = this.#nameStrings[ordinal];
      else {
        i = this.#scanName(nameStart, false);
        // A read that ends right after a comma: wait for the name (not "column name is empty").
        if (i >= this.#end && !this.#final) throw INCOMPLETE;
        name = this.#nameAt(nameStart, i, false);
        if (i >= this.#end ? this.#isEnd(i) : buf[i] !== EQ) {
          throw new LineFail(`Could not parse entire line. Field value is missing: ${name}`);
        }
        this.#learnName(ordinal, name);
      }
      i++;
      i = this.#field(block, row, line, name, i, ordinal++);
      if (this.#isEnd(i)) return this.#lineEnd(i);
      if (buf[i] === COMMA) {
        i++;
        continue;
      }
      if (buf[i] !== SPACE) throw new LineFail("INVALID_FIELD_SEPARATOR");
      break;
    }
    // Optional designated timestamp.
    while (i < this.#end && buf[i] === SPACE) i++;
    if (this.#isEnd(i)) return this.#lineEnd(i);
    const tsStart = i;
    // The usual `digits\n` (no unit suffix, no trailing spaces) is found and parsed at once;
    // anything else takes the general way, which gives the same result for it.
    const end = this.#end;
    if (i < end && buf[i] === 0x2d) i++;
    while (i < end && (buf[i] - 0x30) >>> 0 <= 9) i++;
    if (i < end && (buf[i] === NL || buf[i] === CR) && i > tsStart) {
      const micros = parseMicrosBytes(buf, tsStart, i, this.#microsPer);
      if (!Number.isNaN(micros)) {
        block.timestamps[row] = micros;
        return this.#lineEnd(i);
      }
    }
    while (i < end && buf[i] !== NL && buf[i] !== CR) i++;
    this.#isEnd(i);
    let tsEnd = i;
    while (tsEnd > tsStart && buf[tsEnd - 1] === SPACE) tsEnd--;
    const micros = this.#designated(tsStart, tsEnd);
    if (Number.isNaN(micros)) throw new LineFail(`Could not parse timestamp: ${this.#text(tsStart, tsEnd)}`);
    block.timestamps[row] = micros;
    return i >= this.#end ? i : this.#lineEnd(i);
  }

  /**
   * End of the table name at `i` when it is the previous line's (same raw bytes, then a comma
   * or space: scanning the same bytes would stop at the same place), else -1.
   */
  #knownTable(i: number): number {
    const key = this.#tableKey, n = key.length, buf = this.#buf;
    if (n === 0 || i + n >= this.#end) return -1;
    const after = buf[i + n];
    if (after !== COMMA && after !== SPACE) return -1;
    for (let j = 0; j < n; j++) if (buf[i + j] !== key[j]) return -1;
    return i + n;
  }

  /** End of the tag or field name at `i` when it is the previous line's `ordinal`-th (then `=`), else -1. */
  #knownName(i: number, ordinal: number): number {
    const keys = this.#nameKeys;
    if (ordinal >= keys.length) return -1;
    const key = keys[ordinal], n = key.length, buf = this.#buf;
    if (n === 0 || i + n >= this.#end || buf[i + n] !== EQ) return -1;
    for (let j = 0; j < n; j++) if (buf[i + j] !== key[j]) return -1;
    return i + n;
  }

  /** Remembers the name just interned (and checked to end at `=`) as the `ordinal`-th. */
  #learnName(ordinal: number, name: string): void {
    if (ordinal < this.#nameKeys.length) {
      this.#nameKeys[ordinal] = this.#names.key;
      this.#nameStrings[ordinal] = name;
    } else {
      this.#nameKeys.push(this.#names.key);
      this.#nameStrings.push(name);
    }
  }

  #designated(from: number, to: number): number {
    const buf = this.#buf;
    const last = buf[to - 1];
    if (last === 0x6e) return parseMicrosBytes(buf, from, to - 1, -1000); // n
    if (last === 0x74) return parseMicrosBytes(buf, from, to - 1, 1); // t
    if (last === 0x6d) return parseMicrosBytes(buf, from, to - 1, 1000); // m
    return parseMicrosBytes(buf, from, to, this.#microsPer);
  }

  /** End of a table or column name: the first unescaped separator. */
  #scanName(i: number, table: boolean): number {
    const buf = this.#buf, end = this.#end;
    let h = 0x811c9dc5;
    while (i < end) {
      const b = buf[i];
      if (b === BACKSLASH) {
        h = Math.imul(Math.imul(h ^ b, 16777619) ^ buf[i + 1], 16777619);
        if (i + 1 >= end) {
          if (this.#final) throw new LineFail("INVALID_NAME");
          throw INCOMPLETE;
        }
        if (buf[i + 1] === BACKSLASH) {
          throw new LineFail(table ? "INVALID_TABLE_NAME" : "INVALID_COLUMN_NAME");
        }
        i += 2;
        continue;
      }
      if (b === SPACE || b === COMMA || b === NL || b === CR || (b === EQ && !table)) break;
      // Unescaped '/' and NUL are never allowed in names (spec/protocols.md §10.1).
      if (b === 0x2f || b === 0) throw new LineFail(table ? "INVALID_TABLE_NAME" : "INVALID_COLUMN_NAME");
      h = Math.imul(h ^ b, 16777619);
      i++;
    }
    this.#hash = h;
    return i;
  }

  #scanTagValue(i: number): number {
    const buf = this.#buf, end = this.#end;
    let h = 0x811c9dc5;
    while (i < end) {
      const b = buf[i];
      if (b === BACKSLASH) {
        if (i + 1 >= end && !this.#final) throw INCOMPLETE;
        h = Math.imul(Math.imul(h ^ b, 16777619) ^ buf[i + 1], 16777619);
        i += 2;
        continue;
      }
      if (b === SPACE || b === COMMA || b === NL || b === CR) {
        this.#hash = h;
        return i;
      }
      h = Math.imul(h ^ b, 16777619);
      i++;
    }
    this.#hash = h;
    if (!this.#final) throw INCOMPLETE;
    return end;
  }

  #nameAt(from: number, to: number, table: boolean): string {
    if (from === to) throw new LineFail(table ? "table name is empty" : "column name is empty");
    const s = this.#names.get(this.#buf, from, to, this.#hash);
    if (s === undefined) throw new LineFail("invalid UTF-8 in name");
    return s;
  }

  #tagValueAt(from: number, to: number): string {
    const s = this.#values.get(this.#buf, from, to, this.#hash);
    if (s === undefined) throw new LineFail("invalid UTF-8 in tag value");
    return s;
  }

  /** Text of raw bytes for error messages (invalid UTF-8 replaced). */
  #text(from: number, to: number): string {
    return new TextDecoder().decode(this.#buf.subarray(from, Math.min(to, from + 256)));
  }

  /** Parses one field value at `i` into the row; returns the offset after it. */
  #field(block: IngestBlock, row: number, line: number, name: string, i: number, ordinal: number): number {
    const buf = this.#buf, end = this.#end;
    if (i < end && buf[i] === EQ) return this.#binaryField(block, row, line, name, i + 1, ordinal);
    if (i < end && buf[i] === QUOTE) return this.#stringField(block, row, line, name, i + 1, ordinal);
    const plainEnd = scanPlainNumber(buf, i, end, this.#plain);
    if (plainEnd >= 0) {
      const cell = block.cell(name, row, line, ordinal);
      if (cell) cell.setNum(row, buf[plainEnd - 1] === 0x69 ? K.LONG : K.DOUBLE, this.#plain[0]);
      return plainEnd;
    }
    const from = i;
    while (i < end) {
      const b = buf[i];
      if (b === COMMA || b === SPACE || b === NL || b === CR) break;
      if (b === BACKSLASH) throw new LineFail(this.#invalidField(name, from, i + 1));
      i++;
    }
    if (i >= end && !this.#final) throw INCOMPLETE;
    const cell = block.cell(name, row, line, ordinal);
    if (from === i) {
      if (cell) cell.setNum(row, K.NULL, 0);
      return i;
    }
    const kind = this.#typedValue(name, from, i);
    if (cell) {
      if (kind === K.LONG256 || kind === K.LONG_BIG || kind === K.DECIMAL) cell.setRef(row, kind, this.#big);
      else cell.setNum(row, kind, this.#x);
    }
    return i;
  }

  /**
   * Types a text field value by its last byte (spec/protocols.md §10.2); the value is left in
   * `#x` (numbers) or `#big` (LONG256, big integers).
   */
  #typedValue(name: string, from: number, to: number): ValueKind {
    const buf = this.#buf;
    const last = buf[to - 1];
    let kind: ValueKind = K.DOUBLE;
    let x: number | undefined;
    switch (last) {
      case 0x69: { // i: integer or 0x… long256
        if (to - from > 3 && buf[from] === 0x30 && (buf[from + 1] | 0x20) === 0x78) {
          const v = parseLong256(buf, from + 2, to - 1);
          if (v === undefined) throw new LineFail(this.#invalidField(name, from, to));
          this.#big = v;
          return K.LONG256;
        }
        const v = parseIntBytes(buf, from, to - 1);
        if (v === undefined) throw new LineFail(this.#invalidField(name, from, to));
        if (typeof v === "bigint") {
          this.#big = v;
          return K.LONG_BIG;
        }
        kind = K.LONG;
        x = v;
        break;
      }
      case 0x6e: // n: nanoseconds
        kind = K.TIMESTAMP;
        x = parseMicrosBytes(buf, from, to - 1, -1000);
        break;
      case 0x6d: // m: milliseconds
        kind = K.TIMESTAMP;
        x = parseMicrosBytes(buf, from, to - 1, 1000);
        break;
      case 0x64: { // d: decimal (v3), kept as its text; the column's scale is applied later
        const text = this.#text(from, to - 1);
        if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(text)) throw new LineFail(this.#invalidField(name, from, to));
        this.#big = text;
        return K.DECIMAL;
      }
      default: {
        const bool = last >= 0x41 ? booleanOf(buf, from, to) : undefined;
        if (bool !== undefined) {
          kind = K.BOOLEAN;
          x = bool;
        } else if (last === 0x74) { // t: microseconds
          kind = K.TIMESTAMP;
          x = parseMicrosBytes(buf, from, to - 1, 1);
        } else {
          x = parseDoubleBytes(buf, from, to);
        }
      }
    }
    if (x === undefined || (kind !== K.DOUBLE && Number.isNaN(x))) {
      throw new LineFail(this.#invalidField(name, from, to));
    }
    this.#x = x;
    return kind;
  }

  #invalidField(name: string, from: number, to: number): string {
    return `Could not parse entire line, field value is invalid. Field: ${name}; value: ${
      this.#text(from, to)
    }`;
  }

  /** `"…"` with `\"`, `\\` and escaped line ends; a raw line end before the quote is an error. */
  #stringField(
    block: IngestBlock,
    row: number,
    line: number,
    name: string,
    i: number,
    ordinal: number,
  ): number {
    const buf = this.#buf, end = this.#end;
    const from = i;
    let escaped = false;
    while (i < end) {
      const b = buf[i];
      if (b === QUOTE) break;
      if (b === BACKSLASH) {
        escaped = true;
        i += 2;
        continue;
      }
      if (b === NL || b === CR) {
        throw new LineFail(
          `Could not parse entire line, field value is invalid. Field: ${name}; value: missing closing quote`,
        );
      }
      i++;
    }
    if (i >= end) {
      if (!this.#final) throw INCOMPLETE;
      throw new LineFail(
        `Could not parse entire line, field value is invalid. Field: ${name}; value: missing closing quote`,
      );
    }
    const s = escaped ? this.#unescaped(from, i) : decodeUtf8(buf, from, i);
    if (s === undefined) {
      throw new LineFail(
        `Could not parse entire line, field value is invalid. Field: ${name}; value: invalid UTF-8`,
      );
    }
    i++; // the closing quote
    if (i < end && buf[i] !== COMMA && buf[i] !== SPACE && buf[i] !== NL && buf[i] !== CR) {
      throw new LineFail(this.#invalidField(name, from - 1, i + 1));
    }
    const cell = block.cell(name, row, line, ordinal);
    if (cell) cell.setRef(row, K.STRING, s);
    return i;
  }

  #unescaped(from: number, to: number): string | undefined {
    if (this.#scratch.length < to - from) this.#scratch = new Uint8Array((to - from) * 2);
    const out = this.#scratch, buf = this.#buf;
    let n = 0;
    for (let i = from; i < to; i++) {
      if (buf[i] === BACKSLASH && i + 1 < to) i++;
      out[n++] = buf[i];
    }
    return decodeUtf8(out, 0, n);
  }

  #need(i: number, bytes: number, name: string): void {
    if (i + bytes <= this.#end) return;
    if (!this.#final) throw INCOMPLETE;
    throw new LineFail(
      `Could not parse entire line, field value is invalid. Field: ${name}; value: truncated binary value`,
    );
  }

  /** `name==` followed by a type byte and a little-endian payload (spec/protocols.md §10.4). */
  #binaryField(
    block: IngestBlock,
    row: number,
    line: number,
    name: string,
    i: number,
    ordinal: number,
  ): number {
    const view = this.#view;
    this.#need(i, 1, name);
    const type = this.#buf[i++];
    let kind: ValueKind;
    let x: number;
    let big: bigint | undefined;
    let ref: string | DoubleArray | undefined;
    switch (type) {
      case B_DOUBLE:
        this.#need(i, 8, name);
        kind = K.DOUBLE, x = view.getFloat64(i, true), i += 8;
        break;
      case B_FLOAT:
        this.#need(i, 4, name);
        kind = K.DOUBLE, x = view.getFloat32(i, true), i += 4;
        break;
      case B_INT:
        this.#need(i, 4, name);
        kind = K.LONG, x = view.getInt32(i, true), i += 4;
        if (x === -2147483648) kind = K.NULL;
        break;
      case B_LONG: {
        this.#need(i, 8, name);
        const v = view.getBigInt64(i, true);
        i += 8;
        x = Number(v);
        kind = Number.isSafeInteger(x) ? K.LONG : K.LONG_BIG;
        if (kind === K.LONG_BIG) big = v;
        break;
      }
      case B_BOOLEAN:
        this.#need(i, 1, name);
        kind = K.BOOLEAN, x = this.#buf[i] ? 1 : 0, i += 1;
        break;
      case B_TIMESTAMP: {
        this.#need(i, 9, name);
        const unit = this.#buf[i];
        const v = view.getBigInt64(i + 1, true);
        i += 9;
        kind = K.TIMESTAMP;
        x = unit === 0x6e || unit === 0
          ? Math.floor(Number(v / 1000n) - (v % 1000n < 0n ? 1 : 0))
          : unit === 0x6d || unit === 2
          ? Number(v) * 1000
          : Number(v);
        if (!Number.isSafeInteger(x)) throw new LineFail(this.#invalidField(name, i - 10, i));
        break;
      }
      case B_ARRAY: {
        this.#need(i, 1, name);
        if (this.#buf[i] === B_NULL_ARRAY) {
          i += 1;
          kind = K.NULL, x = 0;
          break;
        }
        const read = this.#binaryArray(block, name, i);
        i = read.end;
        kind = K.ARRAY, x = 0, ref = read.value;
        break;
      }
      case B_DECIMAL: {
        // scale byte, length byte, then the unscaled value big-endian two's complement (§10.4).
        this.#need(i, 2, name);
        const scale = this.#buf[i], length = this.#buf[i + 1];
        i += 2;
        if (scale > 76) {
          throw new LineFail(`table: ${block.table}, column: ${name}; invalid decimal scale ${scale}`);
        }
        this.#need(i, length, name);
        if (length === 0) {
          kind = K.NULL, x = 0;
          break;
        }
        let v = 0n;
        for (let k = 0; k < length; k++) v = (v << 8n) | BigInt(this.#buf[i + k]);
        if (this.#buf[i] & 0x80) v -= 1n << BigInt(8 * length);
        i += length;
        kind = K.DECIMAL, x = 0, ref = decimalText(v, scale);
        break;
      }
      default:
        throw new LineFail(
          `Could not parse entire line, field value is invalid. Field: ${name}; value: unknown binary type ${type}`,
        );
    }
    if (i < this.#end) {
      const b = this.#buf[i];
      if (b !== COMMA && b !== SPACE && b !== NL && b !== CR) throw new LineFail("INVALID_FIELD_SEPARATOR");
    } else if (!this.#final) throw INCOMPLETE;
    const cell = block.cell(name, row, line, ordinal);
    if (cell) {
      if (big !== undefined) cell.setRef(row, K.LONG_BIG, big);
      else if (ref !== undefined) cell.setRef(row, kind, ref);
      else cell.setNum(row, kind, x);
    }
    return i;
  }

  /**
   * A binary DOUBLE array after its type byte: element type (10 = DOUBLE), dimension count
   * (1-32), that many uint32 LE lengths, then the float64 LE elements in row-major order.
   */
  #binaryArray(block: IngestBlock, name: string, i: number): { value: DoubleArray; end: number } {
    const bad = (why: string) => new LineFail(`table: ${block.table}, column: ${name}; ${why}`);
    this.#need(i, 2, name);
    const elem = this.#buf[i], dims = this.#buf[i + 1];
    i += 2;
    if (elem !== B_ARRAY_ELEM_DOUBLE) throw bad(`unsupported array element type ${elem}`);
    if (dims < 1 || dims > 32) throw bad(`invalid array dimension count ${dims}`);
    this.#need(i, 4 * dims, name);
    const view = this.#view;
    const shape = new Array<number>(dims);
    let count = 1;
    for (let d = 0; d < dims; d++) {
      const len = view.getUint32(i + 4 * d, true);
      if (len > ARRAY_DIM_MAX) throw bad(`array dimension length ${len} exceeds ${ARRAY_DIM_MAX}`);
      shape[d] = len;
      count *= len;
    }
    i += 4 * dims;
    if (count > ARRAY_ELEMENTS_MAX) {
      throw bad(`array has too many elements [count=${count}, max=${ARRAY_ELEMENTS_MAX}]`);
    }
    this.#need(i, 8 * count, name);
    const data = new Float64Array(count);
    for (let k = 0; k < count; k++) {
      const v = view.getFloat64(i + 8 * k, true);
      data[k] = Number.isFinite(v) ? v : NaN; // NaN and ±Infinity are NULL elements
    }
    return { value: new DoubleArray(shape, data), end: i + 8 * count };
  }
}

/** `unscaled × 10^-scale` as decimal text (`-1.50`); the column's DECIMAL type parses it. */
function decimalText(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  let digits = (neg ? -unscaled : unscaled).toString();
  if (scale > 0) {
    digits = digits.padStart(scale + 1, "0");
    digits = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
  }
  return neg ? `-${digits}` : digits;
}

/** `t T true True TRUE…` → 1, `f F false…` → 0 (the long forms in any case), else undefined. */
function booleanOf(buf: Uint8Array, from: number, to: number): number | undefined {
  const len = to - from;
  if (len === 1) {
    const c = buf[from] | 0x20;
    return c === 0x74 ? 1 : c === 0x66 ? 0 : undefined;
  }
  if (len !== 4 && len !== 5) return undefined;
  let s = "";
  for (let i = from; i < to; i++) s += String.fromCharCode(buf[i] | 0x20);
  return s === "true" ? 1 : s === "false" ? 0 : undefined;
}

/** Up to 64 hex digits; undefined otherwise. */
function parseLong256(buf: Uint8Array, from: number, to: number): bigint | undefined {
  if (to <= from || to - from > 64) return undefined;
  let s = "0x";
  for (let i = from; i < to; i++) {
    const c = buf[i];
    const hex = (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
    if (!hex) return undefined;
    s += String.fromCharCode(c);
  }
  return BigInt(s);
}

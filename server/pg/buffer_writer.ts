/**
 * Builds backend messages into one growing buffer, so that a whole reply (RowDescription,
 * thousands of DataRows, CommandComplete, ReadyForQuery) leaves in a few socket writes.
 * A message is opened with `begin(code)`, filled, and closed with `end()`, which patches the
 * length field (node-postgres pg-protocol's BufferWriter, turned around for the server side).
 */

const encoder = new TextEncoder();
/** Strings up to this many UTF-16 units are tried as ASCII byte by byte before encodeInto. */
const ASCII_LOOP_MAX = 64;

export class BufferWriter {
  #buffer = new Uint8Array(64 * 1024);
  #view = new DataView(this.#buffer.buffer);
  #offset = 0;
  /** Offset of the open message's length field, or -1. */
  #lengthAt = -1;

  /** Bytes written and not yet taken. */
  get length(): number {
    return this.#offset;
  }

  #ensure(n: number): void {
    if (this.#offset + n <= this.#buffer.length) return;
    let size = this.#buffer.length * 2;
    while (size < this.#offset + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.#buffer.subarray(0, this.#offset));
    this.#buffer = next;
    this.#view = new DataView(next.buffer);
  }

  begin(code: string): this {
    this.#ensure(5);
    this.#buffer[this.#offset] = code.charCodeAt(0);
    this.#lengthAt = this.#offset + 1;
    this.#offset += 5;
    return this;
  }

  end(): this {
    this.#view.setInt32(this.#lengthAt, this.#offset - this.#lengthAt);
    this.#lengthAt = -1;
    return this;
  }

  byte(v: number): this {
    this.#ensure(1);
    this.#buffer[this.#offset++] = v;
    return this;
  }

  int16(v: number): this {
    this.#ensure(2);
    this.#view.setInt16(this.#offset, v);
    this.#offset += 2;
    return this;
  }

  int32(v: number): this {
    this.#ensure(4);
    this.#view.setInt32(this.#offset, v);
    this.#offset += 4;
    return this;
  }

  int64(v: bigint): this {
    this.#ensure(8);
    this.#view.setBigInt64(this.#offset, v);
    this.#offset += 8;
    return this;
  }

  float32(v: number): this {
    this.#ensure(4);
    this.#view.setFloat32(this.#offset, v);
    this.#offset += 4;
    return this;
  }

  float64(v: number): this {
    this.#ensure(8);
    this.#view.setFloat64(this.#offset, v);
    this.#offset += 8;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.#ensure(b.length);
    this.#buffer.set(b, this.#offset);
    this.#offset += b.length;
    return this;
  }

  /** UTF-8 text without a terminator. */
  string(s: string): this {
    // Worst case 3 bytes per UTF-16 unit; encodeInto writes in place without a temporary.
    const n = s.length;
    this.#ensure(n * 3);
    if (n <= ASCII_LOOP_MAX) {
      // Cells are mostly short ASCII (numbers, timestamps, symbols): copied here, since a call
      // into encodeInto per cell cost ~40 % of the server's CPU streaming 1M rows.
      const buf = this.#buffer;
      let o = this.#offset, i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[o++] = c;
      }
      if (i === n) {
        this.#offset = o;
        return this;
      }
    }
    const { written } = encoder.encodeInto(s, this.#buffer.subarray(this.#offset));
    this.#offset += written;
    return this;
  }

  cstring(s: string): this {
    return this.string(s).byte(0);
  }

  /** A length-prefixed UTF-8 value (DataRow cell): int32 byte length, then the bytes. */
  lengthPrefixedString(s: string): this {
    const at = this.#offset;
    this.int32(0).string(s);
    this.#view.setInt32(at, this.#offset - at - 4);
    return this;
  }

  /** Returns everything written so far and starts over; no message may be open. */
  take(): Uint8Array {
    const out = this.#buffer.slice(0, this.#offset);
    this.#offset = 0;
    if (this.#buffer.length > 1024 * 1024) {
      this.#buffer = new Uint8Array(64 * 1024);
      this.#view = new DataView(this.#buffer.buffer);
    }
    return out;
  }
}

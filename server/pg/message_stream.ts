/**
 * Cuts the bytes of a connection into messages: first the start packet (int32 length, no type
 * byte), then typed messages (type byte, int32 length including itself). The length is checked
 * before anything is buffered, so a hostile length prefix costs nothing (spec/protocols.md
 * §12.3: length < 4 is a protocol error; the server keeps reading until a message is whole).
 */
import { ProtocolError } from "./buffer_reader.ts";

/** A start packet is small: a few key/value pairs (PostgreSQL allows 10000 bytes). */
export const START_PACKET_BYTES_MAX = 10_000;

export interface RawMessage {
  code: number;
  body: Uint8Array;
}

/** Something bytes can be read from: a Deno.Conn, or a test double. */
export interface Readable {
  read(p: Uint8Array): Promise<number | null>;
}

export class MessageStream {
  readonly #source: Readable;
  readonly #messageBytesMax: number;
  #buffer = new Uint8Array(16 * 1024);
  #start = 0;
  #end = 0;

  constructor(source: Readable, messageBytesMax: number) {
    this.#source = source;
    this.#messageBytesMax = messageBytesMax;
  }

  /** True when bytes of a later message are already buffered (pipelined input). */
  get hasBuffered(): boolean {
    return this.#end > this.#start;
  }

  /** Reads until `n` bytes are buffered; false at end of stream. */
  async #fill(n: number): Promise<boolean> {
    if (this.#end - this.#start >= n) return true;
    if (this.#start + n > this.#buffer.length) {
      if (n > this.#buffer.length) {
        const next = new Uint8Array(Math.max(n, this.#buffer.length * 2));
        next.set(this.#buffer.subarray(this.#start, this.#end));
        this.#buffer = next;
      } else {
        this.#buffer.copyWithin(0, this.#start, this.#end);
      }
      this.#end -= this.#start;
      this.#start = 0;
    }
    while (this.#end - this.#start < n) {
      const got = await this.#source.read(this.#buffer.subarray(this.#end));
      if (got === null || got === 0) return false;
      this.#end += got;
    }
    return true;
  }

  #int32(at: number): number {
    const b = this.#buffer;
    return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) | 0;
  }

  /** The start packet's body (after the length), or null when the peer closed. */
  async readStartPacket(): Promise<Uint8Array | null> {
    if (!(await this.#fill(4))) return null;
    const length = this.#int32(this.#start);
    if (length < 8 || length > START_PACKET_BYTES_MAX) {
      throw new ProtocolError(`invalid start packet length [length=${length}]`);
    }
    if (!(await this.#fill(length))) return null;
    const body = this.#buffer.slice(this.#start + 4, this.#start + length);
    this.#start += length;
    return body;
  }

  /** The next typed message, or null when the peer closed (possibly mid-message). */
  async readMessage(): Promise<RawMessage | null> {
    if (!(await this.#fill(5))) return null;
    const code = this.#buffer[this.#start];
    const length = this.#int32(this.#start + 1);
    if (length < 4) throw new ProtocolError(`invalid message length [length=${length}]`);
    if (length > this.#messageBytesMax) {
      throw new ProtocolError(`message too large [length=${length}, max=${this.#messageBytesMax}]`);
    }
    if (!(await this.#fill(1 + length))) return null;
    const body = this.#buffer.slice(this.#start + 5, this.#start + 1 + length);
    this.#start += 1 + length;
    if (this.#start === this.#end) this.#start = this.#end = 0;
    return { code, body };
  }
}

/**
 * multipart/form-data bodies (RFC 7578): a streaming reader for `/imp` uploads, which can be
 * far larger than memory should hold at once, and a whole-body parser for ILP over HTTP.
 */

export interface PartHeaders {
  /** Lower-case header names. */
  headers: Map<string, string>;
  /** `name` of Content-Disposition, when present. */
  name?: string;
  /** `filename` of Content-Disposition, when present. */
  filename?: string;
}

export interface Part extends PartHeaders {
  data: Uint8Array;
}

const CRLF = new Uint8Array([13, 10]);
const HEADERS_END = new Uint8Array([13, 10, 13, 10]);
const HEADER_BYTES_MAX = 16 * 1024;
const decoder = new TextDecoder();

/** The boundary of a multipart Content-Type, or undefined for other types. */
export function multipartBoundary(contentType: string | null): string | undefined {
  if (!contentType || !/^multipart\//i.test(contentType.trim())) return undefined;
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

export function indexOfBytes(hay: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  const last = hay.length - needle.length;
  for (let i = hay.indexOf(first, from); i >= 0 && i <= last; i = hay.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && hay[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function parseHeaders(text: string): PartHeaders {
  const headers = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const i = line.indexOf(":");
    if (i > 0) headers.set(line.slice(0, i).trim().toLowerCase(), line.slice(i + 1).trim());
  }
  const out: PartHeaders = { headers };
  const disposition = headers.get("content-disposition");
  if (disposition) {
    const name = /(?:^|;)\s*name="([^"]*)"|(?:^|;)\s*name=([^;\s]+)/i.exec(disposition);
    if (name) out.name = name[1] ?? name[2];
    const file = /filename="([^"]*)"|filename=([^;\s]+)/i.exec(disposition);
    if (file) out.filename = file[1] ?? file[2];
  }
  return out;
}

/** Parses a whole multipart body; undefined when it is malformed. */
export function parseMultipart(body: Uint8Array, boundary: string): Part[] | undefined {
  const open = new TextEncoder().encode("--" + boundary);
  const delimiter = new TextEncoder().encode("\r\n--" + boundary);
  let at = indexOfBytes(body, open, 0);
  if (at < 0) return undefined;
  at += open.length;
  const parts: Part[] = [];
  for (;;) {
    if (body[at] === 45 && body[at + 1] === 45) return parts; // "--": the end
    if (body[at] !== 13 || body[at + 1] !== 10) return undefined;
    at += 2;
    const headersEnd = indexOfBytes(body, HEADERS_END, at);
    let headers: PartHeaders;
    if (body[at] === 13 && body[at + 1] === 10) { // no headers
      headers = { headers: new Map() };
      at += 2;
    } else {
      if (headersEnd < 0) return undefined;
      headers = parseHeaders(decoder.decode(body.subarray(at, headersEnd)));
      at = headersEnd + 4;
    }
    const end = indexOfBytes(body, delimiter, at);
    if (end < 0) return undefined;
    parts.push({ ...headers, data: body.subarray(at, end) });
    at = end + delimiter.length;
  }
}

/**
 * Reads a multipart stream part by part. `next()` gives the next part's headers, then
 * `read()` gives its data chunk by chunk until undefined; a part must be read (or skipped
 * with `skip()`) before asking for the next.
 */
export class MultipartReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #open: Uint8Array;
  readonly #delimiter: Uint8Array;
  #buf = new Uint8Array(0);
  #eof = false;
  #inPart = false;
  #done = false;
  #started = false;

  constructor(stream: ReadableStream<Uint8Array>, boundary: string) {
    this.#reader = stream.getReader();
    this.#open = new TextEncoder().encode("--" + boundary);
    this.#delimiter = new TextEncoder().encode("\r\n--" + boundary);
  }

  async #fill(): Promise<boolean> {
    if (this.#eof) return false;
    const { value, done } = await this.#reader.read();
    if (done) {
      this.#eof = true;
      return false;
    }
    const merged = new Uint8Array(this.#buf.length + value.length);
    merged.set(this.#buf);
    merged.set(value, this.#buf.length);
    this.#buf = merged;
    return true;
  }

  async #need(n: number): Promise<boolean> {
    while (this.#buf.length < n) if (!(await this.#fill())) return false;
    return true;
  }

  /** Headers of the next part; undefined at the end. Throws on a malformed body. */
  async next(): Promise<PartHeaders | undefined> {
    if (this.#inPart) await this.skip();
    if (this.#done) return undefined;
    if (!this.#started) {
      for (;;) {
        const at = indexOfBytes(this.#buf, this.#open, 0);
        if (at >= 0) {
          this.#buf = this.#buf.subarray(at + this.#open.length);
          break;
        }
        if (this.#buf.length > HEADER_BYTES_MAX || !(await this.#fill())) {
          throw new Error("malformed multipart body: no boundary");
        }
      }
      this.#started = true;
    }
    if (!(await this.#need(2))) throw new Error("malformed multipart body: truncated");
    if (this.#buf[0] === 45 && this.#buf[1] === 45) {
      this.#done = true;
      return undefined;
    }
    if (this.#buf[0] !== CRLF[0] || this.#buf[1] !== CRLF[1]) throw new Error("malformed multipart body");
    this.#buf = this.#buf.subarray(2);
    if ((await this.#need(2)) && this.#buf[0] === 13 && this.#buf[1] === 10) {
      this.#buf = this.#buf.subarray(2);
      this.#inPart = true;
      return { headers: new Map() };
    }
    for (;;) {
      const at = indexOfBytes(this.#buf, HEADERS_END, 0);
      if (at >= 0) {
        const headers = parseHeaders(decoder.decode(this.#buf.subarray(0, at)));
        this.#buf = this.#buf.subarray(at + 4);
        this.#inPart = true;
        return headers;
      }
      if (this.#buf.length > HEADER_BYTES_MAX || !(await this.#fill())) {
        throw new Error("malformed multipart body: headers");
      }
    }
  }

  /** The next chunk of the current part's data; undefined at its end. */
  async read(): Promise<Uint8Array | undefined> {
    if (!this.#inPart) return undefined;
    const d = this.#delimiter;
    for (;;) {
      const at = indexOfBytes(this.#buf, d, 0);
      if (at >= 0) {
        const chunk = this.#buf.subarray(0, at);
        this.#buf = this.#buf.subarray(at + d.length);
        this.#inPart = false;
        return chunk;
      }
      // Everything but a possible start of the delimiter can go out.
      const safe = this.#buf.length - (d.length - 1);
      if (safe > 65536) {
        const chunk = this.#buf.slice(0, safe);
        this.#buf = this.#buf.subarray(safe);
        return chunk;
      }
      if (!(await this.#fill())) throw new Error("malformed multipart body: truncated part");
    }
  }

  async skip(): Promise<void> {
    while ((await this.read()) !== undefined) { /* discard */ }
  }

  async cancel(): Promise<void> {
    await this.#reader.cancel().catch(() => {});
  }
}

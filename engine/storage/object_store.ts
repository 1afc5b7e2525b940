/**
 * A minimal S3 client for cold storage (docs/storage.md "Cold storage"): PUT, ranged GET,
 * HEAD, DELETE and ListObjectsV2 over `fetch`, signed with AWS Signature V4 through WebCrypto,
 * path-style (`<endpoint>/<bucket>/<key>`) so that any S3-compatible server works.
 *
 * Written here rather than taken from @aws-sdk/client-s3: five calls need ~150 lines, while the
 * SDK brings ~100 packages into the engine (the tests use the SDK to check what we stored).
 * The secret never leaves this object: errors and logs name the endpoint, bucket and key only.
 */
import { SqlError } from "../base/errors.ts";

/** Connection settings; structured-cloneable so a Worker opens the same store. */
export interface ObjectStoreConfig {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix every object of this root goes under (QuestDB's `root=`), without slashes at the ends. */
  root: string;
}

/**
 * Parses QuestDB's `cold.storage.object.store` value,
 * `s3::bucket=b;root=cold;region=us-east-1;endpoint=http://host:port;access_key_id=..;secret_access_key=..;`.
 * Credentials may instead come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (`env`).
 */
export function parseObjectStore(
  text: string,
  env: Record<string, string | undefined> = {},
): ObjectStoreConfig {
  const m = /^\s*([a-z0-9]+)::(.*)$/i.exec(text);
  if (!m || m[1].toLowerCase() !== "s3") {
    throw new Error("cold.storage.object.store: only 's3::key=value;...' stores are supported");
  }
  const kv = new Map<string, string>();
  for (const part of m[2].split(";")) {
    const at = part.indexOf("=");
    if (at > 0) kv.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  const bucket = kv.get("bucket");
  if (!bucket) throw new Error("cold.storage.object.store: 'bucket=' is required");
  const region = kv.get("region") ?? env.AWS_REGION ?? "us-east-1";
  const endpoint = (kv.get("endpoint") ?? `https://s3.${region}.amazonaws.com`).replace(/\/+$/, "");
  const accessKeyId = kv.get("access_key_id") ?? env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = kv.get("secret_access_key") ?? env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) {
    throw new Error(
      "cold.storage.object.store: credentials missing (access_key_id= and secret_access_key=, or AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY)",
    );
  }
  const root = (kv.get("root") ?? "").replace(/^\/+|\/+$/g, "");
  return { endpoint, bucket, region, accessKeyId, secretAccessKey, root };
}

const enc = new TextEncoder();

function hex(bytes: ArrayBuffer): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(data: Uint8Array): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
}

async function hmac(key: Uint8Array | ArrayBuffer, text: string): Promise<ArrayBuffer> {
  const k = await crypto.subtle.importKey(
    "raw",
    key as ArrayBuffer,
    { name: "HMAC", hash: "SHA-256" },
    false,
    [
      "sign",
    ],
  );
  return crypto.subtle.sign("HMAC", k, enc.encode(text));
}

/** RFC 3986 encoding of one path segment or query part, as SigV4 wants it. */
function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

export const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

export class ObjectStore {
  readonly config: ObjectStoreConfig;

  constructor(config: ObjectStoreConfig) {
    this.config = config;
  }

  /** The key of `path` (slash-separated, relative) under the configured root. */
  keyOf(path: string): string {
    return this.config.root ? `${this.config.root}/${path}` : path;
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    const res = await this.#send("PUT", key, {}, body);
    await this.#check(res, "write", key);
    await res.body?.cancel();
  }

  /** Bytes [start, end) of `key`. */
  async getRange(key: string, start: number, end: number): Promise<ArrayBuffer> {
    if (end <= start) return new ArrayBuffer(0);
    const res = await this.#send("GET", key, { range: `bytes=${start}-${end - 1}` });
    await this.#check(res, "read", key);
    const bytes = await res.arrayBuffer();
    if (bytes.byteLength !== end - start) {
      throw new SqlError(
        `could not read remote object: short read [key=${key}, expected=${
          end - start
        }, got=${bytes.byteLength}]`,
        -1,
        "io",
      );
    }
    return bytes;
  }

  /** The object's size, or undefined when there is none. */
  async size(key: string): Promise<number | undefined> {
    const res = await this.#send("HEAD", key, {});
    await res.body?.cancel();
    if (res.status === 404) return undefined;
    await this.#check(res, "read", key);
    return Number(res.headers.get("content-length"));
  }

  async delete(key: string): Promise<void> {
    const res = await this.#send("DELETE", key, {});
    if (res.status !== 404) await this.#check(res, "delete", key);
    await res.body?.cancel();
  }

  /** Every key under `prefix` (ListObjectsV2, following continuation tokens). */
  async list(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const query: Record<string, string> = { "list-type": "2", prefix };
      if (token) query["continuation-token"] = token;
      const res = await this.#send("GET", "", {}, undefined, query);
      await this.#check(res, "list", prefix);
      const xml = await res.text();
      for (const m of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) keys.push(unescapeXml(m[1]));
      token = /<IsTruncated>true<\/IsTruncated>/.test(xml)
        ? unescapeXml(/<NextContinuationToken>([^<]*)</.exec(xml)?.[1] ?? "")
        : undefined;
    } while (token);
    return keys;
  }

  async #check(res: Response, what: string, key: string): Promise<void> {
    if (res.ok) return;
    const text = await res.text().catch(() => "");
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
    throw new SqlError(
      `could not ${what} remote object [endpoint=${this.config.endpoint}, bucket=${this.config.bucket}, key=${key}, status=${res.status}${
        code ? `, code=${code}` : ""
      }]`,
      -1,
      "io",
    );
  }

  async #send(
    method: string,
    key: string,
    headers: Record<string, string>,
    body?: Uint8Array,
    query: Record<string, string> = {},
  ): Promise<Response> {
    const c = this.config;
    const url = new URL(c.endpoint);
    const basePath = url.pathname.replace(/\/+$/, "");
    const path = `${basePath}/${uriEncode(c.bucket)}${
      key ? "/" + key.split("/").map(uriEncode).join("/") : ""
    }`;
    const canonicalQuery = Object.keys(query).sort().map((k) => `${uriEncode(k)}=${uriEncode(query[k])}`)
      .join("&");
    const now = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
    const payloadHash = body ? await sha256(body) : EMPTY_SHA256;
    const signed: Record<string, string> = {
      host: url.host,
      "x-amz-content-sha256": payloadHash,
      "x-amz-date": now,
      ...headers,
    };
    const { host: _host, ...sent } = signed;
    sent.authorization = await signV4(c, method, path, canonicalQuery, signed, payloadHash, now);
    const target = `${url.origin}${path}${canonicalQuery ? "?" + canonicalQuery : ""}`;
    try {
      return await fetch(target, {
        method,
        headers: sent,
        body: body as Uint8Array<ArrayBuffer> | undefined,
      });
    } catch (e) {
      throw new SqlError(
        `could not reach object store [endpoint=${c.endpoint}, bucket=${c.bucket}, key=${
          key || query.prefix
        }]: ${(e as Error).message}`,
        -1,
        "io",
        { cause: e },
      );
    }
  }
}

/**
 * The Authorization header of AWS Signature V4 for S3: `path` and `query` already
 * URI-encoded, `headers` (lower-case names) all signed, `amzDate` as `20130524T000000Z`.
 */
export async function signV4(
  c: Pick<ObjectStoreConfig, "region" | "accessKeyId" | "secretAccessKey">,
  method: string,
  path: string,
  query: string,
  headers: Record<string, string>,
  payloadHash: string,
  amzDate: string,
): Promise<string> {
  const names = Object.keys(headers).sort();
  const canonicalRequest = [
    method,
    path,
    query,
    names.map((n) => `${n}:${headers[n].trim()}\n`).join(""),
    names.join(";"),
    payloadHash,
  ].join("\n");
  const date = amzDate.slice(0, 8);
  const scope = `${date}/${c.region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, await sha256(enc.encode(canonicalRequest))].join("\n");
  let k = await hmac(enc.encode("AWS4" + c.secretAccessKey), date);
  k = await hmac(k, c.region);
  k = await hmac(k, "s3");
  k = await hmac(k, "aws4_request");
  const signature = hex(await hmac(k, toSign));
  return `AWS4-HMAC-SHA256 Credential=${c.accessKeyId}/${scope}, SignedHeaders=${
    names.join(";")
  }, Signature=${signature}`;
}

function unescapeXml(s: string): string {
  return s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/**
 * SCRAM-SHA-256 authentication as PostgreSQL runs it (issue 10; RFC 5802/7677 inside
 * AuthenticationSASL 10, SASLInitialResponse, AuthenticationSASLContinue 11, SASLResponse,
 * AuthenticationSASLFinal 12). Only SCRAM-SHA-256 is offered, not the channel-binding
 * -PLUS variant. The password never crosses the wire and the server keeps only a verifier
 * (server/scram.ts). An unknown user gets a mock exchange that fails at the proof, as in
 * PostgreSQL, so the answer does not tell whether the user exists.
 */
import { checkScramProof, fromBase64, mockScramVerifier, type ScramVerifier, toBase64 } from "../scram.ts";
import { BufferReader, ProtocolError } from "./buffer_reader.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import type { MessageStream } from "./message_stream.ts";

export const SCRAM_MECHANISM = "SCRAM-SHA-256";

/** Where the exchange finds a user's verifier. */
export interface ScramSource {
  /** The user's verifier; undefined for an unknown user or one without a SCRAM verifier. */
  verifier(user: string): ScramVerifier | undefined | Promise<ScramVerifier | undefined>;
}

/** Keys the mock salts of unknown users; fixed for the life of the process. */
const MOCK_SECRET = crypto.getRandomValues(new Uint8Array(32));

const dec = new TextDecoder();
const enc = new TextEncoder();

/** The body of a SASL message from the client ('p'), or null when the peer left. */
async function readSasl(stream: MessageStream): Promise<Uint8Array | null> {
  const msg = await stream.readMessage();
  if (!msg) return null;
  if (msg.code !== 0x70) {
    throw new ProtocolError(`expected SASL response [type=${String.fromCharCode(msg.code)}]`);
  }
  return msg.body;
}

/** `k=v` attributes of a SCRAM message, in order. */
function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(",")) {
    if (part.length < 2 || part[1] !== "=") throw new ProtocolError("malformed SCRAM message");
    out.set(part[0], part.slice(2));
  }
  return out;
}

/**
 * Runs the exchange for `user` (the startup user: PostgreSQL ignores the SCRAM `n=`).
 * Returns true when the client proved the password, false when it did not, null when the
 * peer left. Malformed messages are protocol errors.
 */
export async function scramExchange(
  stream: MessageStream,
  out: BufferWriter,
  flush: () => Promise<void>,
  user: string,
  source: ScramSource,
): Promise<boolean | null> {
  out.begin("R").int32(10).cstring(SCRAM_MECHANISM).byte(0).end();
  await flush();

  const initial = await readSasl(stream);
  if (!initial) return null;
  const r = new BufferReader(initial);
  const mechanism = r.cstring();
  if (mechanism !== SCRAM_MECHANISM) {
    throw new ProtocolError(`unsupported SASL mechanism [mechanism=${mechanism}]`);
  }
  const length = r.int32();
  if (length < 0 || length > r.remaining) throw new ProtocolError("malformed SASLInitialResponse");
  const clientFirst = dec.decode(r.bytes(length));

  // gs2 header: `n` (no channel binding), `y` (client could, server did not offer), or `p=`
  // (binding demanded, which was not offered); then an optional authzid.
  const headerEnd = clientFirst.indexOf(",", clientFirst.indexOf(",") + 1);
  if (headerEnd < 0) throw new ProtocolError("malformed SCRAM client-first-message");
  const gs2Header = clientFirst.slice(0, headerEnd + 1);
  if (gs2Header[0] !== "n" && gs2Header[0] !== "y") {
    throw new ProtocolError("SCRAM channel binding is not supported (use SCRAM-SHA-256, not -PLUS)");
  }
  const clientFirstBare = clientFirst.slice(headerEnd + 1);
  const clientNonce = attributes(clientFirstBare).get("r");
  if (!clientNonce || !/^[\x21-\x2b\x2d-\x7e]+$/.test(clientNonce)) {
    throw new ProtocolError("malformed SCRAM client nonce");
  }

  const verifier = (await source.verifier(user)) ?? (await mockScramVerifier(MOCK_SECRET, user));
  const nonce = clientNonce + toBase64(crypto.getRandomValues(new Uint8Array(18)));
  const serverFirst = `r=${nonce},s=${verifier.salt},i=${verifier.iterations}`;
  out.begin("R").int32(11).bytes(enc.encode(serverFirst)).end();
  await flush();

  const final = await readSasl(stream);
  if (!final) return null;
  const clientFinal = dec.decode(final);
  const proofAt = clientFinal.lastIndexOf(",p=");
  if (proofAt < 0) throw new ProtocolError("malformed SCRAM client-final-message");
  const withoutProof = clientFinal.slice(0, proofAt);
  const attrs = attributes(withoutProof);
  if (attrs.get("c") !== toBase64(enc.encode(gs2Header)) || attrs.get("r") !== nonce) return false;
  let proof: Uint8Array;
  try {
    proof = fromBase64(clientFinal.slice(proofAt + 3));
  } catch {
    throw new ProtocolError("malformed SCRAM proof");
  }
  const authMessage = `${clientFirstBare},${serverFirst},${withoutProof}`;
  const serverSignature = await checkScramProof(verifier, authMessage, proof);
  if (!serverSignature) return false;
  out.begin("R").int32(12).bytes(enc.encode(`v=${toBase64(serverSignature)}`)).end();
  return true;
}

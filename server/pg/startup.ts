/**
 * The start of a connection (spec/protocols.md §12.1, §12.2): SSLRequest answered `S` and
 * TLS started when the listener has a certificate (pg.tls.enabled), else `N`; GSSENCRequest
 * `N`; CancelRequest handed to the registry; StartupMessage v3 followed by cleartext password
 * authentication, or SCRAM-SHA-256 with pg.auth.method=scram (scram.ts); then the
 * ParameterStatus set, BackendKeyData and ReadyForQuery.
 */
import type { Principal } from "../../engine/mod.ts";
import * as M from "./backend_messages.ts";
import { ProtocolError } from "./buffer_reader.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import type { CancelRegistry } from "./cancel_registry.ts";
import { parseMessage, parseStartPacket } from "./frontend_messages.ts";
import type { MessageStream } from "./message_stream.ts";
import { SQLSTATE } from "./sqlstate.ts";
import { parseStartupOptions } from "./statement_timeout.ts";
import { scramExchange, type ScramSource } from "./scram.ts";

/**
 * Checks a user and password; returns the principal, undefined for bad credentials, or a
 * refusal with its reason (disabled user, no PGWIRE permission: security.md §5.2).
 */
export type Authenticator = (
  user: string,
  password: string,
) => AuthResult | Promise<AuthResult>;

export type AuthResult = Principal | undefined | { refused: string };

/**
 * SCRAM-SHA-256 instead of the cleartext password (pg.auth.method=scram): the user's
 * verifier, then the principal of a user who proved the password (or a refusal).
 */
export interface ScramAuthenticator extends ScramSource {
  principal(user: string): AuthResult | Promise<AuthResult>;
}

export interface Startup {
  principal: Principal;
  /** Startup parameters (user, database, application_name, options, ...), lower-case keys. */
  params: Map<string, string>;
}

/** At most this many SSL/GSS refusals before the real start packet. */
const NEGOTIATIONS_MAX = 4;

/**
 * Runs the handshake; returns the authenticated start, or null when the connection must
 * close (cancel request, unknown start code, failed authentication, peer gone).
 */
export async function handshake(
  stream: MessageStream,
  out: BufferWriter,
  flush: () => Promise<void>,
  options: {
    authenticate: Authenticator;
    cancels: CancelRegistry;
    startTls?: () => Promise<void>;
    scram?: ScramAuthenticator;
    /** The StartupMessage arrived: the client behaves like a real one (pending_connections.ts). */
    started?: () => void;
  },
): Promise<Startup | null> {
  let secured = false;
  for (let i = 0; i < NEGOTIATIONS_MAX; i++) {
    const body = await stream.readStartPacket();
    if (!body) return null;
    const packet = parseStartPacket(body);
    switch (packet.kind) {
      case "ssl":
        if (options.startTls && !secured) {
          // Bytes after the SSLRequest and before the handshake would be taken as if they had
          // come encrypted (CVE-2021-23214): refuse them.
          if (stream.hasBuffered) throw new ProtocolError("unexpected data after SSLRequest");
          out.byte(0x53); // 'S': the client starts the TLS handshake next
          await flush();
          await options.startTls();
          secured = true;
          continue;
        }
        out.byte(0x4e); // 'N': no encryption; the client goes on in plain text
        await flush();
        continue;
      case "gssenc":
        out.byte(0x4e);
        await flush();
        continue;
      case "cancel":
        options.cancels.cancel(packet.processId, packet.secretKey);
        return null;
      case "unknown":
        return null;
      case "startup":
        options.started?.();
        return await authenticate(stream, out, flush, options, packet.params);
    }
  }
  throw new ProtocolError("too many encryption requests");
}

async function authenticate(
  stream: MessageStream,
  out: BufferWriter,
  flush: () => Promise<void>,
  auth: { authenticate: Authenticator; scram?: ScramAuthenticator },
  raw: Map<string, string>,
): Promise<Startup | null> {
  const params = new Map([...raw].map(([k, v]) => [k.toLowerCase(), v]));
  // `options=-c statement_timeout=500` (PGOPTIONS): each `-c name=value` acts like a SET.
  for (const [k, v] of parseStartupOptions(params.get("options") ?? "")) params.set(k, v);
  const user = params.get("user") ?? "";
  let result: AuthResult;
  if (auth.scram) {
    const proven = await scramExchange(stream, out, flush, user, auth.scram);
    if (proven === null) return null;
    result = proven ? await auth.scram.principal(user) : undefined;
  } else {
    M.authenticationCleartextPassword(out);
    await flush();
    const msg = await stream.readMessage();
    if (!msg) return null;
    if (msg.code !== 0x70) {
      throw new ProtocolError(`expected password message [type=${String.fromCharCode(msg.code)}]`);
    }
    const password = parseMessage(msg.code, msg.body);
    result = password.kind === "password" ? await auth.authenticate(user, password.password) : undefined;
  }
  if (result && "refused" in result) {
    M.errorResponse(out, {
      severity: "ERROR",
      code: SQLSTATE.INSUFFICIENT_PRIVILEGE,
      message: result.refused,
    });
    await flush();
    return null;
  }
  const principal = result;
  if (!principal) {
    // QuestDB's message text (§12.2) with the SQLSTATE drivers map to "bad credentials".
    M.errorResponse(out, {
      severity: "ERROR",
      code: SQLSTATE.INVALID_PASSWORD,
      message: "invalid username/password",
    });
    await flush();
    return null;
  }
  return { principal, params };
}

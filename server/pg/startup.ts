/**
 * The start of a connection (spec/protocols.md §12.1, §12.2): SSLRequest and GSSENCRequest
 * answered `N`, CancelRequest handed to the registry, StartupMessage v3 followed by cleartext
 * password authentication, then the ParameterStatus set, BackendKeyData and ReadyForQuery.
 */
import type { Principal } from "../../engine/mod.ts";
import * as M from "./backend_messages.ts";
import { ProtocolError } from "./buffer_reader.ts";
import type { BufferWriter } from "./buffer_writer.ts";
import type { CancelRegistry } from "./cancel_registry.ts";
import { parseMessage, parseStartPacket } from "./frontend_messages.ts";
import type { MessageStream } from "./message_stream.ts";
import { SQLSTATE } from "./sqlstate.ts";

/**
 * Checks a user and password; returns the principal, undefined for bad credentials, or a
 * refusal with its reason (disabled user, no PGWIRE permission: security.md §5.2).
 */
export type Authenticator = (
  user: string,
  password: string,
) => Principal | undefined | { refused: string } | Promise<Principal | undefined | { refused: string }>;

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
  options: { authenticate: Authenticator; cancels: CancelRegistry },
): Promise<Startup | null> {
  for (let i = 0; i < NEGOTIATIONS_MAX; i++) {
    const body = await stream.readStartPacket();
    if (!body) return null;
    const packet = parseStartPacket(body);
    switch (packet.kind) {
      case "ssl":
      case "gssenc":
        out.byte(0x4e); // 'N': no encryption; the client goes on in plain text
        await flush();
        continue;
      case "cancel":
        options.cancels.cancel(packet.processId, packet.secretKey);
        return null;
      case "unknown":
        return null;
      case "startup":
        return await authenticate(stream, out, flush, options.authenticate, packet.params);
    }
  }
  throw new ProtocolError("too many encryption requests");
}

async function authenticate(
  stream: MessageStream,
  out: BufferWriter,
  flush: () => Promise<void>,
  check: Authenticator,
  raw: Map<string, string>,
): Promise<Startup | null> {
  const params = new Map([...raw].map(([k, v]) => [k.toLowerCase(), v]));
  M.authenticationCleartextPassword(out);
  await flush();
  const msg = await stream.readMessage();
  if (!msg) return null;
  if (msg.code !== 0x70) throw new ProtocolError(`expected password message [type=${String.fromCharCode(msg.code)}]`);
  const password = parseMessage(msg.code, msg.body);
  const result = password.kind === "password" ? await check(params.get("user") ?? "", password.password) : undefined;
  if (result && "refused" in result) {
    M.errorResponse(out, { severity: "ERROR", code: SQLSTATE.INSUFFICIENT_PRIVILEGE, message: result.refused });
    await flush();
    return null;
  }
  const principal = result;
  if (!principal) {
    // QuestDB's message text (§12.2) with the SQLSTATE drivers map to "bad credentials".
    M.errorResponse(out, { severity: "ERROR", code: SQLSTATE.INVALID_PASSWORD, message: "invalid username/password" });
    await flush();
    return null;
  }
  return { principal, params };
}

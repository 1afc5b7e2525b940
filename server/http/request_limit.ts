/**
 * `http.net.connection.limit` (spec/protocols.md §13, default 64). Deno.serve does not expose
 * its connections, so the limit counts requests being handled at once (idle keep-alive
 * connections cost nothing): one over the limit gets 503 at once instead of queueing without
 * bound, and the client may retry.
 *
 * A request whose body is still arriving gives its slot back while it waits (issue 24: slow
 * bodies must not fill the limit): read_body.ts moves it into the pending set of
 * `http.request.body.*` (server/pending_connections.ts: deadline, per-address and total caps)
 * and takes a slot again once the body is in.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { PendingConnections, PendingTicket } from "../pending_connections.ts";

/** A request's way out of its slot while its body arrives (read_body.ts). */
export interface BodyPhase {
  /** Leaves the slot; `drop` aborts the read when the deadline passes or a newer body evicts it. */
  begin(drop: () => void): void;
  /** Takes a slot back; false when the limit filled up meanwhile (the request gets 503). */
  end(): boolean;
}

const phases = new WeakMap<Request, BodyPhase>();

/** The body phase of a request that passed the limit, if any. */
export function bodyPhaseOf(req: Request): BodyPhase | undefined {
  return phases.get(req);
}

/** The 503 of a full limit, also sent when a request cannot get its slot back after its body. */
export function busyResponse(limit: number): Response {
  return new Response(
    JSON.stringify({ error: `server is busy: too many concurrent requests [limit=${limit}]` }),
    { status: 503, headers: { "content-type": "application/json; charset=utf-8", "Retry-After": "1" } },
  );
}

/** The client address Deno.serve hands the app as `env` (ServeHandlerInfo). */
function clientAddress(c: Context): string {
  const info = c.env as { remoteAddr?: Deno.NetAddr } | undefined;
  return info?.remoteAddr?.hostname ?? "";
}

export function requestLimit(limit: number, pendingBodies?: PendingConnections): MiddlewareHandler {
  let inFlight = 0;
  return async (c, next) => {
    if (inFlight >= limit) return busyResponse(limit);
    inFlight++;
    let holding = true;
    let ticket: PendingTicket | undefined;
    if (pendingBodies) {
      phases.set(c.req.raw, {
        begin(drop) {
          if (!holding || ticket) return;
          holding = false;
          inFlight--;
          ticket = pendingBodies.admit(clientAddress(c), drop);
        },
        end() {
          ticket?.done();
          ticket = undefined;
          if (holding) return true;
          if (inFlight >= limit) return false;
          inFlight++;
          holding = true;
          return true;
        },
      });
    }
    try {
      await next();
    } finally {
      ticket?.done();
      if (holding) inFlight--;
    }
    return undefined;
  };
}

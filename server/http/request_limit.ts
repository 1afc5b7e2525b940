/**
 * `http.net.connection.limit` (spec/protocols.md §13, default 64). Deno.serve does not expose
 * its connections, so the limit counts requests being handled at once (idle keep-alive
 * connections cost nothing): one over the limit gets 503 at once instead of queueing without
 * bound, and the client may retry.
 */
import type { MiddlewareHandler } from "hono";

export function requestLimit(limit: number): MiddlewareHandler {
  let inFlight = 0;
  return async (c, next) => {
    if (inFlight >= limit) {
      return c.body(
        JSON.stringify({ error: `server is busy: too many concurrent requests [limit=${limit}]` }),
        503,
        {
          "content-type": "application/json; charset=utf-8",
          "Retry-After": "1",
        },
      );
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
    return undefined;
  };
}

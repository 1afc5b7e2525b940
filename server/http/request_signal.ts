/**
 * The cancellation signal of an /exec statement without reading `request.signal` up front:
 * once a request's signal has been read, Deno aborts it with a new DOMException (and its stack)
 * when the response ends — ~25 µs of a ~300 µs `SELECT 1` (issue #17). The statement gets a
 * signal of its own that starts following the request's only when the handler is still busy
 * after `linkMs`, which is when a client going away is worth noticing; a streamed answer's
 * disconnect reaches the query through the stream's cancel() (exec_handler.ts) anyway.
 */

/** How long a request runs before its disconnect is watched. */
const LINK_MS = 2;

export interface DeferredSignal {
  signal: AbortSignal;
  /** The handler answered: stop waiting to link (the stream's cancel() takes over). */
  done(): void;
}

export function deferredSignal(request: Request, linkMs = LINK_MS): DeferredSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    const outer = request.signal;
    if (outer.aborted) controller.abort(outer.reason);
    else outer.addEventListener("abort", () => controller.abort(outer.reason), { once: true });
  }, linkMs);
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}

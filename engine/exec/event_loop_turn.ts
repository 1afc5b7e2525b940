/**
 * Giving the event loop a turn while a long statement runs or streams (issue #17 "No query
 * blocks another"). Shared by the engine's pace() and by the consumers that encode rows for
 * a client (pgwire DataRows, /exec JSON, /exp CSV), which hold the loop as long as the
 * engine does: one slice counts the time since the last turn anyone took, not per statement.
 */
import { statementsRunning } from "./statements_running.ts";

/**
 * How long a pipeline may hold the event loop before it gives other clients a turn. A turn
 * costs ~2 ms of idle time here: every 8 ms took a fifth of a long query's time, while longer
 * slices let concurrent clients wait (a 40 ms slice tripled short requests' latency in the
 * soak). So 8 ms while other statements run, 25 ms for a statement alone (a request arriving
 * then waits at most one such slice for its first turn; at 40 ms a `SELECT 1` beside a long
 * query took 35-75 ms, at 25 ms 10-30 ms: issue #24 asks for 50 ms). A statement still waiting
 * in another socket's buffer is not counted yet: that is why the slice alone is short too.
 */
export const YIELD_EVERY_MS = 8;
export const YIELD_ALONE_MS = 25;

/** performance.now() when the last turn ended (0: none yet). */
const lastTurn = { at: 0 };

/**
 * Whether the loop has been held for a slice: since the last turn, or since `since` (when the
 * caller started running) if that is later — an idle server took no turns, and a statement
 * that just started must not pay a turn before its first row.
 */
export function turnDue(since: number, now = performance.now()): boolean {
  const held = now - Math.max(lastTurn.at, since);
  return held >= (statementsRunning.count > 1 ? YIELD_EVERY_MS : YIELD_ALONE_MS);
}

/**
 * `since` for work that runs inside a statement's slice (a column decoded or loaded on a scan's
 * first read): the slice counts from the last turn anyone took. Its own start would give it a
 * fresh slice on top of what the pipeline already held (a first Parquet read held the loop
 * ~25 ms longer than a slice that way).
 */
export const SINCE_LAST_TURN = 0;

/**
 * A timer turn: Deno polls the sockets before it runs an expired timer when nothing else
 * woke it. Not setImmediate or a MessageChannel message: in Deno those run again before
 * sockets are polled, and a client waited ~1 s behind a long query with them.
 *
 * `turns` = 2 where an HTTP response streams: one setTimeout(0) turn then did not let another
 * socket's read through (measured: a `SELECT 1` over pgwire waited 380-550 ms beside a
 * streaming /exec although a timer fired every ~30 ms; with two turns 7-30 ms; a single 1 ms
 * timer did not help, a 4 ms one did). Our reading: Deno runs an expired timer whenever the
 * runtime is polled, and the response body's stream keeps waking it, so the runtime need not
 * wait on (poll) the sockets in between; by the second turn the stream has gone quiet. A turn
 * idles ~1-2 ms (the timer's resolution). pgwire's DataRow stream takes two as well since its
 * encoding got faster (one let an HTTP request wait up to 1.7 s; two cost no measurable speed).
 */
export async function takeTurn(turns = 1): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  lastTurn.at = performance.now();
}

/**
 * For a loop that encodes rows for a client: takes a turn when the slice is used up. Returns
 * the time to pass as `since` next (now, after a turn; unchanged otherwise).
 */
export async function yieldIfDue(since: number, turns = 1): Promise<number> {
  if (!turnDue(since)) return since;
  await takeTurn(turns);
  return lastTurn.at;
}

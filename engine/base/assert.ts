/** Assertions for our own bugs; nothing a user sends may trigger one (STYLE.md §4). */
import { SqlError } from "./errors.ts";

export function assert(condition: unknown, message = "assertion failed"): asserts condition {
  if (!condition) throw new SqlError(message, -1, "internal");
}

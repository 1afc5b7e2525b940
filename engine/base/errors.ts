/**
 * The one error class of the engine (ARCHITECTURE.md "The engine interface").
 *
 * `position` is a 0-based UTF-16 offset into the submitted SQL text, or -1 when there is none.
 * Listeners turn it into their own form (REST as is, pgwire plus one).
 */

/** `transaction`: a transaction-state error (failed block, unknown savepoint, savepoint outside a block). */
export type ErrorKind =
  | "syntax"
  | "semantic"
  | "permission"
  | "limit"
  | "internal"
  | "cancelled"
  | "io"
  | "transaction";

export class SqlError extends Error {
  readonly position: number;
  readonly kind: ErrorKind;

  constructor(message: string, position = -1, kind: ErrorKind = "semantic", options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SqlError";
    this.position = position;
    this.kind = kind;
  }
}

export function syntaxError(message: string, position: number): SqlError {
  return new SqlError(message, position, "syntax");
}

export function semanticError(message: string, position: number): SqlError {
  return new SqlError(message, position, "semantic");
}

/** Wraps anything thrown that is not already a SqlError as an internal error. */
export function asSqlError(e: unknown): SqlError {
  if (e instanceof SqlError) return e;
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return new SqlError("expression too deeply nested", -1, "limit", { cause: e });
  }
  const message = e instanceof Error ? e.message : String(e);
  return new SqlError(message || "internal error", -1, "internal", { cause: e });
}

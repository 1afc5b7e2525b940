/**
 * QuestDB's base64(binary, maxLength) and from_base64(text), and wait_wal_table(name):
 * writes here are applied before the statement that made them returns, so there is never a
 * WAL backlog to wait for and it answers true at once.
 */
import { SqlError } from "../base/errors.ts";
import { T } from "../base/types.ts";
import { isTextArg, noMatch, scalar, toIntArg } from "./_util.ts";
import type { ScalarFunction } from "./registry_types.ts";

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array | null {
  let raw: string;
  try {
    raw = atob(text);
  } catch {
    return null;
  }
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

export const ENCODING_FUNCTIONS: ScalarFunction[] = [
  scalar("base64", (args) => {
    const [b] = args;
    if (args.length !== 2 || !(b.type.tag === "BINARY" || b.type.tag === "NULL")) {
      return noMatch("base64", args);
    }
    // a constant length below 1 is refused at bind, at the length (Base64FunctionFactoryTest#testInvalidLength)
    const maxLen = args[1];
    const constLen = maxLen.constant ? toIntArg(maxLen.value ?? null) : null;
    if (constLen !== null && constLen < 1) {
      throw new SqlError("maxLength has to be greater than 0", maxLen.pos);
    }
    return {
      returns: T.STRING,
      argTypes: [T.BINARY, T.INT],
      eval: ([v, max]) => {
        if (!(v instanceof Uint8Array)) return null;
        const limit = toIntArg(max);
        return toBase64(limit === null || limit < 0 ? v : v.subarray(0, limit));
      },
    };
  }),
  scalar("from_base64", (args) => {
    if (args.length !== 1 || !isTextArg(args[0].type)) return noMatch("from_base64", args);
    return {
      returns: T.BINARY,
      argTypes: [T.STRING],
      eval: ([v]) => (typeof v === "string" ? fromBase64(v) : null),
    };
  }),
  scalar("wait_wal_table", (args) => {
    if (args.length !== 1 || !isTextArg(args[0].type)) return noMatch("wait_wal_table", args);
    return {
      returns: T.BOOLEAN,
      deterministic: false,
      eval: ([name], ctx) => {
        if (typeof name === "string" && ctx.tableExists && !ctx.tableExists(name)) {
          throw new SqlError(`table does not exist [table=${name}]`);
        }
        return true;
      },
    };
  }),
];

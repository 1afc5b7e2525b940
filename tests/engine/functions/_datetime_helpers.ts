/**
 * Helpers for the date/time function tests: look a function up in DATETIME_FUNCTIONS and call it
 * with literal arguments the way the binder would (casts from `argTypes` included).
 */
import { T } from "../../../engine/base/types.ts";
import type { Value } from "../../../engine/base/values.ts";
import { DATETIME_FUNCTIONS } from "../../../engine/functions/datetime.ts";
import { formatTicks } from "../../../engine/functions/format_value.ts";
import type { BoundArg, ScalarFunction } from "../../../engine/functions/registry_types.ts";
import { parseTimestamp } from "../../../engine/functions/timestamp_parse.ts";
import { c, call, find } from "./_helpers.ts";

/** The date/time function named `name`. */
export const fn = (name: string): ScalarFunction => find(DATETIME_FUNCTIONS, name);
/** A text constant: one character is a CHAR literal (§1.3), longer text a STRING. */
export const s = (text: string): BoundArg => (text.length === 1 ? c(T.CHAR, text) : c(T.STRING, text));
/** A TIMESTAMP constant from ISO text. */
export const ts = (iso: string): BoundArg => c(T.TIMESTAMP, parseTimestamp(iso, "us")!);
/** TIMESTAMP text of a microsecond value, or null. */
export const tsText = (v: Value): string | null => (v === null ? null : formatTicks(v as bigint, "us"));
/** Calls a date/time function with constant arguments. */
export const sql = (name: string, ...args: BoundArg[]): Value => call(fn(name), args);
/** Calls a date/time function and renders its TIMESTAMP result. */
export const sqlTs = (name: string, ...args: BoundArg[]): string | null => tsText(sql(name, ...args));

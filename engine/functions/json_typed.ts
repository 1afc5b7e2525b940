/**
 * The types `json_extract(doc, path)::type` converts itself (json.md; QuestDB's
 * JsonExtractTypedFunctionFactory.isIntrusivelyOptimized); others go through VARCHAR. A module
 * of its own so that result naming (plan/column_names.ts) reads it without loading the functions.
 */
import type { TypeTag } from "../base/types.ts";

export const JSON_TYPED: ReadonlySet<TypeTag> = new Set<TypeTag>([
  "BOOLEAN",
  "SHORT",
  "INT",
  "LONG",
  "FLOAT",
  "DOUBLE",
  "DATE",
  "TIMESTAMP",
  "IPV4",
]);

/**
 * @module
 * InfluxDB line protocol, the wire format both ILP listeners read (spec/protocols.md §10):
 * the byte-level parser into per-table `IngestBlock`s, whole-body parsing for ILP over HTTP
 * and its worker pool for large bodies, and the `line.*` settings that shape the engine's
 * ingest door. Shared by server/http (/write) and server/ilp (TCP 9009) so that neither
 * listener imports the other (STYLE.md §1); the rows go to the engine through `Engine.ingest`.
 */
export { type LineError, LineParser, type Precision, precisionOf } from "./line_parser.ts";
export { parseBody, type ParsedBody } from "./parse_body.ts";
export { ParsePool } from "./parse_pool.ts";
export { ingestorOptions } from "./ilp_config.ts";

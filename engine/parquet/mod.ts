/** Parquet reading and writing (docs/parquet.md). */
export { parseCodec } from "./codecs.ts";
export {
  PARQUET_EXPORT_DEFAULTS,
  type ParquetColumn,
  ParquetResultWriter,
  type ParquetWriteOptions,
} from "./writer.ts";
export { type EncodedBytes, ParquetEncoderThread } from "./encoder_thread.ts";

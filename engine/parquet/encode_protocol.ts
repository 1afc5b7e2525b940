/**
 * Messages between a Parquet export and its encoder worker (encoder_thread.ts,
 * encode_worker.ts): plain, structured-cloneable data; column arrays and file bytes travel as
 * transferred buffers.
 */
import type { WireBatch } from "../parallel/batch_wire.ts";
import type { ParquetColumn, ParquetWriteOptions } from "./writer.ts";

export type EncodeRequest =
  /** First message: the file's columns and options. */
  | { kind: "open"; columns: ParquetColumn[]; timestampIndex: number; options: ParquetWriteOptions }
  /**
   * Rows [from, to) of a batch; answered by one `bytes` (empty until a row group fills). A
   * `quiet` one (answered already, while it was held) is not: its bytes go with the next reply.
   */
  | { kind: "add"; batch: WireBatch; from: number; to: number; quiet?: boolean }
  /** The last row group and the footer; answered by `end`. */
  | { kind: "finish" };

export type EncodeReply =
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "end"; bytes: Uint8Array; written: number }
  | { kind: "error"; message: string; position?: number };

/** The ILP settings of server.conf that shape the Ingestor (spec/protocols.md §13, `line.*`). */
import type { IngestorOptions } from "../../engine/mod.ts";
import type { Config } from "../config.ts";

type PartitionUnit = "NONE" | "HOUR" | "DAY" | "WEEK" | "MONTH" | "YEAR";
const UNITS = new Set(["NONE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"]);

/** `line.default.partition.by` (DAY), `line.auto.create.new.tables` / `.columns` (true). */
export function ingestorOptions(config: Config): IngestorOptions {
  const unit = (config.get("line.default.partition.by") ?? "DAY").toUpperCase();
  return {
    partitionBy: (UNITS.has(unit) ? unit : "DAY") as PartitionUnit,
    autoCreateTables: config.get("line.auto.create.new.tables")?.toLowerCase() !== "false",
    autoCreateColumns: config.get("line.auto.create.new.columns")?.toLowerCase() !== "false",
  };
}

/** Shapes of the server's REST replies (spec/protocols.md §2), as the console reads them. */

export interface Column {
  name: string;
  /** The server's type name; `ARRAY` for arrays, whose shape is in `dim` and `elemType`. */
  type: string;
  dim?: number;
  elemType?: string;
}

export type Cell = string | number | boolean | null | unknown[];
export type Row = Cell[];

export interface Timings {
  authentication?: number;
  compiler?: number;
  execute?: number;
  count?: number;
  /** Wall time of the fetch as the browser saw it, in nanoseconds (added by the client). */
  fetch: number;
}

/** What one /exec call came back as. */
export type ExecOutcome =
  | {
    kind: "rows";
    query: string;
    columns: Column[];
    timestampIndex: number;
    rows: Row[];
    count: number;
    timings: Timings;
  }
  | { kind: "ddl"; query: string; timings: Timings }
  | { kind: "dml"; query: string; updated?: number; timings: Timings }
  | { kind: "notice"; query: string; notice: string; timings: Timings }
  | { kind: "error"; query: string; error: string; position: number; status: number; timings: Timings }
  | { kind: "cancelled"; query: string; timings: Timings };

export interface ServerSettings {
  config: Record<string, unknown>;
  preferences: Record<string, unknown>;
}

/**
 * The CSV import calls (spec/console.md §2.10): `chk` tells whether a table name is taken, and
 * `imp` takes the file as multipart `data`. The upload uses XMLHttpRequest rather than fetch
 * because only XHR reports upload progress. Both carry the current Authorization header.
 */
import { authHeader } from "../auth/auth_state.ts";

export type TableStatus = "Exists" | "Does not exist" | "Reserved name";

export async function checkTable(name: string): Promise<TableStatus | null> {
  const auth = authHeader();
  const res = await fetch(`chk?${new URLSearchParams({ f: "json", j: name, version: "2" })}`, {
    headers: auth ? { Authorization: auth } : {},
  });
  if (!res.ok) return null;
  const data = await res.json().catch(() => ({}));
  return typeof data.status === "string" ? data.status as TableStatus : null;
}

export interface ImportOptions {
  name: string;
  overwrite: boolean;
  /** NONE, HOUR, DAY, WEEK, MONTH or YEAR; needs a designated timestamp unless NONE. */
  partitionBy: string;
  /** The designated timestamp column, or "" for none. */
  timestamp: string;
  forceHeader: boolean;
  atomicity: "skipCol" | "skipRow" | "abort";
}

export interface ImportColumn {
  name: string;
  type: string;
  size?: number;
  errors: number;
}

/** A line the server did not import, and why (the first lines only; `rowsRejected` counts all). */
export interface RejectedLine {
  line: number;
  error: string;
}

export interface ImportResult {
  status: string;
  location: string;
  rowsImported: number;
  rowsRejected: number;
  rejectedLines: RejectedLine[];
  header: boolean;
  columns: ImportColumn[];
}

export function importUrl(o: ImportOptions): string {
  const p = new URLSearchParams({
    fmt: "json",
    name: o.name,
    overwrite: String(o.overwrite),
    forceHeader: String(o.forceHeader),
    atomicity: o.atomicity,
  });
  if (o.partitionBy && o.partitionBy !== "NONE") p.set("partitionBy", o.partitionBy);
  if (o.timestamp) p.set("timestamp", o.timestamp);
  return `imp?${p}`;
}

/** Uploads one file; resolves with the server's summary, rejects with its error message. */
export function uploadCsv(
  file: File,
  opts: ImportOptions,
  onProgress: (fraction: number) => void,
): Promise<ImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", importUrl(opts));
    const auth = authHeader();
    if (auth) xhr.setRequestHeader("Authorization", auth);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new Error("the server is not reachable"));
    xhr.onload = () => {
      // deno-lint-ignore no-explicit-any
      let data: any = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch { /* a text body */ }
      if (xhr.status !== 200 || !data || (data.status && data.status !== "OK") || data.error) {
        reject(
          new Error(data?.error ?? data?.status ?? (xhr.responseText || `server answered ${xhr.status}`)),
        );
        return;
      }
      resolve({
        status: String(data.status ?? "OK"),
        location: String(data.location ?? opts.name),
        rowsImported: Number(data.rowsImported ?? 0),
        rowsRejected: Number(data.rowsRejected ?? 0),
        rejectedLines: Array.isArray(data.rejectedLines) ? data.rejectedLines : [],
        header: data.header === true,
        columns: Array.isArray(data.columns) ? data.columns : [],
      });
    };
    const form = new FormData();
    form.append("data", file, file.name);
    xhr.send(form);
  });
}

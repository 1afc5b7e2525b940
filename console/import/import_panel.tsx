/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The CSV import panel (spec/console.md §2.10): files come by drag and drop, paste or Browse;
 * each becomes a row with its table name (checked with `chk`, so an existing table shows as
 * such), Append/Overwrite, partitioning and designated timestamp, then Upload (`imp`, with
 * progress), the result with per-column details, and View data. Test hooks: `import-panel`,
 * `import-dropzone`, `import-file-input`, `import-file-row` (`data-status`, `data-exists`,
 * `data-file`), `import-table-name`, `import-write-mode`, `import-partition`,
 * `import-timestamp`, `import-upload-button`, `import-remove-button`, `import-progress`,
 * `import-result` (`data-rows-imported`, `data-rows-rejected`), `import-rejected` (the count, in the
 * error colour), `import-rejected-line` (`data-line`: "line n: reason"), `import-result-details`,
 * `import-view-data`, `import-error`.
 */
import { useRef, useState } from "preact/hooks";
import { splitStatements } from "../editor/statements.ts";
import { runStatements } from "../results/query_runner.ts";
import { refreshSchema } from "../schema/schema_store.ts";
import { addTab } from "../tabs/tab_store.ts";
import { formatCount } from "../ui/format.ts";
import { checkTable, type ImportResult, type TableStatus, uploadCsv } from "./import_api.ts";

type Status = "pending" | "uploading" | "done" | "error";

interface FileRow {
  id: number;
  file: File;
  name: string;
  exists: TableStatus | null;
  overwrite: boolean;
  partitionBy: string;
  timestamp: string;
  status: Status;
  progress: number;
  result?: ImportResult;
  error?: string;
}

const PARTITIONS = ["NONE", "HOUR", "DAY", "WEEK", "MONTH", "YEAR"];
let nextId = 1;

/** The bare quoted table name runs as `SELECT *` (spec/console.md §2.10 "View data"). */
function viewData(location: string): void {
  const sql = `"${location.replaceAll('"', '""')}"`;
  addTab(sql);
  // After this render the new tab's editor holds the text, so statement offsets match.
  setTimeout(() => void runStatements(splitStatements(sql), { stopAfterFailure: true }), 0);
}

function ResultView(props: { result: ImportResult }) {
  const r = props.result;
  const [open, setOpen] = useState(false);
  return (
    <div
      class="import-result"
      data-testid="import-result"
      data-rows-imported={r.rowsImported}
      data-rows-rejected={r.rowsRejected}
    >
      <span class="import-imported">{formatCount(r.rowsImported)} rows imported</span>
      {r.rowsRejected > 0 && (
        <span class="import-rejected" data-testid="import-rejected" role="status">
          {formatCount(r.rowsRejected)} rejected
        </span>
      )}
      <button type="button" class="btn small ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
        Details
      </button>
      <button
        type="button"
        class="btn small ghost"
        data-testid="import-view-data"
        onClick={() => viewData(r.location)}
      >
        View data
      </button>
      {r.rejectedLines.length > 0 && (
        <ul class="import-rejected-lines" data-testid="import-rejected-lines">
          {r.rejectedLines.map((x) => (
            <li key={x.line} data-testid="import-rejected-line" data-line={x.line}>
              line {x.line}: {x.error}
            </li>
          ))}
          {r.rowsRejected > r.rejectedLines.length && (
            <li class="dim">and {formatCount(r.rowsRejected - r.rejectedLines.length)} more</li>
          )}
        </ul>
      )}
      {open && (
        <table class="details-table" data-testid="import-result-details">
          <thead>
            <tr>
              <th>Column</th>
              <th>Type</th>
              <th class="num">Errors</th>
            </tr>
          </thead>
          <tbody>
            {r.columns.map((c) => (
              <tr key={c.name} data-name={c.name} data-type={c.type.toLowerCase()} data-errors={c.errors}>
                <td>{c.name}</td>
                <td class="dim">{c.type.toLowerCase()}</td>
                <td class="num">{c.errors}</td>
              </tr>
            ))}
          </tbody>
          <caption class="dim">header row {r.header ? "detected" : "not detected"}</caption>
        </table>
      )}
    </div>
  );
}

function FileRowView(
  props: { row: FileRow; patch(p: Partial<FileRow>): void; remove(): void; upload(): void },
) {
  const { row, patch } = props;
  const busy = row.status === "uploading";
  const rename = async (name: string) => {
    patch({ name, exists: null, status: row.status === "done" ? "pending" : row.status });
    patch({ exists: await checkTable(name).catch(() => null) });
  };
  return (
    <li
      class={`import-file-row is-${row.status}`}
      data-testid="import-file-row"
      data-status={row.status}
      data-file={row.file.name}
      data-exists={String(row.exists === "Exists")}
    >
      <div class="import-file-head">
        <strong title={row.file.name}>{row.file.name}</strong>
        <span class="dim">{formatCount(row.file.size)} B</span>
        <button
          type="button"
          class="btn small ghost"
          data-testid="import-remove-button"
          title="Remove from the list"
          disabled={busy}
          onClick={props.remove}
        >
          ✕
        </button>
      </div>
      <label>
        Table
        <input
          data-testid="import-table-name"
          value={row.name}
          disabled={busy}
          onChange={(e) => void rename((e.currentTarget as HTMLInputElement).value.trim())}
        />
        {row.exists === "Exists" && <span class="badge warn">exists</span>}
        {row.exists === "Does not exist" && <span class="badge dim-badge">new</span>}
        {row.exists === "Reserved name" && <span class="badge warn">reserved</span>}
      </label>
      <div class="import-options">
        <select
          data-testid="import-write-mode"
          value={row.overwrite ? "overwrite" : "append"}
          disabled={busy}
          title="Append to the table, or replace its rows"
          onChange={(e) => patch({ overwrite: (e.currentTarget as HTMLSelectElement).value === "overwrite" })}
        >
          <option value="append">Append</option>
          <option value="overwrite">Overwrite</option>
        </select>
        <select
          data-testid="import-partition"
          value={row.partitionBy}
          disabled={busy}
          title="Partitioning of a new table"
          onChange={(e) => patch({ partitionBy: (e.currentTarget as HTMLSelectElement).value })}
        >
          {PARTITIONS.map((p) => (
            <option key={p} value={p}>{p === "NONE" ? "No partitions" : `By ${p.toLowerCase()}`}</option>
          ))}
        </select>
        <input
          data-testid="import-timestamp"
          placeholder="timestamp column"
          value={row.timestamp}
          disabled={busy}
          title="Designated timestamp column (needed for partitioning)"
          onInput={(e) => patch({ timestamp: (e.currentTarget as HTMLInputElement).value.trim() })}
        />
      </div>
      <div class="import-actions">
        <button
          type="button"
          class="btn small primary"
          data-testid="import-upload-button"
          disabled={busy || !row.name || (row.partitionBy !== "NONE" && !row.timestamp)}
          title={row.partitionBy !== "NONE" && !row.timestamp
            ? "Partitioning needs a timestamp column"
            : "Upload"}
          onClick={props.upload}
        >
          {busy ? "Uploading…" : "Upload"}
        </button>
        {busy && (
          <progress data-testid="import-progress" max={1} value={row.progress}>
            {Math.round(row.progress * 100)}%
          </progress>
        )}
      </div>
      {row.status === "error" && (
        <div class="import-error" data-testid="import-error" role="alert">{row.error}</div>
      )}
      {row.result && row.status === "done" && <ResultView result={row.result} />}
    </li>
  );
}

export function ImportPanel(props: { hidden: boolean }) {
  const [rows, setRows] = useState<FileRow[]>([]);
  const [dragging, setDragging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Rows are patched from async callbacks: always update the latest list, not a stale copy.
  const latest = useRef(rows);
  latest.current = rows;
  const update = (id: number, p: Partial<FileRow>) => {
    latest.current = latest.current.map((r) => (r.id === id ? { ...r, ...p } : r));
    setRows(latest.current);
  };

  const add = (files: Iterable<File>) => {
    const added: FileRow[] = [...files].map((file) => ({
      id: nextId++,
      file,
      // QuestDB's default is the file name as is, `.csv` included (spec/console.md §2.10).
      name: file.name,
      exists: null,
      overwrite: false,
      partitionBy: "NONE",
      timestamp: "",
      status: "pending",
      progress: 0,
    }));
    latest.current = [...latest.current, ...added];
    setRows(latest.current);
    for (const r of added) void checkTable(r.name).then((exists) => update(r.id, { exists }), () => {});
  };

  const upload = async (row: FileRow) => {
    update(row.id, { status: "uploading", progress: 0, error: undefined, result: undefined });
    try {
      const result = await uploadCsv(row.file, {
        name: row.name,
        overwrite: row.overwrite,
        partitionBy: row.partitionBy,
        timestamp: row.timestamp,
        forceHeader: false,
        atomicity: "skipCol",
      }, (progress) => update(row.id, { progress }));
      update(row.id, { status: "done", result, exists: "Exists" });
      void refreshSchema();
    } catch (err) {
      update(row.id, { status: "error", error: (err as Error).message });
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (e.dataTransfer?.files.length) add(e.dataTransfer.files);
  };
  const onPaste = (e: ClipboardEvent) => {
    if (e.clipboardData?.files.length) {
      e.preventDefault();
      add(e.clipboardData.files);
    }
  };

  return (
    <aside
      class="schema-panel import-panel"
      aria-label="Import"
      data-testid="import-panel"
      hidden={props.hidden}
    >
      <div class="panel-head">
        <span class="panel-title">Import CSV</span>
      </div>
      <div
        class={`import-dropzone${dragging ? " dragging" : ""}`}
        data-testid="import-dropzone"
        tabIndex={0}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        onPaste={onPaste}
      >
        Drop CSV files here, paste them, or{" "}
        <button type="button" class="btn small" onClick={() => input.current?.click()}>Browse…</button>
        <input
          ref={input}
          type="file"
          accept=".csv,.tsv,.txt,text/csv"
          multiple
          hidden
          data-testid="import-file-input"
          onChange={(e) => {
            const el = e.currentTarget as HTMLInputElement;
            if (el.files) add(el.files);
            el.value = "";
          }}
        />
      </div>
      <ul class="import-files">
        {rows.map((r) => (
          <FileRowView
            key={r.id}
            row={r}
            patch={(p) => update(r.id, p)}
            remove={() => {
              latest.current = latest.current.filter((x) => x.id !== r.id);
              setRows(latest.current);
            }}
            upload={() => void upload(latest.current.find((x) => x.id === r.id) ?? r)}
          />
        ))}
      </ul>
    </aside>
  );
}

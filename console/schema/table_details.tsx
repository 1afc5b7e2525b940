/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The table details panel on the right of the workspace (spec/console.md §2.9): a summary
 * (rows, partitioning, WAL, dedup, TTL, time range), a suspended-WAL banner with Resume WAL,
 * the columns with symbol details, the partition list and the DDL with copy / open in editor.
 * Test hooks: `table-details[data-name][data-status]`, `table-details-row-count`,
 * `table-details-wal[data-wal][data-suspended]`, `resume-wal-button`, `table-details-column`,
 * `table-details-partition`, `table-details-ddl`, `table-details-copy-ddl`,
 * `table-details-open-ddl`, `table-details-refresh`, `table-details-close`.
 */
import { useState } from "preact/hooks";
import { addTab } from "../tabs/tab_store.ts";
import { copyText } from "../ui/clipboard.ts";
import { formatCount } from "../ui/format.ts";
import { useStore } from "../ui/store.ts";
import { toast } from "../ui/toasts.ts";
import {
  closeTableDetails,
  detailsStore,
  type Obj,
  resumeWal,
  type Section,
  showTableDetails,
  type TableDetails,
} from "./table_details_store.ts";

function Unavailable(props: { section: Section<unknown> }) {
  return props.section.ok
    ? null
    : <div class="dim details-unavailable">unavailable: {props.section.error}</div>;
}

function Fact(props: { label: string; testid?: string; children: preact.ComponentChildren }) {
  return (
    <>
      <dt>{props.label}</dt>
      <dd data-testid={props.testid}>{props.children}</dd>
    </>
  );
}

function Summary(props: { row: Obj }) {
  const r = props.row;
  const ttl = Number(r.ttlValue ?? 0) > 0 ? `${r.ttlValue} ${String(r.ttlUnit ?? "").toLowerCase()}` : "none";
  const rows = r.table_row_count;
  return (
    <dl class="details-facts">
      <Fact label="Rows" testid="table-details-row-count">
        {rows === null || rows === undefined ? "—" : formatCount(Number(rows))}
      </Fact>
      <Fact label="Partitioning">{String(r.partitionBy ?? "NONE")}</Fact>
      <Fact label="Designated timestamp">{String(r.designatedTimestamp ?? "") || "none"}</Fact>
      <Fact label="Deduplication">{r.dedup === true ? "on" : "off"}</Fact>
      <Fact label="TTL">{ttl}</Fact>
      {r.table_min_timestamp != null && <Fact label="First row">{String(r.table_min_timestamp)}</Fact>}
      {r.table_max_timestamp != null && <Fact label="Last row">{String(r.table_max_timestamp)}</Fact>}
    </dl>
  );
}

/** WAL state plus, for a suspended table, the Resume WAL action (optionally from a transaction). */
function WalStatus(props: { details: TableDetails }) {
  const { summary, wal, name } = props.details;
  const row = summary.ok ? summary.value : null;
  const walRow = wal.ok ? wal.value : null;
  const walEnabled = row?.walEnabled === true;
  const suspended = row?.table_suspended === true || walRow?.suspended === true;
  const [fromTxn, setFromTxn] = useState("");
  const [busy, setBusy] = useState(false);
  const resume = async () => {
    setBusy(true);
    const err = await resumeWal(name, fromTxn.trim() ? Number(fromTxn) : undefined);
    setBusy(false);
    toast(err ? "error" : "success", err ? `Resume WAL failed: ${err}` : `WAL resumed for ${name}`);
  };
  return (
    <div
      class="details-wal"
      data-testid="table-details-wal"
      data-wal={String(walEnabled)}
      data-suspended={String(suspended)}
    >
      <div>
        WAL: <strong>{walEnabled ? "enabled" : "disabled"}</strong>
        {walRow && (
          <span class="dim">
            {` · writer txn ${walRow.writerTxn ?? "?"} / sequencer txn ${walRow.sequencerTxn ?? "?"}`}
          </span>
        )}
      </div>
      {suspended && (
        <div class="details-banner warn" role="alert">
          <div>
            WAL is suspended: writes to this table are refused until it is resumed.
            {walRow?.errorMessage ? <div class="dim">{String(walRow.errorMessage)}</div> : null}
          </div>
          <div class="details-resume">
            <input
              class="details-txn"
              data-testid="resume-wal-txn"
              inputMode="numeric"
              placeholder="from txn (optional)"
              value={fromTxn}
              onInput={(e) => setFromTxn((e.currentTarget as HTMLInputElement).value)}
            />
            <button
              type="button"
              class="btn small primary"
              data-testid="resume-wal-button"
              disabled={busy}
              onClick={resume}
            >
              Resume WAL
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function Columns(props: { columns: Obj[] }) {
  return (
    <table class="details-table">
      <thead>
        <tr>
          <th>Column</th>
          <th>Type</th>
          <th>Details</th>
        </tr>
      </thead>
      <tbody>
        {props.columns.map((c) => {
          const type = String(c.type ?? "").toLowerCase();
          const notes = [
            c.designated === true ? "designated timestamp" : "",
            c.indexed === true ? "indexed" : "",
            type === "symbol"
              ? `capacity ${c.symbolCapacity}, ${c.symbolCached ? "cached" : "not cached"}`
              : "",
            c.upsertKey === true ? "upsert key" : "",
          ].filter(Boolean).join(" · ");
          return (
            <tr
              key={String(c.column)}
              data-testid="table-details-column"
              data-name={String(c.column)}
              data-type={type}
              data-designated={String(c.designated === true)}
              data-indexed={String(c.indexed === true)}
            >
              <td>{String(c.column)}</td>
              <td class="dim">{type}</td>
              <td class="dim">{notes}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function Partitions(props: { partitions: Obj[] }) {
  if (props.partitions.length === 0) return <div class="dim">No partitions</div>;
  return (
    <table class="details-table">
      <thead>
        <tr>
          <th>Partition</th>
          <th class="num">Rows</th>
          <th class="num">Size</th>
        </tr>
      </thead>
      <tbody>
        {props.partitions.map((p) => (
          <tr
            key={String(p.name)}
            data-testid="table-details-partition"
            data-name={String(p.name)}
            data-rows={String(p.numRows)}
          >
            <td>{String(p.name)}</td>
            <td class="num">{formatCount(Number(p.numRows ?? 0))}</td>
            <td class="num dim">{String(p.diskSizeHuman ?? "")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Ddl(props: { ddl: string }) {
  return (
    <>
      <div class="details-actions">
        <button
          type="button"
          class="btn small ghost"
          data-testid="table-details-copy-ddl"
          onClick={() => copyText(props.ddl, "DDL copied")}
        >
          Copy
        </button>
        <button
          type="button"
          class="btn small ghost"
          data-testid="table-details-open-ddl"
          onClick={() => addTab(props.ddl)}
        >
          Open in editor
        </button>
      </div>
      <pre class="details-ddl" data-testid="table-details-ddl">{props.ddl}</pre>
    </>
  );
}

export function TableDetailsPanel() {
  const state = useStore(detailsStore);
  if (!state.name) return null;
  const d = state.details;
  const missing = d && d.summary.ok && d.summary.value === null;
  return (
    <aside
      class="details-panel"
      data-testid="table-details"
      data-name={state.name}
      data-status={state.status}
    >
      <div class="panel-head">
        <span class="panel-title" title={state.name}>{state.name}</span>
        <button
          type="button"
          class="btn small ghost"
          data-testid="table-details-refresh"
          title="Reload details"
          onClick={() => showTableDetails(state.name!)}
        >
          {state.status === "loading" ? "…" : "↻"}
        </button>
        <button
          type="button"
          class="btn small ghost"
          data-testid="table-details-close"
          title="Close details"
          onClick={closeTableDetails}
        >
          ✕
        </button>
      </div>
      {!d && <div class="dim details-body">Loading…</div>}
      {missing && <div class="details-body details-unavailable">Table {state.name} no longer exists.</div>}
      {d && !missing && (
        <div class="details-body">
          <h3>Summary</h3>
          {d.summary.ok && d.summary.value
            ? <Summary row={d.summary.value} />
            : <Unavailable section={d.summary} />}
          <WalStatus details={d} />
          <h3>Columns</h3>
          {d.columns.ok ? <Columns columns={d.columns.value} /> : <Unavailable section={d.columns} />}
          <h3>Partitions</h3>
          {d.partitions.ok
            ? <Partitions partitions={d.partitions.value} />
            : <Unavailable section={d.partitions} />}
          <h3>DDL</h3>
          {d.ddl.ok ? <Ddl ddl={d.ddl.value} /> : <Unavailable section={d.ddl} />}
        </div>
      )}
    </aside>
  );
}

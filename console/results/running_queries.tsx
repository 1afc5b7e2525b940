/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * Statements running on the server now, from any client (`query_activity()`), shown in the
 * expanded query log with a Cancel button that runs `CANCEL QUERY <id>`. Polled once a second,
 * only while the log is expanded and the page is visible, so an idle console sends nothing.
 * Test hooks: `running-queries`, `running-query` (`data-query-id`, `data-query`, `data-state`),
 * `running-query-cancel`.
 */
import { useEffect, useState } from "preact/hooks";
import { exec } from "../api/exec_client.ts";
import { toast } from "../ui/toasts.ts";

const POLL_MS = 1000;
// The poll lists itself too: its text (kept unique by the comment) filters it out.
const ACTIVITY_SQL =
  "select query_id, username, worker_pool, query_start, state, query from query_activity() /* console */";

interface Running {
  id: string;
  user: string;
  protocol: string;
  startMs: number;
  state: string;
  query: string;
}

async function fetchRunning(): Promise<Running[] | string> {
  const out = await exec(ACTIVITY_SQL, { src: "con" });
  if (out.kind === "error") return out.error;
  if (out.kind !== "rows") return [];
  return out.rows
    .map((r) => ({
      id: String(r[0]),
      user: String(r[1] ?? ""),
      protocol: String(r[2] ?? ""),
      startMs: Date.parse(String(r[3] ?? "")),
      state: String(r[4] ?? ""),
      query: String(r[5] ?? ""),
    }))
    .filter((r) => r.query !== ACTIVITY_SQL);
}

async function cancel(id: string): Promise<void> {
  const out = await exec(`CANCEL QUERY ${id}`, { src: "con" });
  if (out.kind === "error") toast("error", `Cancel failed: ${out.error}`, 5000);
  else toast("info", `Cancel sent to query ${id}`);
}

function seconds(fromMs: number): string {
  return Number.isFinite(fromMs) ? `${Math.max(0, (Date.now() - fromMs) / 1000).toFixed(1)}s` : "";
}

export function RunningQueries() {
  const [running, setRunning] = useState<Running[]>([]);
  const [error, setError] = useState("");
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (stopped) return;
      if (document.visibilityState === "visible") {
        const got = await fetchRunning().catch((e) => String(e));
        if (stopped) return;
        if (typeof got === "string") setError(got);
        else {
          setError("");
          setRunning(got);
        }
      }
      timer = setTimeout(poll, POLL_MS);
    };
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  return (
    <div class="running-queries" data-testid="running-queries" data-count={String(running.length)}>
      <div class="running-title dim">
        Running on the server ({running.length}){error && <span class="running-error">: {error}</span>}
      </div>
      {running.map((r) => (
        <div
          key={r.id}
          class={`log-entry running-query is-${r.state === "cancelled" ? "cancelled" : "running"}`}
          data-testid="running-query"
          data-query-id={r.id}
          data-query={r.query}
          data-state={r.state}
        >
          <span class="log-dot is-running" />
          <span class="log-time" title="query_id">#{r.id}</span>
          <span class="log-summary">{r.user} · {r.protocol} · {r.state}</span>
          <span class="log-elapsed">{seconds(r.startMs)}</span>
          <code class="log-query" title={r.query}>{r.query}</code>
          <span class="log-actions">
            <button
              type="button"
              class="btn small"
              data-testid="running-query-cancel"
              title={`CANCEL QUERY ${r.id}`}
              disabled={r.state === "cancelled"}
              onClick={() => cancel(r.id)}
            >
              Cancel
            </button>
          </span>
        </div>
      ))}
    </div>
  );
}

/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The query inspector: the exact /exec URL and its parameters, whether credentials were sent
 * (never their value), the HTTP status, the raw JSON reply and the timings of one log entry —
 * for checking what the console asked and what the server said. Test hooks: `query-inspector`
 * (`data-status`), `inspector-url`, `inspector-param` (`data-name`, `data-value`),
 * `inspector-auth`, `inspector-raw`, `inspector-close`.
 */
import { copyText } from "../ui/clipboard.ts";
import { formatNs } from "../ui/format.ts";
import { useStore } from "../ui/store.ts";
import { exchangeFor, inspectorStore } from "./inspector_store.ts";

/** Pretty-prints a JSON reply; anything else is shown as sent. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

export function QueryInspector() {
  const entryId = useStore(inspectorStore);
  const x = entryId === null ? undefined : exchangeFor(entryId);
  if (!x) return null;
  const close = () => inspectorStore.set(null);
  const url = new URL(x.url, location.href);
  return (
    <div class="dialog-backdrop" onKeyDown={(e) => e.key === "Escape" && close()} onClick={close}>
      <div
        class="dialog inspector"
        role="dialog"
        aria-modal="true"
        aria-labelledby="inspector-title"
        data-testid="query-inspector"
        data-status={x.status}
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="inspector-title">Query inspector</h2>
        <div class="inspector-line">
          <span class="dim">GET</span> <code data-testid="inspector-url">{x.url}</code>
          <button
            type="button"
            class="btn small ghost"
            onClick={() => copyText(url.toString(), "URL copied")}
          >
            Copy URL
          </button>
        </div>
        <table class="details-table">
          <tbody>
            {[...url.searchParams].map(([k, v]) => (
              <tr key={k} data-testid="inspector-param" data-name={k} data-value={v}>
                <td>{k}</td>
                <td class="inspector-value">{v}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div class="inspector-line">
          Status <strong>{x.status || "no reply"}</strong> · Authorization{" "}
          <span data-testid="inspector-auth">{x.authorization}</span> · fetch {formatNs(x.fetchNs)}
        </div>
        <pre class="inspector-raw" data-testid="inspector-raw">{pretty(x.body)}</pre>
        {x.truncated && <div class="dim">Reply cut at {x.body.length} characters.</div>}
        <div class="dialog-actions">
          <button type="button" class="btn ghost" onClick={() => copyText(x.body, "Reply copied")}>
            Copy reply
          </button>
          <button
            type="button"
            class="btn primary"
            data-testid="inspector-close"
            ref={(el) => el?.focus()}
            onClick={close}
          >
            Close
          </button>
        </div>
      </div>
    </div>
  );
}

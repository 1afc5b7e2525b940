/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * Before a share link runs anything that may write, the user confirms (spec/console.md §2.2,
 * P1 "Share link … with a write-statement confirmation"): a link is someone else's SQL, and
 * opening one must never drop a table by itself. Test hooks: `share-confirm-dialog`,
 * `share-confirm-statement` (`data-kind`), `share-confirm-run`, `share-confirm-cancel`.
 */
import { splitStatements } from "../editor/statements.ts";
import { runStatements } from "../results/query_runner.ts";
import { Store, useStore } from "./store.ts";

export interface PendingShare {
  text: string;
  writes: string[];
}

export const shareConfirmStore = new Store<PendingShare | null>(null);

export function ShareConfirmDialog() {
  const pending = useStore(shareConfirmStore);
  if (!pending) return null;
  const close = () => shareConfirmStore.set(null);
  const run = () => {
    close();
    void runStatements(splitStatements(pending.text), { stopAfterFailure: true });
  };
  return (
    <div class="dialog-backdrop" onKeyDown={(e) => e.key === "Escape" && close()}>
      <div
        class="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="share-confirm-title"
        data-testid="share-confirm-dialog"
      >
        <h2 id="share-confirm-title">Run the shared query?</h2>
        <p>The link you opened may change data. It contains:</p>
        <ul>
          {pending.writes.map((kind, i) => (
            <li key={i} data-testid="share-confirm-statement" data-kind={kind}>{kind}</li>
          ))}
        </ul>
        <p class="dim">It is open in the editor; you can also read it first and run it yourself.</p>
        <div class="dialog-actions">
          <button
            type="button"
            class="btn ghost"
            data-testid="share-confirm-cancel"
            ref={(el) => el?.focus()}
            onClick={close}
          >
            Don't run
          </button>
          <button type="button" class="btn danger" data-testid="share-confirm-run" onClick={run}>
            Run
          </button>
        </div>
      </div>
    </div>
  );
}

/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/** Confirmation before running every statement of the tab, with "stop after failure" (checked by default). */
import { useState } from "preact/hooks";
import { runAllConfirmStore, runStatements, statementsFor } from "../results/query_runner.ts";
import { useStore } from "./store.ts";

export function RunAllDialog() {
  const open = useStore(runAllConfirmStore);
  const [stop, setStop] = useState(true);
  if (!open) return null;
  const count = statementsFor("all").length;
  const close = () => runAllConfirmStore.set(false);
  const confirm = () => {
    close();
    void runStatements(statementsFor("all"), { stopAfterFailure: stop });
  };
  return (
    <div class="dialog-backdrop" onKeyDown={(e) => e.key === "Escape" && close()}>
      <div class="dialog" role="dialog" aria-modal="true" aria-labelledby="run-all-title">
        <h2 id="run-all-title">Run all {count} statements?</h2>
        <label class="check">
          <input
            type="checkbox"
            data-testid="stop-after-failure-checkbox"
            checked={stop}
            onChange={(e) => setStop((e.currentTarget as HTMLInputElement).checked)}
          />{" "}
          Stop after failure
        </label>
        <div class="dialog-actions">
          <button type="button" class="btn ghost" onClick={close}>Cancel</button>
          <button
            type="button"
            class="btn primary"
            data-testid="run-all-confirm"
            ref={(el) => el?.focus()}
            onClick={confirm}
          >
            Run {count}
          </button>
        </div>
      </div>
    </div>
  );
}

/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/** Renders the toasts of toasts.ts in the corner. */
import { toastStore } from "./toasts.ts";
import { useStore } from "./store.ts";

export function ToastHost() {
  const toasts = useStore(toastStore);
  return (
    <div class="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} class={`toast is-${t.kind}`} data-testid="toast" data-kind={t.kind}>{t.text}</div>
      ))}
    </div>
  );
}

/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * Server health warnings above the layout (spec/console.md §1.1 step 3, §2.13): `GET warnings`
 * answers `[{tag, warning}]` (DISK FULL, TOO MANY OPEN FILES…). Polled once a minute, so a
 * disk that fills while the console is open shows up; each warning can be dismissed until its
 * text changes. Test hooks: `warnings-banner`, `server-warning` (`data-tag`),
 * `server-warning-dismiss`.
 */
import { useEffect, useState } from "preact/hooks";

export interface ServerWarning {
  tag: string;
  warning: string;
}

const POLL_MS = 60_000;

async function fetchWarnings(): Promise<ServerWarning[]> {
  const res = await fetch("warnings");
  if (!res.ok) return [];
  const data = await res.json();
  return Array.isArray(data)
    ? data.filter((w) => w && typeof w.warning === "string").map((w) => ({
      tag: String(w.tag ?? ""),
      warning: w.warning,
    }))
    : [];
}

const keyOf = (w: ServerWarning) => `${w.tag}\n${w.warning}`;

export function WarningsBanner() {
  const [warnings, setWarnings] = useState<ServerWarning[]>([]);
  const [dismissed, setDismissed] = useState<Set<string>>(new Set());
  useEffect(() => {
    let live = true;
    const load = () => fetchWarnings().then((w) => live && setWarnings(w), () => {});
    load();
    const id = setInterval(load, POLL_MS);
    return () => {
      live = false;
      clearInterval(id);
    };
  }, []);
  const shown = warnings.filter((w) => !dismissed.has(keyOf(w)));
  if (shown.length === 0) return null;
  return (
    <div class="warnings-banner" data-testid="warnings-banner" role="alert">
      {shown.map((w) => (
        <div class="server-warning" data-testid="server-warning" data-tag={w.tag} key={keyOf(w)}>
          {w.tag && <strong>{w.tag}</strong>} <span>{w.warning}</span>
          <button
            type="button"
            class="btn small ghost"
            data-testid="server-warning-dismiss"
            title="Dismiss"
            onClick={() =>
              setDismissed(new Set([...dismissed, keyOf(w)]))}
          >
            ✕
          </button>
        </div>
      ))}
    </div>
  );
}

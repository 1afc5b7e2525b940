/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * "Copy ▾" on the result toolbar: the loaded rows (the first page, not the whole result —
 * the CSV download is for that) as TSV, CSV, JSON or Markdown, with or without the header
 * (spec/console.md §5 gap 5, P1 "Copy rows and results"). Test hooks: `copy-menu-button`,
 * `copy-result-button` (`data-format`), `copy-with-headers`.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { Cell } from "../api/types.ts";
import { copyText } from "../ui/clipboard.ts";
import { toCsv, toJson, toMarkdown, toTsv } from "../ui/format.ts";

type Format = "tsv" | "csv" | "json" | "markdown";

const FORMATS: { format: Format; label: string }[] = [
  { format: "tsv", label: "TSV (spreadsheets)" },
  { format: "csv", label: "CSV" },
  { format: "json", label: "JSON" },
  { format: "markdown", label: "Markdown table" },
];

function render(format: Format, names: string[], rows: (Cell | undefined)[][], headers: boolean): string {
  const header = headers ? names : null;
  switch (format) {
    case "tsv":
      return toTsv(header, rows);
    case "csv":
      return toCsv(header, rows);
    case "json":
      return toJson(header, rows);
    case "markdown":
      // A Markdown table cannot be read without its header row.
      return toMarkdown(names, rows);
  }
}

export function CopyMenu(props: { names: string[]; rows(): (Cell | undefined)[][] }) {
  const [open, setOpen] = useState(false);
  const [headers, setHeaders] = useState(true);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => !ref.current?.contains(e.target as Node) && setOpen(false);
    addEventListener("pointerdown", outside, true);
    return () => removeEventListener("pointerdown", outside, true);
  }, [open]);
  const copy = (format: Format) => {
    setOpen(false);
    const rows = props.rows();
    void copyText(
      render(format, props.names, rows, headers),
      `${rows.length} rows copied as ${format.toUpperCase()}`,
    );
  };
  return (
    <div class="menu-anchor" ref={ref}>
      <button
        type="button"
        class="btn small ghost"
        data-testid="copy-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        title="Copy the loaded rows"
        onClick={() => setOpen(!open)}
      >
        Copy ▾
      </button>
      {open && (
        <div
          class="menu copy-menu"
          role="menu"
          onKeyDown={(e) => e.key === "Escape" && setOpen(false)}
        >
          {FORMATS.map((f) => (
            <button
              key={f.format}
              type="button"
              role="menuitem"
              class="menu-item"
              data-testid="copy-result-button"
              data-format={f.format}
              onClick={() => copy(f.format)}
            >
              {f.label}
            </button>
          ))}
          <label class="menu-item check">
            <input
              type="checkbox"
              data-testid="copy-with-headers"
              checked={headers}
              onChange={(e) => setHeaders((e.currentTarget as HTMLInputElement).checked)}
            />{" "}
            With column names
          </label>
        </div>
      )}
    </div>
  );
}

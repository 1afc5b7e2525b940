/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The run glyph's context menu (spec/console.md §2.2): right-clicking the gutter icon beside a
 * statement offers Run query, Get query plan and Copy link to query. The gutter only reports
 * where and for which statement; this component owns the menu, so the CodeMirror extension
 * stays free of UI code. Test hooks: `glyph-menu`, `glyph-menu-item[data-action]`.
 */
import { useLayoutEffect, useRef } from "preact/hooks";
import { Store, useStore } from "../ui/store.ts";
import type { Statement } from "./statements.ts";

export type GlyphAction = "run" | "explain" | "copy-link";

export interface GlyphMenuState {
  statement: Statement;
  x: number;
  y: number;
}

export const glyphMenuStore = new Store<GlyphMenuState | null>(null);

export function openGlyphMenu(statement: Statement, x: number, y: number): void {
  glyphMenuStore.set({ statement, x, y });
}

const ITEMS: { action: GlyphAction; label: string; keys: string }[] = [
  { action: "run", label: "Run query", keys: "Ctrl+Enter" },
  { action: "explain", label: "Get query plan", keys: "Ctrl+E" },
  { action: "copy-link", label: "Copy link to query", keys: "Alt+L" },
];

export function GlyphMenu(props: { state: GlyphMenuState; onAction(a: GlyphAction, s: Statement): void }) {
  const ref = useRef<HTMLDivElement>(null);
  const close = () => glyphMenuStore.set(null);
  // A layout effect: the listeners must be in place by the time the menu is on screen, or an
  // Escape pressed right away would be missed.
  useLayoutEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>("button")?.focus();
    // Any click elsewhere, Escape, or a scroll closes the menu, like a native one.
    const outside = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) close();
    };
    const key = (e: KeyboardEvent) => e.key === "Escape" && close();
    addEventListener("pointerdown", outside, true);
    // Capture phase: the editor may hold the focus and swallow Escape before it bubbles.
    addEventListener("keydown", key, true);
    addEventListener("wheel", close, { passive: true });
    return () => {
      removeEventListener("pointerdown", outside, true);
      removeEventListener("keydown", key, true);
      removeEventListener("wheel", close);
    };
  }, []);
  const { x, y, statement } = props.state;
  return (
    <div
      ref={ref}
      class="menu glyph-menu"
      role="menu"
      data-testid="glyph-menu"
      data-from={statement.from}
      style={`left:${x}px;top:${y}px`}
    >
      {ITEMS.map((it) => (
        <button
          key={it.action}
          type="button"
          role="menuitem"
          class="menu-item"
          data-testid="glyph-menu-item"
          data-action={it.action}
          onClick={() => {
            close();
            props.onAction(it.action, statement);
          }}
        >
          {it.label} <span class="dim keys">{it.keys}</span>
        </button>
      ))}
    </div>
  );
}

/** Renders the menu when one is open. */
export function GlyphMenuHost(props: { onAction(a: GlyphAction, s: Statement): void }) {
  const state = useStore(glyphMenuStore);
  return state ? <GlyphMenu key={`${state.x},${state.y}`} state={state} onAction={props.onAction} /> : null;
}

/**
 * Marks the lines of the statement under the cursor with a left-edge bar, so it is clear what
 * Ctrl+Enter will run, and puts a run glyph (`statement-glyph`) in the gutter beside its
 * first line that shows the state of the last run.
 */
import {
  type EditorState,
  type Extension,
  RangeSetBuilder,
  StateEffect,
  StateField,
} from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, gutter, GutterMarker } from "@codemirror/view";
import { type Statement, statementAt } from "./statements.ts";
import { openGlyphMenu } from "./glyph_menu.tsx";

export type GlyphStatus = "idle" | "running" | "success" | "error";

/** Sets the status shown by the glyph of the statement under the cursor. */
export const setGlyphStatus = StateEffect.define<GlyphStatus>();

interface ActiveState {
  statement: Statement | undefined;
  status: GlyphStatus;
}

function compute(state: EditorState): Statement | undefined {
  return statementAt(state.doc.toString(), state.selection.main.head);
}

const activeField = StateField.define<ActiveState>({
  create: (state) => ({ statement: compute(state), status: "idle" }),
  update(value, tr) {
    let status = value.status;
    for (const e of tr.effects) if (e.is(setGlyphStatus)) status = e.value;
    if (!tr.docChanged && !tr.selection) return status === value.status ? value : { ...value, status };
    const statement = compute(tr.state);
    const same = statement && value.statement && statement.text === value.statement.text;
    return { statement, status: same || tr.effects.length ? status : "idle" };
  },
});

const lineMark = Decoration.line({ class: "cm-active-statement" });

const lineDecorations = EditorView.decorations.compute([activeField, "doc"], (state): DecorationSet => {
  const { statement } = state.field(activeField);
  if (!statement) return Decoration.none;
  const b = new RangeSetBuilder<Decoration>();
  const first = state.doc.lineAt(statement.from).number;
  const last = state.doc.lineAt(Math.min(statement.to, state.doc.length)).number;
  for (let n = first; n <= last; n++) {
    const line = state.doc.line(n);
    b.add(line.from, line.from, lineMark);
  }
  return b.finish();
});

class Glyph extends GutterMarker {
  constructor(readonly status: GlyphStatus, readonly line: number) {
    super();
  }
  override eq(other: Glyph): boolean {
    return other.status === this.status && other.line === this.line;
  }
  override toDOM(): Node {
    const el = document.createElement("span");
    el.className = `cm-statement-glyph is-${this.status}`;
    el.setAttribute("data-testid", "statement-glyph");
    el.setAttribute("data-status", this.status);
    el.setAttribute("data-line", String(this.line));
    el.title = "Run this statement (Ctrl+Enter); right-click for more";
    el.textContent = { idle: "▶", running: "■", success: "✓", error: "✕" }[this.status];
    return el;
  }
}

/** The active statement helpers; `onGlyph` runs (or cancels) when the glyph is clicked. */
export function activeStatement(onGlyph: (status: GlyphStatus) => void): Extension {
  return [
    activeField,
    lineDecorations,
    gutter({
      class: "cm-glyph-gutter",
      lineMarker(view, line) {
        const { statement, status } = view.state.field(activeField);
        if (!statement || view.state.doc.lineAt(statement.from).from !== line.from) return null;
        return new Glyph(status, view.state.doc.lineAt(line.from).number);
      },
      lineMarkerChange: (u) => u.startState.field(activeField) !== u.state.field(activeField),
      domEventHandlers: {
        mousedown(view, line, event) {
          const { statement, status } = view.state.field(activeField);
          if (!statement || view.state.doc.lineAt(statement.from).from !== line.from) return false;
          // Only the primary button runs. A right-click opens the menu (contextmenu below); it is
          // still claimed here so the editor does not move the selection under the menu.
          if ((event as MouseEvent).button === 0) onGlyph(status);
          return true;
        },
        contextmenu(view, line, event) {
          const { statement } = view.state.field(activeField);
          if (!statement || view.state.doc.lineAt(statement.from).from !== line.from) return false;
          const e = event as MouseEvent;
          e.preventDefault();
          openGlyphMenu(statement, e.clientX, e.clientY);
          return true;
        },
      },
    }),
  ];
}

/**
 * The red marker under the exact character the server's error `position` points at
 * (spec/console.md §2.2 "Errors at the reported position", P0 item 5). The marker covers the
 * word at that offset, or is zero-width at the end of the statement when the error is "at
 * the end". Its element carries `data-from`/`data-to` document offsets for tests, and hovering
 * it shows the server's message.
 */
import { type EditorState, type Extension, StateEffect, StateField, type Text } from "@codemirror/state";
import { Decoration, type DecorationSet, EditorView, hoverTooltip, WidgetType } from "@codemirror/view";

export interface ErrorMark {
  from: number;
  to: number;
  message: string;
  /** Who found the error: a run (`exec`, the default) or live validation (`validate`). */
  source?: "exec" | "validate";
}

export const setErrorMark = StateEffect.define<ErrorMark | null>();

const WORD_CHAR = /[\w$]/;

/** The range to mark for a document offset: the word there, or one character. */
export function markRange(doc: Text, offset: number, statementEnd: number): { from: number; to: number } {
  const text = doc.toString();
  if (offset >= statementEnd) {
    let end = Math.min(statementEnd, text.length);
    while (end > 0 && /\s/.test(text[end - 1])) end--;
    return { from: end, to: end };
  }
  if (!WORD_CHAR.test(text[offset] ?? "")) return { from: offset, to: Math.min(offset + 1, text.length) };
  let from = offset, to = offset;
  while (from > 0 && WORD_CHAR.test(text[from - 1])) from--;
  while (to < text.length && WORD_CHAR.test(text[to])) to++;
  return { from, to };
}

class EndMarker extends WidgetType {
  constructor(readonly mark: ErrorMark) {
    super();
  }
  override eq(other: EndMarker): boolean {
    return other.mark.from === this.mark.from && other.mark.message === this.mark.message &&
      other.mark.source === this.mark.source;
  }
  toDOM(): HTMLElement {
    const el = document.createElement("span");
    el.className = "cm-error-marker cm-error-marker-end";
    for (const [k, v] of Object.entries(attributes(this.mark))) el.setAttribute(k, v);
    return el;
  }
}

function attributes(mark: ErrorMark): Record<string, string> {
  return {
    "data-testid": "editor-error-marker",
    "data-from": String(mark.from),
    "data-to": String(mark.to),
    "data-source": mark.source ?? "exec",
    title: mark.message,
  };
}

function decorations(mark: ErrorMark | null): DecorationSet {
  if (!mark) return Decoration.none;
  if (mark.from === mark.to) {
    return Decoration.set([Decoration.widget({ widget: new EndMarker(mark), side: 1 }).range(mark.from)]);
  }
  return Decoration.set([
    Decoration.mark({ class: "cm-error-marker", attributes: attributes(mark) }).range(mark.from, mark.to),
  ]);
}

const errorField = StateField.define<ErrorMark | null>({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setErrorMark)) return e.value;
    if (!value || !tr.docChanged) return value;
    // An edit inside the marked word removes the marker; other edits move it along.
    if (tr.changes.touchesRange(value.from, value.to)) return null;
    return { ...value, from: tr.changes.mapPos(value.from), to: tr.changes.mapPos(value.to) };
  },
  provide: (f) => EditorView.decorations.from(f, decorations),
});

export function currentErrorMark(state: EditorState): ErrorMark | null {
  return state.field(errorField, false) ?? null;
}

const errorHover = hoverTooltip((view, pos) => {
  const mark = currentErrorMark(view.state);
  if (!mark || pos < mark.from - 1 || pos > mark.to + 1) return null;
  return {
    pos: mark.from,
    end: mark.to,
    above: true,
    create: () => {
      const dom = document.createElement("div");
      dom.className = "cm-error-tooltip";
      dom.setAttribute("data-testid", "editor-error-message");
      dom.textContent = mark.message;
      return { dom };
    },
  };
});

export function errorMarker(): Extension {
  return [errorField, errorHover];
}

/**
 * Live validation (spec/console.md §2.2 "Live validation", P1): a moment after an edit (1 s)
 * or a cursor move (0.5 s) the statement at the cursor goes to `api/v1/sql/validate`, which
 * checks it without running it; an error draws the same marker as a run, tagged
 * `data-source=validate`. A newer edit aborts the request in flight, a reply for text that has
 * changed since is dropped, and a run's marker is never replaced by a validation one.
 */
import type { Extension } from "@codemirror/state";
import { EditorView, ViewPlugin, type ViewUpdate } from "@codemirror/view";
import { authHeader } from "../auth/auth_state.ts";
import { currentErrorMark, markRange, setErrorMark } from "./error_marker.ts";
import { statementAt } from "./statements.ts";

const AFTER_EDIT_MS = 1000;
const AFTER_MOVE_MS = 500;
const MAX_CHARS = 10_000;

/** Off for the rest of the page's life once the server shows it has no validate endpoint. */
let unsupported = false;

class Validator {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #abort: AbortController | null = null;

  constructor(readonly view: EditorView) {}

  update(u: ViewUpdate): void {
    if (u.docChanged) this.#schedule(AFTER_EDIT_MS);
    else if (u.selectionSet) this.#schedule(AFTER_MOVE_MS);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#abort?.abort();
    this.#abort = null;
    if (!unsupported) this.#timer = setTimeout(() => void this.#validate(), ms);
  }

  async #validate(): Promise<void> {
    const state = this.view.state;
    const statement = statementAt(state.doc.toString(), state.selection.main.head);
    if (!statement || !statement.text.trim() || statement.text.length > MAX_CHARS) return;
    const abort = new AbortController();
    this.#abort = abort;
    const auth = authHeader();
    let status: number;
    // deno-lint-ignore no-explicit-any
    let body: any;
    try {
      const res = await fetch(`api/v1/sql/validate?${new URLSearchParams({ query: statement.text })}`, {
        headers: auth ? { Authorization: auth } : {},
        signal: abort.signal,
      });
      status = res.status;
      if (status === 404) {
        unsupported = true;
        return;
      }
      body = await res.json().catch(() => null);
    } catch {
      return; // aborted by a newer edit, or the server is away (a run will say so)
    }
    const now = this.view.state;
    // The text changed while the request was out: this answer is about something else.
    if (now.doc.sliceString(statement.from, statement.to) !== statement.text) return;
    const current = currentErrorMark(now);
    if (current && (current.source ?? "exec") === "exec") return; // a run's result wins
    const position = Number(body?.position);
    if (status >= 400 && typeof body?.error === "string" && Number.isFinite(position) && position >= 0) {
      const range = markRange(now.doc, Math.min(statement.from + position, now.doc.length), statement.to);
      this.view.dispatch({ effects: setErrorMark.of({ ...range, message: body.error, source: "validate" }) });
    } else if (current) {
      this.view.dispatch({ effects: setErrorMark.of(null) });
    }
  }

  destroy(): void {
    clearTimeout(this.#timer);
    this.#abort?.abort();
  }
}

export function liveValidation(): Extension {
  return ViewPlugin.fromClass(Validator);
}

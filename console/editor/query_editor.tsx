/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The SQL editor (CodeMirror 6): dialect highlighting, autocomplete, the error marker, the
 * active-statement bar, and the run keys (Ctrl/Cmd+Enter and F9 run the statement at the cursor
 * or the selection, Ctrl/Cmd+Shift+Enter runs all, Ctrl/Cmd+E shows the plan). One EditorState is kept per tab, so
 * switching tabs keeps each tab's undo history and cursor.
 */
import { closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab, isolateHistory } from "@codemirror/commands";
import { bracketMatching } from "@codemirror/language";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { EditorSelection, EditorState, type Extension, Prec } from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder,
} from "@codemirror/view";
import { useEffect, useRef } from "preact/hooks";
import { activeStatement, type GlyphStatus } from "./active_statement.ts";
import { sqlAutocompletion } from "./completion_source.ts";
import { errorMarker } from "./error_marker.ts";
import { liveValidation } from "./live_validation.ts";
import { formatSql } from "./format_sql.ts";
import { editorTheme } from "./editor_theme.ts";
import { questdbSqlSupport } from "./sql_language.ts";
import { type Statement, statementAt } from "./statements.ts";
import { type GlyphAction, GlyphMenuHost } from "./glyph_menu.tsx";
import { copyShareLink } from "../ui/share_link.ts";

export type RunMode = "cursor" | "all" | "explain";

export interface QueryEditorProps {
  tabId: string;
  text: string;
  cursor: number;
  onChange(text: string, cursor: number): void;
  onRun(mode: RunMode): void;
  onCancel(): void;
}

let currentView: EditorView | null = null;
let currentTabId: string | null = null;
const states = new Map<string, EditorState>();
/** Work waiting for a tab's text to be in the editor (see `whenTabShown`). */
const pendingForTab = new Map<string, (view: EditorView) => void>();

/**
 * Runs `fn` once the editor shows `tabId`: at once if it already does, otherwise right after
 * the switch. Selecting a tab re-renders first and swaps the editor state afterwards, so a
 * selection made in between would land in the old tab.
 */
export function whenTabShown(tabId: string, fn: (view: EditorView) => void): void {
  if (currentView && currentTabId === tabId) fn(currentView);
  else pendingForTab.set(tabId, fn);
}

function runPending(tabId: string, view: EditorView): void {
  const fn = pendingForTab.get(tabId);
  pendingForTab.delete(tabId);
  fn?.(view);
}

/** The live editor view, for the runner (statement ranges, error marks) and the schema panel. */
export function editorView(): EditorView | null {
  return currentView;
}

/** Inserts text at the cursor (used by the schema explorer) and focuses the editor. */
export function insertAtCursor(text: string): void {
  const view = currentView;
  if (!view) return;
  view.dispatch(view.state.replaceSelection(text));
  view.focus();
}

function extensions(props: { current: QueryEditorProps }): Extension[] {
  const run = (mode: RunMode) => () => {
    props.current.onRun(mode);
    return true;
  };
  const onGlyph = (
    status: GlyphStatus,
  ) => (status === "running" ? props.current.onCancel() : props.current.onRun("cursor"));
  return [
    Prec.highest(keymap.of([
      { key: "Mod-Enter", run: run("cursor") },
      { key: "F9", run: run("cursor") },
      { key: "Mod-Shift-Enter", run: run("all") },
      { key: "Mod-e", run: run("explain") },
      // Format: the whole tab, or only the selection (spec/console.md §2.2); one undo step each.
      {
        key: "Alt-Shift-f",
        run: (view) => {
          const doc = view.state.doc.toString();
          const formatted = formatSql(doc);
          if (formatted !== doc) {
            view.dispatch({
              changes: { from: 0, to: doc.length, insert: formatted },
              // Its own undo step, never merged with the typing just before.
              annotations: isolateHistory.of("full"),
            });
          }
          return true;
        },
      },
      {
        key: "Alt-f",
        run: (view) => {
          const sel = view.state.selection.main;
          if (sel.empty) return false;
          const text = view.state.sliceDoc(sel.from, sel.to);
          const formatted = formatSql(text);
          view.dispatch({
            changes: { from: sel.from, to: sel.to, insert: formatted },
            selection: { anchor: sel.from, head: sel.from + formatted.length },
            annotations: isolateHistory.of("full"),
          });
          return true;
        },
      },
      // Alt+Shift+L: a link that opens every statement of the tab.
      { key: "Alt-Shift-l", run: (view) => (copyShareLink(view.state.doc.toString()), true) },
      {
        key: "Alt-l",
        run: (view) => {
          const sel = view.state.selection.main;
          const doc = view.state.doc.toString();
          copyShareLink(sel.empty ? statementAt(doc, sel.head)?.text ?? "" : doc.slice(sel.from, sel.to));
          return true;
        },
      },
    ])),
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    drawSelection(),
    bracketMatching(),
    closeBrackets(),
    highlightSelectionMatches(),
    placeholder("Type SQL here; Ctrl+Enter runs it"),
    questdbSqlSupport(),
    sqlAutocompletion(),
    errorMarker(),
    liveValidation(),
    activeStatement(onGlyph),
    editorTheme(),
    keymap.of([
      ...closeBracketsKeymap,
      ...defaultKeymap,
      ...searchKeymap,
      ...historyKeymap,
      ...completionKeymap,
      indentWithTab,
    ]),
    EditorView.contentAttributes.of({ "data-testid": "editor-input", "aria-label": "SQL editor" }),
    EditorView.updateListener.of((u) => {
      if (u.docChanged || u.selectionSet) {
        props.current.onChange(u.state.doc.toString(), u.state.selection.main.head);
      }
    }),
  ];
}

export function QueryEditor(props: QueryEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const view = useRef<EditorView | null>(null);
  const ext = useRef<Extension[] | null>(null);
  const shownTab = useRef(props.tabId);

  const stateFor = (p: QueryEditorProps): EditorState => {
    ext.current ??= extensions(latest);
    const existing = states.get(p.tabId);
    if (existing) return existing;
    const cursor = Math.min(p.cursor, p.text.length);
    const state = EditorState.create({
      doc: p.text,
      selection: EditorSelection.cursor(cursor),
      extensions: ext.current,
    });
    states.set(p.tabId, state);
    return state;
  };

  useEffect(() => {
    view.current = new EditorView({ state: stateFor(props), parent: host.current! });
    currentView = view.current;
    currentTabId = props.tabId;
    view.current.focus();
    runPending(props.tabId, view.current);
    return () => {
      view.current?.destroy();
      currentView = null;
      currentTabId = null;
    };
  }, []);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    if (shownTab.current === props.tabId) return;
    states.set(shownTab.current, v.state);
    shownTab.current = props.tabId;
    currentTabId = props.tabId;
    v.setState(stateFor(props));
    v.focus();
    runPending(props.tabId, v);
  }, [props.tabId]);

  useEffect(() => {
    // Keep the per-tab cache current so a tab switch restores exactly what was on screen.
    const v = view.current;
    if (v) states.set(shownTab.current, v.state);
  });

  const onGlyphAction = (action: GlyphAction, statement: Statement) => {
    if (action === "copy-link") return copyShareLink(statement.text);
    const v = view.current;
    if (!v) return;
    // The menu belongs to one statement: put the caret in it (dropping any selection) so the
    // runner picks exactly that statement.
    v.dispatch({ selection: EditorSelection.cursor(Math.min(statement.to, v.state.doc.length)) });
    latest.current.onRun(action === "explain" ? "explain" : "cursor");
  };

  return (
    <>
      <div class="sql-editor" data-testid="sql-editor" ref={host} />
      <GlyphMenuHost onAction={onGlyphAction} />
    </>
  );
}

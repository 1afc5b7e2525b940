/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The SQL editor (CodeMirror 6): dialect highlighting, autocomplete, the error marker, the
 * active-statement bar, and the run keys (Ctrl/Cmd+Enter and F9 run the statement at the cursor
 * or the selection, Ctrl/Cmd+Shift+Enter runs all, Ctrl/Cmd+E shows the plan). One EditorState is kept per tab, so
 * switching tabs keeps each tab's undo history and cursor.
 */
import { closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
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
import { editorTheme } from "./editor_theme.ts";
import { questdbSqlSupport } from "./sql_language.ts";
import { statementAt } from "./statements.ts";
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
const states = new Map<string, EditorState>();

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
    view.current.focus();
    return () => {
      view.current?.destroy();
      currentView = null;
    };
  }, []);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    if (shownTab.current === props.tabId) return;
    states.set(shownTab.current, v.state);
    shownTab.current = props.tabId;
    v.setState(stateFor(props));
    v.focus();
  }, [props.tabId]);

  useEffect(() => {
    // Keep the per-tab cache current so a tab switch restores exactly what was on screen.
    const v = view.current;
    if (v) states.set(shownTab.current, v.state);
  });

  return <div class="sql-editor" data-testid="sql-editor" ref={host} />;
}

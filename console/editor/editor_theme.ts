/** The editor's theme: every colour is a styles.css variable, so it follows the light/dark switch. */
import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

export function editorTheme(): Extension {
  return EditorView.theme({
    "&": { height: "100%", backgroundColor: "var(--bg-editor)", color: "var(--fg)", fontSize: "14px" },
    ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.55" },
    ".cm-content": { caretColor: "var(--caret)", padding: "6px 0" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--caret)", borderLeftWidth: "2px" },
    "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
      backgroundColor: "var(--selection) !important",
    },
    ".cm-activeLine": { backgroundColor: "var(--line-tint)" },
    ".cm-gutters": { backgroundColor: "var(--bg-editor)", color: "var(--gutter-fg)", border: "none" },
    ".cm-activeLineGutter": { backgroundColor: "var(--line-tint)", color: "var(--gutter-active-fg)" },
    ".cm-active-statement": { boxShadow: "inset 3px 0 0 var(--accent)" },
    ".cm-matchingBracket": { backgroundColor: "rgba(80,250,123,0.18)", outline: "none" },
    ".cm-selectionMatch": { backgroundColor: "rgba(139,233,253,0.12)" },
    ".cm-tooltip": {
      backgroundColor: "var(--bg-panel)",
      border: "1px solid var(--border)",
      color: "var(--fg)",
    },
    ".cm-tooltip-autocomplete > ul": { fontFamily: "var(--font-mono)", maxHeight: "18em" },
    ".cm-tooltip-autocomplete > ul > li": { padding: "2px 8px" },
    ".cm-tooltip-autocomplete > ul > li[aria-selected]": {
      backgroundColor: "var(--accent-dim)",
      color: "var(--fg)",
    },
    ".cm-completionDetail": { color: "var(--fg-dim)", marginLeft: "1em", fontStyle: "normal" },
    ".cm-placeholder": { color: "var(--gutter-fg)" },
    // Letters instead of the default emoji icons, which need a font the machine may not have.
    ".cm-completionIcon": {
      width: "1.3em",
      opacity: "1",
      fontFamily: "var(--font-mono)",
      fontSize: "11px",
      fontWeight: "700",
    },
    ".cm-completionIcon-table:after": { content: "'T'", color: "var(--syn-type)" },
    ".cm-completionIcon-column:after": { content: "'c'", color: "var(--syn-function)" },
    ".cm-completionIcon-function:after": { content: "'f'", color: "var(--syn-special)" },
    ".cm-completionIcon-keyword:after": { content: "'k'", color: "var(--syn-keyword)" },
    ".cm-completionIcon-type:after": { content: "'t'", color: "var(--syn-number)" },
  });
}

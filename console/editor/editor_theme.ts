/** The editor's dark theme, matching the console's palette (styles.css). */
import type { Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";

export function editorTheme(): Extension {
  return EditorView.theme({
    "&": { height: "100%", backgroundColor: "var(--bg-editor)", color: "var(--fg)", fontSize: "14px" },
    ".cm-scroller": { fontFamily: "var(--font-mono)", lineHeight: "1.55" },
    ".cm-content": { caretColor: "#f8f8f2", padding: "6px 0" },
    ".cm-cursor, .cm-dropCursor": { borderLeftColor: "#f8f8f2", borderLeftWidth: "2px" },
    "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
      backgroundColor: "#44475a !important",
    },
    ".cm-activeLine": { backgroundColor: "rgba(255,255,255,0.035)" },
    ".cm-gutters": { backgroundColor: "var(--bg-editor)", color: "#6b7089", border: "none" },
    ".cm-activeLineGutter": { backgroundColor: "rgba(255,255,255,0.05)", color: "#c7c7d1" },
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
      color: "#fff",
    },
    ".cm-completionDetail": { color: "var(--fg-dim)", marginLeft: "1em", fontStyle: "normal" },
    ".cm-placeholder": { color: "#6b7089" },
    // Letters instead of the default emoji icons, which need a font the machine may not have.
    ".cm-completionIcon": {
      width: "1.3em",
      opacity: "1",
      fontFamily: "var(--font-mono)",
      fontSize: "11px",
      fontWeight: "700",
    },
    ".cm-completionIcon-table:after": { content: "'T'", color: "#8be9fd" },
    ".cm-completionIcon-column:after": { content: "'c'", color: "#50fa7b" },
    ".cm-completionIcon-function:after": { content: "'f'", color: "#f1fa8c" },
    ".cm-completionIcon-keyword:after": { content: "'k'", color: "#ff79c6" },
    ".cm-completionIcon-type:after": { content: "'t'", color: "#bd93f9" },
  }, { dark: true });
}

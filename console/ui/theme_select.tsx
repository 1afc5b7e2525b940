/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/** The top bar's theme picker (test hook `theme-select`); see theme.ts. */
import { useStore } from "./store.ts";
import { setTheme, type Theme, themeStore } from "./theme.ts";

export function ThemeSelect() {
  const theme = useStore(themeStore);
  return (
    <select
      class="theme-select"
      data-testid="theme-select"
      value={theme}
      title="Theme"
      aria-label="Theme"
      onChange={(e) => setTheme((e.currentTarget as HTMLSelectElement).value as Theme)}
    >
      <option value="system">System</option>
      <option value="light">Light</option>
      <option value="dark">Dark</option>
    </select>
  );
}

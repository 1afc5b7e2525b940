/**
 * Light, dark or system theme (spec/console.md §2.1, §2.13): kept in localStorage and applied
 * as `data-theme` on <html>, where styles.css swaps its colour variables. Dark stays the
 * default, as the console has always looked.
 */
import { Store } from "./store.ts";

export type Theme = "system" | "light" | "dark";
const KEY = "ui.theme";

function saved(): Theme {
  try {
    const v = localStorage.getItem(KEY);
    return v === "light" || v === "system" ? v : "dark";
  } catch {
    return "dark";
  }
}

export const themeStore = new Store<Theme>(saved());

/** Called once before the first render, so the page never flashes the other palette. */
export function applyTheme(theme: Theme = themeStore.get()): void {
  document.documentElement.dataset.theme = theme;
}

export function setTheme(theme: Theme): void {
  try {
    localStorage.setItem(KEY, theme);
  } catch { /* not remembered */ }
  themeStore.set(theme);
  applyTheme(theme);
}

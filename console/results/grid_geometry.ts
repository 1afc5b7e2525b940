/**
 * Pure arithmetic for the virtualised grid: which rows and columns are on screen for a scroll
 * position. Browsers cap an element's height (about 33M px in Chromium, less elsewhere), so
 * past MAX_VIRTUAL_PX the scrollbar is scaled: a scroll position maps proportionally onto the
 * real row offset, and a million rows still scroll to the last one.
 */

export const ROW_PX = 26;
export const HEADER_PX = 46;
export const MAX_VIRTUAL_PX = 8_000_000;

export interface RowWindow {
  firstRow: number;
  /** Rows to draw from firstRow on. */
  rowCount: number;
  /** How far the first row is scrolled out of view, in px. */
  offsetPx: number;
}

export function virtualHeight(rowCount: number): number {
  return Math.min(rowCount * ROW_PX, MAX_VIRTUAL_PX);
}

function maxima(rowCount: number, viewportPx: number): { maxScroll: number; realMax: number } {
  const bodyPx = Math.max(0, viewportPx - HEADER_PX);
  return {
    maxScroll: Math.max(0, HEADER_PX + virtualHeight(rowCount) - viewportPx),
    realMax: Math.max(0, rowCount * ROW_PX - bodyPx),
  };
}

export function rowWindow(scrollTop: number, viewportPx: number, rowCount: number): RowWindow {
  const { maxScroll, realMax } = maxima(rowCount, viewportPx);
  const realTop = maxScroll > 0
    ? Math.min(realMax, (Math.min(scrollTop, maxScroll) / maxScroll) * realMax)
    : 0;
  const firstRow = Math.min(Math.floor(realTop / ROW_PX), Math.max(0, rowCount - 1));
  const visible = Math.ceil((viewportPx - HEADER_PX) / ROW_PX) + 2;
  return {
    firstRow,
    rowCount: Math.max(0, Math.min(visible, rowCount - firstRow)),
    offsetPx: realTop - firstRow * ROW_PX,
  };
}

/** The scrollTop that brings `row` into view, or null when it already is. */
export function scrollTopFor(
  row: number,
  scrollTop: number,
  viewportPx: number,
  rowCount: number,
): number | null {
  const { maxScroll, realMax } = maxima(rowCount, viewportPx);
  if (realMax === 0) return null;
  const bodyPx = viewportPx - HEADER_PX;
  const realTop = (Math.min(scrollTop, maxScroll) / maxScroll) * realMax;
  let target = realTop;
  if (row * ROW_PX < realTop) target = row * ROW_PX;
  else if ((row + 1) * ROW_PX > realTop + bodyPx) target = (row + 1) * ROW_PX - bodyPx;
  else return null;
  return Math.ceil((Math.max(0, Math.min(realMax, target)) / realMax) * maxScroll);
}

export interface ColumnWindow {
  first: number;
  last: number;
}

export function columnWindow(
  lefts: number[],
  widths: number[],
  scrollLeft: number,
  viewportPx: number,
): ColumnWindow {
  let first = 0;
  while (first < lefts.length - 1 && lefts[first] + widths[first] < scrollLeft) first++;
  let last = first;
  while (last < lefts.length - 1 && lefts[last + 1] < scrollLeft + viewportPx) last++;
  return { first, last };
}

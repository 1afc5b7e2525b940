/**
 * Column widths of the result grid from the text of every row fetched so far, not only the
 * first page: a wide value on a later page (`1000000` after a page of one-digit numbers) widens
 * its column when that page arrives instead of showing as `10000…`. Pages are measured once
 * each; a page dropped from the cache keeps the width it gave, so columns never shrink while
 * scrolling.
 */
import type { Column } from "../api/types.ts";
import { cellText, columnTypeName } from "../ui/format.ts";
import type { ResultSet } from "./result_set.ts";

export const COL_MIN_PX = 60;
const CHAR_PX = 7.8;
/** Cell padding, plus room for the resize handle. */
const PADDING_PX = 22;

export class ColumnSizer {
  /** Widest text per column, in characters. */
  readonly chars: number[];
  readonly #measured = new Set<number>();

  constructor(columns: Column[]) {
    this.chars = columns.map((c) => Math.max(c.name.length, columnTypeName(c).length + 2));
  }

  /** Measures the pages not measured yet; true when a column got wider. */
  measure(rs: ResultSet): boolean {
    let wider = false;
    for (const [page, rows] of rs.pages) {
      if (this.#measured.has(page)) continue;
      this.#measured.add(page);
      for (const row of rows) {
        for (let i = 0; i < this.chars.length; i++) {
          const n = cellText(row[i]).length;
          if (n > this.chars[i]) {
            this.chars[i] = n;
            wider = true;
          }
        }
      }
    }
    return wider;
  }

  /** Pixel widths, capped by the "Maximum column width" setting. */
  widths(maxPx: number): number[] {
    return this.chars.map((n) => Math.max(COL_MIN_PX, Math.min(maxPx, Math.round(n * CHAR_PX + PADDING_PX))));
  }
}

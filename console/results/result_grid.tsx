/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The result grid: virtualised rows and columns over a ResultSet, header with each column's
 * name and type, text-only cells (never HTML), distinct NULLs, click and keyboard cell
 * selection (arrows, PgUp/PgDn, Home/End, Ctrl+Home/End), Ctrl/Cmd+C copies the cell and
 * Ctrl/Cmd+Shift+C the row, and drag-to-resize columns (spec/console.md §2.5, P0 item 7).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { Column } from "../api/types.ts";
import { copyText } from "../ui/clipboard.ts";
import { cellText, columnTypeName, isArrayType, isNumericType, isTemporalType, toTsv } from "../ui/format.ts";
import { useStore } from "../ui/store.ts";
import { formatInZone, timeZoneStore, zoneName } from "../ui/time_zone.ts";
import { editorSettingsStore } from "../ui/editor_settings.ts";
import { columnWindow, HEADER_PX, ROW_PX, rowWindow, scrollTopFor, virtualHeight } from "./grid_geometry.ts";
import { PAGE_ROWS, type ResultSet } from "./result_set.ts";
import { COL_MIN_PX, ColumnSizer } from "./column_sizer.ts";

const ROWNUM_PX = 64;

export interface CellPos {
  row: number;
  col: number;
}

/** Selected cell of the visible grid, for the toolbar's copy-row action. */
export let selectedCell: CellPos | null = null;

function useViewportSize(ref: { current: HTMLElement | null }): { w: number; h: number } {
  const [size, setSize] = useState({ w: 800, h: 400 });
  useLayoutEffect(() => {
    const el = ref.current!;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    setSize({ w: el.clientWidth, h: el.clientHeight });
    return () => ro.disconnect();
  }, []);
  return size;
}

function HeaderCell(
  props: {
    column: Column;
    index: number;
    left: number;
    width: number;
    /** The display zone, for timestamp columns. */
    zone?: string;
    onResize(px: number): void;
  },
) {
  const startDrag = (e: MouseEvent) => {
    e.preventDefault();
    const x0 = e.clientX, w0 = props.width;
    const move = (m: MouseEvent) => props.onResize(Math.max(COL_MIN_PX, w0 + m.clientX - x0));
    const up = () => {
      removeEventListener("mousemove", move);
      removeEventListener("mouseup", up);
    };
    addEventListener("mousemove", move);
    addEventListener("mouseup", up);
  };
  const { column } = props;
  const type = columnTypeName(column).toLowerCase();
  return (
    <div
      class={`grid-header-cell${isNumericType(column.type) ? " num" : ""}`}
      data-testid="grid-header-cell"
      data-col={props.index}
      data-type={type}
      style={`left:${props.left}px;width:${props.width}px`}
      title={`${column.name} (${type})`}
    >
      <span class="grid-header-name" data-testid="grid-header-name">{column.name}</span>
      <span class="grid-header-meta">
        <span class="grid-header-type" data-testid="grid-header-type">{type}</span>
        {props.zone && <span class="grid-header-zone" data-testid="grid-header-zone">· {props.zone}</span>}
      </span>
      <span class="grid-resize" onMouseDown={startDrag} />
    </div>
  );
}

export function ResultGrid(props: { resultSet: ResultSet }) {
  const rs = props.resultSet;
  const viewport = useRef<HTMLDivElement>(null);
  const size = useViewportSize(viewport);
  const [scroll, setScroll] = useState({ top: 0, left: 0 });
  const maxColumnWidth = useStore(editorSettingsStore).maxColumnWidth;
  // Widths follow every page fetched so far (column_sizer.ts); a column the user resized keeps
  // its width until the result or the maximum changes.
  const sizer = useRef<{ rs: ResultSet; sizer: ColumnSizer } | null>(null);
  const manual = useRef(new Map<number, number>());
  // Read through a ref: the page listener below outlives the render that set it up.
  const maxWidth = useRef(maxColumnWidth);
  maxWidth.current = maxColumnWidth;
  const measured = () => {
    if (sizer.current?.rs !== rs) sizer.current = { rs, sizer: new ColumnSizer(rs.columns) };
    sizer.current.sizer.measure(rs);
    return sizer.current.sizer.widths(maxWidth.current).map((w, i) => manual.current.get(i) ?? w);
  };
  const [widths, setWidths] = useState(measured);
  const [sel, setSel] = useState<CellPos | null>(null);
  const [, setVersion] = useState(0);

  useEffect(() => {
    manual.current.clear();
    setWidths(measured());
    setSel(null);
    setScroll({ top: 0, left: 0 });
    if (viewport.current) viewport.current.scrollTop = viewport.current.scrollLeft = 0;
    return rs.onChange(() => {
      // A page that arrived may hold wider values than the ones measured so far.
      if (sizer.current?.rs === rs && sizer.current.sizer.measure(rs)) setWidths(measured());
      setVersion(rs.version);
    });
  }, [rs]);
  // A new maximum applies at once to the result on screen (manual resizes start over).
  useEffect(() => {
    manual.current.clear();
    setWidths(measured());
  }, [maxColumnWidth]);
  selectedCell = sel;

  const lefts = useMemo(
    () =>
      widths.reduce<number[]>(
        (acc, _w, i) => (acc.push(i ? acc[i - 1] + widths[i - 1] : ROWNUM_PX), acc),
        [],
      ),
    [widths],
  );
  const totalWidth = lefts.length ? lefts[lefts.length - 1] + widths[widths.length - 1] : ROWNUM_PX;
  const win = rowWindow(scroll.top, size.h, rs.rowCount);
  const cols = columnWindow(lefts, widths, scroll.left, size.w);
  const numeric = useMemo(() => rs.columns.map((c) => isNumericType(c.type)), [rs]);
  const array = useMemo(() => rs.columns.map((c) => isArrayType(c.type)), [rs]);
  const temporal = useMemo(() => rs.columns.map((c) => isTemporalType(c.type)), [rs]);
  const zone = useStore(timeZoneStore);

  useEffect(() => rs.ensure(win.firstRow - PAGE_ROWS / 4, win.firstRow + win.rowCount + PAGE_ROWS / 4), [
    rs,
    win.firstRow,
    win.rowCount,
  ]);

  const moveTo = (row: number, col: number) => {
    row = Math.max(0, Math.min(rs.rowCount - 1, row));
    col = Math.max(0, Math.min(rs.columns.length - 1, col));
    setSel({ row, col });
    const el = viewport.current!;
    const top = scrollTopFor(row, el.scrollTop, el.clientHeight, rs.rowCount);
    if (top !== null) el.scrollTop = top;
    if (lefts[col] < el.scrollLeft) el.scrollLeft = lefts[col];
    else if (lefts[col] + widths[col] > el.scrollLeft + el.clientWidth) {
      el.scrollLeft = lefts[col] + widths[col] - el.clientWidth;
    }
  };

  const onKey = (e: KeyboardEvent) => {
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === "c" && sel) {
      e.preventDefault();
      const row = rs.row(sel.row);
      if (!row) return;
      if (e.shiftKey) void copyText(toTsv(null, [row]), "Row copied");
      else void copyText(cellText(row[sel.col]), "Cell copied");
      return;
    }
    const page = Math.max(1, Math.floor((size.h - HEADER_PX) / ROW_PX) - 1);
    const at = sel ?? { row: win.firstRow, col: 0 };
    const moves: Record<string, () => void> = {
      ArrowDown: () => moveTo(at.row + 1, at.col),
      ArrowUp: () => moveTo(at.row - 1, at.col),
      ArrowLeft: () => moveTo(at.row, at.col - 1),
      ArrowRight: () => moveTo(at.row, at.col + 1),
      PageDown: () => moveTo(at.row + page, at.col),
      PageUp: () => moveTo(at.row - page, at.col),
      Home: () => moveTo(mod ? 0 : at.row, 0),
      End: () => moveTo(mod ? rs.rowCount - 1 : at.row, mod ? at.col : rs.columns.length - 1),
    };
    if (moves[e.key]) {
      e.preventDefault();
      moves[e.key]();
    }
  };

  const rows = [];
  for (let i = 0; i < win.rowCount; i++) {
    const index = win.firstRow + i;
    const row = rs.row(index);
    const cells = [];
    for (let c = cols.first; c <= cols.last && c < rs.columns.length; c++) {
      const v = row?.[c];
      const isNull = row !== undefined && v === null;
      const selected = sel !== null && sel.row === index && sel.col === c;
      cells.push(
        <div
          key={c}
          class={`grid-cell${numeric[c] ? " num" : ""}${array[c] ? " array" : ""}${isNull ? " null" : ""}${
            selected ? " selected" : ""
          }${row ? "" : " loading"}`}
          data-testid="grid-cell"
          data-row={index}
          data-col={c}
          data-null={isNull ? "true" : undefined}
          style={`left:${lefts[c]}px;width:${widths[c]}px`}
          onMouseDown={() => setSel({ row: index, col: c })}
        >
          {row ? (temporal[c] && typeof v === "string" ? formatInZone(v, zone) : cellText(v)) : ""}
        </div>,
      );
    }
    rows.push(
      <div
        key={index}
        class={`grid-row${index % 2 ? " odd" : ""}`}
        data-testid="grid-row"
        data-row={index}
        data-loaded={row ? "true" : "false"}
        style={`top:${i * ROW_PX - win.offsetPx}px;width:${totalWidth}px`}
      >
        <div class="grid-rownum" style={`width:${ROWNUM_PX}px`}>{index + 1}</div>
        {cells}
      </div>,
    );
  }

  // The row layer follows the scroll position (clamped to the scrollable range) and draws the window.
  const bodyTop = HEADER_PX +
    Math.min(scroll.top, Math.max(0, HEADER_PX + virtualHeight(rs.rowCount) - size.h));

  return (
    <div
      class="result-grid"
      data-testid="result-grid"
      data-row-count={rs.rowCount}
      tabIndex={0}
      ref={viewport}
      onKeyDown={onKey}
      onScroll={(e) =>
        setScroll({
          top: (e.currentTarget as HTMLElement).scrollTop,
          left: (e.currentTarget as HTMLElement).scrollLeft,
        })}
    >
      <div
        class="grid-canvas"
        style={`width:${totalWidth}px;height:${HEADER_PX + virtualHeight(rs.rowCount)}px`}
      >
        <div class="grid-header" style={`width:${totalWidth}px;height:${HEADER_PX}px`}>
          <div class="grid-corner" style={`width:${ROWNUM_PX}px`}>#</div>
          {rs.columns.slice(cols.first, cols.last + 1).map((c, k) => {
            const i = cols.first + k;
            return (
              <HeaderCell
                key={i}
                column={c}
                index={i}
                left={lefts[i]}
                width={widths[i]}
                zone={temporal[i] ? zoneName(zone) : undefined}
                onResize={(px) => {
                  manual.current.set(i, px);
                  setWidths((w) => w.map((x, j) => (j === i ? px : x)));
                }}
              />
            );
          })}
        </div>
        <div
          class="grid-body"
          style={`top:${bodyTop}px;height:${Math.max(0, size.h - HEADER_PX)}px;width:${totalWidth}px`}
        >
          {rows}
        </div>
      </div>
      {rs.rowCount === 0 && <div class="grid-empty">No rows</div>}
    </div>
  );
}

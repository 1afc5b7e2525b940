/**
 * Turns a fetched result into uPlot's column arrays: the x axis is the designated (or first)
 * timestamp column as epoch milliseconds when there is one, else a numeric column, else the
 * row's category label; series are numeric columns. Kept pure so it can be reasoned about
 * apart from the drawing.
 */
import type { Column, Row } from "../api/types.ts";
import { isArrayType, isNumericType, isTemporalType } from "../ui/format.ts";

export type ChartType = "line" | "area" | "bar" | "scatter";
export const CHART_TYPES: ChartType[] = ["line", "area", "bar", "scatter"];
export const SERIES_DEFAULT_MAX = 10;

export interface ChartConfig {
  type: ChartType;
  x: number;
  series: number[];
  /**
   * "Partition by": a categorical column whose values each get their own line (spec/console.md
   * §2.7), -1 for none, or undefined until the data has arrived and the automatic choice ran.
   */
  partition?: number;
}

/** Most lines a partitioned chart draws; further categories are left out (and counted). */
export const PARTITIONS_MAX = 20;

export interface ChartData {
  xs: Float64Array;
  ys: (number | null)[][];
  /** One legend name per entry of `ys`. */
  names: string[];
  /** Category labels when x is not numeric or temporal. */
  labels: string[] | null;
  temporal: boolean;
}

const CATEGORICAL = /^(SYMBOL|STRING|VARCHAR|CHAR|BOOLEAN)$/i;

export function isCategoricalType(type: string): boolean {
  return CATEGORICAL.test(type);
}

/**
 * The automatic partition (spec/console.md §2.7): with a temporal x, the first categorical
 * column with at most PARTITIONS_MAX distinct values in the fetched rows; otherwise none.
 */
export function autoPartition(columns: Column[], rows: Row[], config: ChartConfig): number {
  if (!isTemporalType(columns[config.x]?.type ?? "") || config.series.length === 0) return -1;
  for (let c = 0; c < columns.length; c++) {
    if (c === config.x || !isCategoricalType(columns[c].type)) continue;
    const distinct = new Set<unknown>();
    for (const r of rows) {
      distinct.add(r[c]);
      if (distinct.size > PARTITIONS_MAX) break;
    }
    if (distinct.size > 1 && distinct.size <= PARTITIONS_MAX) return c;
  }
  return -1;
}

/** Epoch ms of `2024-01-01T00:00:00.000000Z` without Date.parse's slow path. */
export function parseIsoMs(s: string): number {
  if (s.length >= 20 && s[4] === "-" && s[10] === "T") {
    const ms = Date.UTC(
      +s.slice(0, 4),
      +s.slice(5, 7) - 1,
      +s.slice(8, 10),
      +s.slice(11, 13),
      +s.slice(14, 16),
      +s.slice(17, 19),
    );
    const frac = s[19] === "." ? s.slice(20, s.length - 1) : "";
    return frac ? ms + Number(frac) / 10 ** (frac.length - 3) : ms;
  }
  return Date.parse(s);
}

export function defaultConfig(columns: Column[], timestampIndex: number): ChartConfig {
  const temporal = columns.findIndex((c) => isTemporalType(c.type));
  const plain = columns.findIndex((c) => !isArrayType(c.type));
  const x = timestampIndex >= 0 ? timestampIndex : temporal >= 0 ? temporal : Math.max(0, plain);
  const numeric = columns.map((c, i) => (i !== x && isNumericType(c.type) ? i : -1)).filter((i) => i >= 0);
  const xIsCategory = !isTemporalType(columns[x]?.type ?? "") && !isNumericType(columns[x]?.type ?? "");
  return { type: xIsCategory ? "bar" : "line", x, series: numeric.slice(0, SERIES_DEFAULT_MAX) };
}

function toNumber(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  const n = typeof v === "number" ? v : typeof v === "boolean" ? Number(v) : Number(v);
  return Number.isFinite(n) ? n : null;
}

export function chartData(columns: Column[], rows: Row[], config: ChartConfig): ChartData {
  if ((config.partition ?? -1) >= 0) return partitioned(columns, rows, config);
  const xType = columns[config.x]?.type ?? "";
  const temporal = isTemporalType(xType);
  const numericX = isNumericType(xType);
  const xs = new Float64Array(rows.length);
  const labels = temporal || numericX ? null : rows.map((r) => String(r[config.x] ?? "null"));
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i][config.x];
    xs[i] = temporal ? (typeof v === "string" ? parseIsoMs(v) : NaN) : numericX ? (toNumber(v) ?? NaN) : i;
  }
  const ys = config.series.map((c) => rows.map((r) => toNumber(r[c])));
  return { xs, ys, names: config.series.map((c) => columns[c]?.name ?? ""), labels, temporal };
}

/**
 * One line per category value (and per series column): x is the sorted union of every x, and
 * a category without a row at some x has a gap there.
 */
function partitioned(columns: Column[], rows: Row[], config: ChartConfig): ChartData {
  const p = config.partition!;
  const temporal = isTemporalType(columns[config.x]?.type ?? "");
  const xOf = (r: Row) => {
    const v = r[config.x];
    return temporal ? (typeof v === "string" ? parseIsoMs(v) : NaN) : (toNumber(v) ?? NaN);
  };
  const categories: string[] = [];
  const index = new Map<string, number>();
  for (const r of rows) {
    const key = String(r[p] ?? "null");
    if (!index.has(key) && categories.length < PARTITIONS_MAX) {
      index.set(key, categories.length);
      categories.push(key);
    }
  }
  const xsSorted = [...new Set(rows.map(xOf).filter((x) => !Number.isNaN(x)))].sort((a, b) => a - b);
  const at = new Map(xsSorted.map((x, i) => [x, i]));
  const ys: (number | null)[][] = [];
  const names: string[] = [];
  for (const c of config.series) {
    const base = ys.length;
    for (const cat of categories) {
      ys.push(new Array<number | null>(xsSorted.length).fill(null));
      names.push(config.series.length > 1 ? `${cat} · ${columns[c].name}` : cat);
    }
    for (const r of rows) {
      const g = index.get(String(r[p] ?? "null"));
      const i = at.get(xOf(r));
      if (g !== undefined && i !== undefined) ys[base + g][i] = toNumber(r[c]);
    }
  }
  return { xs: Float64Array.from(xsSorted), ys, names, labels: null, temporal };
}

/** Most bars a chart draws; beyond this, consecutive points are averaged into one bar. */
export const BARS_MAX = 1000;

/**
 * Averages consecutive points into at most `buckets` groups (x of a group = its first x), so a
 * bar chart of 100k rows draws 1000 bars instead of stalling the page on 100k rectangles.
 */
export function downsample(data: ChartData, buckets: number): ChartData {
  const n = data.xs.length;
  if (n <= buckets) return data;
  const size = n / buckets;
  const xs = new Float64Array(buckets);
  const ys = data.ys.map(() => new Array<number | null>(buckets));
  const labels = data.labels ? new Array<string>(buckets) : null;
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size), to = Math.floor((b + 1) * size);
    xs[b] = data.labels ? b : data.xs[from];
    if (labels) labels[b] = data.labels![from];
    for (let s = 0; s < data.ys.length; s++) {
      let sum = 0, count = 0;
      for (let i = from; i < to; i++) {
        const v = data.ys[s][i];
        if (v !== null) (sum += v, count++);
      }
      ys[s][b] = count ? sum / count : null;
    }
  }
  return { xs, ys, names: data.names, labels, temporal: data.temporal };
}

/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The chart view of the current result, drawn with uPlot (canvas, fast with 100k points):
 * line, area, bar and scatter, time on the x axis when the result has a timestamp column, and
 * the user picks the x column and the series. The data is a separate fetch of the same SQL
 * capped at CHART_ROWS_MAX rows, with a truncation notice (spec/console.md §2.7).
 */
import uPlot from "uplot";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { exec } from "../api/exec_client.ts";
import type { Column, Row } from "../api/types.ts";
import { formatCount, isArrayType, isNumericType } from "../ui/format.ts";
import {
  autoPartition,
  BARS_MAX,
  CHART_TYPES,
  type ChartConfig,
  chartData,
  type ChartType,
  defaultConfig,
  downsample,
  isCategoricalType,
} from "./chart_data.ts";

export const CHART_ROWS_MAX = 100_000;
const PALETTE = [
  "#50fa7b",
  "#8be9fd",
  "#ff79c6",
  "#ffb86c",
  "#bd93f9",
  "#f1fa8c",
  "#ff5555",
  "#6272a4",
  "#a4ffff",
  "#ffd6a5",
];

interface Fetched {
  status: "loading" | "ready" | "error";
  columns: Column[];
  rows: Row[];
  count: number;
  error?: string;
}

function seriesPaths(type: ChartType): Partial<uPlot.Series> {
  if (type === "bar") return { paths: uPlot.paths.bars!({ size: [0.7, 60] }), points: { show: false } };
  if (type === "scatter") return { paths: () => null, points: { show: true, size: 4, space: 0 } };
  return { points: { show: false } };
}

function buildOptions(
  columns: Column[],
  config: ChartConfig,
  names: string[],
  temporal: boolean,
  labels: string[] | null,
  width: number,
  height: number,
): uPlot.Options {
  const axis = {
    stroke: "#a6accd",
    grid: { stroke: "rgba(255,255,255,0.07)" },
    ticks: { stroke: "rgba(255,255,255,0.12)" },
  };
  return {
    width,
    height,
    ms: 1,
    // Timestamps are shown in UTC, as the grid shows them (spec/console.md §5 gap 3).
    tzDate: (ts: number) => uPlot.tzDate(new Date(ts), "Etc/UTC"),
    legend: { show: true, live: true },
    cursor: { drag: { x: true, y: false } },
    scales: { x: { time: temporal } },
    axes: [
      {
        ...axis,
        values: labels
          ? (_u: uPlot, ticks: number[]) => ticks.map((t) => labels[Math.round(t)] ?? "")
          : undefined,
      },
      {
        ...axis,
        // Wide enough for the longest tick label, so large values are not clipped.
        size: (
          _u: uPlot,
          values: string[],
        ) => (values?.length ? Math.max(...values.map((v) => v.length)) * 7 + 24 : 50),
      },
    ],
    series: [
      { label: columns[config.x]?.name ?? "x" },
      ...names.map((name, k) => {
        const color = PALETTE[k % PALETTE.length];
        return {
          label: name,
          stroke: color,
          width: 1.5,
          fill: config.type === "area" || config.type === "bar" ? color + "55" : undefined,
          ...seriesPaths(config.type),
        };
      }),
    ],
  };
}

function useFetched(query: string): Fetched {
  const [state, setState] = useState<Fetched>({ status: "loading", columns: [], rows: [], count: 0 });
  useEffect(() => {
    const abort = new AbortController();
    setState({ status: "loading", columns: [], rows: [], count: 0 });
    exec(query, { limit: `0,${CHART_ROWS_MAX}`, count: true, src: "vis", signal: abort.signal }).then(
      (out) => {
        if (out.kind === "rows") {
          setState({ status: "ready", columns: out.columns, rows: out.rows, count: out.count });
        } else if (out.kind === "error") {
          setState({ status: "error", columns: [], rows: [], count: 0, error: out.error });
        }
      },
    );
    return () => abort.abort();
  }, [query]);
  return state;
}

export function ChartView(props: { query: string; columns: Column[]; timestampIndex: number }) {
  const fetched = useFetched(props.query);
  const [config, setConfig] = useState<ChartConfig>(() => defaultConfig(props.columns, props.timestampIndex));
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const data = useMemo(
    () => (fetched.status === "ready" ? chartData(fetched.columns, fetched.rows, config) : null),
    [fetched, config.x, config.series, config.partition],
  );
  // Once the rows are in, pick the partition column automatically (unless the user chose).
  useEffect(() => {
    if (fetched.status === "ready" && config.partition === undefined) {
      setConfig({ ...config, partition: autoPartition(fetched.columns, fetched.rows, config) });
    }
  }, [fetched, config]);
  // Lines and areas are decimated by uPlot itself; bars are averaged down to BARS_MAX.
  const drawn = useMemo(() => (data && config.type === "bar" ? downsample(data, BARS_MAX) : data), [
    data,
    config.type,
  ]);
  useEffect(() => setConfig(defaultConfig(props.columns, props.timestampIndex)), [props.query]);

  useEffect(() => {
    const el = host.current;
    if (!el || !drawn) return;
    const opts = buildOptions(
      fetched.columns,
      config,
      drawn.names,
      drawn.temporal,
      drawn.labels,
      el.clientWidth,
      Math.max(160, el.clientHeight - 34),
    );
    plot.current = new uPlot(opts, [drawn.xs as unknown as number[], ...drawn.ys] as uPlot.AlignedData, el);
    const ro = new ResizeObserver(() =>
      plot.current?.setSize({ width: el.clientWidth, height: Math.max(160, el.clientHeight - 34) })
    );
    ro.observe(el);
    return () => {
      ro.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [drawn, config.type]);

  const numericCols = props.columns.map((c, i) => ({ c, i })).filter(({ c, i }) =>
    i !== config.x && isNumericType(c.type)
  );
  const truncated = fetched.count > fetched.rows.length;
  const toggleSeries = (i: number) =>
    setConfig({
      ...config,
      series: config.series.includes(i)
        ? config.series.filter((s) => s !== i)
        : [...config.series, i].sort((a, b) => a - b),
    });

  return (
    <div
      class="chart-panel"
      data-testid="chart-panel"
      data-status={fetched.status}
      data-chart-type={config.type}
      data-x={props.columns[config.x]?.name ?? ""}
      data-series-count={data?.ys.length ?? config.series.length}
      data-partition={(config.partition ?? -1) >= 0 ? props.columns[config.partition!]?.name : ""}
      data-point-count={data?.xs.length ?? 0}
      data-truncated={truncated ? "true" : "false"}
      data-drawn-count={drawn?.xs.length ?? 0}
    >
      <div class="chart-controls">
        <label>
          Type{" "}
          <select
            data-testid="chart-type-select"
            value={config.type}
            onChange={(e) =>
              setConfig({ ...config, type: (e.currentTarget as HTMLSelectElement).value as ChartType })}
          >
            {CHART_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </label>
        <label>
          X{" "}
          <select
            data-testid="chart-x-select"
            value={String(config.x)}
            onChange={(e) => {
              const x = Number((e.currentTarget as HTMLSelectElement).value);
              setConfig({ ...config, x, series: config.series.filter((s) => s !== x) });
            }}
          >
            {/* An array cell is no point on an axis: arrays are neither x nor series. */}
            {props.columns.map((c, i) =>
              (i === config.x || !isArrayType(c.type)) && <option key={i} value={String(i)}>{c.name}</option>
            )}
          </select>
        </label>
        <label>
          Partition by{" "}
          <select
            data-testid="chart-partition-select"
            value={String(config.partition ?? -1)}
            onChange={(e) =>
              setConfig({ ...config, partition: Number((e.currentTarget as HTMLSelectElement).value) })}
          >
            <option value="-1">none</option>
            {props.columns.map((c, i) =>
              i !== config.x && isCategoricalType(c.type) && (
                <option key={i} value={String(i)}>{c.name}</option>
              )
            )}
          </select>
        </label>
        <div class="chart-series" data-testid="chart-series-select" role="group" aria-label="Series">
          {numericCols.map(({ c, i }) => (
            <label key={i} class="chart-series-item" data-series={c.name}>
              <input type="checkbox" checked={config.series.includes(i)} onChange={() => toggleSeries(i)} />
              {" "}
              {c.name}
            </label>
          ))}
          {numericCols.length === 0 && <span class="dim">no numeric columns to plot</span>}
        </div>
        {truncated && (
          <span class="chart-note" data-testid="chart-truncated">
            First {formatCount(fetched.rows.length)} of {formatCount(fetched.count)} rows shown
          </span>
        )}
      </div>
      {fetched.status === "loading" && <div class="chart-message">Loading chart data…</div>}
      {fetched.status === "error" && <div class="chart-message error">{fetched.error}</div>}
      <div class="chart-canvas" ref={host} />
    </div>
  );
}

/**
 * Prometheus text exposition format 0.0.4: one `# HELP` and `# TYPE` line per family, then its
 * samples. Families are written in the order they are added; a family is written once even when
 * several listeners add samples to it.
 */

export type MetricType = "counter" | "gauge" | "histogram";

export interface Sample {
  /** Labels of the sample; `le` is added by `histogram`. */
  labels?: Record<string, string>;
  value: number;
  /** Suffix of a histogram's sample names (`_bucket`, `_sum`, `_count`). */
  suffix?: string;
}

interface Family {
  help: string;
  type: MetricType;
  samples: Sample[];
}

export class PrometheusText {
  readonly #families = new Map<string, Family>();

  /** Adds one sample to family `name` (created with `help` and `type` on first use). */
  add(name: string, type: MetricType, help: string, value: number, labels?: Record<string, string>): void {
    this.#family(name, type, help).samples.push({ value, labels });
  }

  /**
   * A histogram from per-bucket counts (not cumulative; the last entry is +Inf) with upper
   * bounds `bounds`: writes the cumulative `_bucket` samples, `_sum` and `_count`.
   */
  histogram(
    name: string,
    help: string,
    data: { bounds: readonly number[]; counts: number[]; sum: number; labels?: Record<string, string> },
  ): void {
    const f = this.#family(name, "histogram", help);
    let cumulative = 0;
    data.counts.forEach((n, i) => {
      cumulative += n;
      const le = i < data.bounds.length ? String(data.bounds[i]) : "+Inf";
      f.samples.push({ suffix: "_bucket", labels: { ...data.labels, le }, value: cumulative });
    });
    f.samples.push({ suffix: "_sum", labels: data.labels, value: data.sum });
    f.samples.push({ suffix: "_count", labels: data.labels, value: cumulative });
  }

  #family(name: string, type: MetricType, help: string): Family {
    let f = this.#families.get(name);
    if (!f) this.#families.set(name, f = { help, type, samples: [] });
    return f;
  }

  toString(): string {
    const out: string[] = [];
    for (const [name, f] of this.#families) {
      out.push(`# HELP ${name} ${escapeHelp(f.help)}`, `# TYPE ${name} ${f.type}`);
      for (const s of f.samples) {
        out.push(`${name}${s.suffix ?? ""}${labelText(s.labels)} ${numberText(s.value)}`);
      }
    }
    return out.join("\n") + "\n";
  }
}

function labelText(labels: Record<string, string> | undefined): string {
  if (!labels || Object.keys(labels).length === 0) return "";
  const parts = Object.entries(labels).map(([k, v]) =>
    `${k}="${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n")}"`
  );
  return `{${parts.join(",")}}`;
}

function escapeHelp(text: string): string {
  return text.replaceAll("\\", "\\\\").replaceAll("\n", "\\n");
}

function numberText(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

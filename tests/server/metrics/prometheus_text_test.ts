import assert from "node:assert/strict";
import { PrometheusText } from "../../../server/metrics/prometheus_text.ts";

Deno.test("prometheus text writes one HELP and TYPE per family and escapes label values", () => {
  const out = new PrometheusText();
  out.add("a_total", "counter", "things", 1, { k: 'x"y\\z' });
  out.add("a_total", "counter", "things", 2, { k: "w" });
  assert.equal(
    out.toString(),
    '# HELP a_total things\n# TYPE a_total counter\na_total{k="x\\"y\\\\z"} 1\na_total{k="w"} 2\n',
  );
});

Deno.test("prometheus text histogram buckets are cumulative and end in +Inf", () => {
  const out = new PrometheusText();
  out.histogram("lat_seconds", "latency", { bounds: [0.1, 1], counts: [2, 0, 3], sum: 7.5 });
  const lines = out.toString().trim().split("\n").slice(2);
  assert.deepEqual(lines, [
    'lat_seconds_bucket{le="0.1"} 2',
    'lat_seconds_bucket{le="1"} 2',
    'lat_seconds_bucket{le="+Inf"} 5',
    "lat_seconds_sum 7.5",
    "lat_seconds_count 5",
  ]);
});

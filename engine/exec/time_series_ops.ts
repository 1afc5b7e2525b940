/**
 * Registers the time-series operators with the plan runner: SAMPLE BY, LATEST ON, ASOF/LT/
 * SPLICE JOIN and window functions. Imported once by `engine/engine.ts` for its side effect.
 */
import type { PlanNode } from "../plan/plan_node.ts";
import { runAsofJoin } from "./asof_join.ts";
import { runLatestBy } from "./latest_by.ts";
import "../plan/plan_time_series.ts";
import { registerOperator } from "./run_plan.ts";
import { runSampleBy } from "./sample_by.ts";
import { runWindow } from "./window.ts";

registerOperator(
  "sampleBy",
  (n, ctx, run) => runSampleBy(n as Extract<PlanNode, { kind: "sampleBy" }>, ctx, run),
);
registerOperator(
  "latestBy",
  (n, ctx, run) => runLatestBy(n as Extract<PlanNode, { kind: "latestBy" }>, ctx, run),
);
registerOperator("asof", (n, ctx, run) => runAsofJoin(n as Extract<PlanNode, { kind: "asof" }>, ctx, run));
registerOperator("window", (n, ctx, run) => runWindow(n as Extract<PlanNode, { kind: "window" }>, ctx, run));

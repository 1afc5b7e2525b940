/**
 * Registers the time-series planners with the SELECT and FROM planners (spec/sql.md §9–§12):
 * LATEST ON / LATEST BY, SAMPLE BY, ASOF/LT/SPLICE joins and window functions. Imported once
 * by `engine/engine.ts` for its side effect.
 */
import { planAsofJoin } from "./plan_asof.ts";
import { setTimeJoinPlanner } from "./plan_from.ts";
import { planLatestOn } from "./plan_latest_on.ts";
import { planSampleBy } from "./plan_sample_by.ts";
import { setTimeSeriesPlanner, setWindowPlanner } from "./plan_select.ts";
import { planWindows } from "./plan_window.ts";

setTimeSeriesPlanner((core, node, scope, pc) => {
  if (core.latestOn) {
    if (core.sampleBy) {
      const r = planLatestOn(core, node, scope, pc);
      return { node: planSampleBy(core, r.node, r.scope, pc), done: true };
    }
    const r = planLatestOn(core, node, scope, pc);
    return { node: r.node, scope: r.scope, done: false };
  }
  return { node: planSampleBy(core, node, scope, pc), done: true };
});

setTimeJoinPlanner(planAsofJoin);
setWindowPlanner(planWindows);

// Entry point of the kernel module: the exports below are the whole interface that mod.ts
// calls. Every kernel takes byte offsets into the imported memory and row counts.

import { RESULT } from "./common";

export {
  count_f32, count_f64, count_i16, count_i32, count_i64, count_i8, count_in_set,
  count_sel_f32, count_sel_f64, count_sel_i16, count_sel_i32, count_sel_i64, count_sel_i8, count_sel_in_set,
  filter_f32, filter_f64, filter_i16, filter_i32, filter_i64, filter_i8, filter_in_set,
  filter_sel_f32, filter_sel_f64, filter_sel_i16, filter_sel_i32, filter_sel_i64, filter_sel_i8, filter_sel_in_set,
} from "./filter";
export {
  stats_f32, stats_f64, stats_i16, stats_i32, stats_i64, stats_i8,
  stats_sel_f32, stats_sel_f64, stats_sel_i16, stats_sel_i32, stats_sel_i64, stats_sel_i8,
} from "./aggregate";
export {
  keyed_count, keyed_count_sel,
  keyed_max_f32, keyed_max_f64, keyed_max_i32, keyed_max_i64,
  keyed_max_sel_f32, keyed_max_sel_f64, keyed_max_sel_i32, keyed_max_sel_i64,
  keyed_min_f32, keyed_min_f64, keyed_min_i32, keyed_min_i64,
  keyed_min_sel_f32, keyed_min_sel_f64, keyed_min_sel_i32, keyed_min_sel_i64,
  keyed_sum_f32, keyed_sum_f64, keyed_sum_i32, keyed_sum_i64,
  keyed_sum_sel_f32, keyed_sum_sel_f64, keyed_sum_sel_i32, keyed_sum_sel_i64,
  keyed_stats_f32, keyed_stats_f64, keyed_stats_i32, keyed_stats_i64,
  keyed_stats_sel_f32, keyed_stats_sel_f64, keyed_stats_sel_i32, keyed_stats_sel_i64,
} from "./keyed";
export {
  keyed_fold1, keyed_fold1_sel, keyed_fold2, keyed_fold2_sel,
  keyed_fold3, keyed_fold3_sel, keyed_fold4, keyed_fold4_sel,
  keyed_fold_f, keyed_fold_f_sel, keyed_fold_l, keyed_fold_l_sel,
  keyed_fold_ff, keyed_fold_ff_sel, keyed_fold_fl, keyed_fold_fl_sel,
  keyed_fold_lf, keyed_fold_lf_sel, keyed_fold_ll, keyed_fold_ll_sel,
  keyed_fold_fff, keyed_fold_fff_sel, keyed_fold_ffl, keyed_fold_ffl_sel,
  keyed_fold_flf, keyed_fold_flf_sel, keyed_fold_fll, keyed_fold_fll_sel,
  keyed_fold_lff, keyed_fold_lff_sel, keyed_fold_lfl, keyed_fold_lfl_sel,
  keyed_fold_llf, keyed_fold_llf_sel, keyed_fold_lll, keyed_fold_lll_sel,
  keyed_fold_ffff, keyed_fold_ffff_sel, keyed_fold_fffl, keyed_fold_fffl_sel,
  keyed_fold_fflf, keyed_fold_fflf_sel, keyed_fold_ffll, keyed_fold_ffll_sel,
  keyed_fold_flff, keyed_fold_flff_sel, keyed_fold_flfl, keyed_fold_flfl_sel,
  keyed_fold_fllf, keyed_fold_fllf_sel, keyed_fold_flll, keyed_fold_flll_sel,
  keyed_fold_lfff, keyed_fold_lfff_sel, keyed_fold_lffl, keyed_fold_lffl_sel,
  keyed_fold_lflf, keyed_fold_lflf_sel, keyed_fold_lfll, keyed_fold_lfll_sel,
  keyed_fold_llff, keyed_fold_llff_sel, keyed_fold_llfl, keyed_fold_llfl_sel,
  keyed_fold_lllf, keyed_fold_lllf_sel, keyed_fold_llll, keyed_fold_llll_sel,
} from "./keyed_fold";
export { segments_f32, segments_f64, segments_i32, segments_i64 } from "./segments";
export { group_ids, sum128_i64, sum128_sel_i64 } from "./groups";
export { lower_bound_i64, lower_bounds_i64, upper_bound_i64 } from "./search";
export { gather, gather_or_null, reverse, sel_union, sequence } from "./gather";
export { asof_merge } from "./asof";
export { binop_f64, binop_i64, topn_f64 } from "./expr";
export { format_f64, format_i64, json_rows } from "./text";

/** End of the compiler's static data; mod.ts checks it lies below the reserved 1 MiB. */
export function static_end(): usize {
  return __heap_base;
}

/** Address of the 32-byte result block of the unkeyed aggregates (layout in common.ts). */
export function result_block(): usize {
  return RESULT;
}

/** Any failed check inside the module traps: mod.ts validates arguments before calling. */
function trap(message: usize, fileName: usize, line: u32, column: u32): void {
  unreachable();
}

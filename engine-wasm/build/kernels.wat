(module
 (type $0 (func (param i32 i32 i32 i32 i32 i32)))
 (type $1 (func (param i32 i32)))
 (type $2 (func (param i32 i32 i32 i32 i32)))
 (type $3 (func (param i32 i32 i32 i32 i32 i32) (result i32)))
 (type $4 (func (param i32 i32 i32)))
 (type $5 (func (param i32 i32 i32 i32 i32) (result i32)))
 (type $6 (func (param i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32 i32)))
 (type $7 (func (param i32 i32 i32 i32 i32 i32 i32)))
 (type $8 (func (param i32 i32 i32 i32)))
 (type $9 (func (param i32 i32 i32 i32 i32 i32 i32) (result i32)))
 (type $10 (func (param i32 i32 i32 i64) (result i32)))
 (type $11 (func (result i32)))
 (type $12 (func))
 (type $13 (func (param i32 i32 i32 i64 i64 i32 i32) (result i32)))
 (type $14 (func (param i32 i32 i32 f64 f64 i32 i32) (result i32)))
 (type $15 (func (param i32 i32 i32 f32 f32 i32 i32) (result i32)))
 (type $16 (func (param i32 i32 i64 i64 i32 i32) (result i32)))
 (type $17 (func (param i32 i32 f64 f64 i32 i32) (result i32)))
 (type $18 (func (param i32 i32 f32 f32 i32 i32) (result i32)))
 (type $19 (func (param i32 i32 i32 i64 i64 i32) (result i32)))
 (type $20 (func (param i32 i32 i32 f64 f64 i32) (result i32)))
 (type $21 (func (param i32 i32 i32 f32 f32 i32) (result i32)))
 (type $22 (func (param i32 i32 i32 i32) (result i32)))
 (type $23 (func (param i32 i32 i64 i64 i32) (result i32)))
 (type $24 (func (param i32 i32 f64 f64 i32) (result i32)))
 (type $25 (func (param i32 i32 f32 f32 i32) (result i32)))
 (import "env" "memory" (memory $0 1))
 (global $assembly/aggregate/accCount (mut i64) (i64.const 0))
 (global $assembly/aggregate/accSumF (mut f64) (f64.const 0))
 (global $assembly/aggregate/accMinF (mut f64) (f64.const inf))
 (global $assembly/aggregate/accMaxF (mut f64) (f64.const 0))
 (global $assembly/aggregate/accSumI (mut i64) (i64.const 0))
 (global $assembly/aggregate/accMinI (mut i64) (i64.const 0))
 (global $assembly/aggregate/accMaxI (mut i64) (i64.const 0))
 (data $0 (i32.const 1024) "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00")
 (data $1 (i32.const 1056) "\80\80\80\80\80\80\80\80\80\80\80\80\80\80\80\80\00\01\02\03\80\80\80\80\80\80\80\80\80\80\80\80\04\05\06\07\80\80\80\80\80\80\80\80\80\80\80\80\00\01\02\03\04\05\06\07\80\80\80\80\80\80\80\80\08\t\n\0b\80\80\80\80\80\80\80\80\80\80\80\80\00\01\02\03\08\t\n\0b\80\80\80\80\80\80\80\80\04\05\06\07\08\t\n\0b\80\80\80\80\80\80\80\80\00\01\02\03\04\05\06\07\08\t\n\0b\80\80\80\80\0c\r\0e\0f\80\80\80\80\80\80\80\80\80\80\80\80\00\01\02\03\0c\r\0e\0f\80\80\80\80\80\80\80\80\04\05\06\07\0c\r\0e\0f\80\80\80\80\80\80\80\80\00\01\02\03\04\05\06\07\0c\r\0e\0f\80\80\80\80\08\t\n\0b\0c\r\0e\0f\80\80\80\80\80\80\80\80\00\01\02\03\08\t\n\0b\0c\r\0e\0f\80\80\80\80\04\05\06\07\08\t\n\0b\0c\r\0e\0f\80\80\80\80\00\01\02\03\04\05\06\07\08\t\n\0b\0c\r\0e\0f")
 (export "static_end" (func $assembly/index/static_end))
 (export "result_block" (func $assembly/index/result_block))
 (export "count_f32" (func $assembly/filter/count_f32))
 (export "count_f64" (func $assembly/filter/count_f64))
 (export "count_i16" (func $assembly/filter/count_i16))
 (export "count_i32" (func $assembly/filter/count_i32))
 (export "count_i64" (func $assembly/filter/count_i64))
 (export "count_i8" (func $assembly/filter/count_i8))
 (export "count_in_set" (func $assembly/filter/count_in_set))
 (export "count_sel_f32" (func $assembly/filter/count_sel_f32))
 (export "count_sel_f64" (func $assembly/filter/count_sel_f64))
 (export "count_sel_i16" (func $assembly/filter/count_sel_i16))
 (export "count_sel_i32" (func $assembly/filter/count_sel_i32))
 (export "count_sel_i64" (func $assembly/filter/count_sel_i64))
 (export "count_sel_i8" (func $assembly/filter/count_sel_i8))
 (export "count_sel_in_set" (func $assembly/filter/count_sel_in_set))
 (export "filter_f32" (func $assembly/filter/filter_f32))
 (export "filter_f64" (func $assembly/filter/filter_f64))
 (export "filter_i16" (func $assembly/filter/filter_i16))
 (export "filter_i32" (func $assembly/filter/filter_i32))
 (export "filter_i64" (func $assembly/filter/filter_i64))
 (export "filter_i8" (func $assembly/filter/filter_i8))
 (export "filter_in_set" (func $assembly/filter/filter_in_set))
 (export "filter_sel_f32" (func $assembly/filter/filter_sel_f32))
 (export "filter_sel_f64" (func $assembly/filter/filter_sel_f64))
 (export "filter_sel_i16" (func $assembly/filter/filter_sel_i16))
 (export "filter_sel_i32" (func $assembly/filter/filter_sel_i32))
 (export "filter_sel_i64" (func $assembly/filter/filter_sel_i64))
 (export "filter_sel_i8" (func $assembly/filter/filter_sel_i8))
 (export "filter_sel_in_set" (func $assembly/filter/filter_sel_in_set))
 (export "stats_f32" (func $assembly/aggregate/stats_f32))
 (export "stats_f64" (func $assembly/aggregate/stats_f64))
 (export "stats_i16" (func $assembly/aggregate/stats_i16))
 (export "stats_i32" (func $assembly/aggregate/stats_i32))
 (export "stats_i64" (func $assembly/aggregate/stats_i64))
 (export "stats_i8" (func $assembly/aggregate/stats_i8))
 (export "stats_sel_f32" (func $assembly/aggregate/stats_sel_f32))
 (export "stats_sel_f64" (func $assembly/aggregate/stats_sel_f64))
 (export "stats_sel_i16" (func $assembly/aggregate/stats_sel_i16))
 (export "stats_sel_i32" (func $assembly/aggregate/stats_sel_i32))
 (export "stats_sel_i64" (func $assembly/aggregate/stats_sel_i64))
 (export "stats_sel_i8" (func $assembly/aggregate/stats_sel_i8))
 (export "keyed_count" (func $assembly/keyed/keyed_count))
 (export "keyed_count_sel" (func $assembly/keyed/keyed_count_sel))
 (export "keyed_max_f32" (func $assembly/keyed/keyed_max_f32))
 (export "keyed_max_f64" (func $assembly/keyed/keyed_max_f64))
 (export "keyed_max_i32" (func $assembly/keyed/keyed_max_i32))
 (export "keyed_max_i64" (func $assembly/keyed/keyed_max_i64))
 (export "keyed_max_sel_f32" (func $assembly/keyed/keyed_max_sel_f32))
 (export "keyed_max_sel_f64" (func $assembly/keyed/keyed_max_sel_f64))
 (export "keyed_max_sel_i32" (func $assembly/keyed/keyed_max_sel_i32))
 (export "keyed_max_sel_i64" (func $assembly/keyed/keyed_max_sel_i64))
 (export "keyed_min_f32" (func $assembly/keyed/keyed_min_f32))
 (export "keyed_min_f64" (func $assembly/keyed/keyed_min_f64))
 (export "keyed_min_i32" (func $assembly/keyed/keyed_min_i32))
 (export "keyed_min_i64" (func $assembly/keyed/keyed_min_i64))
 (export "keyed_min_sel_f32" (func $assembly/keyed/keyed_min_sel_f32))
 (export "keyed_min_sel_f64" (func $assembly/keyed/keyed_min_sel_f64))
 (export "keyed_min_sel_i32" (func $assembly/keyed/keyed_min_sel_i32))
 (export "keyed_min_sel_i64" (func $assembly/keyed/keyed_min_sel_i64))
 (export "keyed_sum_f32" (func $assembly/keyed/keyed_sum_f32))
 (export "keyed_sum_f64" (func $assembly/keyed/keyed_sum_f64))
 (export "keyed_sum_i32" (func $assembly/keyed/keyed_sum_i32))
 (export "keyed_sum_i64" (func $assembly/keyed/keyed_sum_i64))
 (export "keyed_sum_sel_f32" (func $assembly/keyed/keyed_sum_sel_f32))
 (export "keyed_sum_sel_f64" (func $assembly/keyed/keyed_sum_sel_f64))
 (export "keyed_sum_sel_i32" (func $assembly/keyed/keyed_sum_sel_i32))
 (export "keyed_sum_sel_i64" (func $assembly/keyed/keyed_sum_sel_i64))
 (export "segments_f32" (func $assembly/segments/segments_f32))
 (export "segments_f64" (func $assembly/segments/segments_f64))
 (export "segments_i32" (func $assembly/segments/segments_i32))
 (export "segments_i64" (func $assembly/segments/segments_i64))
 (export "lower_bound_i64" (func $assembly/search/lower_bound_i64))
 (export "lower_bounds_i64" (func $assembly/search/lower_bounds_i64))
 (export "upper_bound_i64" (func $assembly/search/upper_bound_i64))
 (export "gather" (func $assembly/gather/gather))
 (export "reverse" (func $assembly/gather/reverse))
 (export "sequence" (func $assembly/gather/sequence))
 (start $~start)
 (func $assembly/aggregate/foldI64 (param $0 i32) (param $1 i32)
  (local $2 i64)
  (local $3 v128)
  (local $4 i64)
  (local $5 i32)
  (local $6 v128)
  (local $7 i32)
  (local $8 v128)
  (local $9 v128)
  (local $10 v128)
  (local $11 i64)
  (local $12 i64)
  (local $13 i32)
  (local $14 v128)
  (local $15 v128)
  (local $16 v128)
  (local $17 v128)
  (local $18 i64)
  v128.const i32x4 0xffffffff 0x7fffffff 0xffffffff 0x7fffffff
  local.set $3
  v128.const i32x4 0x00000000 0x80000000 0x00000000 0x80000000
  local.set $6
  local.get $1
  i32.const -4
  i32.and
  local.set $5
  loop $for-loop|0
   local.get $5
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $7
    i32.const 3
    i32.shl
    i32.add
    local.tee $13
    v128.load
    local.set $14
    local.get $13
    v128.load offset=16
    local.tee $15
    v128.const i32x4 0x00000000 0x80000000 0x00000000 0x80000000
    i64x2.eq
    local.set $16
    local.get $9
    local.get $14
    local.get $14
    v128.const i32x4 0x00000000 0x80000000 0x00000000 0x80000000
    i64x2.eq
    local.tee $17
    v128.andnot
    i64x2.add
    local.set $9
    local.get $10
    local.get $15
    local.get $16
    v128.andnot
    i64x2.add
    local.set $10
    local.get $8
    local.get $17
    i64x2.sub
    local.get $16
    i64x2.sub
    local.set $8
    local.get $14
    local.get $17
    i64x2.add
    local.tee $17
    local.get $15
    local.get $16
    i64x2.add
    local.tee $16
    local.get $17
    local.get $16
    i64x2.lt_s
    v128.bitselect
    local.tee $16
    local.get $3
    local.get $16
    local.get $3
    i64x2.lt_s
    v128.bitselect
    local.set $3
    local.get $14
    local.get $15
    local.get $14
    local.get $15
    i64x2.gt_s
    v128.bitselect
    local.tee $14
    local.get $6
    local.get $14
    local.get $6
    i64x2.gt_s
    v128.bitselect
    local.set $6
    local.get $7
    i32.const 4
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $5
  i64.extend_i32_s
  local.get $8
  i64x2.extract_lane 0
  local.get $8
  i64x2.extract_lane 1
  i64.add
  i64.sub
  local.tee $2
  global.get $assembly/aggregate/accCount
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $9
  local.get $10
  i64x2.add
  local.tee $8
  i64x2.extract_lane 0
  local.get $8
  i64x2.extract_lane 1
  i64.add
  i64.add
  global.set $assembly/aggregate/accSumI
  local.get $2
  i64.const 0
  i64.gt_s
  if
   global.get $assembly/aggregate/accMinI
   local.tee $2
   local.get $3
   i64x2.extract_lane 0
   local.tee $4
   local.get $3
   i64x2.extract_lane 1
   local.tee $18
   local.get $4
   local.get $18
   i64.lt_s
   select
   local.tee $4
   local.get $2
   local.get $4
   i64.lt_s
   select
   global.set $assembly/aggregate/accMinI
   global.get $assembly/aggregate/accMaxI
   local.tee $2
   local.get $6
   i64x2.extract_lane 0
   local.tee $4
   local.get $6
   i64x2.extract_lane 1
   local.tee $18
   local.get $4
   local.get $18
   i64.gt_s
   select
   local.tee $4
   local.get $2
   local.get $4
   i64.gt_s
   select
   global.set $assembly/aggregate/accMaxI
  end
  i64.const 9223372036854775807
  local.set $2
  i64.const -9223372036854775808
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $5
   i32.gt_s
   if
    local.get $0
    local.get $5
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $18
    i64.const -9223372036854775808
    i64.ne
    if
     local.get $11
     i64.const 1
     i64.add
     local.set $11
     local.get $4
     local.get $18
     local.get $4
     local.get $18
     i64.gt_s
     select
     local.set $4
     local.get $12
     local.get $18
     i64.add
     local.set $12
     local.get $2
     local.get $18
     local.get $2
     local.get $18
     i64.lt_s
     select
     local.set $2
    end
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|1
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $11
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $12
  i64.add
  global.set $assembly/aggregate/accSumI
  global.get $assembly/aggregate/accMinI
  local.tee $11
  local.get $2
  local.get $2
  local.get $11
  i64.gt_s
  select
  global.set $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accMaxI
  local.tee $2
  local.get $4
  local.get $2
  local.get $4
  i64.gt_s
  select
  global.set $assembly/aggregate/accMaxI
 )
 (func $assembly/aggregate/foldI32 (param $0 i32) (param $1 i32)
  (local $2 i64)
  (local $3 v128)
  (local $4 i32)
  (local $5 i64)
  (local $6 v128)
  (local $7 i32)
  (local $8 v128)
  (local $9 v128)
  (local $10 v128)
  (local $11 v128)
  (local $12 v128)
  (local $13 v128)
  (local $14 v128)
  (local $15 i64)
  (local $16 i64)
  (local $17 v128)
  (local $18 v128)
  (local $19 i64)
  (local $20 i32)
  v128.const i32x4 0x7fffffff 0x7fffffff 0x7fffffff 0x7fffffff
  local.set $3
  v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000
  local.set $8
  local.get $1
  i32.const -8
  i32.and
  local.set $7
  loop $for-loop|0
   local.get $4
   local.get $7
   i32.lt_s
   if
    local.get $0
    local.get $4
    i32.const 2
    i32.shl
    i32.add
    local.tee $20
    v128.load
    local.set $9
    local.get $20
    v128.load offset=16
    local.tee $10
    v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000
    i32x4.eq
    local.set $11
    local.get $12
    local.get $9
    local.get $9
    v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000
    i32x4.eq
    local.tee $13
    v128.andnot
    local.tee $17
    i64x2.extend_low_i32x4_s
    local.get $10
    local.get $11
    v128.andnot
    local.tee $18
    i64x2.extend_low_i32x4_s
    i64x2.add
    i64x2.add
    local.set $12
    local.get $14
    local.get $17
    i64x2.extend_high_i32x4_s
    local.get $18
    i64x2.extend_high_i32x4_s
    i64x2.add
    i64x2.add
    local.set $14
    local.get $6
    local.get $13
    i32x4.sub
    local.get $11
    i32x4.sub
    local.set $6
    local.get $3
    local.get $9
    local.get $13
    i32x4.add
    local.get $10
    local.get $11
    i32x4.add
    i32x4.min_s
    i32x4.min_s
    local.set $3
    local.get $8
    local.get $9
    local.get $10
    i32x4.max_s
    i32x4.max_s
    local.set $8
    local.get $4
    i32.const 8
    i32.add
    local.set $4
    br $for-loop|0
   end
  end
  local.get $7
  i64.extend_i32_s
  local.get $6
  i32x4.extract_lane 0
  local.get $6
  i32x4.extract_lane 1
  i32.add
  local.get $6
  i32x4.extract_lane 2
  i32.add
  local.get $6
  i32x4.extract_lane 3
  i32.add
  i64.extend_i32_s
  i64.sub
  local.tee $2
  global.get $assembly/aggregate/accCount
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $12
  local.get $14
  i64x2.add
  local.tee $6
  i64x2.extract_lane 0
  local.get $6
  i64x2.extract_lane 1
  i64.add
  i64.add
  global.set $assembly/aggregate/accSumI
  local.get $2
  i64.const 0
  i64.gt_s
  if
   global.get $assembly/aggregate/accMinI
   local.tee $2
   local.get $3
   local.get $3
   local.get $3
   i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
   i32x4.min_s
   local.tee $3
   i32x4.extract_lane 0
   local.tee $4
   local.get $3
   i32x4.extract_lane 1
   local.tee $20
   local.get $4
   local.get $20
   i32.lt_s
   select
   i64.extend_i32_s
   local.tee $5
   local.get $2
   local.get $5
   i64.lt_s
   select
   global.set $assembly/aggregate/accMinI
   global.get $assembly/aggregate/accMaxI
   local.tee $2
   local.get $8
   local.get $8
   local.get $8
   i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
   i32x4.max_s
   local.tee $3
   i32x4.extract_lane 0
   local.tee $4
   local.get $3
   i32x4.extract_lane 1
   local.tee $20
   local.get $4
   local.get $20
   i32.gt_s
   select
   i64.extend_i32_s
   local.tee $5
   local.get $2
   local.get $5
   i64.gt_s
   select
   global.set $assembly/aggregate/accMaxI
  end
  i64.const 9223372036854775807
  local.set $2
  i64.const -9223372036854775808
  local.set $5
  loop $for-loop|1
   local.get $1
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $4
    i32.const -2147483648
    i32.ne
    if
     local.get $15
     local.get $4
     i64.extend_i32_s
     local.tee $19
     i64.add
     local.set $15
     local.get $5
     local.get $19
     local.get $5
     local.get $19
     i64.gt_s
     select
     local.set $5
     local.get $16
     i64.const 1
     i64.add
     local.set $16
     local.get $2
     local.get $19
     local.get $2
     local.get $19
     i64.lt_s
     select
     local.set $2
    end
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|1
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $16
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $15
  i64.add
  global.set $assembly/aggregate/accSumI
  global.get $assembly/aggregate/accMinI
  local.tee $15
  local.get $2
  local.get $2
  local.get $15
  i64.gt_s
  select
  global.set $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accMaxI
  local.tee $2
  local.get $5
  local.get $2
  local.get $5
  i64.gt_s
  select
  global.set $assembly/aggregate/accMaxI
 )
 (func $assembly/aggregate/foldF64 (param $0 i32) (param $1 i32)
  (local $2 i64)
  (local $3 i32)
  (local $4 i32)
  (local $5 i32)
  (local $6 v128)
  (local $7 v128)
  (local $8 v128)
  (local $9 i32)
  (local $10 v128)
  (local $11 v128)
  (local $12 v128)
  (local $13 f64)
  (local $14 v128)
  (local $15 v128)
  (local $16 v128)
  (local $17 v128)
  (local $18 i32)
  (local $19 v128)
  (local $20 f64)
  (local $21 v128)
  (local $22 v128)
  (local $23 v128)
  (local $24 v128)
  (local $25 f64)
  (local $26 v128)
  (local $27 f64)
  (local $28 v128)
  v128.const i32x4 0x00000000 0x7ff00000 0x00000000 0x7ff00000
  local.set $11
  v128.const i32x4 0x00000000 0xfff00000 0x00000000 0xfff00000
  local.set $12
  local.get $1
  i32.const -8
  i32.and
  local.set $9
  loop $while-continue|0
   local.get $3
   local.get $9
   i32.lt_s
   if
    local.get $3
    i32.const 1024
    i32.add
    local.tee $4
    local.get $9
    local.get $4
    local.get $9
    i32.lt_s
    select
    local.set $4
    v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
    local.set $6
    v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
    local.set $7
    v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
    local.set $8
    v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
    local.set $10
    v128.const i32x4 0x00000000 0x7ff00000 0x00000000 0x7ff00000
    local.set $16
    v128.const i32x4 0x00000000 0xfff00000 0x00000000 0xfff00000
    local.set $17
    local.get $3
    local.set $5
    loop $for-loop|1
     local.get $4
     local.get $5
     i32.gt_s
     if
      local.get $6
      local.get $0
      local.get $5
      i32.const 3
      i32.shl
      i32.add
      local.tee $18
      v128.load
      local.tee $26
      f64x2.add
      local.set $6
      local.get $7
      local.get $18
      v128.load offset=16
      local.tee $28
      f64x2.add
      local.set $7
      local.get $8
      local.get $18
      v128.load offset=32
      local.tee $21
      f64x2.add
      local.set $8
      local.get $10
      local.get $18
      v128.load offset=48
      local.tee $22
      f64x2.add
      local.set $10
      local.get $16
      local.get $26
      local.get $28
      f64x2.pmin
      local.get $21
      local.get $22
      f64x2.pmin
      f64x2.pmin
      f64x2.pmin
      local.set $16
      local.get $17
      local.get $26
      local.get $28
      f64x2.pmax
      local.get $21
      local.get $22
      f64x2.pmax
      f64x2.pmax
      f64x2.pmax
      local.set $17
      local.get $5
      i32.const 8
      i32.add
      local.set $5
      br $for-loop|1
     end
    end
    local.get $6
    local.get $7
    f64x2.add
    local.get $8
    local.get $10
    f64x2.add
    f64x2.add
    local.tee $21
    f64x2.extract_lane 0
    local.get $21
    f64x2.extract_lane 1
    f64.add
    local.tee $13
    local.get $13
    f64.sub
    f64.const 0
    f64.eq
    if
     local.get $14
     local.get $6
     f64x2.add
     local.set $14
     local.get $15
     local.get $7
     f64x2.add
     local.set $15
     local.get $23
     local.get $8
     f64x2.add
     local.set $23
     local.get $24
     local.get $10
     f64x2.add
     local.set $24
     local.get $11
     local.get $16
     f64x2.pmin
     local.set $11
     local.get $12
     local.get $17
     f64x2.pmax
     local.set $12
     local.get $2
     local.get $4
     local.get $3
     i32.sub
     i64.extend_i32_s
     i64.add
     local.set $2
    else
     loop $for-loop|2
      local.get $3
      local.get $4
      i32.lt_s
      if
       local.get $0
       local.get $3
       i32.const 3
       i32.shl
       i32.add
       local.tee $5
       v128.load
       local.set $6
       local.get $5
       v128.load offset=16
       local.tee $7
       f64x2.abs
       v128.const i32x4 0x00000000 0x7ff00000 0x00000000 0x7ff00000
       f64x2.lt
       local.set $8
       local.get $14
       local.get $6
       local.get $6
       f64x2.abs
       v128.const i32x4 0x00000000 0x7ff00000 0x00000000 0x7ff00000
       f64x2.lt
       local.tee $10
       v128.and
       f64x2.add
       local.set $14
       local.get $15
       local.get $7
       local.get $8
       v128.and
       f64x2.add
       local.set $15
       local.get $19
       local.get $10
       i64x2.sub
       local.get $8
       i64x2.sub
       local.set $19
       local.get $11
       local.get $6
       local.get $10
       v128.not
       v128.or
       local.tee $6
       local.get $7
       local.get $8
       v128.not
       v128.or
       local.tee $7
       f64x2.pmin
       f64x2.pmin
       local.set $11
       local.get $12
       local.get $6
       local.get $7
       f64x2.pmax
       f64x2.pmax
       local.set $12
       local.get $3
       i32.const 4
       i32.add
       local.set $3
       br $for-loop|2
      end
     end
    end
    local.get $4
    local.set $3
    br $while-continue|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $2
  local.get $19
  i64x2.extract_lane 0
  local.get $19
  i64x2.extract_lane 1
  i64.add
  i64.add
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumF
  local.get $14
  local.get $15
  f64x2.add
  local.get $23
  local.get $24
  f64x2.add
  f64x2.add
  local.tee $6
  f64x2.extract_lane 0
  local.get $6
  f64x2.extract_lane 1
  f64.add
  f64.add
  global.set $assembly/aggregate/accSumF
  global.get $assembly/aggregate/accMinF
  local.get $11
  f64x2.extract_lane 0
  local.get $11
  f64x2.extract_lane 1
  f64.min
  f64.min
  global.set $assembly/aggregate/accMinF
  global.get $assembly/aggregate/accMaxF
  local.get $12
  f64x2.extract_lane 0
  local.get $12
  f64x2.extract_lane 1
  f64.max
  f64.max
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  local.set $2
  f64.const inf
  local.set $13
  f64.const -inf
  local.set $20
  loop $for-loop|3
   local.get $1
   local.get $9
   i32.gt_s
   if
    local.get $0
    local.get $9
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $27
    local.get $27
    f64.sub
    f64.const 0
    f64.eq
    if
     local.get $25
     local.get $27
     f64.add
     local.set $25
     local.get $13
     local.get $27
     f64.min
     local.set $13
     local.get $20
     local.get $27
     f64.max
     local.set $20
     local.get $2
     i64.const 1
     i64.add
     local.set $2
    end
    local.get $9
    i32.const 1
    i32.add
    local.set $9
    br $for-loop|3
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $2
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumF
  local.get $25
  f64.add
  global.set $assembly/aggregate/accSumF
  global.get $assembly/aggregate/accMinF
  local.get $13
  f64.min
  global.set $assembly/aggregate/accMinF
  global.get $assembly/aggregate/accMaxF
  local.get $20
  f64.max
  global.set $assembly/aggregate/accMaxF
 )
 (func $assembly/aggregate/foldF32 (param $0 i32) (param $1 i32)
  (local $2 i64)
  (local $3 i32)
  (local $4 i32)
  (local $5 i32)
  (local $6 v128)
  (local $7 v128)
  (local $8 i32)
  (local $9 v128)
  (local $10 f64)
  (local $11 v128)
  (local $12 v128)
  (local $13 v128)
  (local $14 v128)
  (local $15 v128)
  (local $16 v128)
  (local $17 v128)
  (local $18 v128)
  (local $19 f64)
  (local $20 v128)
  (local $21 v128)
  (local $22 f64)
  (local $23 i32)
  (local $24 v128)
  (local $25 f64)
  (local $26 v128)
  v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000
  local.set $6
  v128.const i32x4 0xff800000 0xff800000 0xff800000 0xff800000
  local.set $7
  local.get $1
  i32.const -8
  i32.and
  local.set $8
  loop $while-continue|0
   local.get $3
   local.get $8
   i32.lt_s
   if
    local.get $3
    i32.const 1024
    i32.add
    local.tee $4
    local.get $8
    local.get $4
    local.get $8
    i32.lt_s
    select
    local.set $4
    v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
    local.set $9
    v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
    local.set $12
    v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
    local.set $13
    v128.const i32x4 0x00000000 0x00000000 0x00000000 0x00000000
    local.set $14
    v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000
    local.set $17
    v128.const i32x4 0xff800000 0xff800000 0xff800000 0xff800000
    local.set $18
    local.get $3
    local.set $5
    loop $for-loop|1
     local.get $4
     local.get $5
     i32.gt_s
     if
      local.get $9
      local.get $0
      local.get $5
      i32.const 2
      i32.shl
      i32.add
      local.tee $23
      v128.load
      local.tee $26
      f64x2.promote_low_f32x4
      f64x2.add
      local.set $9
      local.get $12
      local.get $26
      local.get $26
      i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
      f64x2.promote_low_f32x4
      f64x2.add
      local.set $12
      local.get $13
      local.get $23
      v128.load offset=16
      local.tee $24
      f64x2.promote_low_f32x4
      f64x2.add
      local.set $13
      local.get $14
      local.get $24
      local.get $24
      i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
      f64x2.promote_low_f32x4
      f64x2.add
      local.set $14
      local.get $17
      local.get $26
      local.get $24
      f32x4.pmin
      f32x4.pmin
      local.set $17
      local.get $18
      local.get $26
      local.get $24
      f32x4.pmax
      f32x4.pmax
      local.set $18
      local.get $5
      i32.const 8
      i32.add
      local.set $5
      br $for-loop|1
     end
    end
    local.get $9
    local.get $12
    f64x2.add
    local.get $13
    local.get $14
    f64x2.add
    f64x2.add
    local.tee $24
    f64x2.extract_lane 0
    local.get $24
    f64x2.extract_lane 1
    f64.add
    local.tee $10
    local.get $10
    f64.sub
    f64.const 0
    f64.eq
    if
     local.get $15
     local.get $9
     f64x2.add
     local.set $15
     local.get $16
     local.get $12
     f64x2.add
     local.set $16
     local.get $20
     local.get $13
     f64x2.add
     local.set $20
     local.get $21
     local.get $14
     f64x2.add
     local.set $21
     local.get $6
     local.get $17
     f32x4.pmin
     local.set $6
     local.get $7
     local.get $18
     f32x4.pmax
     local.set $7
     local.get $2
     local.get $4
     local.get $3
     i32.sub
     i64.extend_i32_s
     i64.add
     local.set $2
    else
     loop $for-loop|2
      local.get $3
      local.get $4
      i32.lt_s
      if
       local.get $0
       local.get $3
       i32.const 2
       i32.shl
       i32.add
       v128.load
       local.tee $9
       f32x4.abs
       v128.const i32x4 0x7f800000 0x7f800000 0x7f800000 0x7f800000
       f32x4.lt
       local.set $12
       local.get $15
       local.get $9
       local.get $12
       v128.and
       local.tee $13
       f64x2.promote_low_f32x4
       f64x2.add
       local.set $15
       local.get $16
       local.get $13
       local.get $13
       i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
       f64x2.promote_low_f32x4
       f64x2.add
       local.set $16
       local.get $11
       local.get $12
       i32x4.sub
       local.set $11
       local.get $6
       local.get $9
       local.get $12
       v128.not
       v128.or
       local.tee $9
       f32x4.pmin
       local.set $6
       local.get $7
       local.get $9
       f32x4.pmax
       local.set $7
       local.get $3
       i32.const 4
       i32.add
       local.set $3
       br $for-loop|2
      end
     end
    end
    local.get $4
    local.set $3
    br $while-continue|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $2
  local.get $11
  i32x4.extract_lane 0
  local.get $11
  i32x4.extract_lane 1
  i32.add
  local.get $11
  i32x4.extract_lane 2
  i32.add
  local.get $11
  i32x4.extract_lane 3
  i32.add
  i64.extend_i32_s
  i64.add
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumF
  local.get $15
  local.get $16
  f64x2.add
  local.get $20
  local.get $21
  f64x2.add
  f64x2.add
  local.tee $9
  f64x2.extract_lane 0
  local.get $9
  f64x2.extract_lane 1
  f64.add
  f64.add
  global.set $assembly/aggregate/accSumF
  global.get $assembly/aggregate/accMinF
  local.get $6
  local.get $6
  local.get $6
  i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
  f32x4.pmin
  local.tee $6
  f32x4.extract_lane 0
  local.get $6
  f32x4.extract_lane 1
  f32.min
  f64.promote_f32
  f64.min
  global.set $assembly/aggregate/accMinF
  global.get $assembly/aggregate/accMaxF
  local.get $7
  local.get $7
  local.get $7
  i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
  f32x4.pmax
  local.tee $6
  f32x4.extract_lane 0
  local.get $6
  f32x4.extract_lane 1
  f32.max
  f64.promote_f32
  f64.max
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  local.set $2
  f64.const inf
  local.set $10
  f64.const -inf
  local.set $19
  loop $for-loop|3
   local.get $1
   local.get $8
   i32.gt_s
   if
    local.get $0
    local.get $8
    i32.const 2
    i32.shl
    i32.add
    f32.load
    f64.promote_f32
    local.tee $25
    local.get $25
    f64.sub
    f64.const 0
    f64.eq
    if
     local.get $22
     local.get $25
     f64.add
     local.set $22
     local.get $10
     local.get $25
     f64.min
     local.set $10
     local.get $19
     local.get $25
     f64.max
     local.set $19
     local.get $2
     i64.const 1
     i64.add
     local.set $2
    end
    local.get $8
    i32.const 1
    i32.add
    local.set $8
    br $for-loop|3
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $2
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumF
  local.get $22
  f64.add
  global.set $assembly/aggregate/accSumF
  global.get $assembly/aggregate/accMinF
  local.get $10
  f64.min
  global.set $assembly/aggregate/accMinF
  global.get $assembly/aggregate/accMaxF
  local.get $19
  f64.max
  global.set $assembly/aggregate/accMaxF
 )
 (func $~start
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
 )
 (func $assembly/segments/segments_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32) (param $7 i32) (param $8 i32) (param $9 i32) (param $10 i32) (param $11 i32)
  (local $12 i64)
  (local $13 i32)
  (local $14 i32)
  (local $15 i32)
  (local $16 i64)
  (local $17 i64)
  (local $18 i64)
  (local $19 i64)
  local.get $1
  local.set $13
  local.get $2
  local.set $14
  loop $for-loop|0
   local.get $5
   local.get $15
   i32.gt_s
   if
    local.get $4
    local.get $15
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $1
    local.get $3
    local.get $1
    local.get $3
    i32.gt_s
    select
    local.tee $1
    local.get $14
    local.get $1
    local.get $14
    i32.lt_s
    select
    local.set $1
    i64.const 0
    global.set $assembly/aggregate/accCount
    f64.const 0
    global.set $assembly/aggregate/accSumF
    f64.const inf
    global.set $assembly/aggregate/accMinF
    f64.const -inf
    global.set $assembly/aggregate/accMaxF
    i64.const 0
    global.set $assembly/aggregate/accSumI
    i64.const 9223372036854775807
    global.set $assembly/aggregate/accMinI
    i64.const -9223372036854775808
    global.set $assembly/aggregate/accMaxI
    local.get $13
    if
     i64.const 0
     local.set $17
     i64.const 0
     local.set $18
     i64.const 9223372036854775807
     local.set $12
     i64.const -9223372036854775808
     local.set $16
     local.get $3
     local.set $2
     loop $for-loop|1
      local.get $1
      local.get $2
      i32.gt_s
      if
       local.get $0
       local.get $13
       local.get $2
       i32.const 2
       i32.shl
       i32.add
       i32.load
       i32.const 3
       i32.shl
       i32.add
       i64.load
       local.tee $19
       i64.const -9223372036854775808
       i64.ne
       if
        local.get $17
        i64.const 1
        i64.add
        local.set $17
        local.get $18
        local.get $19
        i64.add
        local.set $18
        local.get $16
        local.get $19
        local.get $16
        local.get $19
        i64.gt_s
        select
        local.set $16
        local.get $12
        local.get $19
        local.get $12
        local.get $19
        i64.lt_s
        select
        local.set $12
       end
       local.get $2
       i32.const 1
       i32.add
       local.set $2
       br $for-loop|1
      end
     end
     global.get $assembly/aggregate/accCount
     local.get $17
     i64.add
     global.set $assembly/aggregate/accCount
     global.get $assembly/aggregate/accSumI
     local.get $18
     i64.add
     global.set $assembly/aggregate/accSumI
     global.get $assembly/aggregate/accMinI
     local.tee $17
     local.get $12
     local.get $12
     local.get $17
     i64.gt_s
     select
     global.set $assembly/aggregate/accMinI
     global.get $assembly/aggregate/accMaxI
     local.tee $12
     local.get $16
     local.get $12
     local.get $16
     i64.gt_s
     select
     global.set $assembly/aggregate/accMaxI
    else
     local.get $0
     local.get $3
     i32.const 3
     i32.shl
     i32.add
     local.get $1
     local.get $3
     i32.sub
     call $assembly/aggregate/foldI64
    end
    local.get $15
    i32.const 3
    i32.shl
    local.set $2
    local.get $6
    if
     local.get $2
     local.get $6
     i32.add
     global.get $assembly/aggregate/accCount
     i64.store
    end
    local.get $7
    if
     local.get $2
     local.get $7
     i32.add
     global.get $assembly/aggregate/accSumI
     i64.store
    end
    global.get $assembly/aggregate/accCount
    i64.const 0
    i64.gt_s
    local.set $2
    local.get $8
    if
     local.get $8
     local.get $15
     i32.const 3
     i32.shl
     i32.add
     global.get $assembly/aggregate/accMinI
     i64.const -9223372036854775808
     local.get $2
     select
     i64.store
    end
    local.get $9
    if
     local.get $9
     local.get $15
     i32.const 3
     i32.shl
     i32.add
     global.get $assembly/aggregate/accMaxI
     i64.const -9223372036854775808
     local.get $2
     select
     i64.store
    end
    local.get $1
    local.get $3
    i32.le_s
    local.set $2
    local.get $10
    if
     local.get $10
     local.get $15
     i32.const 3
     i32.shl
     i32.add
     local.get $2
     if (result i64)
      i64.const -9223372036854775808
     else
      local.get $0
      local.get $13
      if (result i32)
       local.get $13
       local.get $3
       i32.const 2
       i32.shl
       i32.add
       i32.load
      else
       local.get $3
      end
      i32.const 3
      i32.shl
      i32.add
      i64.load
     end
     i64.store
    end
    local.get $11
    if
     local.get $11
     local.get $15
     i32.const 3
     i32.shl
     i32.add
     local.get $2
     if (result i64)
      i64.const -9223372036854775808
     else
      local.get $0
      local.get $13
      if (result i32)
       local.get $13
       local.get $1
       i32.const 1
       i32.sub
       i32.const 2
       i32.shl
       i32.add
       i32.load
      else
       local.get $1
       i32.const 1
       i32.sub
      end
      i32.const 3
      i32.shl
      i32.add
      i64.load
     end
     i64.store
    end
    local.get $1
    local.set $3
    local.get $15
    i32.const 1
    i32.add
    local.set $15
    br $for-loop|0
   end
  end
 )
 (func $assembly/segments/segments_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32) (param $7 i32) (param $8 i32) (param $9 i32) (param $10 i32) (param $11 i32)
  (local $12 i64)
  (local $13 i32)
  (local $14 i32)
  (local $15 i32)
  (local $16 i64)
  (local $17 i64)
  (local $18 i64)
  (local $19 i32)
  (local $20 i64)
  local.get $1
  local.set $13
  local.get $2
  local.set $14
  loop $for-loop|0
   local.get $5
   local.get $15
   i32.gt_s
   if
    local.get $4
    local.get $15
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $1
    local.get $3
    local.get $1
    local.get $3
    i32.gt_s
    select
    local.tee $1
    local.get $14
    local.get $1
    local.get $14
    i32.lt_s
    select
    local.set $1
    i64.const 0
    global.set $assembly/aggregate/accCount
    f64.const 0
    global.set $assembly/aggregate/accSumF
    f64.const inf
    global.set $assembly/aggregate/accMinF
    f64.const -inf
    global.set $assembly/aggregate/accMaxF
    i64.const 0
    global.set $assembly/aggregate/accSumI
    i64.const 9223372036854775807
    global.set $assembly/aggregate/accMinI
    i64.const -9223372036854775808
    global.set $assembly/aggregate/accMaxI
    local.get $13
    if
     i64.const 0
     local.set $17
     i64.const 0
     local.set $18
     i64.const 9223372036854775807
     local.set $12
     i64.const -9223372036854775808
     local.set $16
     local.get $3
     local.set $2
     loop $for-loop|1
      local.get $1
      local.get $2
      i32.gt_s
      if
       local.get $0
       local.get $13
       local.get $2
       i32.const 2
       i32.shl
       i32.add
       i32.load
       i32.const 2
       i32.shl
       i32.add
       i32.load
       local.tee $19
       i32.const -2147483648
       i32.ne
       if
        local.get $17
        i64.const 1
        i64.add
        local.set $17
        local.get $18
        local.get $19
        i64.extend_i32_s
        local.tee $20
        i64.add
        local.set $18
        local.get $16
        local.get $20
        local.get $16
        local.get $20
        i64.gt_s
        select
        local.set $16
        local.get $12
        local.get $20
        local.get $12
        local.get $20
        i64.lt_s
        select
        local.set $12
       end
       local.get $2
       i32.const 1
       i32.add
       local.set $2
       br $for-loop|1
      end
     end
     global.get $assembly/aggregate/accCount
     local.get $17
     i64.add
     global.set $assembly/aggregate/accCount
     global.get $assembly/aggregate/accSumI
     local.get $18
     i64.add
     global.set $assembly/aggregate/accSumI
     global.get $assembly/aggregate/accMinI
     local.tee $17
     local.get $12
     local.get $12
     local.get $17
     i64.gt_s
     select
     global.set $assembly/aggregate/accMinI
     global.get $assembly/aggregate/accMaxI
     local.tee $12
     local.get $16
     local.get $12
     local.get $16
     i64.gt_s
     select
     global.set $assembly/aggregate/accMaxI
    else
     local.get $0
     local.get $3
     i32.const 2
     i32.shl
     i32.add
     local.get $1
     local.get $3
     i32.sub
     call $assembly/aggregate/foldI32
    end
    local.get $15
    i32.const 3
    i32.shl
    local.set $2
    local.get $6
    if
     local.get $2
     local.get $6
     i32.add
     global.get $assembly/aggregate/accCount
     i64.store
    end
    local.get $7
    if
     local.get $2
     local.get $7
     i32.add
     global.get $assembly/aggregate/accSumI
     i64.store
    end
    global.get $assembly/aggregate/accCount
    i64.const 0
    i64.gt_s
    local.set $2
    local.get $8
    if
     local.get $8
     local.get $15
     i32.const 2
     i32.shl
     i32.add
     global.get $assembly/aggregate/accMinI
     i32.wrap_i64
     i32.const -2147483648
     local.get $2
     select
     i32.store
    end
    local.get $9
    if
     local.get $9
     local.get $15
     i32.const 2
     i32.shl
     i32.add
     global.get $assembly/aggregate/accMaxI
     i32.wrap_i64
     i32.const -2147483648
     local.get $2
     select
     i32.store
    end
    local.get $1
    local.get $3
    i32.le_s
    local.set $2
    local.get $10
    if
     local.get $10
     local.get $15
     i32.const 2
     i32.shl
     i32.add
     local.get $2
     if (result i32)
      i32.const -2147483648
     else
      local.get $0
      local.get $13
      if (result i32)
       local.get $13
       local.get $3
       i32.const 2
       i32.shl
       i32.add
       i32.load
      else
       local.get $3
      end
      i32.const 2
      i32.shl
      i32.add
      i32.load
     end
     i32.store
    end
    local.get $11
    if
     local.get $11
     local.get $15
     i32.const 2
     i32.shl
     i32.add
     local.get $2
     if (result i32)
      i32.const -2147483648
     else
      local.get $0
      local.get $13
      if (result i32)
       local.get $13
       local.get $1
       i32.const 1
       i32.sub
       i32.const 2
       i32.shl
       i32.add
       i32.load
      else
       local.get $1
       i32.const 1
       i32.sub
      end
      i32.const 2
      i32.shl
      i32.add
      i32.load
     end
     i32.store
    end
    local.get $1
    local.set $3
    local.get $15
    i32.const 1
    i32.add
    local.set $15
    br $for-loop|0
   end
  end
 )
 (func $assembly/segments/segments_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32) (param $7 i32) (param $8 i32) (param $9 i32) (param $10 i32) (param $11 i32)
  (local $12 i64)
  (local $13 i32)
  (local $14 i32)
  (local $15 i32)
  (local $16 f64)
  (local $17 f64)
  (local $18 f64)
  (local $19 f64)
  local.get $1
  local.set $13
  local.get $2
  local.set $14
  loop $for-loop|0
   local.get $5
   local.get $15
   i32.gt_s
   if
    local.get $4
    local.get $15
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $1
    local.get $3
    local.get $1
    local.get $3
    i32.gt_s
    select
    local.tee $1
    local.get $14
    local.get $1
    local.get $14
    i32.lt_s
    select
    local.set $1
    i64.const 0
    global.set $assembly/aggregate/accCount
    f64.const 0
    global.set $assembly/aggregate/accSumF
    f64.const inf
    global.set $assembly/aggregate/accMinF
    f64.const -inf
    global.set $assembly/aggregate/accMaxF
    i64.const 0
    global.set $assembly/aggregate/accSumI
    i64.const 9223372036854775807
    global.set $assembly/aggregate/accMinI
    i64.const -9223372036854775808
    global.set $assembly/aggregate/accMaxI
    local.get $13
    if
     i64.const 0
     local.set $12
     f64.const 0
     local.set $17
     f64.const inf
     local.set $18
     f64.const -inf
     local.set $19
     local.get $3
     local.set $2
     loop $for-loop|1
      local.get $1
      local.get $2
      i32.gt_s
      if
       local.get $0
       local.get $13
       local.get $2
       i32.const 2
       i32.shl
       i32.add
       i32.load
       i32.const 3
       i32.shl
       i32.add
       f64.load
       local.tee $16
       local.get $16
       f64.sub
       f64.const 0
       f64.eq
       if
        local.get $17
        local.get $16
        f64.add
        local.set $17
        local.get $16
        local.get $18
        f64.min
        local.set $18
        local.get $16
        local.get $19
        f64.max
        local.set $19
        local.get $12
        i64.const 1
        i64.add
        local.set $12
       end
       local.get $2
       i32.const 1
       i32.add
       local.set $2
       br $for-loop|1
      end
     end
     global.get $assembly/aggregate/accCount
     local.get $12
     i64.add
     global.set $assembly/aggregate/accCount
     global.get $assembly/aggregate/accSumF
     local.get $17
     f64.add
     global.set $assembly/aggregate/accSumF
     global.get $assembly/aggregate/accMinF
     local.get $18
     f64.min
     global.set $assembly/aggregate/accMinF
     global.get $assembly/aggregate/accMaxF
     local.get $19
     f64.max
     global.set $assembly/aggregate/accMaxF
    else
     local.get $0
     local.get $3
     i32.const 3
     i32.shl
     i32.add
     local.get $1
     local.get $3
     i32.sub
     call $assembly/aggregate/foldF64
    end
    local.get $15
    i32.const 3
    i32.shl
    local.set $2
    local.get $6
    if
     local.get $2
     local.get $6
     i32.add
     global.get $assembly/aggregate/accCount
     i64.store
    end
    local.get $7
    if
     local.get $2
     local.get $7
     i32.add
     global.get $assembly/aggregate/accSumF
     f64.store
    end
    global.get $assembly/aggregate/accCount
    i64.const 0
    i64.gt_s
    local.set $2
    local.get $8
    if
     local.get $8
     local.get $15
     i32.const 3
     i32.shl
     i32.add
     global.get $assembly/aggregate/accMinF
     f64.const nan:0x8000000000000
     local.get $2
     select
     f64.store
    end
    local.get $9
    if
     local.get $9
     local.get $15
     i32.const 3
     i32.shl
     i32.add
     global.get $assembly/aggregate/accMaxF
     f64.const nan:0x8000000000000
     local.get $2
     select
     f64.store
    end
    local.get $1
    local.get $3
    i32.le_s
    local.set $2
    local.get $10
    if
     local.get $10
     local.get $15
     i32.const 3
     i32.shl
     i32.add
     local.get $2
     if (result f64)
      f64.const nan:0x8000000000000
     else
      local.get $0
      local.get $13
      if (result i32)
       local.get $13
       local.get $3
       i32.const 2
       i32.shl
       i32.add
       i32.load
      else
       local.get $3
      end
      i32.const 3
      i32.shl
      i32.add
      f64.load
     end
     f64.store
    end
    local.get $11
    if
     local.get $11
     local.get $15
     i32.const 3
     i32.shl
     i32.add
     local.get $2
     if (result f64)
      f64.const nan:0x8000000000000
     else
      local.get $0
      local.get $13
      if (result i32)
       local.get $13
       local.get $1
       i32.const 1
       i32.sub
       i32.const 2
       i32.shl
       i32.add
       i32.load
      else
       local.get $1
       i32.const 1
       i32.sub
      end
      i32.const 3
      i32.shl
      i32.add
      f64.load
     end
     f64.store
    end
    local.get $1
    local.set $3
    local.get $15
    i32.const 1
    i32.add
    local.set $15
    br $for-loop|0
   end
  end
 )
 (func $assembly/segments/segments_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32) (param $7 i32) (param $8 i32) (param $9 i32) (param $10 i32) (param $11 i32)
  (local $12 i64)
  (local $13 i32)
  (local $14 i32)
  (local $15 i32)
  (local $16 f64)
  (local $17 f64)
  (local $18 f64)
  (local $19 f64)
  local.get $1
  local.set $13
  local.get $2
  local.set $14
  loop $for-loop|0
   local.get $5
   local.get $15
   i32.gt_s
   if
    local.get $4
    local.get $15
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $1
    local.get $3
    local.get $1
    local.get $3
    i32.gt_s
    select
    local.tee $1
    local.get $14
    local.get $1
    local.get $14
    i32.lt_s
    select
    local.set $1
    i64.const 0
    global.set $assembly/aggregate/accCount
    f64.const 0
    global.set $assembly/aggregate/accSumF
    f64.const inf
    global.set $assembly/aggregate/accMinF
    f64.const -inf
    global.set $assembly/aggregate/accMaxF
    i64.const 0
    global.set $assembly/aggregate/accSumI
    i64.const 9223372036854775807
    global.set $assembly/aggregate/accMinI
    i64.const -9223372036854775808
    global.set $assembly/aggregate/accMaxI
    local.get $13
    if
     i64.const 0
     local.set $12
     f64.const 0
     local.set $17
     f64.const inf
     local.set $18
     f64.const -inf
     local.set $19
     local.get $3
     local.set $2
     loop $for-loop|1
      local.get $1
      local.get $2
      i32.gt_s
      if
       local.get $0
       local.get $13
       local.get $2
       i32.const 2
       i32.shl
       i32.add
       i32.load
       i32.const 2
       i32.shl
       i32.add
       f32.load
       f64.promote_f32
       local.tee $16
       local.get $16
       f64.sub
       f64.const 0
       f64.eq
       if
        local.get $17
        local.get $16
        f64.add
        local.set $17
        local.get $16
        local.get $18
        f64.min
        local.set $18
        local.get $16
        local.get $19
        f64.max
        local.set $19
        local.get $12
        i64.const 1
        i64.add
        local.set $12
       end
       local.get $2
       i32.const 1
       i32.add
       local.set $2
       br $for-loop|1
      end
     end
     global.get $assembly/aggregate/accCount
     local.get $12
     i64.add
     global.set $assembly/aggregate/accCount
     global.get $assembly/aggregate/accSumF
     local.get $17
     f64.add
     global.set $assembly/aggregate/accSumF
     global.get $assembly/aggregate/accMinF
     local.get $18
     f64.min
     global.set $assembly/aggregate/accMinF
     global.get $assembly/aggregate/accMaxF
     local.get $19
     f64.max
     global.set $assembly/aggregate/accMaxF
    else
     local.get $0
     local.get $3
     i32.const 2
     i32.shl
     i32.add
     local.get $1
     local.get $3
     i32.sub
     call $assembly/aggregate/foldF32
    end
    local.get $15
    i32.const 3
    i32.shl
    local.set $2
    local.get $6
    if
     local.get $2
     local.get $6
     i32.add
     global.get $assembly/aggregate/accCount
     i64.store
    end
    local.get $7
    if
     local.get $2
     local.get $7
     i32.add
     global.get $assembly/aggregate/accSumF
     f64.store
    end
    global.get $assembly/aggregate/accCount
    i64.const 0
    i64.gt_s
    local.set $2
    local.get $8
    if
     local.get $8
     local.get $15
     i32.const 2
     i32.shl
     i32.add
     global.get $assembly/aggregate/accMinF
     f32.demote_f64
     f32.const nan:0x400000
     local.get $2
     select
     f32.store
    end
    local.get $9
    if
     local.get $9
     local.get $15
     i32.const 2
     i32.shl
     i32.add
     global.get $assembly/aggregate/accMaxF
     f32.demote_f64
     f32.const nan:0x400000
     local.get $2
     select
     f32.store
    end
    local.get $1
    local.get $3
    i32.le_s
    local.set $2
    local.get $10
    if
     local.get $10
     local.get $15
     i32.const 2
     i32.shl
     i32.add
     local.get $2
     if (result f32)
      f32.const nan:0x400000
     else
      local.get $0
      local.get $13
      if (result i32)
       local.get $13
       local.get $3
       i32.const 2
       i32.shl
       i32.add
       i32.load
      else
       local.get $3
      end
      i32.const 2
      i32.shl
      i32.add
      f32.load
     end
     f32.store
    end
    local.get $11
    if
     local.get $11
     local.get $15
     i32.const 2
     i32.shl
     i32.add
     local.get $2
     if (result f32)
      f32.const nan:0x400000
     else
      local.get $0
      local.get $13
      if (result i32)
       local.get $13
       local.get $1
       i32.const 1
       i32.sub
       i32.const 2
       i32.shl
       i32.add
       i32.load
      else
       local.get $1
       i32.const 1
       i32.sub
      end
      i32.const 2
      i32.shl
      i32.add
      f32.load
     end
     f32.store
    end
    local.get $1
    local.set $3
    local.get $15
    i32.const 1
    i32.add
    local.set $15
    br $for-loop|0
   end
  end
 )
 (func $assembly/search/upper_bound_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i64) (result i32)
  (local $4 i32)
  (local $5 i32)
  local.get $2
  local.get $1
  i32.sub
  local.set $2
  loop $while-continue|0
   local.get $2
   i32.const 1
   i32.gt_s
   if
    local.get $2
    i32.const 1
    i32.shr_u
    local.tee $4
    local.get $1
    i32.add
    local.tee $5
    local.get $1
    local.get $3
    local.get $0
    local.get $5
    i32.const 1
    i32.sub
    i32.const 3
    i32.shl
    i32.add
    i64.load
    i64.ge_s
    select
    local.set $1
    local.get $2
    local.get $4
    i32.sub
    local.set $2
    br $while-continue|0
   end
  end
  local.get $2
  i32.const 1
  i32.eq
  if (result i32)
   local.get $1
   local.get $0
   local.get $1
   i32.const 3
   i32.shl
   i32.add
   i64.load
   local.get $3
   i64.le_s
   i32.add
  else
   local.get $1
  end
 )
 (func $assembly/search/lower_bounds_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 i64)
  (local $10 i32)
  loop $for-loop|0
   local.get $4
   local.get $8
   i32.gt_s
   if
    local.get $3
    local.get $8
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.set $9
    i32.const 1
    local.set $7
    local.get $1
    local.set $6
    loop $while-continue|1
     local.get $2
     local.get $6
     i32.gt_s
     if (result i32)
      local.get $0
      local.get $6
      i32.const 3
      i32.shl
      i32.add
      i64.load
      local.get $9
      i64.lt_s
     else
      i32.const 0
     end
     if
      local.get $7
      local.get $6
      i32.const 1
      i32.add
      local.tee $1
      i32.add
      i32.const 1
      i32.sub
      local.set $6
      local.get $7
      i32.const 1
      i32.shl
      local.set $7
      local.get $2
      local.get $6
      local.get $2
      local.get $6
      i32.le_s
      select
      local.set $6
      br $while-continue|1
     end
    end
    local.get $6
    local.get $2
    local.get $2
    local.get $6
    i32.gt_s
    select
    local.get $1
    i32.sub
    local.set $6
    loop $while-continue|2
     local.get $6
     i32.const 1
     i32.gt_s
     if
      local.get $6
      i32.const 1
      i32.shr_u
      local.tee $7
      local.get $1
      i32.add
      local.tee $10
      local.get $1
      local.get $9
      local.get $0
      local.get $10
      i32.const 1
      i32.sub
      i32.const 3
      i32.shl
      i32.add
      i64.load
      i64.gt_s
      select
      local.set $1
      local.get $6
      local.get $7
      i32.sub
      local.set $6
      br $while-continue|2
     end
    end
    local.get $6
    i32.const 1
    i32.eq
    if
     local.get $1
     local.get $0
     local.get $1
     i32.const 3
     i32.shl
     i32.add
     i64.load
     local.get $9
     i64.lt_s
     i32.add
     local.set $1
    end
    local.get $5
    local.get $8
    i32.const 2
    i32.shl
    i32.add
    local.get $1
    i32.store
    local.get $8
    i32.const 1
    i32.add
    local.set $8
    br $for-loop|0
   end
  end
 )
 (func $assembly/search/lower_bound_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i64) (result i32)
  (local $4 i32)
  (local $5 i32)
  local.get $2
  local.get $1
  i32.sub
  local.set $2
  loop $while-continue|0
   local.get $2
   i32.const 1
   i32.gt_s
   if
    local.get $2
    i32.const 1
    i32.shr_u
    local.tee $4
    local.get $1
    i32.add
    local.tee $5
    local.get $1
    local.get $3
    local.get $0
    local.get $5
    i32.const 1
    i32.sub
    i32.const 3
    i32.shl
    i32.add
    i64.load
    i64.gt_s
    select
    local.set $1
    local.get $2
    local.get $4
    i32.sub
    local.set $2
    br $while-continue|0
   end
  end
  local.get $2
  i32.const 1
  i32.eq
  if (result i32)
   local.get $1
   local.get $0
   local.get $1
   i32.const 3
   i32.shl
   i32.add
   i64.load
   local.get $3
   i64.lt_s
   i32.add
  else
   local.get $1
  end
 )
 (func $assembly/keyed/keyed_sum_sel_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32)
  (local $7 i32)
  (local $8 i64)
  (local $9 i32)
  (local $10 i32)
  (local $11 i32)
  local.get $0
  local.set $7
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $3
   i32.lt_s
   if
    local.get $7
    local.get $2
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $10
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $9
    local.get $4
    local.get $4
    local.get $9
    i32.gt_u
    select
    i32.const 3
    i32.shl
    local.tee $9
    local.get $5
    i32.add
    local.tee $11
    local.get $11
    i64.load
    local.get $1
    local.get $10
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $8
    i64.const -9223372036854775808
    i64.ne
    local.tee $10
    i64.extend_i32_u
    i64.add
    i64.store
    local.get $6
    local.get $9
    i32.add
    local.tee $9
    local.get $9
    i64.load
    local.get $8
    i64.const 0
    local.get $10
    select
    i64.add
    i64.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_sum_sel_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 i32)
  (local $10 i32)
  local.get $0
  local.set $7
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $3
   i32.lt_s
   if
    local.get $7
    local.get $2
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    local.tee $8
    i32.add
    i32.load
    local.tee $9
    local.get $4
    local.get $4
    local.get $9
    i32.gt_u
    select
    i32.const 3
    i32.shl
    local.tee $9
    local.get $5
    i32.add
    local.tee $10
    local.get $10
    i64.load
    local.get $1
    local.get $8
    i32.add
    i32.load
    local.tee $8
    i32.const -2147483648
    i32.ne
    local.tee $10
    i64.extend_i32_u
    i64.add
    i64.store
    local.get $6
    local.get $9
    i32.add
    local.tee $9
    local.get $9
    i64.load
    local.get $8
    i64.extend_i32_s
    i64.const 0
    local.get $10
    select
    i64.add
    i64.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_sum_sel_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32)
  (local $7 i32)
  (local $8 f64)
  (local $9 i32)
  (local $10 i32)
  (local $11 i32)
  loop $for-loop|0
   local.get $3
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $2
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $10
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $9
    local.get $4
    local.get $4
    local.get $9
    i32.gt_u
    select
    i32.const 3
    i32.shl
    local.tee $9
    local.get $5
    i32.add
    local.tee $11
    local.get $11
    i64.load
    local.get $1
    local.get $10
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $8
    local.get $8
    f64.sub
    f64.const 0
    f64.eq
    local.tee $10
    i64.extend_i32_u
    i64.add
    i64.store
    local.get $6
    local.get $9
    i32.add
    local.tee $9
    local.get $9
    f64.load
    local.get $8
    f64.const 0
    local.get $10
    select
    f64.add
    f64.store
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_sum_sel_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32)
  (local $7 i32)
  (local $8 f32)
  (local $9 i32)
  (local $10 i32)
  (local $11 i32)
  loop $for-loop|0
   local.get $3
   local.get $7
   i32.gt_s
   if
    local.get $2
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    local.tee $10
    local.get $0
    i32.add
    i32.load
    local.tee $9
    local.get $4
    local.get $4
    local.get $9
    i32.gt_u
    select
    i32.const 3
    i32.shl
    local.tee $9
    local.get $5
    i32.add
    local.tee $11
    local.get $11
    i64.load
    local.get $1
    local.get $10
    i32.add
    f32.load
    local.tee $8
    local.get $8
    f32.sub
    f32.const 0
    f32.eq
    local.tee $10
    i64.extend_i32_u
    i64.add
    i64.store
    local.get $6
    local.get $9
    i32.add
    local.tee $9
    local.get $9
    f64.load
    local.get $8
    f64.promote_f32
    f64.const 0
    local.get $10
    select
    f64.add
    f64.store
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_sum_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 i64)
  (local $8 i32)
  (local $9 i32)
  local.get $0
  local.set $6
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $2
   i32.lt_s
   if
    local.get $6
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    local.get $3
    local.get $3
    local.get $8
    i32.gt_u
    select
    i32.const 3
    i32.shl
    local.tee $8
    local.get $4
    i32.add
    local.tee $9
    local.get $9
    i64.load
    local.get $1
    local.get $0
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $7
    i64.const -9223372036854775808
    i64.ne
    local.tee $9
    i64.extend_i32_u
    i64.add
    i64.store
    local.get $5
    local.get $8
    i32.add
    local.tee $8
    local.get $8
    i64.load
    local.get $7
    i64.const 0
    local.get $9
    select
    i64.add
    i64.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_sum_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 i32)
  local.get $0
  local.set $6
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $2
   i32.lt_s
   if
    local.get $6
    local.get $0
    i32.const 2
    i32.shl
    local.tee $7
    i32.add
    i32.load
    local.tee $8
    local.get $3
    local.get $3
    local.get $8
    i32.gt_u
    select
    i32.const 3
    i32.shl
    local.tee $8
    local.get $4
    i32.add
    local.tee $9
    local.get $9
    i64.load
    local.get $1
    local.get $7
    i32.add
    i32.load
    local.tee $7
    i32.const -2147483648
    i32.ne
    local.tee $9
    i64.extend_i32_u
    i64.add
    i64.store
    local.get $5
    local.get $8
    i32.add
    local.tee $8
    local.get $8
    i64.load
    local.get $7
    i64.extend_i32_s
    i64.const 0
    local.get $9
    select
    i64.add
    i64.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_sum_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 f64)
  (local $8 i32)
  (local $9 i32)
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $0
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    local.get $3
    local.get $3
    local.get $8
    i32.gt_u
    select
    i32.const 3
    i32.shl
    local.tee $8
    local.get $4
    i32.add
    local.tee $9
    local.get $9
    i64.load
    local.get $1
    local.get $6
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $7
    local.get $7
    f64.sub
    f64.const 0
    f64.eq
    local.tee $9
    i64.extend_i32_u
    i64.add
    i64.store
    local.get $5
    local.get $8
    i32.add
    local.tee $8
    local.get $8
    f64.load
    local.get $7
    f64.const 0
    local.get $9
    select
    f64.add
    f64.store
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_sum_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 f32)
  (local $8 i32)
  (local $9 i32)
  (local $10 i32)
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $6
    i32.const 2
    i32.shl
    local.tee $9
    local.get $0
    i32.add
    i32.load
    local.tee $8
    local.get $3
    local.get $3
    local.get $8
    i32.gt_u
    select
    i32.const 3
    i32.shl
    local.tee $8
    local.get $4
    i32.add
    local.tee $10
    local.get $10
    i64.load
    local.get $1
    local.get $9
    i32.add
    f32.load
    local.tee $7
    local.get $7
    f32.sub
    f32.const 0
    f32.eq
    local.tee $9
    i64.extend_i32_u
    i64.add
    i64.store
    local.get $5
    local.get $8
    i32.add
    local.tee $8
    local.get $8
    f64.load
    local.get $7
    f64.promote_f32
    f64.const 0
    local.get $9
    select
    f64.add
    f64.store
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_min_sel_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 i64)
  (local $8 i64)
  (local $9 i32)
  (local $10 i32)
  local.get $0
  local.set $6
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $3
   i32.lt_s
   if
    local.get $5
    local.get $6
    local.get $2
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $9
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $10
    local.get $4
    local.get $4
    local.get $10
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $10
    local.get $1
    local.get $9
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $7
    local.get $10
    i64.load
    local.tee $8
    local.get $8
    i64.const -9223372036854775808
    i64.eq
    local.get $7
    local.get $8
    i64.lt_s
    i32.or
    local.get $7
    i64.const -9223372036854775808
    i64.ne
    i32.and
    select
    i64.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_min_sel_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 i32)
  local.get $0
  local.set $6
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $3
   i32.lt_s
   if
    local.get $5
    local.get $6
    local.get $2
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    local.tee $7
    i32.add
    i32.load
    local.tee $8
    local.get $4
    local.get $4
    local.get $8
    i32.gt_u
    select
    i32.const 2
    i32.shl
    i32.add
    local.tee $8
    local.get $1
    local.get $7
    i32.add
    i32.load
    local.tee $7
    local.get $8
    i32.load
    local.tee $8
    local.get $8
    i32.const -2147483648
    i32.eq
    local.get $7
    local.get $8
    i32.lt_s
    i32.or
    local.get $7
    i32.const -2147483648
    i32.ne
    i32.and
    select
    i32.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_min_sel_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 f64)
  (local $8 i32)
  (local $9 f64)
  (local $10 i32)
  loop $for-loop|0
   local.get $3
   local.get $6
   i32.gt_s
   if
    local.get $5
    local.get $0
    local.get $2
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $10
    local.get $4
    local.get $4
    local.get $10
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $10
    local.get $1
    local.get $8
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $7
    local.get $10
    f64.load
    local.tee $9
    local.get $7
    local.get $9
    f64.ge
    i32.eqz
    local.get $7
    local.get $7
    f64.sub
    f64.const 0
    f64.eq
    i32.and
    select
    f64.store
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_min_sel_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 f32)
  (local $8 i32)
  (local $9 f32)
  (local $10 i32)
  loop $for-loop|0
   local.get $3
   local.get $6
   i32.gt_s
   if
    local.get $5
    local.get $2
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    local.tee $8
    local.get $0
    i32.add
    i32.load
    local.tee $10
    local.get $4
    local.get $4
    local.get $10
    i32.gt_u
    select
    i32.const 2
    i32.shl
    i32.add
    local.tee $10
    local.get $1
    local.get $8
    i32.add
    f32.load
    local.tee $7
    local.get $10
    f32.load
    local.tee $9
    local.get $7
    local.get $9
    f32.ge
    i32.eqz
    local.get $7
    local.get $7
    f32.sub
    f32.const 0
    f32.eq
    i32.and
    select
    f32.store
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_min_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 i64)
  (local $7 i64)
  (local $8 i32)
  local.get $0
  local.set $5
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $2
   i32.lt_s
   if
    local.get $4
    local.get $5
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    local.get $3
    local.get $3
    local.get $8
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $8
    i64.load
    local.set $6
    local.get $8
    local.get $1
    local.get $0
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $7
    local.get $6
    local.get $6
    i64.const -9223372036854775808
    i64.eq
    local.get $6
    local.get $7
    i64.gt_s
    i32.or
    local.get $7
    i64.const -9223372036854775808
    i64.ne
    i32.and
    select
    i64.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_min_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 i32)
  local.get $0
  local.set $5
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $2
   i32.lt_s
   if
    local.get $4
    local.get $5
    local.get $0
    i32.const 2
    i32.shl
    local.tee $6
    i32.add
    i32.load
    local.tee $7
    local.get $3
    local.get $3
    local.get $7
    i32.gt_u
    select
    i32.const 2
    i32.shl
    i32.add
    local.tee $7
    local.get $1
    local.get $6
    i32.add
    i32.load
    local.tee $6
    local.get $7
    i32.load
    local.tee $7
    local.get $7
    i32.const -2147483648
    i32.eq
    local.get $6
    local.get $7
    i32.lt_s
    i32.or
    local.get $6
    i32.const -2147483648
    i32.ne
    i32.and
    select
    i32.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_min_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 f64)
  (local $7 f64)
  (local $8 i32)
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $4
    local.get $0
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    local.get $3
    local.get $3
    local.get $8
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $8
    f64.load
    local.set $7
    local.get $8
    local.get $1
    local.get $5
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $6
    local.get $7
    local.get $6
    local.get $7
    f64.ge
    i32.eqz
    local.get $6
    local.get $6
    f64.sub
    f64.const 0
    f64.eq
    i32.and
    select
    f64.store
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_min_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 f32)
  (local $7 i32)
  (local $8 f32)
  (local $9 i32)
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $4
    local.get $5
    i32.const 2
    i32.shl
    local.tee $7
    local.get $0
    i32.add
    i32.load
    local.tee $9
    local.get $3
    local.get $3
    local.get $9
    i32.gt_u
    select
    i32.const 2
    i32.shl
    i32.add
    local.tee $9
    local.get $1
    local.get $7
    i32.add
    f32.load
    local.tee $6
    local.get $9
    f32.load
    local.tee $8
    local.get $6
    local.get $8
    f32.ge
    i32.eqz
    local.get $6
    local.get $6
    f32.sub
    f32.const 0
    f32.eq
    i32.and
    select
    f32.store
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_max_sel_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 i64)
  (local $8 i64)
  (local $9 i32)
  (local $10 i32)
  local.get $0
  local.set $6
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $3
   i32.lt_s
   if
    local.get $5
    local.get $6
    local.get $2
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $9
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $10
    local.get $4
    local.get $4
    local.get $10
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $10
    local.get $1
    local.get $9
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $7
    local.get $10
    i64.load
    local.tee $8
    local.get $8
    i64.const -9223372036854775808
    i64.eq
    local.get $7
    local.get $8
    i64.gt_s
    i32.or
    local.get $7
    i64.const -9223372036854775808
    i64.ne
    i32.and
    select
    i64.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_max_sel_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 i32)
  local.get $0
  local.set $6
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $3
   i32.lt_s
   if
    local.get $5
    local.get $6
    local.get $2
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    local.tee $7
    i32.add
    i32.load
    local.tee $8
    local.get $4
    local.get $4
    local.get $8
    i32.gt_u
    select
    i32.const 2
    i32.shl
    i32.add
    local.tee $8
    local.get $1
    local.get $7
    i32.add
    i32.load
    local.tee $7
    local.get $8
    i32.load
    local.tee $8
    local.get $8
    i32.const -2147483648
    i32.eq
    local.get $7
    local.get $8
    i32.gt_s
    i32.or
    local.get $7
    i32.const -2147483648
    i32.ne
    i32.and
    select
    i32.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_max_sel_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 f64)
  (local $8 i32)
  (local $9 f64)
  (local $10 i32)
  loop $for-loop|0
   local.get $3
   local.get $6
   i32.gt_s
   if
    local.get $5
    local.get $0
    local.get $2
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $10
    local.get $4
    local.get $4
    local.get $10
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $10
    local.get $1
    local.get $8
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $7
    local.get $10
    f64.load
    local.tee $9
    local.get $7
    local.get $9
    f64.le
    i32.eqz
    local.get $7
    local.get $7
    f64.sub
    f64.const 0
    f64.eq
    i32.and
    select
    f64.store
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_max_sel_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32)
  (local $6 i32)
  (local $7 f32)
  (local $8 i32)
  (local $9 f32)
  (local $10 i32)
  loop $for-loop|0
   local.get $3
   local.get $6
   i32.gt_s
   if
    local.get $5
    local.get $2
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    local.tee $8
    local.get $0
    i32.add
    i32.load
    local.tee $10
    local.get $4
    local.get $4
    local.get $10
    i32.gt_u
    select
    i32.const 2
    i32.shl
    i32.add
    local.tee $10
    local.get $1
    local.get $8
    i32.add
    f32.load
    local.tee $7
    local.get $10
    f32.load
    local.tee $9
    local.get $7
    local.get $9
    f32.le
    i32.eqz
    local.get $7
    local.get $7
    f32.sub
    f32.const 0
    f32.eq
    i32.and
    select
    f32.store
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_max_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 i64)
  (local $7 i64)
  (local $8 i32)
  local.get $0
  local.set $5
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $2
   i32.lt_s
   if
    local.get $4
    local.get $5
    local.get $0
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    local.get $3
    local.get $3
    local.get $8
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $8
    i64.load
    local.set $6
    local.get $8
    local.get $1
    local.get $0
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $7
    local.get $6
    local.get $6
    i64.const -9223372036854775808
    i64.eq
    local.get $6
    local.get $7
    i64.lt_s
    i32.or
    local.get $7
    i64.const -9223372036854775808
    i64.ne
    i32.and
    select
    i64.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_max_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 i32)
  local.get $0
  local.set $5
  i32.const 0
  local.set $0
  loop $for-loop|0
   local.get $0
   local.get $2
   i32.lt_s
   if
    local.get $4
    local.get $5
    local.get $0
    i32.const 2
    i32.shl
    local.tee $6
    i32.add
    i32.load
    local.tee $7
    local.get $3
    local.get $3
    local.get $7
    i32.gt_u
    select
    i32.const 2
    i32.shl
    i32.add
    local.tee $7
    local.get $1
    local.get $6
    i32.add
    i32.load
    local.tee $6
    local.get $7
    i32.load
    local.tee $7
    local.get $7
    i32.const -2147483648
    i32.eq
    local.get $6
    local.get $7
    i32.gt_s
    i32.or
    local.get $6
    i32.const -2147483648
    i32.ne
    i32.and
    select
    i32.store
    local.get $0
    i32.const 1
    i32.add
    local.set $0
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_max_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 f64)
  (local $7 f64)
  (local $8 i32)
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $4
    local.get $0
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    local.get $3
    local.get $3
    local.get $8
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $8
    f64.load
    local.set $7
    local.get $8
    local.get $1
    local.get $5
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $6
    local.get $7
    local.get $6
    local.get $7
    f64.le
    i32.eqz
    local.get $6
    local.get $6
    f64.sub
    f64.const 0
    f64.eq
    i32.and
    select
    f64.store
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_max_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 f32)
  (local $7 i32)
  (local $8 f32)
  (local $9 i32)
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $4
    local.get $5
    i32.const 2
    i32.shl
    local.tee $7
    local.get $0
    i32.add
    i32.load
    local.tee $9
    local.get $3
    local.get $3
    local.get $9
    i32.gt_u
    select
    i32.const 2
    i32.shl
    i32.add
    local.tee $9
    local.get $1
    local.get $7
    i32.add
    f32.load
    local.tee $6
    local.get $9
    f32.load
    local.tee $8
    local.get $6
    local.get $8
    f32.le
    i32.eqz
    local.get $6
    local.get $6
    f32.sub
    f32.const 0
    f32.eq
    i32.and
    select
    f32.store
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_count_sel (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 i32)
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $4
    local.get $0
    local.get $1
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $6
    local.get $3
    local.get $3
    local.get $6
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $6
    local.get $6
    i64.load
    i64.const 1
    i64.add
    i64.store
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
 )
 (func $assembly/keyed/keyed_count (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32)
  (local $4 i32)
  (local $5 i32)
  loop $for-loop|0
   local.get $1
   local.get $4
   i32.gt_s
   if
    local.get $3
    local.get $0
    local.get $4
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $5
    local.get $2
    local.get $2
    local.get $5
    i32.gt_u
    select
    i32.const 3
    i32.shl
    i32.add
    local.tee $5
    local.get $5
    i64.load
    i64.const 1
    i64.add
    i64.store
    local.get $4
    i32.const 1
    i32.add
    local.set $4
    br $for-loop|0
   end
  end
 )
 (func $assembly/index/static_end (result i32)
  i32.const 1312
 )
 (func $assembly/index/result_block (result i32)
  i32.const 1024
 )
 (func $assembly/gather/sequence (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32)
  (local $4 i32)
  (local $5 i32)
  (local $6 v128)
  (local $7 v128)
  local.get $1
  i32x4.splat
  v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
  local.get $3
  i32x4.splat
  i32x4.mul
  i32x4.add
  local.set $6
  local.get $3
  i32.const 2
  i32.shl
  i32x4.splat
  local.set $7
  loop $for-loop|0
   local.get $4
   i32.const 4
   i32.add
   local.tee $5
   local.get $2
   i32.le_s
   if
    local.get $0
    local.get $4
    i32.const 2
    i32.shl
    i32.add
    local.get $6
    v128.store
    local.get $6
    local.get $7
    i32x4.add
    local.set $6
    local.get $5
    local.set $4
    br $for-loop|0
   end
  end
  loop $for-loop|1
   local.get $2
   local.get $4
   i32.gt_s
   if
    local.get $0
    local.get $4
    i32.const 2
    i32.shl
    i32.add
    local.get $1
    local.get $3
    local.get $4
    i32.mul
    i32.add
    i32.store
    local.get $4
    i32.const 1
    i32.add
    local.set $4
    br $for-loop|1
   end
  end
 )
 (func $assembly/gather/reverse (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32)
  (local $4 i32)
  (local $5 i32)
  local.get $0
  i32.const 1
  i32.eq
  if
   loop $for-loop|0
    local.get $2
    local.get $4
    i32.gt_s
    if
     local.get $3
     local.get $4
     i32.add
     local.get $1
     local.get $2
     i32.const 1
     i32.sub
     local.get $4
     i32.sub
     i32.add
     i32.load8_u
     i32.store8
     local.get $4
     i32.const 1
     i32.add
     local.set $4
     br $for-loop|0
    end
   end
  else
   local.get $0
   i32.const 2
   i32.eq
   if
    loop $for-loop|1
     local.get $2
     local.get $4
     i32.gt_s
     if
      local.get $3
      local.get $4
      i32.const 1
      i32.shl
      i32.add
      local.get $1
      local.get $2
      i32.const 1
      i32.sub
      local.get $4
      i32.sub
      i32.const 1
      i32.shl
      i32.add
      i32.load16_u
      i32.store16
      local.get $4
      i32.const 1
      i32.add
      local.set $4
      br $for-loop|1
     end
    end
   else
    local.get $0
    i32.const 4
    i32.eq
    if
     loop $for-loop|2
      local.get $2
      local.get $4
      i32.gt_s
      if
       local.get $3
       local.get $4
       i32.const 2
       i32.shl
       i32.add
       local.get $1
       local.get $2
       i32.const 1
       i32.sub
       local.get $4
       i32.sub
       i32.const 2
       i32.shl
       i32.add
       i32.load
       i32.store
       local.get $4
       i32.const 1
       i32.add
       local.set $4
       br $for-loop|2
      end
     end
    else
     local.get $0
     i32.const 8
     i32.eq
     if
      loop $for-loop|3
       local.get $2
       local.get $4
       i32.gt_s
       if
        local.get $3
        local.get $4
        i32.const 3
        i32.shl
        i32.add
        local.get $1
        local.get $2
        i32.const 1
        i32.sub
        local.get $4
        i32.sub
        i32.const 3
        i32.shl
        i32.add
        i64.load
        i64.store
        local.get $4
        i32.const 1
        i32.add
        local.set $4
        br $for-loop|3
       end
      end
     else
      local.get $0
      i32.const 16
      i32.eq
      if
       loop $for-loop|4
        local.get $2
        local.get $4
        i32.gt_s
        if
         local.get $3
         local.get $4
         i32.const 4
         i32.shl
         i32.add
         local.get $1
         local.get $2
         i32.const 1
         i32.sub
         local.get $4
         i32.sub
         i32.const 4
         i32.shl
         i32.add
         v128.load
         v128.store
         local.get $4
         i32.const 1
         i32.add
         local.set $4
         br $for-loop|4
        end
       end
      else
       local.get $0
       i32.const 32
       i32.eq
       if
        loop $for-loop|5
         local.get $2
         local.get $4
         i32.gt_s
         if
          local.get $3
          local.get $4
          i32.const 5
          i32.shl
          i32.add
          local.tee $0
          local.get $1
          local.get $2
          i32.const 1
          i32.sub
          local.get $4
          i32.sub
          i32.const 5
          i32.shl
          i32.add
          local.tee $5
          v128.load
          v128.store
          local.get $0
          local.get $5
          v128.load offset=16
          v128.store offset=16
          local.get $4
          i32.const 1
          i32.add
          local.set $4
          br $for-loop|5
         end
        end
       else
        unreachable
       end
      end
     end
    end
   end
  end
 )
 (func $assembly/gather/gather (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32)
  (local $5 i32)
  (local $6 i32)
  local.get $0
  i32.const 1
  i32.eq
  if
   loop $for-loop|0
    local.get $3
    local.get $5
    i32.gt_s
    if
     local.get $4
     local.get $5
     i32.add
     local.get $1
     local.get $2
     local.get $5
     i32.const 2
     i32.shl
     i32.add
     i32.load
     i32.add
     i32.load8_u
     i32.store8
     local.get $5
     i32.const 1
     i32.add
     local.set $5
     br $for-loop|0
    end
   end
  else
   local.get $0
   i32.const 2
   i32.eq
   if
    loop $for-loop|1
     local.get $3
     local.get $5
     i32.gt_s
     if
      local.get $4
      local.get $5
      i32.const 1
      i32.shl
      i32.add
      local.get $1
      local.get $2
      local.get $5
      i32.const 2
      i32.shl
      i32.add
      i32.load
      i32.const 1
      i32.shl
      i32.add
      i32.load16_u
      i32.store16
      local.get $5
      i32.const 1
      i32.add
      local.set $5
      br $for-loop|1
     end
    end
   else
    local.get $0
    i32.const 4
    i32.eq
    if
     loop $for-loop|2
      local.get $3
      local.get $5
      i32.gt_s
      if
       local.get $5
       i32.const 2
       i32.shl
       local.tee $0
       local.get $4
       i32.add
       local.get $1
       local.get $0
       local.get $2
       i32.add
       i32.load
       i32.const 2
       i32.shl
       i32.add
       i32.load
       i32.store
       local.get $5
       i32.const 1
       i32.add
       local.set $5
       br $for-loop|2
      end
     end
    else
     local.get $0
     i32.const 8
     i32.eq
     if
      loop $for-loop|3
       local.get $3
       local.get $5
       i32.gt_s
       if
        local.get $4
        local.get $5
        i32.const 3
        i32.shl
        i32.add
        local.get $1
        local.get $2
        local.get $5
        i32.const 2
        i32.shl
        i32.add
        i32.load
        i32.const 3
        i32.shl
        i32.add
        i64.load
        i64.store
        local.get $5
        i32.const 1
        i32.add
        local.set $5
        br $for-loop|3
       end
      end
     else
      local.get $0
      i32.const 16
      i32.eq
      if
       loop $for-loop|4
        local.get $3
        local.get $5
        i32.gt_s
        if
         local.get $4
         local.get $5
         i32.const 4
         i32.shl
         i32.add
         local.get $1
         local.get $2
         local.get $5
         i32.const 2
         i32.shl
         i32.add
         i32.load
         i32.const 4
         i32.shl
         i32.add
         v128.load
         v128.store
         local.get $5
         i32.const 1
         i32.add
         local.set $5
         br $for-loop|4
        end
       end
      else
       local.get $0
       i32.const 32
       i32.eq
       if
        loop $for-loop|5
         local.get $3
         local.get $5
         i32.gt_s
         if
          local.get $4
          local.get $5
          i32.const 5
          i32.shl
          i32.add
          local.tee $0
          local.get $1
          local.get $2
          local.get $5
          i32.const 2
          i32.shl
          i32.add
          i32.load
          i32.const 5
          i32.shl
          i32.add
          local.tee $6
          v128.load
          v128.store
          local.get $0
          local.get $6
          v128.load offset=16
          v128.store offset=16
          local.get $5
          i32.const 1
          i32.add
          local.set $5
          br $for-loop|5
         end
        end
       else
        unreachable
       end
      end
     end
    end
   end
  end
 )
 (func $assembly/filter/filter_sel_in_set (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 i32)
  (local $10 i32)
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $9
    local.get $4
    i32.lt_u
    local.tee $10
    local.get $9
    i32.const -1
    i32.eq
    i32.or
    local.get $3
    local.get $9
    local.get $4
    local.get $10
    select
    i32.add
    i32.load8_u
    i32.const 0
    i32.ne
    i32.and
    local.set $9
    local.get $5
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    local.get $8
    i32.store
    local.get $7
    local.get $9
    i32.add
    local.set $7
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  local.get $7
 )
 (func $assembly/filter/filter_sel_i8 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32) (result i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 i32)
  (local $10 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $7
   i32.gt_s
   if
    local.get $1
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $9
    local.get $0
    i32.add
    i32.load8_s
    local.set $10
    local.get $6
    local.get $8
    i32.const 2
    i32.shl
    i32.add
    local.get $9
    i32.store
    local.get $8
    local.get $10
    local.get $4
    i32.extend8_s
    i32.le_s
    local.get $10
    local.get $3
    i32.extend8_s
    i32.ge_s
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $8
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $8
 )
 (func $assembly/filter/filter_sel_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i64) (param $4 i64) (param $5 i32) (param $6 i32) (result i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 i64)
  (local $10 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $10
  loop $for-loop|0
   local.get $2
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $5
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.set $9
    local.get $6
    local.get $8
    i32.const 2
    i32.shl
    i32.add
    local.get $5
    i32.store
    local.get $8
    local.get $3
    local.get $9
    i64.le_s
    local.get $4
    local.get $9
    i64.ge_s
    i32.and
    local.get $10
    i32.ne
    i32.add
    local.set $8
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $8
 )
 (func $assembly/filter/filter_sel_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32) (result i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 i32)
  (local $10 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $9
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.set $10
    local.get $6
    local.get $8
    i32.const 2
    i32.shl
    i32.add
    local.get $9
    i32.store
    local.get $8
    local.get $3
    local.get $10
    i32.le_s
    local.get $4
    local.get $10
    i32.ge_s
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $8
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $8
 )
 (func $assembly/filter/filter_sel_i16 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (param $6 i32) (result i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 i32)
  (local $10 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $9
    i32.const 1
    i32.shl
    i32.add
    i32.load16_s
    local.set $10
    local.get $6
    local.get $8
    i32.const 2
    i32.shl
    i32.add
    local.get $9
    i32.store
    local.get $8
    local.get $10
    local.get $4
    i32.extend16_s
    i32.le_s
    local.get $10
    local.get $3
    i32.extend16_s
    i32.ge_s
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $8
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $8
 )
 (func $assembly/filter/filter_sel_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 f64) (param $4 f64) (param $5 i32) (param $6 i32) (result i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 f64)
  (local $10 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $10
  loop $for-loop|0
   local.get $2
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $5
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.set $9
    local.get $6
    local.get $8
    i32.const 2
    i32.shl
    i32.add
    local.get $5
    i32.store
    local.get $8
    local.get $3
    local.get $9
    f64.le
    local.get $4
    local.get $9
    f64.ge
    i32.and
    local.get $10
    i32.ne
    i32.add
    local.set $8
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $8
 )
 (func $assembly/filter/filter_sel_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 f32) (param $4 f32) (param $5 i32) (param $6 i32) (result i32)
  (local $7 i32)
  (local $8 i32)
  (local $9 f32)
  (local $10 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $10
  loop $for-loop|0
   local.get $2
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $5
    i32.const 2
    i32.shl
    i32.add
    f32.load
    local.set $9
    local.get $6
    local.get $8
    i32.const 2
    i32.shl
    i32.add
    local.get $5
    i32.store
    local.get $8
    local.get $3
    local.get $9
    f32.le
    local.get $4
    local.get $9
    f32.ge
    i32.and
    local.get $10
    i32.ne
    i32.add
    local.set $8
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $8
 )
 (func $assembly/filter/filter_in_set (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (result i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 i32)
  loop $for-loop|0
   local.get $1
   local.get $5
   i32.gt_s
   if
    local.get $0
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $7
    local.get $3
    i32.lt_u
    local.tee $8
    local.get $7
    i32.const -1
    i32.eq
    i32.or
    local.get $2
    local.get $7
    local.get $3
    local.get $8
    select
    i32.add
    i32.load8_u
    i32.const 0
    i32.ne
    i32.and
    local.set $7
    local.get $4
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    local.get $5
    i32.store
    local.get $6
    local.get $7
    i32.add
    local.set $6
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
  local.get $6
 )
 (func $assembly/filter/filter_i8 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 v128)
  (local $9 v128)
  (local $10 v128)
  (local $11 i32)
  (local $12 i32)
  (local $13 i32)
  local.get $2
  i8x16.splat
  local.set $8
  local.get $3
  i8x16.splat
  local.set $9
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $11
  loop $for-loop|0
   local.get $7
   i32.const 16
   i32.add
   local.get $1
   i32.le_s
   if
    local.get $11
    local.get $0
    local.get $7
    i32.add
    v128.load
    local.tee $10
    local.get $8
    i8x16.ge_s
    local.get $10
    local.get $9
    i8x16.le_s
    v128.and
    i8x16.bitmask
    i32.xor
    local.tee $12
    if
     local.get $5
     local.get $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 4
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 4
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 8
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 8
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 12
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 12
     i32.shr_s
     local.tee $12
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $6
     local.get $12
     i32.popcnt
     i32.add
     local.set $6
    end
    local.get $7
    i32.const 16
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $7
    i32.add
    i32.load8_s
    local.set $11
    local.get $5
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    local.get $7
    i32.store
    local.get $6
    local.get $11
    local.get $3
    i32.extend8_s
    i32.le_s
    local.get $11
    local.get $2
    i32.extend8_s
    i32.ge_s
    i32.and
    local.get $4
    i32.ne
    i32.add
    local.set $6
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|1
   end
  end
  local.get $6
 )
 (func $assembly/filter/filter_i64 (param $0 i32) (param $1 i32) (param $2 i64) (param $3 i64) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 v128)
  (local $8 i32)
  (local $9 v128)
  (local $10 i64)
  (local $11 i32)
  (local $12 i32)
  (local $13 v128)
  (local $14 i32)
  local.get $2
  i64x2.splat
  local.set $7
  local.get $3
  i64x2.splat
  local.set $9
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $11
  loop $for-loop|0
   local.get $8
   i32.const 16
   i32.add
   local.get $1
   i32.le_s
   if
    local.get $11
    local.get $0
    local.get $8
    i32.const 3
    i32.shl
    i32.add
    local.tee $12
    v128.load
    local.tee $13
    local.get $7
    i64x2.ge_s
    local.get $13
    local.get $9
    i64x2.le_s
    v128.and
    local.get $12
    v128.load offset=16
    local.tee $13
    local.get $7
    i64x2.ge_s
    local.get $13
    local.get $9
    i64x2.le_s
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    local.get $12
    v128.load offset=32
    local.tee $13
    local.get $7
    i64x2.ge_s
    local.get $13
    local.get $9
    i64x2.le_s
    v128.and
    local.get $12
    v128.load offset=48
    local.tee $13
    local.get $7
    i64x2.ge_s
    local.get $13
    local.get $9
    i64x2.le_s
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    i16x8.narrow_i32x4_s
    local.get $12
    v128.load offset=64
    local.tee $13
    local.get $7
    i64x2.ge_s
    local.get $13
    local.get $9
    i64x2.le_s
    v128.and
    local.get $12
    v128.load offset=80
    local.tee $13
    local.get $7
    i64x2.ge_s
    local.get $13
    local.get $9
    i64x2.le_s
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    local.get $12
    v128.load offset=96
    local.tee $13
    local.get $7
    i64x2.ge_s
    local.get $13
    local.get $9
    i64x2.le_s
    v128.and
    local.get $12
    v128.load offset=112
    local.tee $13
    local.get $7
    i64x2.ge_s
    local.get $13
    local.get $9
    i64x2.le_s
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    i16x8.narrow_i32x4_s
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    local.tee $12
    if
     local.get $5
     local.get $6
     i32.const 2
     i32.shl
     i32.add
     local.get $8
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $8
     i32.const 4
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 4
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $8
     i32.const 8
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 8
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $8
     i32.const 12
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 12
     i32.shr_s
     local.tee $12
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $6
     local.get $12
     i32.popcnt
     i32.add
     local.set $6
    end
    local.get $8
    i32.const 16
    i32.add
    local.set $8
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $8
   i32.gt_s
   if
    local.get $0
    local.get $8
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.set $10
    local.get $5
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    local.get $8
    i32.store
    local.get $2
    local.get $10
    i64.le_s
    local.get $3
    local.get $10
    i64.ge_s
    i32.and
    local.get $4
    i32.ne
    local.get $6
    i32.add
    local.set $6
    local.get $8
    i32.const 1
    i32.add
    local.set $8
    br $for-loop|1
   end
  end
  local.get $6
 )
 (func $assembly/filter/filter_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 v128)
  (local $9 v128)
  (local $10 i32)
  (local $11 i32)
  (local $12 v128)
  (local $13 i32)
  local.get $2
  i32x4.splat
  local.set $8
  local.get $3
  i32x4.splat
  local.set $9
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $10
  loop $for-loop|0
   local.get $7
   i32.const 16
   i32.add
   local.get $1
   i32.le_s
   if
    local.get $10
    local.get $0
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    local.tee $11
    v128.load
    local.tee $12
    local.get $8
    i32x4.ge_s
    local.get $12
    local.get $9
    i32x4.le_s
    v128.and
    local.get $11
    v128.load offset=16
    local.tee $12
    local.get $8
    i32x4.ge_s
    local.get $12
    local.get $9
    i32x4.le_s
    v128.and
    i16x8.narrow_i32x4_s
    local.get $11
    v128.load offset=32
    local.tee $12
    local.get $8
    i32x4.ge_s
    local.get $12
    local.get $9
    i32x4.le_s
    v128.and
    local.get $11
    v128.load offset=48
    local.tee $12
    local.get $8
    i32x4.ge_s
    local.get $12
    local.get $9
    i32x4.le_s
    v128.and
    i16x8.narrow_i32x4_s
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    local.tee $11
    if
     local.get $5
     local.get $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $11
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 4
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $11
     i32.const 4
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 8
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $11
     i32.const 8
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 12
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $11
     i32.const 12
     i32.shr_s
     local.tee $11
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $6
     local.get $11
     i32.popcnt
     i32.add
     local.set $6
    end
    local.get $7
    i32.const 16
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.set $10
    local.get $5
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    local.get $7
    i32.store
    local.get $2
    local.get $10
    i32.le_s
    local.get $3
    local.get $10
    i32.ge_s
    i32.and
    local.get $4
    i32.ne
    local.get $6
    i32.add
    local.set $6
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|1
   end
  end
  local.get $6
 )
 (func $assembly/filter/filter_i16 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 v128)
  (local $9 v128)
  (local $10 i32)
  (local $11 i32)
  (local $12 v128)
  (local $13 i32)
  local.get $2
  i16x8.splat
  local.set $8
  local.get $3
  i16x8.splat
  local.set $9
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $10
  loop $for-loop|0
   local.get $7
   i32.const 16
   i32.add
   local.get $1
   i32.le_s
   if
    local.get $10
    local.get $0
    local.get $7
    i32.const 1
    i32.shl
    i32.add
    local.tee $11
    v128.load
    local.tee $12
    local.get $8
    i16x8.ge_s
    local.get $12
    local.get $9
    i16x8.le_s
    v128.and
    local.get $11
    v128.load offset=16
    local.tee $12
    local.get $8
    i16x8.ge_s
    local.get $12
    local.get $9
    i16x8.le_s
    v128.and
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    local.tee $11
    if
     local.get $5
     local.get $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $11
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 4
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $11
     i32.const 4
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 8
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $11
     i32.const 8
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $13
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $13
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 12
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $11
     i32.const 12
     i32.shr_s
     local.tee $11
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $6
     local.get $11
     i32.popcnt
     i32.add
     local.set $6
    end
    local.get $7
    i32.const 16
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $7
    i32.const 1
    i32.shl
    i32.add
    i32.load16_s
    local.set $10
    local.get $5
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    local.get $7
    i32.store
    local.get $6
    local.get $10
    local.get $3
    i32.extend16_s
    i32.le_s
    local.get $10
    local.get $2
    i32.extend16_s
    i32.ge_s
    i32.and
    local.get $4
    i32.ne
    i32.add
    local.set $6
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|1
   end
  end
  local.get $6
 )
 (func $assembly/filter/filter_f64 (param $0 i32) (param $1 i32) (param $2 f64) (param $3 f64) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 v128)
  (local $8 i32)
  (local $9 v128)
  (local $10 f64)
  (local $11 i32)
  (local $12 i32)
  (local $13 v128)
  (local $14 i32)
  local.get $2
  f64x2.splat
  local.set $7
  local.get $3
  f64x2.splat
  local.set $9
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $11
  loop $for-loop|0
   local.get $8
   i32.const 16
   i32.add
   local.get $1
   i32.le_s
   if
    local.get $11
    local.get $0
    local.get $8
    i32.const 3
    i32.shl
    i32.add
    local.tee $12
    v128.load
    local.tee $13
    local.get $7
    f64x2.ge
    local.get $13
    local.get $9
    f64x2.le
    v128.and
    local.get $12
    v128.load offset=16
    local.tee $13
    local.get $7
    f64x2.ge
    local.get $13
    local.get $9
    f64x2.le
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    local.get $12
    v128.load offset=32
    local.tee $13
    local.get $7
    f64x2.ge
    local.get $13
    local.get $9
    f64x2.le
    v128.and
    local.get $12
    v128.load offset=48
    local.tee $13
    local.get $7
    f64x2.ge
    local.get $13
    local.get $9
    f64x2.le
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    i16x8.narrow_i32x4_s
    local.get $12
    v128.load offset=64
    local.tee $13
    local.get $7
    f64x2.ge
    local.get $13
    local.get $9
    f64x2.le
    v128.and
    local.get $12
    v128.load offset=80
    local.tee $13
    local.get $7
    f64x2.ge
    local.get $13
    local.get $9
    f64x2.le
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    local.get $12
    v128.load offset=96
    local.tee $13
    local.get $7
    f64x2.ge
    local.get $13
    local.get $9
    f64x2.le
    v128.and
    local.get $12
    v128.load offset=112
    local.tee $13
    local.get $7
    f64x2.ge
    local.get $13
    local.get $9
    f64x2.le
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    i16x8.narrow_i32x4_s
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    local.tee $12
    if
     local.get $5
     local.get $6
     i32.const 2
     i32.shl
     i32.add
     local.get $8
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $8
     i32.const 4
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 4
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $8
     i32.const 8
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 8
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $8
     i32.const 12
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 12
     i32.shr_s
     local.tee $12
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $6
     local.get $12
     i32.popcnt
     i32.add
     local.set $6
    end
    local.get $8
    i32.const 16
    i32.add
    local.set $8
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $8
   i32.gt_s
   if
    local.get $0
    local.get $8
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.set $10
    local.get $5
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    local.get $8
    i32.store
    local.get $2
    local.get $10
    f64.le
    local.get $3
    local.get $10
    f64.ge
    i32.and
    local.get $4
    i32.ne
    local.get $6
    i32.add
    local.set $6
    local.get $8
    i32.const 1
    i32.add
    local.set $8
    br $for-loop|1
   end
  end
  local.get $6
 )
 (func $assembly/filter/filter_f32 (param $0 i32) (param $1 i32) (param $2 f32) (param $3 f32) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 v128)
  (local $9 v128)
  (local $10 f32)
  (local $11 i32)
  (local $12 i32)
  (local $13 v128)
  (local $14 i32)
  local.get $2
  f32x4.splat
  local.set $8
  local.get $3
  f32x4.splat
  local.set $9
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $11
  loop $for-loop|0
   local.get $7
   i32.const 16
   i32.add
   local.get $1
   i32.le_s
   if
    local.get $11
    local.get $0
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    local.tee $12
    v128.load
    local.tee $13
    local.get $8
    f32x4.ge
    local.get $13
    local.get $9
    f32x4.le
    v128.and
    local.get $12
    v128.load offset=16
    local.tee $13
    local.get $8
    f32x4.ge
    local.get $13
    local.get $9
    f32x4.le
    v128.and
    i16x8.narrow_i32x4_s
    local.get $12
    v128.load offset=32
    local.tee $13
    local.get $8
    f32x4.ge
    local.get $13
    local.get $9
    f32x4.le
    v128.and
    local.get $12
    v128.load offset=48
    local.tee $13
    local.get $8
    f32x4.ge
    local.get $13
    local.get $9
    f32x4.le
    v128.and
    i16x8.narrow_i32x4_s
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    local.tee $12
    if
     local.get $5
     local.get $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 4
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 4
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 8
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 8
     i32.shr_s
     i32.const 15
     i32.and
     local.tee $14
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $5
     local.get $6
     local.get $14
     i32.popcnt
     i32.add
     local.tee $6
     i32.const 2
     i32.shl
     i32.add
     local.get $7
     i32.const 12
     i32.add
     i32x4.splat
     v128.const i32x4 0x00000000 0x00000001 0x00000002 0x00000003
     i32x4.add
     local.get $12
     i32.const 12
     i32.shr_s
     local.tee $12
     i32.const 4
     i32.shl
     i32.const 1056
     i32.add
     v128.load
     i8x16.swizzle
     v128.store
     local.get $6
     local.get $12
     i32.popcnt
     i32.add
     local.set $6
    end
    local.get $7
    i32.const 16
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $7
   i32.gt_s
   if
    local.get $0
    local.get $7
    i32.const 2
    i32.shl
    i32.add
    f32.load
    local.set $10
    local.get $5
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    local.get $7
    i32.store
    local.get $6
    local.get $2
    local.get $10
    f32.le
    local.get $3
    local.get $10
    f32.ge
    i32.and
    local.get $4
    i32.ne
    i32.add
    local.set $6
    local.get $7
    i32.const 1
    i32.add
    local.set $7
    br $for-loop|1
   end
  end
  local.get $6
 )
 (func $assembly/filter/count_sel_in_set (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (result i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 i32)
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $6
    local.get $0
    local.get $1
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $6
    local.get $4
    i32.lt_u
    local.tee $7
    local.get $6
    i32.const -1
    i32.eq
    i32.or
    local.get $3
    local.get $6
    local.get $4
    local.get $7
    select
    i32.add
    i32.load8_u
    i32.const 0
    i32.ne
    i32.and
    i32.add
    local.set $6
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
  local.get $6
 )
 (func $assembly/filter/count_sel_i8 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $7
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.add
    i32.load8_s
    local.tee $7
    local.get $3
    i32.extend8_s
    i32.ge_s
    local.get $7
    local.get $4
    i32.extend8_s
    i32.le_s
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $7
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  local.get $7
 )
 (func $assembly/filter/count_sel_i64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i64) (param $4 i64) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 i64)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $7
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $8
    local.get $3
    i64.ge_s
    local.get $4
    local.get $8
    i64.ge_s
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $7
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  local.get $7
 )
 (func $assembly/filter/count_sel_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $7
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $7
    local.get $3
    i32.ge_s
    local.get $4
    local.get $7
    i32.ge_s
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $7
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  local.get $7
 )
 (func $assembly/filter/count_sel_i16 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $7
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 1
    i32.shl
    i32.add
    i32.load16_s
    local.tee $7
    local.get $3
    i32.extend16_s
    i32.ge_s
    local.get $7
    local.get $4
    i32.extend16_s
    i32.le_s
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $7
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  local.get $7
 )
 (func $assembly/filter/count_sel_f64 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 f64) (param $4 f64) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 f64)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $7
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $8
    local.get $3
    f64.ge
    local.get $4
    local.get $8
    f64.ge
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $7
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  local.get $7
 )
 (func $assembly/filter/count_sel_f32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 f32) (param $4 f32) (param $5 i32) (result i32)
  (local $6 i32)
  (local $7 i32)
  (local $8 f32)
  local.get $5
  i32.const 0
  i32.ne
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $7
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    i32.add
    f32.load
    local.tee $8
    local.get $3
    f32.ge
    local.get $4
    local.get $8
    f32.ge
    i32.and
    local.get $5
    i32.ne
    i32.add
    local.set $7
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  local.get $7
 )
 (func $assembly/filter/count_in_set (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (result i32)
  (local $4 i32)
  (local $5 i32)
  (local $6 i32)
  loop $for-loop|0
   local.get $1
   local.get $4
   i32.gt_s
   if
    local.get $5
    local.get $0
    local.get $4
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $5
    local.get $3
    i32.lt_u
    local.tee $6
    local.get $5
    i32.const -1
    i32.eq
    i32.or
    local.get $2
    local.get $5
    local.get $3
    local.get $6
    select
    i32.add
    i32.load8_u
    i32.const 0
    i32.ne
    i32.and
    i32.add
    local.set $5
    local.get $4
    i32.const 1
    i32.add
    local.set $4
    br $for-loop|0
   end
  end
  local.get $5
 )
 (func $assembly/filter/count_i8 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (result i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 v128)
  (local $8 i32)
  (local $9 v128)
  (local $10 v128)
  (local $11 i32)
  local.get $2
  i8x16.splat
  local.set $10
  local.get $3
  i8x16.splat
  local.set $9
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $8
  loop $for-loop|0
   local.get $5
   i32.const 16
   i32.add
   local.tee $6
   local.get $1
   i32.le_s
   if
    local.get $11
    local.get $8
    local.get $0
    local.get $5
    i32.add
    v128.load
    local.tee $7
    local.get $10
    i8x16.ge_s
    local.get $7
    local.get $9
    i8x16.le_s
    v128.and
    i8x16.bitmask
    i32.xor
    i32.popcnt
    i32.add
    local.set $11
    local.get $6
    local.set $5
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $5
   i32.gt_s
   if
    local.get $11
    local.get $0
    local.get $5
    i32.add
    i32.load8_s
    local.tee $6
    local.get $2
    i32.extend8_s
    i32.ge_s
    local.get $6
    local.get $3
    i32.extend8_s
    i32.le_s
    i32.and
    local.get $4
    i32.ne
    i32.add
    local.set $11
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|1
   end
  end
  local.get $11
 )
 (func $assembly/filter/count_i64 (param $0 i32) (param $1 i32) (param $2 i64) (param $3 i64) (param $4 i32) (result i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 v128)
  (local $8 i64)
  (local $9 i32)
  (local $10 i32)
  (local $11 v128)
  (local $12 v128)
  local.get $2
  i64x2.splat
  local.set $12
  local.get $3
  i64x2.splat
  local.set $11
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $9
  loop $for-loop|0
   local.get $6
   i32.const 16
   i32.add
   local.tee $5
   local.get $1
   i32.le_s
   if
    local.get $10
    local.get $9
    local.get $0
    local.get $6
    i32.const 3
    i32.shl
    i32.add
    local.tee $6
    v128.load
    local.tee $7
    local.get $12
    i64x2.ge_s
    local.get $7
    local.get $11
    i64x2.le_s
    v128.and
    local.get $6
    v128.load offset=16
    local.tee $7
    local.get $12
    i64x2.ge_s
    local.get $7
    local.get $11
    i64x2.le_s
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    local.get $6
    v128.load offset=32
    local.tee $7
    local.get $12
    i64x2.ge_s
    local.get $7
    local.get $11
    i64x2.le_s
    v128.and
    local.get $6
    v128.load offset=48
    local.tee $7
    local.get $12
    i64x2.ge_s
    local.get $7
    local.get $11
    i64x2.le_s
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    i16x8.narrow_i32x4_s
    local.get $6
    v128.load offset=64
    local.tee $7
    local.get $12
    i64x2.ge_s
    local.get $7
    local.get $11
    i64x2.le_s
    v128.and
    local.get $6
    v128.load offset=80
    local.tee $7
    local.get $12
    i64x2.ge_s
    local.get $7
    local.get $11
    i64x2.le_s
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    local.get $6
    v128.load offset=96
    local.tee $7
    local.get $12
    i64x2.ge_s
    local.get $7
    local.get $11
    i64x2.le_s
    v128.and
    local.get $6
    v128.load offset=112
    local.tee $7
    local.get $12
    i64x2.ge_s
    local.get $7
    local.get $11
    i64x2.le_s
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    i16x8.narrow_i32x4_s
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    i32.popcnt
    i32.add
    local.set $10
    local.get $5
    local.set $6
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $6
   i32.gt_s
   if
    local.get $0
    local.get $6
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $8
    local.get $2
    i64.ge_s
    local.get $3
    local.get $8
    i64.ge_s
    i32.and
    local.get $4
    i32.ne
    local.get $10
    i32.add
    local.set $10
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|1
   end
  end
  local.get $10
 )
 (func $assembly/filter/count_i32 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (result i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 v128)
  (local $8 i32)
  (local $9 i32)
  (local $10 v128)
  (local $11 v128)
  local.get $2
  i32x4.splat
  local.set $10
  local.get $3
  i32x4.splat
  local.set $7
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $8
  loop $for-loop|0
   local.get $5
   i32.const 16
   i32.add
   local.tee $6
   local.get $1
   i32.le_s
   if
    local.get $9
    local.get $8
    local.get $0
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    local.tee $5
    v128.load
    local.tee $11
    local.get $10
    i32x4.ge_s
    local.get $11
    local.get $7
    i32x4.le_s
    v128.and
    local.get $5
    v128.load offset=16
    local.tee $11
    local.get $10
    i32x4.ge_s
    local.get $11
    local.get $7
    i32x4.le_s
    v128.and
    i16x8.narrow_i32x4_s
    local.get $5
    v128.load offset=32
    local.tee $11
    local.get $10
    i32x4.ge_s
    local.get $11
    local.get $7
    i32x4.le_s
    v128.and
    local.get $5
    v128.load offset=48
    local.tee $11
    local.get $10
    i32x4.ge_s
    local.get $11
    local.get $7
    i32x4.le_s
    v128.and
    i16x8.narrow_i32x4_s
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    i32.popcnt
    i32.add
    local.set $9
    local.get $6
    local.set $5
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $5
   i32.gt_s
   if
    local.get $0
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $6
    local.get $2
    i32.ge_s
    local.get $3
    local.get $6
    i32.ge_s
    i32.and
    local.get $4
    i32.ne
    local.get $9
    i32.add
    local.set $9
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|1
   end
  end
  local.get $9
 )
 (func $assembly/filter/count_i16 (param $0 i32) (param $1 i32) (param $2 i32) (param $3 i32) (param $4 i32) (result i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 v128)
  (local $8 i32)
  (local $9 v128)
  (local $10 i32)
  (local $11 v128)
  local.get $2
  i16x8.splat
  local.set $9
  local.get $3
  i16x8.splat
  local.set $7
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $8
  loop $for-loop|0
   local.get $5
   i32.const 16
   i32.add
   local.tee $6
   local.get $1
   i32.le_s
   if
    local.get $10
    local.get $8
    local.get $0
    local.get $5
    i32.const 1
    i32.shl
    i32.add
    local.tee $5
    v128.load
    local.tee $11
    local.get $9
    i16x8.ge_s
    local.get $11
    local.get $7
    i16x8.le_s
    v128.and
    local.get $5
    v128.load offset=16
    local.tee $11
    local.get $9
    i16x8.ge_s
    local.get $11
    local.get $7
    i16x8.le_s
    v128.and
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    i32.popcnt
    i32.add
    local.set $10
    local.get $6
    local.set $5
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $5
   i32.gt_s
   if
    local.get $10
    local.get $0
    local.get $5
    i32.const 1
    i32.shl
    i32.add
    i32.load16_s
    local.tee $6
    local.get $2
    i32.extend16_s
    i32.ge_s
    local.get $6
    local.get $3
    i32.extend16_s
    i32.le_s
    i32.and
    local.get $4
    i32.ne
    i32.add
    local.set $10
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|1
   end
  end
  local.get $10
 )
 (func $assembly/filter/count_f64 (param $0 i32) (param $1 i32) (param $2 f64) (param $3 f64) (param $4 i32) (result i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 v128)
  (local $8 f64)
  (local $9 i32)
  (local $10 i32)
  (local $11 v128)
  (local $12 v128)
  local.get $2
  f64x2.splat
  local.set $12
  local.get $3
  f64x2.splat
  local.set $11
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $9
  loop $for-loop|0
   local.get $6
   i32.const 16
   i32.add
   local.tee $5
   local.get $1
   i32.le_s
   if
    local.get $10
    local.get $9
    local.get $0
    local.get $6
    i32.const 3
    i32.shl
    i32.add
    local.tee $6
    v128.load
    local.tee $7
    local.get $12
    f64x2.ge
    local.get $7
    local.get $11
    f64x2.le
    v128.and
    local.get $6
    v128.load offset=16
    local.tee $7
    local.get $12
    f64x2.ge
    local.get $7
    local.get $11
    f64x2.le
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    local.get $6
    v128.load offset=32
    local.tee $7
    local.get $12
    f64x2.ge
    local.get $7
    local.get $11
    f64x2.le
    v128.and
    local.get $6
    v128.load offset=48
    local.tee $7
    local.get $12
    f64x2.ge
    local.get $7
    local.get $11
    f64x2.le
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    i16x8.narrow_i32x4_s
    local.get $6
    v128.load offset=64
    local.tee $7
    local.get $12
    f64x2.ge
    local.get $7
    local.get $11
    f64x2.le
    v128.and
    local.get $6
    v128.load offset=80
    local.tee $7
    local.get $12
    f64x2.ge
    local.get $7
    local.get $11
    f64x2.le
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    local.get $6
    v128.load offset=96
    local.tee $7
    local.get $12
    f64x2.ge
    local.get $7
    local.get $11
    f64x2.le
    v128.and
    local.get $6
    v128.load offset=112
    local.tee $7
    local.get $12
    f64x2.ge
    local.get $7
    local.get $11
    f64x2.le
    v128.and
    i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27
    i16x8.narrow_i32x4_s
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    i32.popcnt
    i32.add
    local.set $10
    local.get $5
    local.set $6
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $6
   i32.gt_s
   if
    local.get $0
    local.get $6
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $8
    local.get $2
    f64.ge
    local.get $3
    local.get $8
    f64.ge
    i32.and
    local.get $4
    i32.ne
    local.get $10
    i32.add
    local.set $10
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|1
   end
  end
  local.get $10
 )
 (func $assembly/filter/count_f32 (param $0 i32) (param $1 i32) (param $2 f32) (param $3 f32) (param $4 i32) (result i32)
  (local $5 i32)
  (local $6 i32)
  (local $7 v128)
  (local $8 v128)
  (local $9 v128)
  (local $10 i32)
  (local $11 i32)
  (local $12 f32)
  local.get $2
  f32x4.splat
  local.set $8
  local.get $3
  f32x4.splat
  local.set $9
  i32.const 65535
  i32.const 0
  local.get $4
  select
  local.set $11
  loop $for-loop|0
   local.get $5
   i32.const 16
   i32.add
   local.tee $6
   local.get $1
   i32.le_s
   if
    local.get $10
    local.get $11
    local.get $0
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    local.tee $5
    v128.load
    local.tee $7
    local.get $8
    f32x4.ge
    local.get $7
    local.get $9
    f32x4.le
    v128.and
    local.get $5
    v128.load offset=16
    local.tee $7
    local.get $8
    f32x4.ge
    local.get $7
    local.get $9
    f32x4.le
    v128.and
    i16x8.narrow_i32x4_s
    local.get $5
    v128.load offset=32
    local.tee $7
    local.get $8
    f32x4.ge
    local.get $7
    local.get $9
    f32x4.le
    v128.and
    local.get $5
    v128.load offset=48
    local.tee $7
    local.get $8
    f32x4.ge
    local.get $7
    local.get $9
    f32x4.le
    v128.and
    i16x8.narrow_i32x4_s
    i8x16.narrow_i16x8_s
    i8x16.bitmask
    i32.xor
    i32.popcnt
    i32.add
    local.set $10
    local.get $6
    local.set $5
    br $for-loop|0
   end
  end
  local.get $4
  i32.const 0
  i32.ne
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $5
   i32.gt_s
   if
    local.get $10
    local.get $0
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    f32.load
    local.tee $12
    local.get $2
    f32.ge
    local.get $3
    local.get $12
    f32.ge
    i32.and
    local.get $4
    i32.ne
    i32.add
    local.set $10
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|1
   end
  end
  local.get $10
 )
 (func $assembly/aggregate/stats_sel_i8 (param $0 i32) (param $1 i32) (param $2 i32)
  (local $3 i64)
  (local $4 i64)
  (local $5 i32)
  (local $6 i64)
  (local $7 i64)
  (local $8 i64)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  i64.const 9223372036854775807
  local.set $3
  i64.const -9223372036854775808
  local.set $4
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $6
    i64.const 1
    i64.add
    local.set $6
    local.get $7
    local.get $1
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.get $0
    i32.add
    i64.load8_s
    local.tee $8
    i64.add
    local.set $7
    local.get $4
    local.get $8
    local.get $4
    local.get $8
    i64.gt_s
    select
    local.set $4
    local.get $3
    local.get $8
    local.get $3
    local.get $8
    i64.lt_s
    select
    local.set $3
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $6
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $7
  i64.add
  global.set $assembly/aggregate/accSumI
  global.get $assembly/aggregate/accMinI
  local.tee $6
  local.get $3
  local.get $3
  local.get $6
  i64.gt_s
  select
  global.set $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accMaxI
  local.tee $3
  local.get $4
  local.get $3
  local.get $4
  i64.gt_s
  select
  global.set $assembly/aggregate/accMaxI
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumI
  i64.store
  i32.const 1040
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.le_s
  local.tee $0
  select
  i64.store
  i32.const 1048
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMaxI
  local.get $0
  select
  i64.store
 )
 (func $assembly/aggregate/stats_sel_i64 (param $0 i32) (param $1 i32) (param $2 i32)
  (local $3 i64)
  (local $4 i64)
  (local $5 i32)
  (local $6 i64)
  (local $7 i64)
  (local $8 i64)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  i64.const 9223372036854775807
  local.set $3
  i64.const -9223372036854775808
  local.set $4
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 3
    i32.shl
    i32.add
    i64.load
    local.tee $8
    i64.const -9223372036854775808
    i64.ne
    if
     local.get $6
     i64.const 1
     i64.add
     local.set $6
     local.get $7
     local.get $8
     i64.add
     local.set $7
     local.get $4
     local.get $8
     local.get $4
     local.get $8
     i64.gt_s
     select
     local.set $4
     local.get $3
     local.get $8
     local.get $3
     local.get $8
     i64.lt_s
     select
     local.set $3
    end
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $6
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $7
  i64.add
  global.set $assembly/aggregate/accSumI
  global.get $assembly/aggregate/accMinI
  local.tee $6
  local.get $3
  local.get $3
  local.get $6
  i64.gt_s
  select
  global.set $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accMaxI
  local.tee $3
  local.get $4
  local.get $3
  local.get $4
  i64.gt_s
  select
  global.set $assembly/aggregate/accMaxI
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumI
  i64.store
  i32.const 1040
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.le_s
  local.tee $0
  select
  i64.store
  i32.const 1048
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMaxI
  local.get $0
  select
  i64.store
 )
 (func $assembly/aggregate/stats_sel_i32 (param $0 i32) (param $1 i32) (param $2 i32)
  (local $3 i64)
  (local $4 i64)
  (local $5 i32)
  (local $6 i64)
  (local $7 i64)
  (local $8 i32)
  (local $9 i64)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  i64.const 9223372036854775807
  local.set $3
  i64.const -9223372036854775808
  local.set $4
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    i32.add
    i32.load
    local.tee $8
    i32.const -2147483648
    i32.ne
    if
     local.get $6
     i64.const 1
     i64.add
     local.set $6
     local.get $7
     local.get $8
     i64.extend_i32_s
     local.tee $9
     i64.add
     local.set $7
     local.get $4
     local.get $9
     local.get $4
     local.get $9
     i64.gt_s
     select
     local.set $4
     local.get $3
     local.get $9
     local.get $3
     local.get $9
     i64.lt_s
     select
     local.set $3
    end
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $6
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $7
  i64.add
  global.set $assembly/aggregate/accSumI
  global.get $assembly/aggregate/accMinI
  local.tee $6
  local.get $3
  local.get $3
  local.get $6
  i64.gt_s
  select
  global.set $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accMaxI
  local.tee $3
  local.get $4
  local.get $3
  local.get $4
  i64.gt_s
  select
  global.set $assembly/aggregate/accMaxI
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumI
  i64.store
  i32.const 1040
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.le_s
  local.tee $0
  select
  i64.store
  i32.const 1048
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMaxI
  local.get $0
  select
  i64.store
 )
 (func $assembly/aggregate/stats_sel_i16 (param $0 i32) (param $1 i32) (param $2 i32)
  (local $3 i64)
  (local $4 i64)
  (local $5 i32)
  (local $6 i64)
  (local $7 i64)
  (local $8 i64)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  i64.const 9223372036854775807
  local.set $3
  i64.const -9223372036854775808
  local.set $4
  loop $for-loop|0
   local.get $2
   local.get $5
   i32.gt_s
   if
    local.get $6
    i64.const 1
    i64.add
    local.set $6
    local.get $7
    local.get $0
    local.get $1
    local.get $5
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 1
    i32.shl
    i32.add
    i64.load16_s
    local.tee $8
    i64.add
    local.set $7
    local.get $4
    local.get $8
    local.get $4
    local.get $8
    i64.gt_s
    select
    local.set $4
    local.get $3
    local.get $8
    local.get $3
    local.get $8
    i64.lt_s
    select
    local.set $3
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $6
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $7
  i64.add
  global.set $assembly/aggregate/accSumI
  global.get $assembly/aggregate/accMinI
  local.tee $6
  local.get $3
  local.get $3
  local.get $6
  i64.gt_s
  select
  global.set $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accMaxI
  local.tee $3
  local.get $4
  local.get $3
  local.get $4
  i64.gt_s
  select
  global.set $assembly/aggregate/accMaxI
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumI
  i64.store
  i32.const 1040
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.le_s
  local.tee $0
  select
  i64.store
  i32.const 1048
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMaxI
  local.get $0
  select
  i64.store
 )
 (func $assembly/aggregate/stats_sel_f64 (param $0 i32) (param $1 i32) (param $2 i32)
  (local $3 f64)
  (local $4 f64)
  (local $5 f64)
  (local $6 i32)
  (local $7 f64)
  (local $8 i64)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  f64.const inf
  local.set $3
  f64.const -inf
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 3
    i32.shl
    i32.add
    f64.load
    local.tee $4
    local.get $4
    f64.sub
    f64.const 0
    f64.eq
    if
     local.get $7
     local.get $4
     f64.add
     local.set $7
     local.get $4
     local.get $5
     f64.max
     local.set $5
     local.get $8
     i64.const 1
     i64.add
     local.set $8
     local.get $3
     local.get $4
     f64.min
     local.set $3
    end
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $8
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumF
  local.get $7
  f64.add
  global.set $assembly/aggregate/accSumF
  global.get $assembly/aggregate/accMinF
  local.get $3
  f64.min
  global.set $assembly/aggregate/accMinF
  global.get $assembly/aggregate/accMaxF
  local.get $5
  f64.max
  global.set $assembly/aggregate/accMaxF
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumF
  f64.store
  i32.const 1040
  global.get $assembly/aggregate/accMinF
  f64.const nan:0x8000000000000
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.gt_s
  local.tee $0
  select
  f64.store
  i32.const 1048
  global.get $assembly/aggregate/accMaxF
  f64.const nan:0x8000000000000
  local.get $0
  select
  f64.store
 )
 (func $assembly/aggregate/stats_sel_f32 (param $0 i32) (param $1 i32) (param $2 i32)
  (local $3 f64)
  (local $4 f64)
  (local $5 f64)
  (local $6 i32)
  (local $7 f64)
  (local $8 i64)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  f64.const inf
  local.set $3
  f64.const -inf
  local.set $5
  loop $for-loop|0
   local.get $2
   local.get $6
   i32.gt_s
   if
    local.get $0
    local.get $1
    local.get $6
    i32.const 2
    i32.shl
    i32.add
    i32.load
    i32.const 2
    i32.shl
    i32.add
    f32.load
    f64.promote_f32
    local.tee $4
    local.get $4
    f64.sub
    f64.const 0
    f64.eq
    if
     local.get $7
     local.get $4
     f64.add
     local.set $7
     local.get $4
     local.get $5
     f64.max
     local.set $5
     local.get $8
     i64.const 1
     i64.add
     local.set $8
     local.get $3
     local.get $4
     f64.min
     local.set $3
    end
    local.get $6
    i32.const 1
    i32.add
    local.set $6
    br $for-loop|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $8
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumF
  local.get $7
  f64.add
  global.set $assembly/aggregate/accSumF
  global.get $assembly/aggregate/accMinF
  local.get $3
  f64.min
  global.set $assembly/aggregate/accMinF
  global.get $assembly/aggregate/accMaxF
  local.get $5
  f64.max
  global.set $assembly/aggregate/accMaxF
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumF
  f64.store
  i32.const 1040
  global.get $assembly/aggregate/accMinF
  f64.const nan:0x8000000000000
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.gt_s
  local.tee $0
  select
  f64.store
  i32.const 1048
  global.get $assembly/aggregate/accMaxF
  f64.const nan:0x8000000000000
  local.get $0
  select
  f64.store
 )
 (func $assembly/aggregate/stats_i8 (param $0 i32) (param $1 i32)
  (local $2 v128)
  (local $3 i64)
  (local $4 i64)
  (local $5 i32)
  (local $6 v128)
  (local $7 i32)
  (local $8 v128)
  (local $9 v128)
  (local $10 i64)
  (local $11 i64)
  (local $12 v128)
  (local $13 v128)
  (local $14 i64)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  v128.const i32x4 0x7f7f7f7f 0x7f7f7f7f 0x7f7f7f7f 0x7f7f7f7f
  local.set $2
  v128.const i32x4 0x80808080 0x80808080 0x80808080 0x80808080
  local.set $6
  local.get $1
  i32.const -16
  i32.and
  local.set $5
  loop $for-loop|0
   local.get $5
   local.get $7
   i32.gt_s
   if
    local.get $8
    local.get $0
    local.get $7
    i32.add
    v128.load
    local.tee $13
    i16x8.extadd_pairwise_i8x16_s
    i32x4.extadd_pairwise_i16x8_s
    local.tee $12
    i64x2.extend_low_i32x4_s
    i64x2.add
    local.set $8
    local.get $9
    local.get $12
    i64x2.extend_high_i32x4_s
    i64x2.add
    local.set $9
    local.get $2
    local.get $13
    i8x16.min_s
    local.set $2
    local.get $6
    local.get $13
    i8x16.max_s
    local.set $6
    local.get $7
    i32.const 16
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $5
  i64.extend_i32_s
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $8
  local.get $9
  i64x2.add
  local.tee $8
  i64x2.extract_lane 0
  local.get $8
  i64x2.extract_lane 1
  i64.add
  i64.add
  global.set $assembly/aggregate/accSumI
  local.get $5
  i32.const 0
  i32.gt_s
  if
   global.get $assembly/aggregate/accMinI
   local.tee $3
   local.get $2
   local.get $2
   local.get $2
   i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
   i8x16.min_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11
   i8x16.min_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 2 3 0 1 6 7 4 5 10 11 8 9 14 15 12 13
   i8x16.min_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 1 0 3 2 5 4 7 6 9 8 11 10 13 12 15 14
   i8x16.min_s
   i8x16.extract_lane_s 0
   i32.extend8_s
   i64.extend_i32_s
   local.tee $4
   local.get $3
   local.get $4
   i64.lt_s
   select
   global.set $assembly/aggregate/accMinI
   global.get $assembly/aggregate/accMaxI
   local.tee $3
   local.get $6
   local.get $6
   local.get $6
   i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
   i8x16.max_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11
   i8x16.max_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 2 3 0 1 6 7 4 5 10 11 8 9 14 15 12 13
   i8x16.max_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 1 0 3 2 5 4 7 6 9 8 11 10 13 12 15 14
   i8x16.max_s
   i8x16.extract_lane_s 0
   i32.extend8_s
   i64.extend_i32_s
   local.tee $4
   local.get $3
   local.get $4
   i64.gt_s
   select
   global.set $assembly/aggregate/accMaxI
  end
  i64.const 9223372036854775807
  local.set $3
  i64.const -9223372036854775808
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $5
   i32.gt_s
   if
    local.get $10
    local.get $0
    local.get $5
    i32.add
    i64.load8_s
    local.tee $14
    i64.add
    local.set $10
    local.get $3
    local.get $14
    local.get $3
    local.get $14
    i64.lt_s
    select
    local.set $3
    local.get $4
    local.get $14
    local.get $4
    local.get $14
    i64.gt_s
    select
    local.set $4
    local.get $11
    i64.const 1
    i64.add
    local.set $11
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|1
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $11
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $10
  i64.add
  global.set $assembly/aggregate/accSumI
  global.get $assembly/aggregate/accMinI
  local.tee $10
  local.get $3
  local.get $3
  local.get $10
  i64.gt_s
  select
  global.set $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accMaxI
  local.tee $3
  local.get $4
  local.get $3
  local.get $4
  i64.gt_s
  select
  global.set $assembly/aggregate/accMaxI
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumI
  i64.store
  i32.const 1040
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.le_s
  local.tee $0
  select
  i64.store
  i32.const 1048
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMaxI
  local.get $0
  select
  i64.store
 )
 (func $assembly/aggregate/stats_i64 (param $0 i32) (param $1 i32)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  local.get $0
  local.get $1
  call $assembly/aggregate/foldI64
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumI
  i64.store
  i32.const 1040
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.le_s
  local.tee $0
  select
  i64.store
  i32.const 1048
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMaxI
  local.get $0
  select
  i64.store
 )
 (func $assembly/aggregate/stats_i32 (param $0 i32) (param $1 i32)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  local.get $0
  local.get $1
  call $assembly/aggregate/foldI32
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumI
  i64.store
  i32.const 1040
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.le_s
  local.tee $0
  select
  i64.store
  i32.const 1048
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMaxI
  local.get $0
  select
  i64.store
 )
 (func $assembly/aggregate/stats_i16 (param $0 i32) (param $1 i32)
  (local $2 v128)
  (local $3 i64)
  (local $4 i64)
  (local $5 i32)
  (local $6 v128)
  (local $7 i32)
  (local $8 v128)
  (local $9 v128)
  (local $10 i64)
  (local $11 i64)
  (local $12 v128)
  (local $13 v128)
  (local $14 i64)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  v128.const i32x4 0x7fff7fff 0x7fff7fff 0x7fff7fff 0x7fff7fff
  local.set $2
  v128.const i32x4 0x80008000 0x80008000 0x80008000 0x80008000
  local.set $6
  local.get $1
  i32.const -8
  i32.and
  local.set $5
  loop $for-loop|0
   local.get $5
   local.get $7
   i32.gt_s
   if
    local.get $8
    local.get $0
    local.get $7
    i32.const 1
    i32.shl
    i32.add
    v128.load
    local.tee $13
    i32x4.extadd_pairwise_i16x8_s
    local.tee $12
    i64x2.extend_low_i32x4_s
    i64x2.add
    local.set $8
    local.get $9
    local.get $12
    i64x2.extend_high_i32x4_s
    i64x2.add
    local.set $9
    local.get $2
    local.get $13
    i16x8.min_s
    local.set $2
    local.get $6
    local.get $13
    i16x8.max_s
    local.set $6
    local.get $7
    i32.const 8
    i32.add
    local.set $7
    br $for-loop|0
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $5
  i64.extend_i32_s
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $8
  local.get $9
  i64x2.add
  local.tee $8
  i64x2.extract_lane 0
  local.get $8
  i64x2.extract_lane 1
  i64.add
  i64.add
  global.set $assembly/aggregate/accSumI
  local.get $5
  i32.const 0
  i32.gt_s
  if
   global.get $assembly/aggregate/accMinI
   local.tee $3
   local.get $2
   local.get $2
   local.get $2
   i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
   i16x8.min_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11
   i16x8.min_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 2 3 0 1 6 7 4 5 10 11 8 9 14 15 12 13
   i16x8.min_s
   i16x8.extract_lane_s 0
   i32.extend16_s
   i64.extend_i32_s
   local.tee $4
   local.get $3
   local.get $4
   i64.lt_s
   select
   global.set $assembly/aggregate/accMinI
   global.get $assembly/aggregate/accMaxI
   local.tee $3
   local.get $6
   local.get $6
   local.get $6
   i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7
   i16x8.max_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11
   i16x8.max_s
   local.tee $2
   local.get $2
   local.get $2
   i8x16.shuffle 2 3 0 1 6 7 4 5 10 11 8 9 14 15 12 13
   i16x8.max_s
   i16x8.extract_lane_s 0
   i32.extend16_s
   i64.extend_i32_s
   local.tee $4
   local.get $3
   local.get $4
   i64.gt_s
   select
   global.set $assembly/aggregate/accMaxI
  end
  i64.const 9223372036854775807
  local.set $3
  i64.const -9223372036854775808
  local.set $4
  loop $for-loop|1
   local.get $1
   local.get $5
   i32.gt_s
   if
    local.get $10
    local.get $0
    local.get $5
    i32.const 1
    i32.shl
    i32.add
    i64.load16_s
    local.tee $14
    i64.add
    local.set $10
    local.get $3
    local.get $14
    local.get $3
    local.get $14
    i64.lt_s
    select
    local.set $3
    local.get $4
    local.get $14
    local.get $4
    local.get $14
    i64.gt_s
    select
    local.set $4
    local.get $11
    i64.const 1
    i64.add
    local.set $11
    local.get $5
    i32.const 1
    i32.add
    local.set $5
    br $for-loop|1
   end
  end
  global.get $assembly/aggregate/accCount
  local.get $11
  i64.add
  global.set $assembly/aggregate/accCount
  global.get $assembly/aggregate/accSumI
  local.get $10
  i64.add
  global.set $assembly/aggregate/accSumI
  global.get $assembly/aggregate/accMinI
  local.tee $10
  local.get $3
  local.get $3
  local.get $10
  i64.gt_s
  select
  global.set $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accMaxI
  local.tee $3
  local.get $4
  local.get $3
  local.get $4
  i64.gt_s
  select
  global.set $assembly/aggregate/accMaxI
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumI
  i64.store
  i32.const 1040
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMinI
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.le_s
  local.tee $0
  select
  i64.store
  i32.const 1048
  i64.const -9223372036854775808
  global.get $assembly/aggregate/accMaxI
  local.get $0
  select
  i64.store
 )
 (func $assembly/aggregate/stats_f64 (param $0 i32) (param $1 i32)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  local.get $0
  local.get $1
  call $assembly/aggregate/foldF64
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumF
  f64.store
  i32.const 1040
  global.get $assembly/aggregate/accMinF
  f64.const nan:0x8000000000000
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.gt_s
  local.tee $0
  select
  f64.store
  i32.const 1048
  global.get $assembly/aggregate/accMaxF
  f64.const nan:0x8000000000000
  local.get $0
  select
  f64.store
 )
 (func $assembly/aggregate/stats_f32 (param $0 i32) (param $1 i32)
  i64.const 0
  global.set $assembly/aggregate/accCount
  f64.const 0
  global.set $assembly/aggregate/accSumF
  f64.const inf
  global.set $assembly/aggregate/accMinF
  f64.const -inf
  global.set $assembly/aggregate/accMaxF
  i64.const 0
  global.set $assembly/aggregate/accSumI
  i64.const 9223372036854775807
  global.set $assembly/aggregate/accMinI
  i64.const -9223372036854775808
  global.set $assembly/aggregate/accMaxI
  local.get $0
  local.get $1
  call $assembly/aggregate/foldF32
  i32.const 1024
  global.get $assembly/aggregate/accCount
  i64.store
  i32.const 1032
  global.get $assembly/aggregate/accSumF
  f64.store
  i32.const 1040
  global.get $assembly/aggregate/accMinF
  f64.const nan:0x8000000000000
  global.get $assembly/aggregate/accCount
  i64.const 0
  i64.gt_s
  local.tee $0
  select
  f64.store
  i32.const 1048
  global.get $assembly/aggregate/accMaxF
  f64.const nan:0x8000000000000
  local.get $0
  select
  f64.store
 )
)

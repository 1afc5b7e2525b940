// The forward merge of ASOF and LT JOIN (engine/exec/asof_join_columnar.ts): both inputs are
// sorted by timestamp, so one pass over the left rows advances over the right rows, and each
// left row takes the last right row of its key slot seen so far.

import { at, RESULT } from "./common";

/**
 * The key slot of `row`: `keys[row]` itself without a table, else `table[keys[row] + 1]`
 * (a SYMBOL key through its dictionary's slot table: entry 0 is NULL, and like NULL any key
 * outside the table, as the row path treats keys outside the dictionary).
 */
// @ts-ignore: decorator
@inline function slotAt(keys: usize, table: usize, tableLen: i32, row: i32, slotCount: i32): i32 {
  let slot = load<i32>(at<i32>(keys, row));
  if (table) {
    const entry = slot + 1;
    slot = load<i32>(at<i32>(table, <u32>entry < <u32>tableLen ? entry : 0));
  }
  if (<u32>slot >= <u32>slotCount) unreachable();
  return slot;
}

/**
 * Left rows [from, to) (timestamps `lts`, keys `lkeys` through `ltable`, see slotAt) against
 * right rows [rFrom, rCount) (`rts`, `rkeys`, `rtable`): each right row at or before the left
 * row's timestamp (strictly before when `strict`, LT JOIN) becomes
 * `lastRow[slot] = rBase + row`, and `match[i] = lastRow[slot of left row i]`. When `more` is
 * set and the right rows run out, the left row being decided might still be matched by the
 * next right batch: the merge stops there.
 * Returns the first left row not decided (`to` when all were); the right position reached is
 * written to the result block (+0, as i64). A slot outside [0, slotCount) traps.
 */
export function asof_merge(
  lts: usize,
  lkeys: usize,
  ltable: usize,
  ltableLen: i32,
  from: i32,
  to: i32,
  rts: usize,
  rkeys: usize,
  rtable: usize,
  rtableLen: i32,
  rFrom: i32,
  rCount: i32,
  rBase: i32,
  lastRow: usize,
  slotCount: i32,
  match: usize,
  strict: bool,
  more: bool,
): i32 {
  let r = rFrom;
  let i = from;
  // Driven by the right rows: before right row r is recorded, every left row it cannot
  // match (ASOF: the left row is earlier; LT: earlier or equal) is decided. The inner loop
  // compares against a constant and runs ~rows-per-right-row times, so it mispredicts once
  // per right row, and its steps do not wait on each other. Driving by the left rows instead
  // (an inner loop over right rows that mostly runs zero times) ran about twice as slow.
  while (r < rCount) {
    const rt = load<i64>(at<i64>(rts, r));
    while (i < to && (strict ? load<i64>(at<i64>(lts, i)) <= rt : load<i64>(at<i64>(lts, i)) < rt)) {
      const slot = slotAt(lkeys, ltable, ltableLen, i, slotCount);
      store<i32>(at<i32>(match, i), load<i32>(at<i32>(lastRow, slot)));
      i++;
    }
    if (i >= to) break;
    const slot = slotAt(rkeys, rtable, rtableLen, r, slotCount);
    store<i32>(at<i32>(lastRow, slot), rBase + r);
    r++;
  }
  // The right rows ran out: more may follow (stop at row i), or none do (the rest is decided).
  if (!more) {
    for (; i < to; i++) {
      const slot = slotAt(lkeys, ltable, ltableLen, i, slotCount);
      store<i32>(at<i32>(match, i), load<i32>(at<i32>(lastRow, slot)));
    }
  }
  store<i64>(RESULT, <i64>r);
  return i;
}

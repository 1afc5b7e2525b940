/**
 * Inputs the fuzzers once failed on, kept as regression cases (issue 9: "keep the corpora of
 * inputs that found bugs"). Each entry names what it found.
 */
const SQL: [string, string][] = [
  [
    "INSERT INTO fw SELECT ts, s, l FROM ft WHERE l BETWEEN 1e300 AND 1e300 LIMIT 15",
    "LONG kernel filter got a constant beyond 64 bits",
  ],
  ["SELECT l FROM ft WHERE l >= 1e300 OR l < -1e300", "the same, both sides"],
  [
    "UPDATE fw SET v = 2147483647::long WHERE v IN (SELECT k FROM fn WHERE k < 18)",
    "UPDATE ran its IN subquery unprepared",
  ],
  [
    // (QuestDB refuses a subquery in SET, `query is not allowed here`: only the WHERE one is kept.)
    "UPDATE fw SET v = 7 WHERE v > (SELECT min(k) FROM fn)",
    "UPDATE ran its scalar subqueries unprepared",
  ],
  ["SELECT cast(u AS long256) FROM ft", "CAST(uuid AS long256) threw a RangeError"],
  [
    "SELECT b k, max(bt), avg(i) FROM ft WHERE (s = 'b') OR ((s = null) OR (s != 'a')) GROUP BY k",
    "an OR of overlapping kernel branches outgrew its merge buffer ('source and target overlap')",
  ],
];

export function regressionSql(): string[] {
  return SQL.map(([sql]) => sql);
}

/**
 * The reference model of the kill harness: the rows and columns table `f` must hold given the
 * operations the server acknowledged. Every operation is described by its SQL (or ILP body)
 * and by what it does to the model, so that after a SIGKILL the harness can accept exactly
 * two states: all acknowledged operations, or those plus the one that was in flight.
 */
import type { Rng } from "../fuzz/prng.ts";

export interface Row {
  n: number;
  /** Microseconds since the epoch. */
  ts: number;
  k: string;
  v: number;
}

export interface Model {
  rows: Map<number, Row>;
  /** Added columns, in order (ALTER TABLE ADD/DROP COLUMN). */
  extra: string[];
  nextN: number;
  /** The newest timestamp written so far. */
  maxTs: number;
}

export interface Operation {
  name: string;
  /** Sends the operation; resolves when the server acknowledged it, rejects otherwise. */
  request: { kind: "sql"; sql: string } | { kind: "ilp"; body: string };
  apply(m: Model): void;
}

export const BASE_TS = Date.UTC(2024, 0, 1) * 1000;
const HOUR = 3_600_000_000;

export function emptyModel(): Model {
  return { rows: new Map(), extra: [], nextN: 0, maxTs: BASE_TS };
}

export function cloneModel(m: Model): Model {
  return {
    rows: new Map([...m.rows].map(([n, r]) => [n, { ...r }])),
    extra: [...m.extra],
    nextN: m.nextN,
    maxTs: m.maxTs,
  };
}

function newRows(m: Model, count: number, ts: (i: number) => number): Row[] {
  return Array.from(
    { length: count },
    (_, i) => ({ n: m.nextN + i, ts: ts(i), k: `k${(m.nextN + i) % 5}`, v: (m.nextN + i) % 100 }),
  );
}

function addRows(rows: Row[]): (m: Model) => void {
  return (m) => {
    for (const r of rows) m.rows.set(r.n, { ...r });
    m.nextN += rows.length;
    m.maxTs = Math.max(m.maxTs, ...rows.map((r) => r.ts));
  };
}

const iso = (us: number) =>
  new Date(us / 1000).toISOString().replace("Z", "") + String(us % 1000).padStart(3, "0") + "Z";

/** The next operation, chosen at random against the current model. */
export function nextOperation(r: Rng, m: Model): Operation {
  const k = r.int(100);
  if (k < 30) {
    const rows = newRows(m, 500 + r.int(1500), (i) => m.maxTs + (i + 1) * 1_000_000);
    return { name: "insert", request: { kind: "sql", sql: insertSql(rows) }, apply: addRows(rows) };
  }
  if (k < 45) {
    // Out of order: rows land among existing partitions, so the server merges.
    const span = Math.max(1, m.maxTs - BASE_TS);
    const from = BASE_TS + Math.floor(r.next() * span);
    const rows = newRows(m, 300 + r.int(700), (i) => from + i * 1_234_567);
    return { name: "o3 insert", request: { kind: "sql", sql: insertSql(rows) }, apply: addRows(rows) };
  }
  if (k < 65) {
    const rows = newRows(m, 500 + r.int(2000), (i) => m.maxTs + (i + 1) * 700_000);
    const body = rows.map((x) => `f,k=${x.k} n=${x.n}i,v=${x.v}.0 ${x.ts * 1000}`).join("\n") + "\n";
    return { name: "ilp", request: { kind: "ilp", body }, apply: addRows(rows) };
  }
  if (k < 73) {
    // Row-level DELETE (issue 10): rewrites every partition holding a matching row.
    const mod = r.int(11);
    return {
      name: "delete",
      request: { kind: "sql", sql: `DELETE FROM f WHERE n % 11 = ${mod}` },
      apply: (x) => {
        for (const [n] of x.rows) if (n % 11 === mod) x.rows.delete(n);
      },
    };
  }
  if (k < 80) {
    const mod = r.int(3);
    return {
      name: "update",
      request: { kind: "sql", sql: `UPDATE f SET v = v + 1 WHERE n % 3 = ${mod}` },
      apply: (x) => {
        for (const row of x.rows.values()) if (row.n % 3 === mod) row.v += 1;
      },
    };
  }
  if (k < 90) {
    if (m.extra.length > 0 && r.chance(0.5)) {
      const col = m.extra[r.int(m.extra.length)];
      return {
        name: "drop column",
        request: { kind: "sql", sql: `ALTER TABLE f DROP COLUMN ${col}` },
        apply: (x) => void (x.extra = x.extra.filter((c) => c !== col)),
      };
    }
    return addColumn(r, m);
  }
  // Drop the partitions of the oldest hours that still hold rows. With no rows there may be no
  // partition, and a WHERE that matches none is an error (QuestDB's), so add a column instead.
  if (m.rows.size === 0) {
    return addColumn(r, m);
  }
  const oldest = Math.min(...[...m.rows.values()].map((x) => x.ts), m.maxTs);
  const boundary = Math.floor(oldest / HOUR) * HOUR + HOUR * (1 + r.int(2));
  return {
    name: "drop partition",
    request: { kind: "sql", sql: `ALTER TABLE f DROP PARTITION WHERE ts < '${iso(boundary)}'` },
    apply: (x) => {
      for (const [n, row] of x.rows) if (row.ts < boundary) x.rows.delete(n);
    },
  };
}

function addColumn(r: Rng, m: Model): Operation {
  const col = `c${m.nextN}_${r.int(1000)}`;
  return {
    name: "add column",
    request: { kind: "sql", sql: `ALTER TABLE f ADD COLUMN ${col} INT` },
    apply: (x) => void x.extra.push(col),
  };
}

function insertSql(rows: Row[]): string {
  return `INSERT INTO f (ts, n, k, v) VALUES ${
    rows.map((x) => `(${x.ts}, ${x.n}, '${x.k}', ${x.v})`).join(", ")
  }`;
}

/** The model as the harness reads the table back: rows ordered by n, and the column list. */
export function digest(m: Model): string {
  const rows = [...m.rows.values()].sort((a, b) => a.n - b.n).map((x) => `${x.n},${x.ts},${x.k},${x.v}`);
  return `columns ts,n,k,v${m.extra.map((c) => "," + c).join("")}\n${rows.join("\n")}`;
}

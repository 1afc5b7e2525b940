/**
 * A block of parsed rows for one table, stored by column: what the line-protocol parser and
 * the CSV reader fill and the Ingestor turns into storage vectors. Each cell records the kind
 * of value the client sent (spec/protocols.md §10.2) and its payload; the column's target type
 * is decided later, against the table, so one block can be checked and converted in one pass.
 */

import type { DoubleArray } from "../base/double_array.ts";

/** What a client sent for one cell. NONE: the row has no value for the column. */
export const K = {
  NONE: 0,
  /** ILP tag: `refs` holds the string. */
  SYMBOL: 1,
  /** ILP quoted string: `refs` holds the string. */
  STRING: 2,
  /** ILP `123i` within ±2^53: `nums`. */
  LONG: 3,
  /** ILP `123i` beyond ±2^53: `refs` holds a bigint. */
  LONG_BIG: 4,
  /** ILP double (text or binary): `nums`. */
  DOUBLE: 5,
  /** ILP boolean: `nums` 0 or 1. */
  BOOLEAN: 6,
  /** ILP timestamp field (`t`, `n`, `m` suffix or binary), converted to microseconds: `nums`. */
  TIMESTAMP: 7,
  /** ILP `0x…i`: `refs` holds a bigint. */
  LONG256: 8,
  /** An explicitly empty value (`a=`): NULL. */
  NULL: 9,
  /** CSV text, converted to the column's type by parsing: `refs` holds the string. */
  TEXT: 10,
  /** ILP v2 binary DOUBLE array: `refs` holds the DoubleArray. */
  ARRAY: 11,
  /** ILP v3 DECIMAL (binary, or text `1.5d`): `refs` holds its decimal text (`-1.50`). */
  DECIMAL: 12,
} as const;

/** The payload of a cell kept in `refs`. */
export type CellRef = string | bigint | DoubleArray;

export type ValueKind = typeof K[keyof typeof K];

/** The protocol type names used in cast errors (QuestDB's wording for ILP types). */
export const KIND_NAMES: readonly string[] = [
  "NONE",
  "TAG",
  "STRING",
  "LONG",
  "LONG",
  "DOUBLE",
  "BOOLEAN",
  "TIMESTAMP",
  "LONG256",
  "NULL",
  "TEXT",
  "ARRAY",
  "DECIMAL",
];

const CAPACITY_INITIAL = 256;

/** One column of a block: a kind per row and the payload in `nums` or `refs`. */
export class BlockColumn {
  readonly name: string;
  kinds: Uint8Array;
  nums: Float64Array;
  refs: (CellRef | null)[];
  /** Cells with a value (not NONE); a column nobody filled is ignored. */
  count = 0;
  /** Line of the first value, for errors about the column itself (invalid name). */
  firstLine = 0;

  constructor(name: string, capacity: number) {
    this.name = name;
    this.kinds = new Uint8Array(capacity);
    this.nums = new Float64Array(capacity);
    this.refs = [];
  }

  /** Sets a numeric cell. */
  setNum(row: number, kind: ValueKind, x: number): void {
    this.kinds[row] = kind;
    this.nums[row] = x;
  }

  /** Sets a cell whose payload is a string or bigint; `refs` stays dense (rows only ascend). */
  setRef(row: number, kind: ValueKind, x: CellRef): void {
    this.kinds[row] = kind;
    if (this.refs.length <= row) this.#fillRefs();
    this.refs[row] = x;
  }

  /** Makes `refs` as long as the arrays (filled with null): dense, so writes stay fast. */
  #fillRefs(): void {
    const capacity = this.kinds.length;
    const refs = new Array<CellRef | null>(capacity).fill(null);
    for (let i = 0; i < this.refs.length; i++) refs[i] = this.refs[i];
    this.refs = refs;
  }

  grow(capacity: number): void {
    const kinds = new Uint8Array(capacity);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const nums = new Float64Array(capacity);
    nums.set(this.nums);
    this.nums = nums;
  }

  /** The first kind with a payload in row order (what a new column's type is made from). */
  firstKind(rowCount: number): ValueKind {
    const kinds = this.kinds;
    for (let i = 0; i < rowCount; i++) {
      const k = kinds[i];
      if (k !== K.NONE && k !== K.NULL) return k as ValueKind;
    }
    return K.NULL;
  }
}

/**
 * Rows for one table. A writer calls `beginRow`, sets cells through `column()`, then
 * `endRow` or, when the line turns out bad, `abortRow` (which forgets every cell of it).
 */
export class IngestBlock {
  readonly table: string;
  rowCount = 0;
  capacity = CAPACITY_INITIAL;
  /** 1-based source line of each row (for errors). */
  lines = new Int32Array(CAPACITY_INITIAL);
  /** Designated timestamp of each row in microseconds; NaN: none given (server time). */
  timestamps = new Float64Array(CAPACITY_INITIAL);
  readonly columns: BlockColumn[] = [];
  readonly #byName = new Map<string, BlockColumn>();
  readonly #byLower = new Map<string, BlockColumn>();
  /** The column of the k-th cell of the previous row: lines usually repeat their layout. */
  readonly #recent: (BlockColumn | undefined)[] = [];

  /** `capacityHint`: rows expected (a body's size tells), so arrays rarely grow. */
  constructor(table: string, capacityHint = CAPACITY_INITIAL) {
    this.table = table;
    const capacity = Math.max(CAPACITY_INITIAL, Math.min(capacityHint, 1 << 22));
    this.capacity = capacity;
    this.lines = new Int32Array(capacity);
    this.timestamps = new Float64Array(capacity);
  }

  /**
   * A block rebuilt from its parts (a block parsed in a worker, sent as typed arrays): the
   * arrays are adopted, not copied, and the columns are registered as `cell` would.
   */
  static restore(
    table: string,
    rowCount: number,
    lines: Int32Array<ArrayBuffer>,
    timestamps: Float64Array<ArrayBuffer>,
    columns: BlockColumn[],
  ): IngestBlock {
    const block = new IngestBlock(table, 0);
    block.rowCount = rowCount;
    block.capacity = Math.min(lines.length, timestamps.length);
    block.lines = lines;
    block.timestamps = timestamps;
    for (const c of columns) {
      block.columns.push(c);
      block.#byName.set(c.name, c);
      if (!block.#byLower.has(c.name.toLowerCase())) block.#byLower.set(c.name.toLowerCase(), c);
    }
    return block;
  }

  /** Opens row `rowCount`; returns its index. */
  beginRow(line: number): number {
    const row = this.rowCount;
    if (row === this.capacity) this.#grow();
    this.lines[row] = line;
    this.timestamps[row] = NaN;
    return row;
  }

  /**
   * The column named `name` (matched case-insensitively, as table columns are), or undefined
   * when the open row already set it: a duplicate column in one line keeps the first value.
   */
  cell(name: string, row: number, line: number, ordinal = -1): BlockColumn | undefined {
    let c = ordinal >= 0 ? this.#recent[ordinal] : undefined;
    if (c === undefined || c.name !== name) {
      c = this.#lookup(name, line);
      if (ordinal >= 0) this.#recent[ordinal] = c;
    }
    if (c.kinds[row] !== K.NONE) return undefined;
    c.count++;
    return c;
  }

  #lookup(name: string, line: number): BlockColumn {
    let c = this.#byName.get(name);
    if (c === undefined) {
      const lower = name.toLowerCase();
      c = this.#byLower.get(lower);
      if (c === undefined) {
        c = new BlockColumn(name, this.capacity);
        c.firstLine = line;
        this.columns.push(c);
        this.#byLower.set(lower, c);
      }
      this.#byName.set(name, c);
    }
    return c;
  }

  endRow(): void {
    this.rowCount++;
  }

  abortRow(): void {
    const row = this.rowCount;
    if (row >= this.capacity) return;
    for (const c of this.columns) {
      if (c.kinds[row] === K.NONE) continue;
      c.kinds[row] = K.NONE;
      if (c.refs.length > row) c.refs[row] = null;
      c.count--;
    }
  }

  /** Drops every row from `rowCount` on (keeps the first `rowCount`). */
  truncate(rowCount: number): void {
    for (let row = rowCount; row < this.rowCount; row++) {
      for (const c of this.columns) {
        if (c.kinds[row] !== K.NONE) {
          c.kinds[row] = K.NONE;
          c.count--;
        }
      }
    }
    this.rowCount = Math.min(this.rowCount, rowCount);
  }

  #grow(): void {
    const capacity = this.capacity * 2;
    const lines = new Int32Array(capacity);
    lines.set(this.lines);
    this.lines = lines;
    const ts = new Float64Array(capacity);
    ts.set(this.timestamps);
    this.timestamps = ts;
    for (const c of this.columns) c.grow(capacity);
    this.capacity = capacity;
  }
}

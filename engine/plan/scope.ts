/**
 * Name resolution for a FROM clause: the columns visible to expressions, with the table
 * names or aliases that qualify them. Lookups are case-insensitive (spec/sql.md §1.2).
 */
import { SqlError } from "../base/errors.ts";
import type { ColumnType } from "../base/types.ts";

export interface ScopeColumn {
  name: string;
  type: ColumnType;
  /** Names that may qualify this column (`t.col`): the table name and/or its alias. */
  qualifiers: string[];
  /** A second name, the table alias of a one-column function in FROM (plan_from.ts aliasedColumn). */
  alsoNamed?: string;
  /** A column of a pg_catalog/information_schema relation, which also has `xmin` (system_columns.ts). */
  catalog?: boolean;
  /** A subquery's untyped NULL column (`SELECT null x`), passed to functions as the NULL literal (bind_expr.ts bindCallArg). */
  untypedNull?: boolean;
}

export class Scope {
  readonly columns: ScopeColumn[];
  /** Designated timestamp column index, or -1. */
  readonly timestampIndex: number;
  /**
   * The scope whose table names and aliases qualify here too: the grouped rows of GROUP BY keep
   * only the keys, yet `a.col` of `FROM t a` still names a known table (plan_select.ts).
   */
  qualifiersOf?: Scope;

  constructor(columns: ScopeColumn[], timestampIndex = -1) {
    this.columns = columns;
    this.timestampIndex = timestampIndex;
  }

  /** Index of the column, undefined when absent; throws when ambiguous. */
  find(name: string, qualifier: string | undefined, pos: number): number | undefined {
    const n = name.toLowerCase();
    const q = qualifier?.toLowerCase();
    let found: number | undefined;
    for (let i = 0; i < this.columns.length; i++) {
      const c = this.columns[i];
      if (c.name.toLowerCase() !== n && c.alsoNamed?.toLowerCase() !== n) continue;
      if (q !== undefined && !c.qualifiers.some((x) => x.toLowerCase() === q)) continue;
      if (found !== undefined) throw new SqlError(`Ambiguous column [name=${name}]`, pos);
      found = i;
    }
    return found;
  }

  resolve(name: string, qualifier: string | undefined, pos: number): number {
    const i = this.find(name, qualifier, pos);
    if (i === undefined) {
      throw new SqlError(`Invalid column: ${qualifier ? qualifier + "." : ""}${name}`, pos);
    }
    return i;
  }

  /**
   * The left column of `ON (col)` / `ON col` in a join: QuestDB compares `col` of the FROM
   * clause's first source (SqlOptimiser.resolveJoinColumns uses the base model's alias for every
   * join of the chain), so `a JOIN b ON id JOIN c ON id` is `a.id = b.id AND a.id = c.id` and
   * never ambiguous. `firstWidth` is how many leading columns that first source holds.
   */
  resolveUsing(name: string, firstWidth: number, pos: number): number {
    const first = new Scope(this.columns.slice(0, firstWidth));
    const i = first.find(name, undefined, pos);
    if (i !== undefined) return i;
    const q = first.columns[0]?.qualifiers[0];
    throw new SqlError(`Invalid column: ${q ? q + "." : ""}${name}`, pos);
  }

  /**
   * Whether the column an `Invalid column: [q.]name` error names exists here: over grouped rows
   * such a column is one that is neither a key nor aggregated ('column must appear in GROUP BY
   * clause or aggregate function'), while one the input lacks stays 'Invalid column'
   * (SampleByNanoTimestampTest#testBadFunction: `sum(c)` without a column c).
   */
  namesColumnOf(err: SqlError): boolean {
    const m = /^Invalid column: (.*)$/.exec(err.message);
    if (!m) return false;
    const text = m[1];
    const dot = text.indexOf(".");
    try {
      if (this.find(text, undefined, err.position) !== undefined) return true;
      return dot > 0 && this.find(text.slice(dot + 1), text.slice(0, dot), err.position) !== undefined;
    } catch {
      return true; // ambiguous: it exists
    }
  }

  /** Whether any column carries a qualifier, here or in `qualifiersOf`. */
  hasQualifiers(): boolean {
    return this.columns.some((c) => c.qualifiers.length > 0) || this.qualifiersOf?.hasQualifiers() === true;
  }

  /** True when some column carries this qualifier. */
  hasQualifier(qualifier: string): boolean {
    const q = qualifier.toLowerCase();
    return this.columns.some((c) => c.qualifiers.some((x) => x.toLowerCase() === q)) ||
      this.qualifiersOf?.hasQualifier(qualifier) === true;
  }

  /** The columns of both scopes side by side (joins). */
  static concat(left: Scope, right: Scope, timestampIndex: number): Scope {
    return new Scope([...left.columns, ...right.columns], timestampIndex);
  }
}

/**
 * DuckDB for the Parquet tests (issue #21): the reference reader and writer our files are
 * checked against. @duckdb/node-api runs under Deno through its npm specifier (N-API addon).
 */
import { DuckDBInstance } from "@duckdb/node-api";

export interface Duck {
  /** Rows as objects; pass `params` for `?` placeholders. */
  rows(sql: string, params?: (string | number)[]): Promise<Record<string, unknown>[]>;
  run(sql: string): Promise<void>;
  close(): void;
}

export async function openDuck(): Promise<Duck> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  return {
    async rows(sql, params) {
      const reader = params ? await conn.runAndReadAll(sql, params) : await conn.runAndReadAll(sql);
      return reader.getRowObjectsJS() as Record<string, unknown>[];
    },
    async run(sql) {
      await conn.run(sql);
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

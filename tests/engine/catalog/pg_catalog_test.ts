/**
 * The pg_catalog and information_schema relations and catalog functions (engine/catalog/
 * pg_catalog*.ts, information_schema.ts, engine/functions/pg_functions.ts) as GUI tools join
 * them: user tables under `public`, columns typed through pg_type, every base type with its
 * array type, functions in pg_proc, and `public.t` naming `t`.
 */
import assert from "node:assert/strict";
import "../../../engine/catalog/pg_catalog.ts";
import "../../../engine/functions/pg_functions.ts";
import { adminSession, Engine } from "../../../engine/mod.ts";
import { rows } from "../_result_rows.ts";

async function withEngine(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "qdb_pg_catalog_" });
  const engine = await Engine.open({ root, cacheBytes: 16 * 1024 * 1024 });
  try {
    await engine.execute(
      "CREATE TABLE t (ts TIMESTAMP, sym SYMBOL, x INT, price DOUBLE, note VARCHAR, ok BOOLEAN, id UUID) TIMESTAMP(ts) PARTITION BY DAY",
      adminSession(),
    );
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("user tables are relkind r in schema public, catalog relations are views in theirs", () =>
  withEngine(async (engine) => {
    assert.deepEqual(await rows(engine, "SELECT nspname FROM pg_catalog.pg_namespace ORDER BY nspname"), [
      ["information_schema"],
      ["pg_catalog"],
      ["public"],
    ]);
    assert.deepEqual(
      await rows(
        engine,
        "SELECT c.relname, c.relkind, n.nspname, c.relnatts FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'",
      ),
      [["t", "r", "public", 7]],
    );
    const views = await rows(
      engine,
      "SELECT n.nspname, c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'v'",
    );
    for (
      const v of [["pg_catalog", "pg_type"], ["pg_catalog", "pg_proc"], ["information_schema", "columns"]]
    ) {
      assert.ok(views.some((r) => r[0] === v[0] && r[1] === v[1]), `${v} missing`);
    }
    assert.deepEqual(await rows(engine, "SELECT oid FROM pg_class WHERE relname = 'pg_class'"), [[1259]]);
    assert.deepEqual(await rows(engine, "SELECT tablename, schemaname, hasindexes FROM pg_tables"), [[
      "t",
      "public",
      false,
    ]]);
  }));

Deno.test("columns join pg_attribute to pg_type; format_type names them as PostgreSQL does", () =>
  withEngine(async (engine) => {
    const got = await rows(
      engine,
      `SELECT a.attname, t.typname, format_type(a.atttypid, a.atttypmod), a.attnotnull FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid
       WHERE c.relname = 't' AND a.attnum > 0 ORDER BY a.attnum`,
    );
    assert.deepEqual(got, [
      ["ts", "timestamp", "timestamp without time zone", true],
      ["sym", "varchar", "character varying", false],
      ["x", "int4", "integer", false],
      ["price", "float8", "double precision", false],
      ["note", "varchar", "character varying", false],
      ["ok", "bool", "boolean", false],
      ["id", "uuid", "uuid", false],
    ]);
    assert.deepEqual(
      await rows(
        engine,
        "SELECT column_name, data_type, udt_name, is_nullable, ordinal_position FROM information_schema.columns WHERE table_name = 't' AND ordinal_position <= 3",
      ),
      [["ts", "timestamp without time zone", "timestamp", "NO", 1], [
        "sym",
        "character varying",
        "varchar",
        "YES",
        2,
      ], ["x", "integer", "int4", "YES", 3]],
    );
  }));

Deno.test("pg_type has the base types tools join on, each with its array type", () =>
  withEngine(async (engine) => {
    const names = [
      "bool",
      "int2",
      "int4",
      "int8",
      "float4",
      "float8",
      "varchar",
      "text",
      "timestamp",
      "timestamptz",
      "date",
      "uuid",
      "bytea",
      "char",
      "name",
      "oid",
      "regproc",
      "numeric",
    ];
    const got = await rows(
      engine,
      `SELECT t.typname, a.typname, a.typelem = t.oid, t.typtype, t.typnamespace FROM pg_type t JOIN pg_type a ON a.oid = t.typarray
       WHERE t.typname IN (${names.map((n) => `'${n}'`).join(", ")}) ORDER BY t.typname`,
    );
    assert.deepEqual(got.map((r) => r[0]), [...names].sort());
    for (const r of got) assert.deepEqual(r.slice(1), ["_" + r[0], true, "b", 11]);
    assert.deepEqual(
      await rows(
        engine,
        "SELECT format_type(1015, -1), format_type(1043, 36), format_type(1184, NULL), to_regtype('integer'), to_regtype('int8')",
      ),
      [
        ["character varying[]", "character varying(32)", "timestamp with time zone", 23, 20],
      ],
    );
  }));

Deno.test("information_schema lists public tables, schemata, routines; constraint views are empty", () =>
  withEngine(async (engine) => {
    assert.deepEqual(
      await rows(engine, "SELECT table_schema, table_name, table_type FROM information_schema.tables"),
      [["public", "t", "BASE TABLE"]],
    );
    assert.deepEqual(await rows(engine, "SELECT schema_name FROM information_schema.schemata ORDER BY 1"), [
      ["information_schema"],
      ["pg_catalog"],
      ["public"],
    ]);
    assert.deepEqual(
      await rows(
        engine,
        "SELECT routine_schema, data_type FROM information_schema.routines WHERE routine_name = 'now'",
      ),
      [
        ["pg_catalog", "timestamp without time zone"],
      ],
    );
    assert.deepEqual(await rows(engine, "SELECT count() FROM information_schema.table_constraints"), [[0n]]);
    assert.deepEqual(await rows(engine, "SELECT count() FROM information_schema.key_column_usage"), [[0n]]);
  }));

Deno.test("pg_proc lists functions and aggregates; catalog functions answer", () =>
  withEngine(async (engine) => {
    assert.deepEqual(
      await rows(
        engine,
        "SELECT p.prokind, n.nspname, format_type(p.prorettype, NULL), pg_get_function_result(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE proname = 'now'",
      ),
      [
        ["f", "pg_catalog", "timestamp without time zone", "timestamp without time zone"],
      ],
    );
    assert.deepEqual(await rows(engine, "SELECT prokind FROM pg_proc WHERE proname = 'sum'"), [["a"]]);
    assert.deepEqual(
      await rows(
        engine,
        "SELECT pg_get_userbyid(10), has_table_privilege('t', 'SELECT'), pg_table_is_visible(16384), current_schemas(true), current_schemas(false), obj_description(1, 'pg_class'), pg_get_expr('x', 1)",
      ),
      [["admin", true, true, "{public}", "{public}", null, null]],
    );
    const [[version]] = await rows(engine, "SELECT version()");
    assert.match(String(version), /PostgreSQL/);
  }));

Deno.test("public.t names t in queries and DML", () =>
  withEngine(async (engine) => {
    await engine.execute("INSERT INTO public.t (ts, x) VALUES ('2024-01-01T00:00:00Z', 1)", adminSession());
    assert.deepEqual(await rows(engine, "SELECT x FROM public.t"), [[1]]);
    assert.deepEqual(await rows(engine, "SELECT p.x FROM public.t p JOIN t ON p.x = t.x"), [[1]]);
  }));

// No symbol index is built yet (engine/catalog/symbol_index.ts): a declared INDEX is kept in the
// metadata and in SHOW CREATE TABLE, but no catalog reports an index that no query can use.
Deno.test("a declared SYMBOL INDEX is not reported as an index anywhere; SHOW CREATE TABLE keeps it", () =>
  withEngine(async (engine) => {
    await engine.execute("ALTER TABLE t ALTER COLUMN sym ADD INDEX", adminSession());
    await engine.execute(
      "CREATE TABLE u (ts TIMESTAMP, s SYMBOL INDEX CAPACITY 512) TIMESTAMP(ts)",
      adminSession(),
    );
    assert.deepEqual(await rows(engine, "SELECT count() FROM pg_index"), [[0n]]);
    assert.deepEqual(await rows(engine, "SELECT count() FROM pg_indexes"), [[0n]]);
    assert.deepEqual(await rows(engine, "SELECT count() FROM pg_class WHERE relkind = 'i'"), [[0n]]);
    assert.deepEqual(
      await rows(engine, "SELECT relname, relhasindex FROM pg_class WHERE relkind = 'r' ORDER BY relname"),
      [["t", false], ["u", false]],
    );
    assert.deepEqual(
      await rows(engine, "SELECT tablename, hasindexes FROM pg_tables ORDER BY tablename"),
      [["t", false], ["u", false]],
    );
    // indexBlockCapacity is the metadata's block size, which QuestDB shows for unindexed
    // columns too (256 for any SYMBOL of CREATE TABLE): it claims no index.
    assert.deepEqual(
      await rows(
        engine,
        "SELECT indexed, indexBlockCapacity, indexType FROM table_columns('u') WHERE \"column\" = 's'",
      ),
      [[false, 512, ""]],
    );
    assert.deepEqual(
      await rows(engine, "SELECT indexed FROM table_columns('t') WHERE \"column\" = 'sym'"),
      [[false]],
    );
    const [[ddl]] = await rows(engine, "SHOW CREATE TABLE u");
    assert.match(String(ddl), /s SYMBOL CAPACITY 256 CACHE INDEX CAPACITY 512/);
  }));

Deno.test("vector helpers read int2vector and array text; btrim strips given characters", () =>
  withEngine(async (engine) => {
    assert.deepEqual(
      await rows(
        engine,
        "SELECT pg_any_equal(3, '1 3'), pg_any_equal(2, '1 3'), pg_any_equal('b', '{a,b}'), pg_array_element('4 5', 1), pg_array_element('{4,5}', 1), pg_array_element('4', 3)",
      ),
      [[true, false, true, 5, 4, null]],
    );
    assert.deepEqual(await rows(engine, `SELECT btrim('"x"', '"'), btrim('  y ')`), [["x", "y"]]);
  }));

Deno.test("regclassout and regtypeout print relations and types by name", () =>
  withEngine(async (engine) => {
    const [[oid]] = await rows(engine, "SELECT oid FROM pg_class WHERE relname = 't'");
    assert.deepEqual(
      await rows(
        engine,
        `SELECT regclassout(${oid}), regclassout(1259), regclassout(7), regtypeout(23), regtypeout(to_regtype('int8')), regtypeout(7)`,
      ),
      [
        ["t", "pg_class", "7", "integer", "bigint", "7"],
      ],
    );
  }));

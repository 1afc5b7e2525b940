"""psqlODBC (Debian odbc-postgresql, unixODBC) through pyodbc against the server (issue 10
evidence).

Usage: gui_odbc_client.py PORT DRIVER_PATH
Connects DSN-less, lists tables (SQLTables), columns (SQLColumns) and indexes (SQLStatistics: none
after ALTER TABLE ... ADD INDEX, which only declares a SYMBOL index) from the catalog, and runs a parameterised query. Prints "OK odbc"; a failed check raises and exits non-zero. Run with
Debian's /usr/bin/python3 (python3-pyodbc).
"""
import sys

import pyodbc

PORT = int(sys.argv[1])
DRIVER = sys.argv[2]
conn = pyodbc.connect("Driver=%s;Server=127.0.0.1;Port=%d;Database=qdb;Uid=admin;Pwd=quest;" % (DRIVER, PORT),
                      autocommit=True)
cur = conn.cursor()
cur.execute("drop table if exists t")
cur.execute("create table t (ts timestamp, sym symbol, x int, price double, note varchar) "
            "timestamp(ts) partition by day")
cur.execute("insert into t values ('2024-01-01T00:00:00Z', 'A', 1, 1.5, 'one'), "
            "('2024-01-01T00:00:01Z', 'B', 2, 2.5, 'two')")

tables = [(r.table_schem, r.table_name, r.table_type) for r in cur.tables()]
assert ("public", "t", "TABLE") in tables, tables
tables = [r.table_name for r in cur.tables(table="t")]
assert tables == ["t"], tables

cols = [(r.column_name, r.type_name, r.ordinal_position) for r in cur.columns(table="t")]
assert [c[0] for c in cols] == ["ts", "sym", "x", "price", "note"], cols
assert [c[1] for c in cols] == ["timestamp", "varchar", "int4", "float8", "varchar"], cols
assert [c[2] for c in cols] == [1, 2, 3, 4, 5], cols

assert list(cur.primaryKeys(table="t")) == []
assert list(cur.statistics(table="t")) == []
cur.execute("alter table t alter column sym add index")
# A declared SYMBOL INDEX is not built, so SQLStatistics lists no index (it still runs).
stats = [(r.index_name, r.column_name) for r in cur.statistics(table="t") if r.index_name is not None]
assert stats == [], stats
list(cur.foreignKeys(table="t"))
type_names = [r.type_name for r in cur.getTypeInfo()]
assert "int4" in type_names and "varchar" in type_names, type_names
list(cur.procedures())

cur.execute("select sym, x, price from t where x > ?", 1)
rows = [tuple(r) for r in cur.fetchall()]
assert rows == [("B", 2, 2.5)], rows
cur.execute("select count(*) from t where sym = ? and price < ?", "A", 2.0)
assert cur.fetchone()[0] == 1
cur.execute("select count(*) from public.t where x >= ?", 1)
assert cur.fetchone()[0] == 2
print("OK odbc")

"""SQLAlchemy's stock PostgreSQL dialect (psycopg2) against the server (issue 10 evidence).

Usage: gui_sqlalchemy_client.py PORT
Reflects a table through pg_catalog (table names, columns with types, primary key, indexes: none,
since a declared SYMBOL INDEX is not built),
then round-trips rows with Core insert()/select(). Prints "OK sqlalchemy"; a failed check
raises and exits non-zero. Run with Debian's /usr/bin/python3 (python3-sqlalchemy).
"""
import sys

import sqlalchemy as sa

PORT = int(sys.argv[1])
# future=True: the 2.0-style Connection.commit() on SQLAlchemy 1.4 (Debian bookworm) and 2.x alike.
engine = sa.create_engine("postgresql+psycopg2://admin:quest@127.0.0.1:%d/qdb" % PORT, future=True)

with engine.connect() as conn:
    conn.execute(sa.text("drop table if exists t"))
    conn.execute(sa.text("create table t (ts timestamp, sym symbol index, x int, price double, note varchar) "
                         "timestamp(ts) partition by day"))
    conn.commit()

insp = sa.inspect(engine)
names = insp.get_table_names()
assert "t" in names, names
assert insp.has_table("t")
cols = insp.get_columns("t")
got = [(c["name"], type(c["type"]).__name__) for c in cols]
assert got == [("ts", "TIMESTAMP"), ("sym", "VARCHAR"), ("x", "INTEGER"), ("price", "DOUBLE_PRECISION"),
               ("note", "VARCHAR")], got
pk = insp.get_pk_constraint("t")
assert pk["constrained_columns"] == [], pk
# A declared SYMBOL INDEX is not built, so reflection finds no index (its pg_index query still runs).
indexes = insp.get_indexes("t")
assert indexes == [], indexes
insp.get_foreign_keys("t")
insp.get_unique_constraints("t")
assert "public" in insp.get_schema_names(), insp.get_schema_names()
assert insp.get_view_names() == [], insp.get_view_names()
assert insp.get_sequence_names() == []
insp.get_check_constraints("t")
assert insp.get_table_comment("t")["text"] is None
assert [c["name"] for c in insp.get_columns("t", schema="public")][:2] == ["ts", "sym"]
assert insp.get_table_names(schema="public") == names

meta = sa.MetaData()
t = sa.Table("t", meta, autoload_with=engine)
with engine.connect() as conn:
    conn.execute(sa.insert(t).values(ts="2024-01-01T00:00:00Z", sym="A", x=1, price=1.5, note="one"))
    conn.execute(sa.insert(t).values(ts="2024-01-01T00:00:01Z", sym="B", x=2, price=2.5, note="two"))
    conn.commit()
    rows = conn.execute(sa.select(t.c.sym, t.c.x, t.c.price).where(t.c.x > 1).order_by(t.c.ts)).all()
    assert [tuple(r) for r in rows] == [("B", 2, 2.5)], rows
    rows = conn.execute(sa.select(t)).all()
    assert len(rows) == 2, rows
print("OK sqlalchemy")

"""pandas read_sql over SQLAlchemy 1.4 (psycopg2) against the server: issue #23's BI fixtures.

Usage: bi_pandas_client.py PORT FIXTURE_DIR
Runs _setup.sql, reflects the table with SQLAlchemy's inspector, then reads every fixture with
pandas.read_sql as a notebook or Superset's SQL Lab would, and compares each frame with the
fixture's `-- expect:` rows (timestamps as the server's text, numbers by value). Prints
"OK pandas <n>"; a failed check raises and exits non-zero. Run with Debian's /usr/bin/python3
(python3-pandas, python3-sqlalchemy, python3-psycopg2).
"""
import json
import math
import os
import re
import sys

import pandas as pd
import sqlalchemy as sa

PORT = int(sys.argv[1])
DIR = sys.argv[2]
URL = "postgresql+psycopg2://admin:quest@127.0.0.1:%d/qdb" % PORT
engine = sa.create_engine(URL, future=True)
# pandas 1.5 runs a plain SQL string through a classic (non-future) engine, as notebooks pass it.
classic = sa.create_engine(URL)


def statements(path):
    text = open(path).read()
    body = "\n".join(l for l in text.split("\n") if not l.startswith("--"))
    return text, body


_, setup = statements(os.path.join(DIR, "_setup.sql"))
with engine.connect() as conn:
    for s in setup.split(";"):
        if s.strip():
            conn.exec_driver_sql(s.strip())
    conn.commit()

insp = sa.inspect(engine)
assert "bi_trades" in insp.get_table_names(), insp.get_table_names()
cols = [(c["name"], type(c["type"]).__name__) for c in insp.get_columns("bi_trades")]
assert cols == [("ts", "TIMESTAMP"), ("sym", "VARCHAR"), ("price", "DOUBLE_PRECISION"), ("qty", "BIGINT"),
                ("epoch_s", "BIGINT")], cols


def same(cell, want):
    """A frame cell against the server's text of the value."""
    if want is None:
        return cell is None or (isinstance(cell, float) and math.isnan(cell)) or cell is pd.NaT
    if isinstance(cell, bool):
        return want == ("t" if cell else "f")
    if isinstance(cell, pd.Timestamp):
        return cell.strftime("%Y-%m-%d %H:%M:%S.%f") == want
    if isinstance(cell, (int, float)) and not isinstance(cell, bool):
        return float(cell) == float(want)
    return str(cell) == want


checked = 0
for name in sorted(os.listdir(DIR)):
    if not name.endswith(".sql") or name.startswith("_"):
        continue
    text, sql = statements(os.path.join(DIR, name))
    # psycopg2 reads `%` as a parameter marker (SQLAlchemy passes an empty parameter dict), so a
    # literal `%` (format('%I'), LIKE '%x%') is written `%%`, as a Python user writes it.
    frame = pd.read_sql(sql.strip().replace("%", "%%"), classic)
    rows = frame.astype(object).values.tolist()
    # `-- expect-includes:` rows must each start some row of the answer (whole-catalog reads).
    includes = re.search(r"^-- expect-includes: (.*)$", text, re.M)
    if includes:
        for want_row in json.loads(includes.group(1)):
            assert any(all(same(c, w) for c, w in zip(r, want_row)) for r in rows), (name, want_row)
        checked += 1
        continue
    want = json.loads(re.search(r"^-- expect: (.*)$", text, re.M).group(1))
    assert len(rows) == len(want), (name, rows, want)
    for got_row, want_row in zip(rows, want):
        assert len(got_row) == len(want_row), (name, got_row, want_row)
        for cell, w in zip(got_row, want_row):
            assert same(cell, w), (name, got_row, want_row)
    checked += 1

# The Grafana time-series shape as a DataFrame: a datetime64 time column from to_timestamp(epoch).
frame = pd.read_sql("SELECT to_timestamp(epoch_s) AS time, price FROM bi_trades "
                    "WHERE epoch_s >= 1704067200 AND epoch_s <= 1704153600 ORDER BY 1", classic,
                    parse_dates=["time"])
assert str(frame["time"].dtype).startswith("datetime64"), frame.dtypes
assert frame["time"].iloc[0] == pd.Timestamp("2024-01-01 00:10:00"), frame
print("OK pandas %d" % checked)

"""psycopg 3 COPY API against the server (issue 10): COPY FROM STDIN with write_row and raw
text, COPY TO STDOUT read back row by row, a bad row and a CopyFail that write nothing.
Usage: pg_copy_client.py <port>. Prints `OK copy` when every check passed."""
import datetime
import sys

import psycopg

port = int(sys.argv[1])
conn = psycopg.connect(host="127.0.0.1", port=port, user="admin", password="quest", dbname="qdb", autocommit=True)
cur = conn.cursor()
cur.execute("create table py_copy (ts timestamp, sym symbol, price double, qty long, note varchar) timestamp(ts) partition by day")

def count():
    cur.execute("select count() from py_copy")
    return cur.fetchone()[0]

# write_row: psycopg formats each value as Postgres text (timestamps with an offset).
base = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)
with cur.copy("COPY py_copy (ts, sym, price, qty, note) FROM STDIN") as copy:
    for i in range(1000):
        copy.write_row((base + datetime.timedelta(seconds=i), "BTC" if i % 2 else "ETH", i * 0.5, i, None if i % 10 == 0 else f"n\t{i}"))
assert cur.rowcount == 1000, cur.rowcount
assert count() == 1000

# Raw CSV with a header, written in arbitrary chunks.
data = "ts,sym,price,qty,note\n2024-02-01T00:00:00Z,XRP,1.25,5,\"a, b\"\n2024-02-01T00:00:01Z,XRP,2.5,6,plain\n"
with cur.copy("COPY py_copy FROM STDIN WITH (FORMAT csv, HEADER true)") as copy:
    for k in range(0, len(data), 7):
        copy.write(data[k:k + 7])
assert count() == 1002

# COPY TO STDOUT, read as rows of text.
with cur.copy("COPY (select ts, sym, price, qty, note from py_copy where sym = 'XRP' order by ts) TO STDOUT") as copy:
    rows = list(copy.rows())
assert rows == [
    ("2024-02-01 00:00:00.000000", "XRP", "1.25", "5", "a, b"),
    ("2024-02-01 00:00:01.000000", "XRP", "2.5", "6", "plain"),
], rows
with cur.copy("COPY py_copy TO STDOUT WITH (FORMAT csv, HEADER true)") as copy:
    text = b"".join(bytes(b) for b in copy).decode()
lines = text.splitlines()
assert lines[0] == "ts,sym,price,qty,note", lines[0]
assert len(lines) == 1003, len(lines)
assert lines[1] == "2024-01-01 00:00:00.000000,ETH,0.0,0,", lines[1]
assert lines[2] == '2024-01-01 00:00:01.000000,BTC,0.5,1,n\t1', lines[2]

# A bad row: the error names the line and column; nothing of the COPY is written.
try:
    with cur.copy("COPY py_copy (ts, sym, price, qty, note) FROM STDIN") as copy:
        copy.write("2024-03-01 00:00:00\tOK\t1\t1\tx\n")
        copy.write("2024-03-01 00:00:01\tBAD\tnot-a-number\t1\tx\n")
    raise AssertionError("bad row accepted")
except psycopg.errors.InvalidTextRepresentation as e:
    assert "line 2" in str(e) and "column price" in str(e), str(e)
assert count() == 1002

# An exception inside the block makes psycopg send CopyFail: nothing is written.
class Stop(Exception):
    pass
try:
    with cur.copy("COPY py_copy (ts, sym, price, qty, note) FROM STDIN") as copy:
        copy.write_row((base, "FAIL", 1.0, 1, "x"))
        raise Stop()
except Stop:
    pass
except psycopg.errors.QueryCanceled:
    pass
assert count() == 1002
cur.execute("select count() from py_copy where sym = 'FAIL'")
assert cur.fetchone()[0] == 0

print("OK copy")

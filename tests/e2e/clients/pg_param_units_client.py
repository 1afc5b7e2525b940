"""Typed TIMESTAMP parameters into DATE and TIMESTAMP_NS columns keep their instant (issue 18).

Usage: pg_param_units_client.py PORT. Run with Debian's /usr/bin/python3. psycopg 3 sends
datetimes as timestamp parameters, in binary and in text; asyncpg then reads the rows back
(a DATE stored in the wrong unit made it fail with "date value out of range"). Prints
"OK units"; a failed check raises.
"""
import asyncio
import datetime
import sys

import asyncpg
import psycopg

PORT = int(sys.argv[1])
conn = psycopg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", dbname="qdb", autocommit=True)
conn.execute("create table units (ts timestamp, tn timestamp_ns, d date) timestamp(ts) partition by day")
v = datetime.datetime(2023, 10, 1, 10, 0, 0, 100000)
conn.cursor(binary=True).execute("insert into units values (%s, %s, %s)", (v, v, v))
conn.cursor(binary=False).execute("insert into units values (%s, %s, %s)", (v, v, v))
rows = conn.execute("select ts::string, tn::string, d::string from units").fetchall()
expected = ("2023-10-01T10:00:00.100000Z", "2023-10-01T10:00:00.100000000Z", "2023-10-01T10:00:00.100Z")
assert rows == [expected, expected], rows


async def read_back():
    c = await asyncpg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", database="qdb")
    got = await c.fetch("select ts, tn, d from units")
    assert len(got) == 2, got
    for r in got:
        assert r["ts"] == v and r["tn"] == v, r
        assert r["d"] == v, r  # DATE goes out as timestamp (spec §12.7)
    await c.close()


asyncio.run(read_back())
print("OK units")

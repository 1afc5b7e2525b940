"""read_parquet() filtered by a bound VARCHAR parameter, as QuestDB's pgwire compat suite's
"Parquet test" runs it, through psycopg2, psycopg 3 (binary and text) and asyncpg.

Usage: pg_read_parquet_client.py PORT. Run with Debian's /usr/bin/python3. The server's
import folder must hold trades.parquet with the two rows pg_read_parquet_params_test.ts
writes. Prints "OK read_parquet"; a failed check raises.
"""
import asyncio
import datetime
import sys

import asyncpg
import psycopg
import psycopg2

PORT = int(sys.argv[1])
DSN = dict(host="127.0.0.1", port=PORT, user="admin", password="quest")
BUY = ("BTC-USD", "buy", 66991.56, 0.00014933, datetime.datetime(2024, 7, 26, 7, 52, 48, 243272))
QUERY = "SELECT * FROM read_parquet('trades.parquet') WHERE side = %s"

c2 = psycopg2.connect(dbname="qdb", **DSN)
cur = c2.cursor()
cur.execute(QUERY, ("buy",))
assert cur.fetchall() == [BUY], "psycopg2"
c2.close()

c3 = psycopg.connect(dbname="qdb", autocommit=True, **DSN)
for binary in (True, False):
    got = c3.cursor(binary=binary).execute(QUERY, ("buy",)).fetchall()
    assert got == [BUY], (binary, got)
c3.close()


async def with_asyncpg():
    c = await asyncpg.connect(database="qdb", **DSN)
    got = await c.fetch(QUERY.replace("%s", "$1"), "buy")
    assert [tuple(r) for r in got] == [BUY], got
    await c.close()


asyncio.run(with_asyncpg())
print("OK read_parquet")

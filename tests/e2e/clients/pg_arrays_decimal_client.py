"""DOUBLE arrays and DECIMAL over pgwire with real drivers (issues #18, #19).

Usage: pg_arrays_decimal_client.py PORT. Run with Debian's /usr/bin/python3. psycopg 3 binds
lists as float8[] and Decimals as numeric in binary and in text and reads results in binary;
asyncpg (with _float8 registered, as QuestDB's docs advise, so it skips type introspection)
binds lists and Decimals in binary against the server's inferred parameter types. Prints
"OK arrays decimal"; a failed check raises.
"""
import asyncio
import sys
from decimal import Decimal

import asyncpg
import psycopg

PORT = int(sys.argv[1])
conn = psycopg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", dbname="qdb", autocommit=True)
conn.execute("create table pa (id int, arr double[], m double[][], d decimal(18,3))")
for binary in (True, False):
    cur = conn.cursor(binary=binary)
    cur.execute(
        "insert into pa values (%s, %s, %s, cast(%s as decimal(18,3)))",
        (1 if binary else 2, [1.5, None, -3.0], [[1.0, 2.0], [3.0, 4.0]], Decimal("2.5")),
    )
for binary in (True, False):
    cur = conn.cursor(binary=binary)
    rows = cur.execute("select id, arr, m, d, arr[1], array_sum(arr) from pa order by id").fetchall()
    expected = [
        (1, [1.5, None, -3.0], [[1.0, 2.0], [3.0, 4.0]], Decimal("2.500"), 1.5, -1.5),
        (2, [1.5, None, -3.0], [[1.0, 2.0], [3.0, 4.0]], Decimal("2.500"), 1.5, -1.5),
    ]
    assert rows == expected, (binary, rows)
    assert str(rows[0][3]) == "2.500", rows[0][3]  # the column's scale travels (dscale)
    got = cur.execute("select array_position(%s, 2.0), %s * 2 from long_sequence(1)", ([1.0, 2.0], Decimal("-12.50"))).fetchone()
    assert got == (2, Decimal("-25.00")), (binary, got)


async def async_checks():
    c = await asyncpg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", database="qdb")
    c._protocol.get_settings().register_data_types([
        {"oid": 1022, "elemtype": 701, "kind": "b", "name": "_float8", "elemtype_name": "float8",
         "ns": "pg_catalog", "elemdelim": ",", "depth": 0, "range_subtype": None, "attrtypoids": None,
         "basetype": None},
    ])
    await c.execute("insert into pa values ($1, $2, $3, $4)", 3, [], [[5.0, 6.0]], Decimal("-0.001"))
    rows = await c.fetch("select id, arr, m, d from pa where id = 3")
    assert [tuple(r) for r in rows] == [(3, [], [[5.0, 6.0]], Decimal("-0.001"))], rows
    got = await c.fetchval("select array_position($1, 3.0) from long_sequence(1)", [1.0, 2.0, 3.0])
    assert got == 3, got
    rows = await c.fetch("select arr * $1 from pa where arr = $2", [2.0, 2.0, 2.0], [1.5, None, -3.0])
    assert [r[0] for r in rows] == [[3.0, None, -6.0], [3.0, None, -6.0]], rows
    await c.close()


asyncio.run(async_checks())
print("OK arrays decimal")

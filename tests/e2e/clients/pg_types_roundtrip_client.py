"""Every column type through pgwire with real Python drivers (issue #18): each value bound
as a parameter and read back equal, NULLs too.

Usage: pg_types_roundtrip_client.py PORT. Run with Debian's /usr/bin/python3.
- psycopg 3 with binary parameters and results (cursor(binary=True)), and with text ones;
- asyncpg (binary both ways, parameter types as the server describes them).
Expected values follow QuestDB's type mapping (spec/protocols.md §12.7): DATE and
TIMESTAMP_NS read back as timestamp, SYMBOL/IPv4/LONG256 as varchar, CHAR as bpchar,
timestamptz from a ::timestamptz cast. Prints "OK types roundtrip"; a failed check raises.
"""
import asyncio
import datetime as dt
import sys
import uuid
from decimal import Decimal

import asyncpg
import psycopg

PORT = int(sys.argv[1])
UTC = dt.timezone.utc
COLUMNS = [
    ("b", "boolean", True),
    ("sh", "short", 12),
    ("i", "int", -123456),
    ("l", "long", 9007199254740993),
    ("f", "float", 1.5),
    ("d", "double", -2.25),
    ("v", "varchar", "héllo, wörld"),
    ("s", "symbol", "sym1"),
    ("c", "char", "x"),
    ("bin", "binary", b"\x00\x01\xfe\xff"),
    ("dt", "date", dt.datetime(2024, 1, 2)),
    ("ts", "timestamp", dt.datetime(2024, 1, 2, 3, 4, 5, 123456)),
    ("tsn", "timestamp_ns", dt.datetime(2024, 1, 2, 3, 4, 5, 654321)),
    ("tz", "timestamp", dt.datetime(2024, 1, 2, 5, 4, 5, 1000, tzinfo=dt.timezone(dt.timedelta(hours=2)))),
    ("u", "uuid", uuid.UUID("0123e4a5-6789-4bcd-8ef0-123456789abc")),
    ("ip", "ipv4", "10.1.2.3"),
    ("l256", "long256", "0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),
    ("arr", "double[]", [1.5, None, -3.0]),
    ("dec", "decimal(18,3)", Decimal("12.345")),
]
NAMES = [c[0] for c in COLUMNS]
DDL = "create table rt (id int, " + ", ".join(f"{n} {t}" for n, t, _ in COLUMNS) + ")"
SELECT = "select " + ", ".join("tz::timestamptz" if n == "tz" else n for n in NAMES) + " from rt where id = "


def expected(n, v):
    """What a value reads back as: the column's pg type decides (DATE is a timestamp)."""
    if n == "tz":
        return v  # an aware datetime compares equal across zones
    return v


# BOOLEAN and SHORT have no NULL in QuestDB: a NULL is stored as false / 0 (spec/sql.md §2).
NULL_AS = {"b": False, "sh": 0}


def check(label, row, nulls=False):
    for (n, _, v), got in zip(COLUMNS, row):
        want = NULL_AS.get(n) if nulls else expected(n, v)
        assert got == want, f"{label}: column {n}: got {got!r}, want {want!r}"


def psycopg_checks():
    conn = psycopg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", dbname="qdb", autocommit=True)
    conn.execute("drop table if exists rt")
    conn.execute(DDL)
    marks = ", ".join(["%s"] * (len(COLUMNS) + 1))
    for k, binary in enumerate((True, False)):
        cur = conn.cursor(binary=binary)
        base = 10 * (k + 1)
        cur.execute(f"insert into rt (id, {', '.join(NAMES)}) values ({marks})", [base] + [v for _, _, v in COLUMNS])
        cur.execute(f"insert into rt (id, {', '.join(NAMES)}) values ({marks})", [base + 1] + [None] * len(COLUMNS))
        for rbinary in (True, False):
            rcur = conn.cursor(binary=rbinary)
            label = f"psycopg params {'binary' if binary else 'text'} results {'binary' if rbinary else 'text'}"
            check(label, rcur.execute(SELECT + "%s", (base,)).fetchone())
            check(label + " NULL", rcur.execute(SELECT + "%s", (base + 1,)).fetchone(), nulls=True)
        # Parameters compared with the stored values select the row (every type as a filter).
        for n, _, v in COLUMNS:
            if n in ("arr", "bin", "tz"):
                continue
            got = cur.execute(f"select id from rt where {n} = %s and id = %s", (v, base)).fetchall()
            assert got == [(base,)], f"psycopg {'binary' if binary else 'text'} filter {n} = {v!r}: {got!r}"
    conn.close()


async def asyncpg_checks():
    c = await asyncpg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", database="qdb")
    c._protocol.get_settings().register_data_types([
        {"oid": 1022, "elemtype": 701, "kind": "b", "name": "_float8", "elemtype_name": "float8",
         "ns": "pg_catalog", "elemdelim": ",", "depth": 0, "range_subtype": None, "attrtypoids": None,
         "basetype": None},
    ])
    marks = ", ".join(f"${i + 1}" for i in range(len(COLUMNS) + 1))
    insert = f"insert into rt (id, {', '.join(NAMES)}) values ({marks})"
    # asyncpg encodes by the described parameter type: timestamps as naive UTC datetimes.
    values = [v.astimezone(UTC).replace(tzinfo=None) if n == "tz" else v for n, _, v in COLUMNS]
    await c.execute(insert, 30, *values)
    await c.execute(insert, 31, *([None] * len(COLUMNS)))
    check("asyncpg", tuple(await c.fetchrow(SELECT + "$1", 30)))
    check("asyncpg NULL", tuple(await c.fetchrow(SELECT + "$1", 31)), nulls=True)
    await c.close()


psycopg_checks()
asyncio.run(asyncpg_checks())
print("OK types roundtrip")

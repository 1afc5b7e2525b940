"""Python drivers against the server (issue 4 evidence): psycopg2, psycopg 3 and asyncpg.

Usage: pg_python_client.py PORT DRIVER   (DRIVER: psycopg2 | psycopg | asyncpg)
Prints "OK <driver>" on success; any failed check raises and exits non-zero.
Run with Debian's /usr/bin/python3, where python3-psycopg2/-psycopg/-asyncpg are installed.
"""
import datetime
import sys
import uuid

PORT = int(sys.argv[1])
DRIVER = sys.argv[2]
DSN = dict(host="127.0.0.1", port=PORT, user="admin", password="quest", dbname="qdb")
TS = datetime.datetime(2024, 1, 2, 3, 4, 5, 678901)
UID = uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
DDL = ("create table {t} (ts timestamp, sym symbol, price double, qty long, n int, ok boolean, note varchar) "
       "timestamp(ts) partition by day")
ROWS = [(TS + datetime.timedelta(seconds=i), "S%d" % (i % 3), i * 1.25, 10 ** 12 + i, i, i % 2 == 0, "n%d" % i)
        for i in range(50)]


def check_rows(rows):
    assert len(rows) == 50, len(rows)
    first = rows[0]
    assert first[0] == TS, first[0]  # microseconds round-trip exactly
    assert first[1] == "S0" and first[2] == 0.0 and first[3] == 10 ** 12 and first[4] == 0
    assert first[5] is True and first[6] == "n0"
    assert rows[49][0] == TS + datetime.timedelta(seconds=49)


def run_psycopg2():
    import psycopg2
    conn = psycopg2.connect(**DSN)
    cur = conn.cursor()  # autocommit off: psycopg2 sends BEGIN first
    cur.execute(DDL.format(t="py2_t"))
    cur.execute("insert into py2_t values (%s, %s, %s, %s, %s, %s, %s)", ROWS[0])
    cur.executemany("insert into py2_t values (%s, %s, %s, %s, %s, %s, %s)", ROWS[1:])
    conn.commit()
    cur.execute("select * from py2_t where ts >= %s order by ts", (TS,))
    check_rows(cur.fetchall())
    cur.execute("select %s::uuid, %s, %s", (str(UID), None, "it's"))
    assert cur.fetchone() == (str(UID), None, "it's")
    try:
        cur.execute("select * from nope")
        raise AssertionError("expected an error")
    except psycopg2.Error as e:
        assert e.pgcode == "42P01", e.pgcode
        conn.rollback()
    cur.execute("select count() from py2_t")
    assert cur.fetchone()[0] == 50
    conn.close()


def run_psycopg():
    import psycopg
    with psycopg.connect(**DSN, autocommit=True) as conn:
        conn.execute(DDL.format(t="py3_t"))
        with conn.cursor() as cur:
            cur.execute("insert into py3_t values (%s, %s, %s, %s, %s, %s, %s)", ROWS[0])
            cur.executemany("insert into py3_t values (%s, %s, %s, %s, %s, %s, %s)", ROWS[1:])
            cur.execute("select * from py3_t where ts >= %s and qty > %s order by ts", (TS, 0))
            check_rows(cur.fetchall())
        with conn.cursor(binary=True) as cur:
            cur.execute("select ts, price, qty, n, ok, sym from py3_t order by ts limit 1")
            assert cur.fetchone() == (TS, 0.0, 10 ** 12, 0, True, "S0")
        try:
            conn.execute("select nope from py3_t")
            raise AssertionError("expected an error")
        except psycopg.Error as e:
            assert e.sqlstate == "42703", e.sqlstate
        assert conn.execute("select count() from py3_t").fetchone()[0] == 50


def run_asyncpg():
    import asyncio
    import asyncpg

    async def main():
        conn = await asyncpg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", database="qdb")
        await conn.execute(DDL.format(t="apg_t"))
        await conn.execute("insert into apg_t values ($1, $2, $3, $4, $5, $6, $7)", *ROWS[0])
        await conn.executemany("insert into apg_t values ($1, $2, $3, $4, $5, $6, $7)", ROWS[1:])
        rows = await conn.fetch("select * from apg_t where ts >= $1 order by ts", TS)
        check_rows([tuple(r) for r in rows])
        stmt = await conn.prepare("select qty, price from apg_t where n = $1")
        for i in (3, 7):
            assert tuple(await stmt.fetchrow(i)) == (10 ** 12 + i, i * 1.25)
        assert await conn.fetchval("select $1::uuid", UID) == UID
        try:
            await conn.fetch("select * from nope")
            raise AssertionError("expected an error")
        except asyncpg.PostgresError as e:
            assert e.sqlstate == "42P01", e.sqlstate
        assert await conn.fetchval("select count() from apg_t") == 50
        await conn.close()

    asyncio.run(main())


{"psycopg2": run_psycopg2, "psycopg": run_psycopg, "asyncpg": run_asyncpg}[DRIVER]()
print("OK " + DRIVER)

"""Transactions with savepoints through real Python drivers (spec/protocols.md §12.10).

Usage: pg_transactions_client.py odbc PORT DRIVER_PATH | asyncpg PORT
Run with Debian's /usr/bin/python3. Prints "OK <mode>"; a failed check raises.

odbc: pyodbc with its defaults (autocommit off): psqlODBC sends BEGIN and wraps every
statement in SAVEPOINT _EXEC_SVP_n ... RELEASE (statement-level rollback); a failing
statement is rolled back to its savepoint and the transaction goes on.
asyncpg: `async with conn.transaction()` with a nested (savepoint) transaction that fails.
"""
import asyncio
import sys

MODE = sys.argv[1]
PORT = int(sys.argv[2])


def odbc(driver):
    import pyodbc

    dsn = "Driver=%s;Server=127.0.0.1;Port=%d;Database=qdb;Uid=admin;Pwd=quest;" % (driver, PORT)
    conn = pyodbc.connect(dsn)  # autocommit off: the defaults
    other = pyodbc.connect(dsn, autocommit=True)
    cur = conn.cursor()
    cur.execute("create table odbc_tx (ts timestamp, x long) timestamp(ts) partition by day")
    conn.commit()
    cur.execute("insert into odbc_tx values ('2024-01-01T00:00:00Z', 1)")
    cur.execute("insert into odbc_tx values (?, ?)", "2024-01-01T00:00:01Z", 2)
    seen = other.cursor().execute("select count() from odbc_tx").fetchone()[0]
    assert seen == 0, "rows are visible before commit: %d" % seen
    conn.rollback()
    assert other.cursor().execute("select count() from odbc_tx").fetchone()[0] == 0, "rollback kept rows"

    cur.execute("insert into odbc_tx values ('2024-01-01T00:00:02Z', 3)")
    try:
        cur.execute("select * from no_such_table")
        raise AssertionError("the bad statement succeeded")
    except pyodbc.Error as e:
        assert "no_such_table" in str(e), e
    # Statement-level rollback: the transaction is still usable after the error.
    cur.execute("insert into odbc_tx values ('2024-01-01T00:00:03Z', 4)")
    conn.commit()
    rows = [tuple(r) for r in other.cursor().execute("select x from odbc_tx order by x").fetchall()]
    assert rows == [(3,), (4,)], rows
    print("OK odbc")


async def asyncpg_mode():
    import asyncpg

    conn = await asyncpg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", database="qdb")
    other = await asyncpg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", database="qdb")
    await conn.execute("create table apg_tx (ts timestamp, x long) timestamp(ts) partition by day")

    tx = conn.transaction()
    await tx.start()
    await conn.execute("insert into apg_tx values ('2024-01-01T00:00:00Z', 1)")
    assert await other.fetchval("select count() from apg_tx") == 0
    await tx.rollback()
    assert await other.fetchval("select count() from apg_tx") == 0, "rollback kept the row"

    async with conn.transaction():
        await conn.execute("insert into apg_tx values ('2024-01-01T00:00:01Z', 2)")
        try:
            async with conn.transaction():  # a savepoint
                await conn.execute("insert into apg_tx values ('2024-01-01T00:00:02Z', 3)")
                raise RuntimeError("roll the savepoint back")
        except RuntimeError:
            pass
        try:
            async with conn.transaction():
                await conn.execute("insert into apg_tx values ('2024-01-01T00:00:03Z', 4)")
                await conn.execute("select * from no_such_table")
        except asyncpg.PostgresError as e:
            assert "no_such_table" in str(e), e
        await conn.execute("insert into apg_tx values ('2024-01-01T00:00:04Z', 5)")
        assert await other.fetchval("select count() from apg_tx") == 0
    rows = [r["x"] for r in await other.fetch("select x from apg_tx order by x")]
    assert rows == [2, 5], rows

    # After an error inside a block every statement fails with 25P02 until ROLLBACK.
    tx = conn.transaction()
    await tx.start()
    try:
        await conn.execute("select * from no_such_table")
    except asyncpg.PostgresError:
        pass
    try:
        await conn.execute("select 1")
        raise AssertionError("a statement ran in a failed transaction")
    except asyncpg.exceptions.InFailedSQLTransactionError:
        pass
    await tx.rollback()
    assert await conn.fetchval("select 1") == 1
    await conn.close()
    await other.close()
    print("OK asyncpg")


if MODE == "odbc":
    odbc(sys.argv[3])
else:
    asyncio.run(asyncpg_mode())

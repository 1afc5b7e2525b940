"""NOT NULL columns' stored sentinels read in binary by real drivers (spec/sql.md §5.1).

Usage: not_null_read_client.py PORT. Run with Debian's /usr/bin/python3 after
not_null_read_test.ts made table nn (its last row holds INT and LONG NULL sentinels in columns a
and c, made NOT NULL after, NULL in the nullable b, and nothing in d, added NOT NULL after, which reads the LONG sentinel). psycopg 3 reads results in binary (a binary
cursor) and in text; asyncpg always reads them in binary. Prints "OK not null"; a failed check
raises.
"""
import asyncio
import sys

import asyncpg
import psycopg

PORT = int(sys.argv[1])
QUERY = "SELECT a, b, c, d FROM nn ORDER BY ts DESC LIMIT 1"
EXPECTED = (-2147483648, None, -9223372036854775808, -9223372036854775808)

conn = psycopg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", dbname="qdb")
for binary in (True, False):
    row = conn.cursor(binary=binary).execute(QUERY).fetchone()
    assert row == EXPECTED, (binary, row)
conn.close()


async def async_checks():
    c = await asyncpg.connect(host="127.0.0.1", port=PORT, user="admin", password="quest", database="qdb")
    row = await c.fetchrow(QUERY)
    assert tuple(row) == EXPECTED, row
    await c.close()


asyncio.run(async_checks())
print("OK not null")

"""
Connects to the server with sslmode=<mode> through psycopg2 and psycopg 3 and checks that the
connection is (or is not) encrypted. Usage: pg_tls_client.py PORT MODE [ROOTCERT] [USER PASSWORD]
Prints "OK <driver> ssl=<bool>" per driver (psycopg 3 also cancels a long query); any failure exits non-zero with the error text.
"""
import sys
import threading

import psycopg
import psycopg2

port, mode = sys.argv[1], sys.argv[2]
rootcert = sys.argv[3] if len(sys.argv) > 3 and sys.argv[3] != "-" else None
user = sys.argv[4] if len(sys.argv) > 4 else "admin"
password = sys.argv[5] if len(sys.argv) > 5 else "quest"
dsn = f"host=localhost port={port} user={user} password={password} dbname=qdb sslmode={mode}"
if rootcert:
    dsn += f" sslrootcert={rootcert}"

with psycopg2.connect(dsn) as conn:
    cur = conn.cursor()
    cur.execute("select 41 + 1")
    assert cur.fetchone() == (42,)
    print(f"OK psycopg2 ssl={conn.info.ssl_in_use}")
    conn.rollback()
conn.close()

with psycopg.connect(dsn, autocommit=True) as conn:
    row = conn.execute("select %s::int * 2", (21,)).fetchone()
    assert row == (42,), row
    # libpq's CancelRequest reaches the server on a new connection and stops a long query.
    timer = threading.Timer(0.5, conn.cancel)
    timer.start()
    try:
        conn.execute("select sum(a.x * b.x) from long_sequence(100000) a cross join long_sequence(100000) b")
        raise AssertionError("the long query was not cancelled")
    except psycopg.errors.QueryCanceled:
        pass
    assert conn.execute("select 1").fetchone() == (1,)
    print(f"OK psycopg ssl={conn.pgconn.ssl_in_use}")

"""psycopg 3 and the session time zone (issue 10): SET TIME ZONE reaches the client as
ParameterStatus (psycopg builds its tzinfo from it), timestamptz results carry the offset in
text and binary, DST shows, TIMESTAMP columns stay zone-less, unknown zones are 22023.
Usage: pg_timezone_client.py <port>. Prints `OK timezone` when every check passed."""
import datetime
import sys
from zoneinfo import ZoneInfo

import psycopg

port = int(sys.argv[1])
conn = psycopg.connect(host="127.0.0.1", port=port, user="admin", password="quest", dbname="qdb", autocommit=True)
cur = conn.cursor()
cur.execute("SET TIME ZONE 'America/New_York'")
assert conn.info.parameter_status("TimeZone") == "America/New_York", conn.info.parameter_status("TimeZone")
assert conn.info.timezone == ZoneInfo("America/New_York"), conn.info.timezone
cur.execute("SHOW timezone")
assert cur.fetchone()[0] == "America/New_York"
cur.execute("select current_setting('TimeZone')")
assert cur.fetchone()[0] == "America/New_York"

winter = "'2024-01-15T17:00:00Z'::timestamp::timestamptz"
summer = "'2024-07-15T17:00:00Z'::timestamp::timestamptz"
# Text format: the raw text Postgres would send.
cur.execute(f"select {winter} w, {summer} s, '2024-07-15T17:00:00Z'::timestamp plain")
w, s, plain = cur.fetchone()
ny = ZoneInfo("America/New_York")
assert w == datetime.datetime(2024, 1, 15, 12, 0, tzinfo=ny), w
assert w.utcoffset() == datetime.timedelta(hours=-5), w.utcoffset()
assert s.utcoffset() == datetime.timedelta(hours=-4), s.utcoffset()
assert s == datetime.datetime(2024, 7, 15, 17, 0, tzinfo=datetime.timezone.utc), s
assert plain == datetime.datetime(2024, 7, 15, 17, 0) and plain.tzinfo is None, plain
assert [d.type_code for d in cur.description] == [1184, 1184, 1114], [d.type_code for d in cur.description]

# Binary results: UTC micros, shown by psycopg in the session zone.
bcur = conn.cursor(binary=True)
bcur.execute(f"select {summer} s")
(b,) = bcur.fetchone()
assert b == s and b.utcoffset() == datetime.timedelta(hours=-4), b

# A timestamptz parameter: the offset the client sends is honoured.
cur.execute("create table tz_params (ts timestamp, n int) timestamp(ts) partition by day")
aware = datetime.datetime(2024, 3, 1, 9, 30, tzinfo=ZoneInfo("Asia/Kolkata"))
cur.execute("insert into tz_params values (%s, 1)", (aware,))
cur.execute("select ts from tz_params")
assert cur.fetchone()[0] == datetime.datetime(2024, 3, 1, 4, 0), "Kolkata 09:30 is 04:00 UTC"

# Unknown zone: 22023 and the zone is unchanged.
try:
    cur.execute("SET TIME ZONE 'Mars/Olympus_Mons'")
    raise AssertionError("unknown zone accepted")
except psycopg.errors.InvalidParameterValue as e:
    assert 'invalid value for parameter "TimeZone"' in str(e), str(e)
assert conn.info.parameter_status("TimeZone") == "America/New_York"

cur.execute("SET TIME ZONE 'UTC'")
assert conn.info.parameter_status("TimeZone") == "UTC"
cur.execute(f"select {summer}")
assert cur.fetchone()[0].utcoffset() == datetime.timedelta(0)
print("OK timezone")

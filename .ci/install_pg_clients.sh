#!/bin/sh
# Installs the Debian PostgreSQL clients the pgwire end-to-end tests drive (tests/e2e/pg_*_test.ts):
# psql and pgbench, psycopg2, psycopg 3, asyncpg, SQLAlchemy and pyodbc (for /usr/bin/python3),
# pgjdbc, psqlODBC on unixODBC (tests/e2e/gui_*_test.ts) and pandas (tests/e2e/bi_pandas_test.ts).
# Idempotent and non-interactive; does nothing when everything is already there. Java itself must already exist.
set -eu

have_all() {
  command -v psql >/dev/null 2>&1 &&
    command -v pgbench >/dev/null 2>&1 &&
    [ -f /usr/share/java/postgresql.jar ] &&
    ls /usr/lib/*/odbc/psqlodbcw.so >/dev/null 2>&1 &&
    /usr/bin/python3 -c "import psycopg2, psycopg, asyncpg, sqlalchemy, pyodbc, pandas" >/dev/null 2>&1
}

if have_all; then
  echo "pg clients: already installed"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
# pgbench ships in postgresql-client-<N> on newer Debian releases and in postgresql-<N>
# (pulled in by postgresql-contrib) on bookworm; install whichever provides it.
PKGS="postgresql-client python3-psycopg2 python3-psycopg python3-asyncpg libpostgresql-jdbc-java
  python3-sqlalchemy odbc-postgresql unixodbc python3-pyodbc python3-pandas"
$SUDO apt-get install -y -qq --no-install-recommends $PKGS >/dev/null
if ! command -v pgbench >/dev/null 2>&1; then
  $SUDO apt-get install -y -qq --no-install-recommends postgresql-contrib >/dev/null
fi
have_all || { echo "pg clients: installation incomplete" >&2; exit 1; }
echo "pg clients: installed"

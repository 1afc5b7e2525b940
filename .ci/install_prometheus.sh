#!/bin/sh
# Installs Debian's Prometheus server and promtool for tests/e2e/metrics_prometheus_test.ts
# (the /metrics page is checked by promtool and scraped by a real Prometheus on loopback).
# Idempotent and non-interactive; does nothing when both are already there.
set -eu

if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
  echo "prometheus: already installed"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends prometheus >/dev/null
command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1 ||
  { echo "prometheus: installation incomplete" >&2; exit 1; }
echo "prometheus: installed"

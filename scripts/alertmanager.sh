#!/usr/bin/env bash
# Prints the path of Prometheus Alertmanager, installing Debian's `prometheus-alertmanager`
# package first when it is missing (that needs root). Used by the alerts bench and the
# Alertmanager end-to-end test.
set -euo pipefail
for binary in prometheus-alertmanager alertmanager; do
  if command -v "$binary" >/dev/null 2>&1; then command -v "$binary"; exit 0; fi
done
echo "installing prometheus-alertmanager (Debian package) ..." >&2
if ! apt-get install -y -q prometheus-alertmanager >/dev/null 2>&1; then
  apt-get update -q >/dev/null 2>&1 && apt-get install -y -q prometheus-alertmanager >/dev/null 2>&1 \
    || { echo "could not install prometheus-alertmanager (run as root, or install it first)" >&2; exit 1; }
fi
command -v prometheus-alertmanager

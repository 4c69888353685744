#!/usr/bin/env bash
# Installs what dayfold needs and the machine lacks (Debian packages, with
# chromium for the HTML report's browser tests; with --python also the
# interop checkers duckdb and pyarrow and the Spark driver's pyspark from
# PyPI; Java 17 for Spark comes with the machine).
set -euo pipefail
packages=(libsqlite3-dev libcsv-dev libzstd-dev libssl-dev libexpat1-dev zlib1g-dev libzip-dev zstd chromium)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if [ "${1:-}" = "--python" ]; then
  python3 -c "import duckdb, pyarrow, pyspark" 2>/dev/null || python3 -m pip install -q duckdb pyarrow pyspark >&2
fi

#!/usr/bin/env bash
# Peak memory of writing a Parquet snapshot of 1M and 10M rows: the writer
# streams row groups, so the two peaks should be about the same.
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product snapshot-memory >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for rows in 1000000 10000000; do
  /usr/bin/time -v .build/release/snapshot-memory "$rows" "$out/t.parquet" 2>"$out/time" >/dev/null
  peak=$(grep 'Maximum resident' "$out/time" | awk '{print $NF}')
  wall=$(grep 'Elapsed' "$out/time" | awk '{print $NF}')
  size=$(stat -c %s "$out/t.parquet")
  echo "rows=$rows peak_rss_mb=$((peak / 1024)) wall=$wall file_mb=$((size / 1048576))"
done

#!/usr/bin/env bash
# The whole test suite: Swift tests (unit, CLI, conformance, spec cases)
# and the Python interop checks (DuckDB and pyarrow read our outputs).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh --python
swift build --build-tests
log=$(mktemp)
set +e
swift test --skip-build >"$log" 2>&1
status=$?
set -e
# Failures and summaries in full; the per-test "started" chatter left out.
grep -vE '^(◇ |↳ ///)' "$log" | grep -vE ' started\.$' || true
if [ "$status" -ne 0 ]; then
  echo "swift test failed (exit $status); full log: $log" >&2
  exit "$status"
fi
if [ -x Tests/interop/run.sh ]; then
  Tests/interop/run.sh
fi

#!/usr/bin/env bash
# The whole test suite: Swift tests (unit, CLI, conformance, spec cases)
# and the Python interop checks (DuckDB and pyarrow read our outputs).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh --python
swift build --build-tests
swift test --skip-build 2>&1 | tee /tmp/dayfold-swift-test.log | grep -vE '^(◇|↳ ///)|started\.$' || true
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "swift test failed (exit $status); full log: /tmp/dayfold-swift-test.log" >&2
  exit "$status"
fi
if [ -x Tests/interop/run.sh ]; then
  Tests/interop/run.sh
fi

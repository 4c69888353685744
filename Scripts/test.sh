#!/usr/bin/env bash
# The whole test suite: Swift tests (unit, CLI, conformance, spec cases),
# the Python interop checks (DuckDB and pyarrow read our outputs) and the
# Spark driver's test on PySpark local[2,2].
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh --python
# House style: the checked-in .swift-format, strictly.
swift format lint --strict --recursive --parallel Sources Tests Package.swift
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
swift_passed=$(grep -oE 'Test run with [0-9]+ tests' "$log" | grep -oE '[0-9]+' | tail -1)
interop_passed=0
if [ -x Tests/interop/run.sh ]; then
  Tests/interop/run.sh
  interop_passed=1
fi
# The Spark driver on PySpark local[2,2] (SPEC §13).
spark_passed=0
if [ -f Tests/spark/test_dayfold_spark.py ]; then
  python3 Tests/spark/test_dayfold_spark.py .build/debug/dayfold
  spark_passed=1
fi
echo "tests: $(( ${swift_passed:-0} + interop_passed + spark_passed )) passed, 0 failed"

#!/usr/bin/env bash
# Interop: DuckDB and pyarrow read every snapshot dayfold writes from
# SampleData, and every value (NULLs included) equals the CSV tables.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
.build/debug/dayfold run Pipelines/sample.json --output "$out/sample" --as-of 2026-03-31T18:00:00Z --debug-tables >/dev/null
check() { python3 Tests/interop/parquet_matches_csv.py "$out/sample/snapshots/$1.parquet" "$2" --keys "$3"; }
check relationship_days "$out/sample/reports/coach_daily_summary.csv" relationship_id,local_date
check streaks "$out/sample/reports/streaks.csv" relationship_id
check risk_signals "$out/sample/reports/risk_signals.csv" relationship_id,signal
check progress_ranges "$out/sample/reports/progress_ranges.csv" user_id,metric,window_days
check client_days "$out/sample/debug/client_days.csv" user_id,local_date
check adherence_events "$out/sample/debug/adherence_events.csv" daily_task_instance_id
check push_deliveries "$out/sample/debug/push_deliveries.csv" delivery_id
check push_delivery_health "$out/sample/reports/push_delivery_health.csv" day,provider,platform,app_surface,app_version,category
check push_intent_summary "$out/sample/reports/push_intent_summary.csv" day,category
check reminder_effectiveness "$out/sample/reports/reminder_effectiveness.csv" relationship_id
echo "interop: 10 snapshots read by duckdb and pyarrow match the CSV tables"
# An as-of series' history/ is one hive-partitioned dataset per table (SPEC §12).
.build/debug/dayfold run Pipelines/sample.json --output "$out/series" --as-of-series 2026-03-29T18:00:00Z..2026-03-31T18:00:00Z >/dev/null
python3 - "$out/series" <<'PY'
import sys, duckdb
root = sys.argv[1]
for table in ("relationship_days", "progress_ranges", "risk_signals", "streaks"):
    days = duckdb.sql(
        f"SELECT DISTINCT CAST(as_of_date AS VARCHAR) FROM read_parquet('{root}/history/{table}/*/*.parquet', hive_partitioning = true) ORDER BY 1"
    ).fetchall()
    want = [("2026-03-29",), ("2026-03-30",), ("2026-03-31",)]
    assert days == want, f"{table}: as_of_date partitions {days}, expected {want}"
print("interop: history/ of a 3-step as-of series is read by duckdb as hive partitions (4 tables)")
PY

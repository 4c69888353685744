#!/usr/bin/env bash
# Regenerates the README's screenshots of the HTML report (SPEC §14) from
# SampleData: Documentation/report-overview.png (the overview, 1280 px wide)
# and Documentation/report-coach.png (a coach's page on a 375 px phone),
# through the browser tests' script (headless Chromium, nothing but the files).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh
swift build --product dayfold
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.build/debug/dayfold run Pipelines/sample.json --as-of 2026-03-31T18:00:00Z --output "$work/sample" --html >/dev/null
report="$work/sample/report"
# The coach with the most clients (the largest page; the first by name on a tie).
coach=$(ls -S "$report" | grep '^coach-' | head -1)
python3 Tests/browser/report_browser.py \
  "$report/index.html" 1280 1500 Documentation/report-overview.png \
  "$report/$coach" 375 1400 Documentation/report-coach.png >/dev/null
echo "wrote Documentation/report-overview.png and Documentation/report-coach.png (from $coach)"

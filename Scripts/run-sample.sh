#!/usr/bin/env bash
# One command on a fresh machine: install what is missing, build, and run
# the sample pipeline on SampleData/ (outputs in Outputs/sample; the
# pipeline's paths are relative to Pipelines/, so the cd is for the build).
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh
swift build -c release
.build/release/dayfold run Pipelines/sample.json --as-of 2026-03-31T18:00:00Z

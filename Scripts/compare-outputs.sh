#!/usr/bin/env bash
# Byte-identity check for refactors (issue 19): runs two dayfold binaries on
# the same drops with the same --as-of and compares every published file.
# The manifest is compared without its timing and tool-path fields.
#   Scripts/compare-outputs.sh BEFORE_BIN AFTER_BIN [WORKDIR]
# Drops: SampleData (whole and --max-memory 256M), the conformance drop, the
# fuzz seed, and a generated drop (made once in WORKDIR with BEFORE_BIN).
set -euo pipefail
before=$(realpath "$1"); after=$(realpath "$2")
work=${3:-/tmp/dayfold-compare}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$work"
if [ ! -d "$work/generated" ]; then
  "$before" generate --clients 60 --days 120 --seed 7 --out "$work/generated" >/dev/null
fi
fixtures="$root/Tests/DayfoldCoreTests/Fixtures"
status=0
# name | drop | pipeline | as-of | extra flags
cases=(
  "sample|$root/SampleData/demo|$root/Pipelines/sample.json|2026-03-31T18:00:00Z|"
  "sample-256M|$root/SampleData/demo|$root/Pipelines/sample.json|2026-03-31T18:00:00Z|--max-memory 256M"
  "conformance|$fixtures/Conformance/drop|$fixtures/Conformance/pipeline.json|2026-03-29T09:30:00Z|--debug-tables"
  "fuzzseed|$fixtures/FuzzSeed/drop||2026-03-31T18:00:00Z|"
  "generated|$work/generated||2026-06-01T12:00:00Z|--debug-tables"
  "generated-4M|$work/generated||2026-06-01T12:00:00Z|--max-memory 4M"
)
for entry in "${cases[@]}"; do
  IFS='|' read -r name drop pipeline asof extra <<<"$entry"
  for side in before after; do
    bin=$before; [ "$side" = after ] && bin=$after
    out="$work/out-$name-$side"
    rm -rf "$out"
    args=(run)
    [ -n "$pipeline" ] && args+=("$pipeline")
    # shellcheck disable=SC2206
    args+=(--input "$drop" --output "$out" --as-of "$asof" --progress never $extra)
    set +e
    "$bin" "${args[@]}" >"$work/$name-$side.stdout" 2>"$work/$name-$side.stderr"
    echo $? >"$work/$name-$side.rc"
    set -e
  done
  if ! cmp -s "$work/$name-before.rc" "$work/$name-after.rc"; then
    echo "DIFF $name: exit codes $(cat "$work/$name-before.rc") vs $(cat "$work/$name-after.rc")"; status=1; continue
  fi
  a="$work/out-$name-before"; b="$work/out-$name-after"
  diffs=0
  while IFS= read -r file; do
    rel=${file#"$a"/}
    if [ "$(basename "$rel")" = manifest.json ]; then
      python3 - "$a/$rel" "$b/$rel" <<'PY' || { echo "DIFF $name: $rel"; diffs=1; }
import json, sys
def clean(o):
    if isinstance(o, dict):
        return {k: clean(v) for k, v in o.items() if not any(t in k for t in ("seconds", "duration", "elapsed", "started", "finished", "peak", "rss", "timing"))}
    if isinstance(o, list):
        return [clean(v) for v in o]
    return o
x, y = (clean(json.load(open(p))) for p in sys.argv[1:3])
sys.exit(0 if x == y else 1)
PY
    elif ! cmp -s "$file" "$b/$rel"; then
      echo "DIFF $name: $rel"; diffs=1
    fi
  done < <(find "$a" -type f | sort)
  if [ "$(cd "$a" && find . -type f | sort)" != "$(cd "$b" && find . -type f | sort)" ]; then
    echo "DIFF $name: different file lists"; diffs=1
  fi
  if [ $diffs = 0 ]; then echo "same $name (exit $(cat "$work/$name-after.rc"), $(find "$a" -type f | wc -l) files)"; else status=1; fi
done
exit $status

#!/usr/bin/env bash
# An as-of series (`--as-of-series`, SPEC §12) against one full run of the same
# binary, side by side on one generated drop, interleaved, medians of RUNS:
#
#   full    dayfold run --as-of TO
#   series  dayfold run --as-of-series FROM..TO   (STEPS daily steps ending at TO)
#
# and prints each one's median wall time and peak RSS, the series' history
# stage (from its manifest), the ratio series/full (issue 21's goal: ≤ 3×
# for 90 steps; a loop of full runs takes 90×) and the median of each
# pair's ratio (a series against the full run just before it). Before timing, it checks that
# the series' history at one step is byte for byte that step's plain run.
#
#   Benchmarks/series.sh                       # ≥ 1 GiB drop, 90 steps, 3 runs each
#   SIZE_MB=100 STEPS=30 RUNS=3 Benchmarks/series.sh    # a quick run
#
# Environment: SIZE_MB (1024), DAYS (365), STEPS (90), RUNS (3), TO
# (2026-04-01T12:00:00Z), WORKDIR (a new mktemp -d, removed unless KEEP=1),
# SKIP_BUILD=1 (use the release binary).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
size_mb="${SIZE_MB:-1024}"
days="${DAYS:-365}"
steps="${STEPS:-90}"
runs="${RUNS:-3}"
to="${TO:-2026-04-01T12:00:00Z}"
from="$(date -u -d "${to%Z} UTC - $((steps - 1)) days" +%Y-%m-%dT%H:%M:%SZ)"
workdir="${WORKDIR:-$(mktemp -d)}"
mkdir -p "$workdir"
[[ "${KEEP:-0}" == 1 || -n "${WORKDIR:-}" ]] || trap 'rm -rf "$workdir"' EXIT
[[ -x /usr/bin/time ]] || { echo "series.sh: needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 2; }

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then (cd "$repo" && swift build -c release --product dayfold >&2); fi
dayfold="$(cd "$repo" && swift build -c release --show-bin-path)/dayfold"
drop="$workdir/drop"
if [[ ! -d "$drop" ]]; then
    clients=$(awk -v mb="$size_mb" -v d="$days" 'BEGIN { c = mb * 1048576 * 1.04 / (767000 * d / 365); printf "%d", (c < 1 ? 1 : c + 0.999) }')
    echo "generating ${size_mb} MiB: --clients $clients --days $days…"
    "$dayfold" generate --clients "$clients" --days "$days" --seed 42 --out "$drop" > /dev/null
fi
echo "drop: $(du -sh "$drop" | cut -f1), $(nproc) cores; series $from..$to ($steps steps)"

# timed NAME ARGS...: one run, appends "seconds rss_kb" to $workdir/NAME.times.
timed() {
    local name="$1"; shift
    local start end status=0
    rm -rf "$workdir/out-$name"
    start=$(date +%s%N)
    /usr/bin/time -v -o "$workdir/time.txt" "$dayfold" run --input "$drop" --output "$workdir/out-$name" \
        --progress never "$@" > /dev/null 2> "$workdir/$name.err" || status=$?
    end=$(date +%s%N)
    if [[ $status -ne 0 && $status -ne 3 ]]; then echo "$name failed:" >&2; tail "$workdir/$name.err" >&2; exit 1; fi
    awk -F': ' -v ns=$((end - start)) '/Maximum resident set size/ { rss = $2 } END { printf "%.3f %d\n", ns / 1e9, rss }' \
        "$workdir/time.txt" >> "$workdir/$name.times"
}

rm -f "$workdir"/*.times
# A warm-up of each, which also gives the check: a middle step's history is
# that step's plain run's snapshots, byte for byte.
timed full --as-of "$to"
timed series --as-of-series "$from..$to"
middle="$(date -u -d "${to%Z} UTC - $((steps / 2)) days" +%Y-%m-%dT%H:%M:%SZ)"
rm -rf "$workdir/out-middle"
"$dayfold" run --input "$drop" --output "$workdir/out-middle" --as-of "$middle" --progress never > /dev/null 2>&1 || [[ $? -eq 3 ]]
for part in "$workdir"/out-series/history/*/as_of_date="${middle%%T*}"/part-0.parquet; do
    table="$(basename "$(dirname "$(dirname "$part")")")"
    cmp -s "$part" "$workdir/out-middle/snapshots/$table.parquet" \
        || { echo "series.sh: history/$table at ${middle%%T*} differs from a plain run's snapshot" >&2; exit 1; }
done
rm -f "$workdir"/*.times
for ((i = 0; i < runs; i++)); do
    timed full --as-of "$to"
    timed series --as-of-series "$from..$to"
done
median() { sort -n -k1 "$workdir/$1.times" | awk '{ a[NR] = $1; r[NR] = $2 } END { m = int((NR + 1) / 2); printf "%s %s", a[m], r[m] }'; }
printf '%-8s %9s %10s\n' run seconds "peak MB"
for name in full series; do
    read -r seconds rss <<< "$(median "$name")"
    printf '%-8s %9s %10d\n' "$name" "$seconds" $((rss / 1024))
done
history=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["timings_seconds"].get("history", "?"))' \
    "$workdir/out-series/manifest.json" 2>/dev/null || echo "?")
echo "history stage of the last series run: ${history} s"
awk -v a="$(median series | cut -d' ' -f1)" -v b="$(median full | cut -d' ' -f1)" -v n="$steps" \
    'BEGIN { printf "series / full: %.2f×   (%d steps; goal ≤ 3×; a loop of full runs: %d×)\n", a / b, n, n }'
# Each series run against the full run just before it: this machine's speed
# drifts between hours (by a fifth), and a pair shares its minute, so the
# median of the pairs' ratios moves less than the ratio of the medians.
paste -d' ' "$workdir/full.times" "$workdir/series.times" | awk '{ print $3 / $1 }' | sort -n \
    | awk '{ r[NR] = $1 } END { printf "per pair: median %.2f×, %.2f–%.2f× over %d pairs\n", r[int((NR + 1) / 2)], r[1], r[NR], NR }'

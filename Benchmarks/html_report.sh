#!/usr/bin/env bash
# The HTML report's cost (SPEC §14: "the report is written in under 10 % of
# the run's time"): the same generated drop run with and without --html,
# interleaved, in release.
#
#   Benchmarks/html_report.sh                  # a 150 MiB drop, 3 runs of each
#   SIZE_MB=1024 Benchmarks/html_report.sh     # the 1 GB benchmark drop
#
# Prints the median wall time and CPU time (user + system, from GNU time:
# steadier than wall time on a shared machine) of each, the report stage's
# own time (the manifest's timings_seconds.report) as a share of the --html
# run, the differences of the medians as a share of the plain run, and the
# report's pages: how many, the largest, the total.
#
# Environment: SIZE_MB (default 150), DAYS (365), SEED (42), RUNS (3),
# AS_OF (2026-04-01T00:00:00Z), WORKDIR + KEEP=1 (keep and reuse the drop),
# SKIP_BUILD=1 (use the existing release binary).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
size_mb="${SIZE_MB:-150}"
days="${DAYS:-365}"
seed="${SEED:-42}"
runs="${RUNS:-3}"
as_of="${AS_OF:-2026-04-01T00:00:00Z}"
workdir="${WORKDIR:-$(mktemp -d)}"
mkdir -p "$workdir"
[[ "${KEEP:-0}" == 1 ]] || trap 'rm -rf "$workdir"' EXIT

cd "$repo"
[[ "${SKIP_BUILD:-0}" == 1 ]] || swift build -c release --product dayfold >&2
dayfold="$repo/.build/release/dayfold"
# About 0.77 MB of CSV per client-year with push exports (Benchmarks/run.sh), 4 % margin.
clients=$(awk -v mb="$size_mb" -v d="$days" 'BEGIN { c = mb * 1048576 * 1.04 / (767000 * d / 365); printf "%d", (c < 1 ? 1 : c + 0.999) }')
drop="$workdir/drop"
if [[ ! -d "$drop" ]]; then
    echo "generating ${size_mb} MiB: --clients $clients --days $days --seed $seed…" >&2
    "$dayfold" generate --clients "$clients" --days "$days" --seed "$seed" --out "$drop" >/dev/null
fi
drop_mib=$(du -sm "$drop" | cut -f1)

[[ -x /usr/bin/time ]] || { echo "GNU time (/usr/bin/time) is needed: apt-get install time" >&2; exit 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# Prints "wall cpu" of one run (exit 3, published with too many rejects, is a full run).
run_once() {
    local out="$workdir/out-$1"
    rm -rf "$out"
    /usr/bin/time -f "%e %U %S" -o "$workdir/time.txt" \
        "$dayfold" run --input "$drop" --output "$out" --as-of "$as_of" "${@:2}" >/dev/null 2>&1 || [[ $? == 3 ]]
    awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$workdir/time.txt"
}

plain=()
html=()
plain_cpu=()
html_cpu=()
stage=()
run_once warmup >/dev/null
for ((index = 0; index < runs; index++)); do
    read -r wall cpu < <(run_once plain)
    plain+=("$wall")
    plain_cpu+=("$cpu")
    read -r wall cpu < <(run_once html --html)
    html+=("$wall")
    html_cpu+=("$cpu")
    stage+=("$(grep -o '"report": [0-9.]*' "$workdir/out-html/manifest.json" | grep -o '[0-9.]*$')")
done
plain_median=$(printf '%s\n' "${plain[@]}" | median)
html_median=$(printf '%s\n' "${html[@]}" | median)
plain_cpu_median=$(printf '%s\n' "${plain_cpu[@]}" | median)
html_cpu_median=$(printf '%s\n' "${html_cpu[@]}" | median)
stage_median=$(printf '%s\n' "${stage[@]}" | median)
report="$workdir/out-html/report"
pages=$(find "$report" -name '*.html' | wc -l)
largest=$(find "$report" -name '*.html' -printf '%s\n' | sort -n | tail -1)
total=$(du -sb "$report" | cut -f1)

echo "drop: ${drop_mib} MiB, ${clients} clients, ${days} days (seed ${seed}); ${runs} runs each, nproc $(nproc)"
echo "run without --html: ${plain_median} s wall (of: ${plain[*]}), ${plain_cpu_median} s CPU (of: ${plain_cpu[*]})"
echo "run with --html:    ${html_median} s wall (of: ${html[*]}), ${html_cpu_median} s CPU (of: ${html_cpu[*]})"
awk -v s="$stage_median" -v h="$html_median" -v p="$plain_median" -v hc="$html_cpu_median" -v pc="$plain_cpu_median" 'BEGIN {
    printf "report stage (manifest timings_seconds.report): %.3f s = %.1f %% of the --html run\n", s, 100 * s / h
    printf "difference of the wall medians: %+.3f s = %+.1f %% of the plain run\n", h - p, 100 * (h - p) / p
    printf "difference of the CPU medians:  %+.3f s = %+.1f %% of the plain run\n", hc - pc, 100 * (hc - pc) / pc
}'
echo "report: ${pages} pages, largest $((largest / 1024)) KiB, ${total} bytes in all"

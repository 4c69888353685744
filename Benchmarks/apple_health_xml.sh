#!/usr/bin/env bash
# Times an Apple Health export.xml reader against the Python peer on a large
# generated export (never committed: it lives in a temporary directory).
#
#   Benchmarks/apple_health_xml.sh [--size-mb N] [--runs N] [--source FILE] -- COMMAND [ARGS...]
#
# COMMAND is run with the export's path appended (or substituted for a `{}`
# argument), e.g.
#   Benchmarks/apple_health_xml.sh --size-mb 1024 -- .build/release/dayfold validate {}
# It must print the number of top-level Records as the first integer of its
# output; the script checks it against the generator's count, so neither side
# can skip the work. The peer is apple_health_xml.py's iterparse loop.
#
# Method: one warm-up run of each (also fills the page cache), then --runs
# timed runs of each, interleaved; prints the median wall time, the ratio
# (peer / command) and the largest peak RSS, both from `/usr/bin/time -v`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
size_mb=1024
runs=3
source_file="$here/../../shared/fixtures/apple-health/ashtom-hkimport-export.xml"
python="${PYTHON:-python3}"

while [[ $# -gt 0 ]]; do
    case "$1" in
        --size-mb) size_mb="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --source) source_file="$2"; shift 2 ;;
        --) shift; break ;;
        *) echo "unknown option: $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
if [[ $# -eq 0 ]]; then
    echo "usage: $0 [--size-mb N] [--runs N] [--source FILE] -- COMMAND [ARGS...]" >&2
    exit 2
fi
[[ -x /usr/bin/time ]] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }
[[ -f "$source_file" ]] || { echo "source export not found: $source_file" >&2; exit 2; }

workdir="$(mktemp -d "${TMPDIR:-/tmp}/dayfold-health-bench.XXXXXX")"
trap 'rm -rf "$workdir"' EXIT
export_file="$workdir/export.xml"

command=()
substituted=0
for argument in "$@"; do
    if [[ "$argument" == "{}" ]]; then command+=("$export_file"); substituted=1; else command+=("$argument"); fi
done
[[ $substituted -eq 1 ]] || command+=("$export_file")
peer=("$python" "$here/apple_health_xml.py" iterparse "$export_file")

echo "generating a ${size_mb} MiB export from $(basename "$source_file")…"
expected="$("$python" "$here/apple_health_xml.py" generate "$source_file" "$export_file" "$size_mb")"
bytes="$(stat -c %s "$export_file")"
echo "export: $bytes bytes, $expected top-level Records"

# run NAME COMMAND...: one timed run; appends "wall_seconds rss_kb" to $workdir/NAME.
run() {
    local name="$1"; shift
    if ! /usr/bin/time -v -o "$workdir/time.txt" "$@" > "$workdir/out.txt" 2> "$workdir/err.txt"; then
        echo "$name failed:" >&2; cat "$workdir/err.txt" "$workdir/time.txt" >&2; exit 1
    fi
    local count
    count="$(grep -oE '[0-9]+' "$workdir/out.txt" | head -1 || true)"
    if [[ "$count" != "$expected" ]]; then
        echo "$name reported '$count' Records, expected $expected:" >&2; cat "$workdir/out.txt" >&2; exit 1
    fi
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, part, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + part[i] }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%.3f %d\n", wall, rss }' "$workdir/time.txt" >> "$workdir/$name"
}

echo "warm-up…"
run warmup "${command[@]}"
run warmup "${peer[@]}"
: > "$workdir/reader"; : > "$workdir/python"
for ((index = 1; index <= runs; index++)); do
    echo "run $index/$runs…"
    run reader "${command[@]}"
    run python "${peer[@]}"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
reader_wall="$(cut -d' ' -f1 "$workdir/reader" | median)"
python_wall="$(cut -d' ' -f1 "$workdir/python" | median)"
reader_rss="$(cut -d' ' -f2 "$workdir/reader" | sort -n | tail -1)"
python_rss="$(cut -d' ' -f2 "$workdir/python" | sort -n | tail -1)"

awk -v bytes="$bytes" -v records="$expected" -v runs="$runs" \
    -v rw="$reader_wall" -v pw="$python_wall" -v rr="$reader_rss" -v pr="$python_rss" \
    -v cmd="${command[*]}" 'BEGIN {
    mib = bytes / 1048576
    printf "\n%d top-level Records, %.0f MiB, median of %d runs after a warm-up\n", records, mib, runs
    printf "%-10s %9s %10s %13s\n", "", "wall (s)", "MiB/s", "peak RSS (MB)"
    printf "%-10s %9.2f %10.1f %13.1f\n", "reader", rw, mib / rw, rr / 1024
    printf "%-10s %9.2f %10.1f %13.1f\n", "python", pw, mib / pw, pr / 1024
    printf "ratio (python / reader): %.2fx\n", pw / rw
    printf "reader command: %s\n", cmd
}'

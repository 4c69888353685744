#!/usr/bin/env bash
# Incremental runs (`--state`, SPEC §12) against full runs, side by side on one
# generated drop, interleaved and alternated (a full run first in even rounds,
# last in odd ones), medians of RUNS:
#
#   full        dayfold run, as of NIGHT (no state)
#   nightly     dayfold run --state, as of NIGHT, the state written as of NIGHT − 24 h
#               (the as-of moved one night; the drop's files are unchanged)
#   retry       dayfold run --state, as of NIGHT again, the state written by the
#               nightly run (a retried night: the kept reading is read back
#               instead of the drop, `ReadingKeeping`)
#   full-new    dayfold run, as of NIGHT, on the drop with last night's files
#   nightly-new dayfold run --state, as of NIGHT, on the same drop, the state
#               written as of NIGHT − 24 h before last night's files were added
#               (issue 21's nightly case: the night's rows, those made in
#               the 24 h before NIGHT, split out of the
#               generated drop by Benchmarks/split_last_night.py, arrive as
#               new files; the older files are the same bytes, mtimes kept;
#               the state is as a nightly job leaves it, with the drop's
#               reading kept, and the night's run resumes it)
#   full-mm     dayfold run --max-memory MM, as of NIGHT (no state)
#   rerun-mm    dayfold run --max-memory MM --state, as of NIGHT, the state
#               written by the same run (a retry or a re-run after nothing changed)
#   edited-mm   the same after one user's rows of one file were edited
#
# and prints the ratios nightly/full, retry/full, nightly-new/full-new, rerun-mm/full-mm and edited-mm/full-mm and
# each one's peak RSS.
#
#   Benchmarks/incremental.sh                       # ≥ 1 GiB drop, 3 runs each
#   SIZE_MB=100 RUNS=3 Benchmarks/incremental.sh    # a quick run
#
# Environment: SIZE_MB (1024), DAYS (365), RUNS (3), MM (512M), WORKDIR (a new
# mktemp -d, removed unless KEEP=1), SKIP_BUILD=1 (use the release binary), DAYFOLD
# (another dayfold binary, e.g. a commit before, to compare).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
size_mb="${SIZE_MB:-1024}"
days="${DAYS:-365}"
runs="${RUNS:-3}"
mm="${MM:-512M}"
# The nightly case models an export cut at an instant: the drop "before the
# night" holds the rows made by BEFORE (`split_last_night.py`, by each row's
# own instant), the night's files the rows made in the 24 h after it, and
# each run's as-of is its export's cut (NIGHT is after the generated drop's
# last row). Split by local date instead, the drop before the night held
# rows an export cut at any one instant would not hold together (an event
# written in UTC on the eve of its task's local date, the task in the
# night's files), and every night read the drop whole.
night="2026-04-01T06:30:00Z"
before="2026-03-31T06:30:00Z"
workdir="${WORKDIR:-$(mktemp -d)}"
mkdir -p "$workdir"
[[ "${KEEP:-0}" == 1 || -n "${WORKDIR:-}" ]] || trap 'rm -rf "$workdir"' EXIT

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then (cd "$repo" && swift build -c release >&2); fi
dayfold="${DAYFOLD:-$repo/.build/release/dayfold}"
drop="$workdir/drop"
if [[ ! -d "$drop" ]]; then
    clients=$(awk -v mb="$size_mb" -v d="$days" 'BEGIN { c = mb * 1048576 * 1.04 / (767000 * d / 365); printf "%d", (c < 1 ? 1 : c + 0.999) }')
    echo "generating ${size_mb} MiB: --clients $clients --days $days…"
    "$dayfold" generate --clients "$clients" --days "$days" --seed 42 --out "$drop" > /dev/null
fi
echo "drop: $(du -sh "$drop" | cut -f1), $(nproc) cores"

# timed NAME ARGS...: one run, appends "seconds rss_kb" to $workdir/NAME.times.
timed() {
    local name="$1"; shift
    local start end status=0
    start=$(date +%s%N)
    /usr/bin/time -v -o "$workdir/time.txt" "$dayfold" run --input "${input:-$drop}" --progress never "$@" \
        > /dev/null 2> "$workdir/$name.err" || status=$?
    end=$(date +%s%N)
    if [[ $status -ne 0 && $status -ne 3 ]]; then echo "$name failed:" >&2; tail "$workdir/$name.err" >&2; exit 1; fi
    awk -F': ' -v ns=$((end - start)) '/Maximum resident set size/ { rss = $2 } END { printf "%.3f %d\n", ns / 1e9, rss }' \
        "$workdir/time.txt" >> "$workdir/$name.times"
}

rm -f "$workdir"/*.times
# The drop as it stood before the last night, and that night's files (made
# once; `split3`: by instant, since stop 51).
if [[ ! -d "$workdir/split3/night" ]]; then
    rm -rf "$workdir/split3"
    python3 "$here/split_last_night.py" "$drop" "$workdir/split3/before" "$workdir/split3/night" "$before"
fi
edit_file=$(find "$drop/journal" -name '*.csv' | sort | head -1)
# The edited-mm runs change one digit of it: the drop gets its own bytes back at the end.
cp -p "$edit_file" "$workdir/edit-original.csv"
if [[ "${KEEP:-0}" == 1 || -n "${WORKDIR:-}" ]]; then
    trap 'cp -p "$workdir/edit-original.csv" "$edit_file"' EXIT
fi
for ((i = 0; i < runs; i++)); do
    # Alternated: each full run comes before its incremental peers in even
    # rounds and after them in odd ones, so the machine's drift within a
    # round lands on both sides.
    odd=$((i % 2))
    if [[ $odd == 0 ]]; then timed full --output "$workdir/out-full" --as-of "$night"; fi
    rm -rf "$workdir/state"
    timed prepare --output "$workdir/out-nightly" --as-of "$before" --state "$workdir/state"
    timed nightly --output "$workdir/out-nightly" --as-of "$night" --state "$workdir/state"
    timed retry --output "$workdir/out-nightly" --as-of "$night" --state "$workdir/state"
    if [[ $odd == 1 ]]; then timed full --output "$workdir/out-full" --as-of "$night"; fi
    # The nightly case with new files: the state as of the night before, then the night's files.
    rm -rf "$workdir/drop-night" "$workdir/state-night"
    cp -a "$workdir/split3/before" "$workdir/drop-night"
    # Twice, as a nightly job leaves its state: the second run on the same
    # files keeps the drop's reading, which the night then resumes (each
    # resumed night keeps its own for the next, `ReadingKeeping`).
    for _ in 1 2; do
        input="$workdir/drop-night" timed prepare --output "$workdir/out-nightly-new" --as-of "$before" \
            --state "$workdir/state-night"
    done
    cp -a "$workdir/split3/night/." "$workdir/drop-night/"
    if [[ $odd == 1 ]]; then
        input="$workdir/drop-night" timed full-new --output "$workdir/out-full-new" --as-of "$night"
    fi
    input="$workdir/drop-night" timed nightly-new --output "$workdir/out-nightly-new" --as-of "$night" \
        --state "$workdir/state-night"
    if [[ $odd == 0 ]]; then
        input="$workdir/drop-night" timed full-new --output "$workdir/out-full-new" --as-of "$night"
    fi
    timed full-mm --output "$workdir/out-full-mm" --as-of "$night" --max-memory "$mm"
    rm -rf "$workdir/state-mm"
    timed prepare --output "$workdir/out-mm" --as-of "$night" --max-memory "$mm" --state "$workdir/state-mm"
    timed rerun-mm --output "$workdir/out-mm" --as-of "$night" --max-memory "$mm" --state "$workdir/state-mm"
    # One digit of the first data row of the first journal file, one more each round.
    python3 - "$edit_file" <<'EOF'
import sys
path = sys.argv[1]
lines = open(path, encoding="utf-8").read().split("\n")
row = lines[1]
for i in range(len(row) - 1, -1, -1):
    if row[i].isdigit():
        lines[1] = row[:i] + str((int(row[i]) + 1) % 10) + row[i + 1:]
        break
open(path, "w", encoding="utf-8").write("\n".join(lines))
EOF
    timed edited-mm --output "$workdir/out-mm" --as-of "$night" --max-memory "$mm" --state "$workdir/state-mm"
done
# The incremental outputs are the full runs' (the edit aside, which only the -mm runs saw last).
for dir in reports snapshots; do
    diff -rq "$workdir/out-full/$dir" "$workdir/out-nightly/$dir" > /dev/null || { echo "nightly outputs differ from the full run's" >&2; exit 1; }
    diff -rq "$workdir/out-full-new/$dir" "$workdir/out-nightly-new/$dir" > /dev/null \
        || { echo "nightly-new outputs differ from the full run's" >&2; exit 1; }
done
median() { sort -n -k1 "$workdir/$1.times" | awk '{ a[NR] = $1; r[NR] = $2 } END { m = int((NR + 1) / 2); printf "%s %s", a[m], r[m] }'; }
printf '%-10s %9s %10s\n' run seconds "peak MB"
for name in full nightly retry full-new nightly-new full-mm rerun-mm edited-mm; do
    read -r seconds rss <<< "$(median "$name")"
    printf '%-10s %9s %10d\n' "$name" "$seconds" $((rss / 1024))
done
ratio() { awk -v a="$(median "$1" | cut -d' ' -f1)" -v b="$(median "$2" | cut -d' ' -f1)" 'BEGIN { printf "%.2f", a / b }'; }
echo "nightly / full:      $(ratio nightly full)×   (as-of moved, files unchanged)"
echo "retry / full:        $(ratio retry full)×   (the same night again: the kept reading)"
echo "nightly-new / full-new: $(ratio nightly-new full-new)×   (last night's files added; goal ≤ 0.15×)"
echo "rerun-mm / full-mm:  $(ratio rerun-mm full-mm)×"
echo "edited-mm / full-mm: $(ratio edited-mm full-mm)×"
grep -h '"reason"' "$workdir/out-mm/manifest.json" || true

#!/usr/bin/env bash
# Times `dayfold validate` on an Apple Health export against the Python peer,
# side by side in one run, on a large generated export (never committed: it
# lives in a temporary directory).
#
#   Benchmarks/apple_health_xml.sh [--size-mb N] [--runs N] [--source FILE] [--dayfold PATH] [--no-zip]
#
# The export is written into a drop as health/<user>/export.xml, and (unless
# --no-zip) a second drop holds the same export as the Health app's
# health/<user>/export.zip (deflated apple_health_export/export.xml). Each
# drop is read with `dayfold validate DROP --as-of … --json` (PATH defaults to
# the release build, `swift build -c release`). The peer is
# apple_health_xml.py's iterparse loop over the export.xml. Both sides' counts
# are checked against the generator's, so neither can skip the work:
# dayfold's rows_read against the top-level elements, the peer's count
# against the top-level Records.
#
# Method: one warm-up run of each (also fills the page cache), then --runs
# timed runs of each, interleaved; prints the median wall time, the ratio
# (command / peer: ≤ 0.2 is issue 24's goal for export.xml, ≤ 0.3 for
# export.zip) and the largest peak RSS, both from `/usr/bin/time -v`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
size_mb=1024
runs=3
source_file="$here/../../shared/fixtures/apple-health/ashtom-hkimport-export.xml"
dayfold="$here/../.build/release/dayfold"
python="${PYTHON:-python3}"
with_zip=1

while [[ $# -gt 0 ]]; do
    case "$1" in
        --size-mb) size_mb="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --source) source_file="$2"; shift 2 ;;
        --dayfold) dayfold="$2"; shift 2 ;;
        --no-zip) with_zip=0; shift ;;
        *) echo "unknown option: $1 (see the header of $0)" >&2; exit 2 ;;
    esac
done
[[ -x /usr/bin/time ]] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }
[[ -f "$source_file" ]] || { echo "source export not found: $source_file" >&2; exit 2; }
[[ -x "$dayfold" ]] || { echo "dayfold not found: $dayfold (swift build -c release)" >&2; exit 2; }

workdir="$(mktemp -d "${TMPDIR:-/tmp}/dayfold-health-bench.XXXXXX")"
trap 'rm -rf "$workdir"' EXIT
user="41b07915-7a6d-4ff3-984a-e56db93ba169"
mkdir -p "$workdir/xml/health/$user" "$workdir/zip/health/$user"
export_file="$workdir/xml/health/$user/export.xml"
as_of="2100-01-01T00:00:00Z"

echo "generating a ${size_mb} MiB export from $(basename "$source_file")…"
read -r records elements < <("$python" "$here/apple_health_xml.py" generate "$source_file" "$export_file" "$size_mb")
bytes="$(stat -c %s "$export_file")"
echo "export.xml: $bytes bytes, $records top-level Records, $elements top-level elements"
names=(python xml)
if [[ $with_zip -eq 1 ]]; then
    "$python" "$here/apple_health_xml.py" zip "$export_file" "$workdir/zip/health/$user/export.zip"
    echo "export.zip: $(stat -c %s "$workdir/zip/health/$user/export.zip") bytes"
    names+=(zip)
fi

# run NAME: one timed run; appends "wall_seconds rss_kb" to $workdir/NAME.times.
run() {
    local name="$1" expected command
    case "$name" in
        python) command=("$python" "$here/apple_health_xml.py" iterparse "$export_file"); expected="$records" ;;
        *) command=("$dayfold" validate "$workdir/$name" --as-of "$as_of" --json); expected="$elements" ;;
    esac
    if ! /usr/bin/time -v -o "$workdir/time.txt" "${command[@]}" > "$workdir/out.txt" 2> "$workdir/err.txt"; then
        echo "$name failed:" >&2; cat "$workdir/err.txt" "$workdir/time.txt" >&2; exit 1
    fi
    local count
    if [[ "$name" == python ]]; then
        count="$(grep -oE '[0-9]+' "$workdir/out.txt" | head -1 || true)"
    else
        count="$(grep -oE '"rows_read":[0-9]+' "$workdir/out.txt" | head -1 | cut -d: -f2 || true)"
    fi
    if [[ "$count" != "$expected" ]]; then
        echo "$name counted '$count', expected $expected:" >&2; head -c 2000 "$workdir/out.txt" >&2; exit 1
    fi
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, part, ":"); wall = 0; for (i = 1; i <= n; i++) wall = wall * 60 + part[i] }
        /Maximum resident set size/ { rss = $2 }
        END { printf "%.3f %d\n", wall, rss }' "$workdir/time.txt" >> "$workdir/$name.times"
}

echo "warm-up…"
for name in "${names[@]}"; do run "$name"; done
for name in "${names[@]}"; do : > "$workdir/$name.times"; done
for ((index = 1; index <= runs; index++)); do
    echo "run $index/$runs…"
    for name in "${names[@]}"; do run "$name"; done
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
python_wall="$(cut -d' ' -f1 "$workdir/python.times" | median)"
printf "\n%d top-level Records, %.0f MiB export.xml, median of %d runs after a warm-up\n" \
    "$records" "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')" "$runs"
printf "%-28s %9s %10s %13s %16s\n" "" "wall (s)" "MiB/s" "peak RSS (MB)" "ratio to python"
for name in "${names[@]}"; do
    wall="$(cut -d' ' -f1 "$workdir/$name.times" | median)"
    rss="$(cut -d' ' -f2 "$workdir/$name.times" | sort -n | tail -1)"
    case "$name" in
        python) label="python iterparse (xml)" ;;
        xml) label="dayfold validate (xml)" ;;
        zip) label="dayfold validate (zip)" ;;
    esac
    awk -v label="$label" -v bytes="$bytes" -v w="$wall" -v r="$rss" -v p="$python_wall" 'BEGIN {
        printf "%-28s %9.2f %10.1f %13.1f %15.3fx\n", label, w, bytes / 1048576 / w, r / 1024, w / p }'
done
echo "dayfold: $dayfold"

#!/usr/bin/env bash
# End-to-end benchmark: `dayfold run` against a DuckDB peer and the I/O floor,
# on one generated drop (never committed: it lives in a temporary directory).
#
#   Benchmarks/run.sh                 # ≥ 1 GiB drop, 3 timed runs after a warm-up
#   SIZE_MB=100 RUNS=3 Benchmarks/run.sh    # a quick run
#
# Steps: (1) build dayfold in release; (2) generate a drop of about SIZE_MB MiB of
# CSV with `dayfold generate` (seeded, so every run of the script sees the same
# bytes); (3) time, interleaved, one warm-up then RUNS runs of each of
#   dayfold  dayfold run --input DROP --output TMP --as-of $AS_OF
#   duckdb   Benchmarks/duckdb_peer.py DROP TMP (SET threads=2): relationship-day
#            status counts, journal and health day sums — a subset of dayfold's work
#   floor    cat of every file of the drop to /dev/null (zstd -dc with ZSTD=1)
# and print the median wall time, the ratios dayfold/DuckDB and dayfold/floor,
# the peak RSS of each (from /usr/bin/time -v), the rows processed and nproc.
#
# Environment:
#   SIZE_MB    target drop size in MiB of CSV (default 1024)
#   DAYS       days in the drop (default 365); clients are sized to reach SIZE_MB
#   SEED       generator seed (default 42)
#   RUNS       timed runs of each command (default 3)
#   ZSTD=1     generate .csv.zst files (the floor then decompresses)
#   AS_OF      the run's as-of instant (default 2026-04-01T00:00:00Z)
#   WORKDIR    where the drop and outputs go (default: a new mktemp -d; removed
#              at the end unless KEEP=1)
#   SKIP_BUILD=1  use the existing release binary
#   GENERATOR  a command to use instead of `dayfold generate` (it gets the same
#              --clients --days --seed --out [--zstd] flags)
#   PYTHON     python interpreter for the peer (default python3)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
size_mb="${SIZE_MB:-1024}"
days="${DAYS:-365}"
seed="${SEED:-42}"
runs="${RUNS:-3}"
as_of="${AS_OF:-2026-04-01T00:00:00Z}"
python="${PYTHON:-python3}"
zstd_flag=()
[[ "${ZSTD:-0}" == 1 ]] && zstd_flag=(--zstd)

die() { echo "run.sh: $*" >&2; exit 2; }

# --- tools ---------------------------------------------------------------
if [[ ! -x /usr/bin/time ]]; then
    echo "installing GNU time (package 'time')…"
    if [[ $(id -u) -eq 0 ]]; then apt-get install -y -qq time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >/dev/null; }
    else sudo apt-get install -y -qq time >/dev/null; fi
fi
[[ -x /usr/bin/time ]] || die "needs GNU time at /usr/bin/time"
if ! "$python" -c 'import duckdb' 2>/dev/null; then
    echo "installing the duckdb Python package…"
    "$python" -m pip install --quiet duckdb 2>/dev/null || "$python" -m pip install --quiet --break-system-packages duckdb
fi
"$python" -c 'import duckdb' || die "cannot import duckdb in $python"
[[ "${ZSTD:-0}" != 1 ]] || command -v zstd >/dev/null || die "ZSTD=1 needs the zstd command for the floor"

# --- (1) build -----------------------------------------------------------
cd "$repo"
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    echo "building dayfold (release)…"
    swift build -c release --product dayfold 2>&1 | tail -3
fi
dayfold="$(swift build -c release --show-bin-path)/dayfold"
[[ -x "$dayfold" ]] || die "no release binary at $dayfold"

# --- (2) generate --------------------------------------------------------
if [[ -n "${WORKDIR:-}" ]]; then
    workdir="$WORKDIR"; mkdir -p "$workdir"
else
    workdir="$(mktemp -d "${TMPDIR:-/tmp}/dayfold-bench.XXXXXX")"
fi
[[ "${KEEP:-0}" == 1 ]] || trap 'rm -rf "$workdir"' EXIT
drop="$workdir/drop"

if [[ -n "${GENERATOR:-}" ]]; then
    read -r -a generate <<< "$GENERATOR"
elif "$dayfold" generate --help >/dev/null 2>&1; then
    generate=("$dayfold" generate)
else
    die "this dayfold has no 'generate' command yet; set GENERATOR to a drop generator command"
fi
# About 0.77 MB of CSV per client over 365 days with the push exports (measured:
# 1790 clients → 1.37 GB; 0.62 MB without them, `dayfold generate --no-push`);
# 4 % margin so the drop reaches the target size.
clients=$(awk -v mb="$size_mb" -v d="$days" 'BEGIN { c = mb * 1048576 * 1.04 / (767000 * d / 365); printf "%d", (c < 1 ? 1 : c + 0.999) }')
if [[ -d "$drop" ]]; then
    echo "reusing the drop in $drop"
else
    echo "generating ${size_mb} MiB: --clients $clients --days $days --seed $seed ${zstd_flag[*]}…"
    start=$(date +%s.%N)
    "${generate[@]}" --clients "$clients" --days "$days" --seed "$seed" --out "$drop" "${zstd_flag[@]}" > "$workdir/generate.txt"
    echo "generated in $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
fi
mapfile -d '' drop_files < <(find "$drop" -type f -print0 | sort -z)
drop_bytes=$(du -cb "${drop_files[@]}" | tail -1 | cut -f1)
if [[ "${ZSTD:-0}" == 1 ]]; then
    csv_bytes=$(zstd -dc "${drop_files[@]}" | wc -c)
    drop_rows=$(( $(zstd -dc "${drop_files[@]}" | wc -l) - ${#drop_files[@]} ))
else
    csv_bytes=$drop_bytes
    drop_rows=$(( $(cat "${drop_files[@]}" | wc -l) - ${#drop_files[@]} ))
fi
awk -v b="$csv_bytes" -v t="$size_mb" 'BEGIN { if (b < t * 1048576 * 0.98) printf "warning: drop is %.0f MiB of CSV, below the %d MiB asked\n", b / 1048576, t }'

# --- (3) time ------------------------------------------------------------
printf '%s\0' "${drop_files[@]}" > "$workdir/files.list"
if [[ "${ZSTD:-0}" == 1 ]]; then
    floor=(bash -c 'xargs -0 zstd -dc < "$1" > /dev/null' floor "$workdir/files.list")
else
    floor=(bash -c 'xargs -0 cat < "$1" > /dev/null' floor "$workdir/files.list")
fi
dayfold_cmd=("$dayfold" run --input "$drop" --output "$workdir/out" --as-of "$as_of" --progress never)
duckdb_cmd=("$python" "$here/duckdb_peer.py" "$drop" "$workdir/peer")

# run NAME COMMAND...: one timed run; appends "wall_seconds rss_kb" to $workdir/NAME.
run() {
    local name="$1"; shift
    rm -rf "$workdir/out" "$workdir/peer"
    local status=0 start end
    start=$(date +%s%N)
    /usr/bin/time -v -o "$workdir/time.txt" "$@" > "$workdir/$name.out" 2> "$workdir/$name.err" || status=$?
    end=$(date +%s%N)
    # dayfold exits 3 when it published but rejects passed max_reject_fraction: still a full run.
    if [[ $status -ne 0 && ! ( "$name" == dayfold* && $status -eq 3 ) ]]; then
        echo "$name failed (exit $status):" >&2; tail -20 "$workdir/$name.err" >&2; exit 1
    fi
    # Wall time from the clock around the call (time -v rounds to 10 ms); peak RSS from time -v.
    awk -F': ' -v ns=$((end - start)) '
        /Maximum resident set size/ { rss = $2 }
        END { printf "%.4f %d\n", ns / 1e9, rss }' "$workdir/time.txt" >> "$workdir/$name"
    if [[ "$name" == dayfold ]]; then cp "$workdir/out/manifest.json" "$workdir/manifest.json" 2>/dev/null || true; fi
    if [[ "$name" == duckdb ]]; then cp "$workdir/duckdb.out" "$workdir/duckdb.json"; fi
}

echo "warm-up…"
run warmup "${floor[@]}"
run warmup-dayfold "${dayfold_cmd[@]}"
run warmup "${duckdb_cmd[@]}"
: > "$workdir/dayfold"; : > "$workdir/duckdb"; : > "$workdir/floor"
for ((index = 1; index <= runs; index++)); do
    echo "run $index/$runs…"
    run dayfold "${dayfold_cmd[@]}"
    run duckdb "${duckdb_cmd[@]}"
    run floor "${floor[@]}"
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wall() { cut -d' ' -f1 "$workdir/$1" | median; }
rss() { cut -d' ' -f2 "$workdir/$1" | sort -n | tail -1; }
dayfold_rows=$("$python" -c 'import json,sys
try: m = json.load(open(sys.argv[1])); print(sum(f.get("rows_read", 0) for f in m.get("inputs", [])))
except Exception: print("?")' "$workdir/manifest.json")

echo
echo "drop: ${#drop_files[@]} files, $csv_bytes bytes of CSV ($drop_bytes on disk), $drop_rows data rows"
echo "rows read by dayfold (manifest rows_read): $dayfold_rows"
echo "DuckDB peer results: $(cat "$workdir/duckdb.json")"
awk -v bytes="$csv_bytes" -v runs="$runs" -v nproc="$(nproc)" \
    -v dw="$(wall dayfold)" -v qw="$(wall duckdb)" -v fw="$(wall floor)" \
    -v dr="$(rss dayfold)" -v qr="$(rss duckdb)" -v fr="$(rss floor)" 'BEGIN {
    mib = bytes / 1048576
    printf "\nmedian of %d runs after a warm-up; nproc = %d; %.0f MiB of CSV\n", runs, nproc, mib
    printf "%-9s %9s %9s %14s\n", "", "wall (s)", "MiB/s", "peak RSS (MB)"
    printf "%-9s %9.2f %9.1f %14.1f\n", "dayfold", dw, mib / dw, dr / 1024
    printf "%-9s %9.2f %9.1f %14.1f\n", "duckdb", qw, mib / qw, qr / 1024
    printf "%-9s %9.3f %9.1f %14.1f\n", "floor", fw, mib / fw, fr / 1024
    printf "ratio dayfold/duckdb: %.2fx   dayfold/floor: %.2fx\n", dw / qw, dw / (fw > 0 ? fw : 0.001)
}'
echo "dayfold: ${dayfold_cmd[*]}"
echo "duckdb:  ${duckdb_cmd[*]}"
[[ "${KEEP:-0}" == 1 ]] && echo "kept: $workdir"
exit 0

#!/usr/bin/env bash
# Sharded runs on Spark (SPEC §13) against a whole run of the same drop, on
# this machine, in one sitting:
#
#   whole   dayfold run of the drop (one process, all cores)
#   spark   Integrations/spark/dayfold_spark.py on local[CORES] with SHARDS
#           shards: shard step, per-shard runs (Spark tasks), merge
#
# and prints spark/whole, each step's seconds, the shard and merge steps'
# throughput in MB/s of drop, and the peak RSS of the whole run. The binary
# is the portable one (Scripts/build-portable.sh), the one a cluster ships.
#
#   Benchmarks/spark.sh                          # a 2 GB drop, 4 shards, local[2]
#   SIZE_MB=300 Benchmarks/spark.sh              # a quick run
#
# Environment: SIZE_MB (2048), SHARDS (4), CORES (2), WORKDIR (a new mktemp
# -d, removed unless KEEP=1 or given), SKIP_BUILD=1 (use the built binary).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
size_mb="${SIZE_MB:-2048}"
shards="${SHARDS:-4}"
cores="${CORES:-2}"
as_of="2026-04-01T00:00:00Z"
workdir="${WORKDIR:-$(mktemp -d)}"
mkdir -p "$workdir"
[[ "${KEEP:-0}" == 1 || -n "${WORKDIR:-}" ]] || trap 'rm -rf "$workdir"' EXIT

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then dayfold=$("$repo/Scripts/build-portable.sh"); else
    dayfold="$repo/.build/portable/release/dayfold"; fi
drop="$workdir/drop"
if [[ ! -d "$drop" ]]; then
    # About 0.77 MB of CSV per client-year (dayfold generate's mix).
    clients=$(awk -v mb="$size_mb" 'BEGIN { c = mb / 0.775; printf "%d", (c < 1 ? 1 : c) }')
    echo "generating ~${size_mb} MB: --clients $clients --days 365…" >&2
    "$dayfold" generate --clients "$clients" --days 365 --seed 42 --out "$drop" >/dev/null
fi
drop_mb=$(du -sm "$drop" | cut -f1)
calc() { awk "BEGIN { print $* }"; }

rm -rf "$workdir/whole" "$workdir/spark"
start=$(date +%s.%N)
/usr/bin/time -f "%M" -o "$workdir/whole.rss" "$dayfold" run --input "$drop" --output "$workdir/whole" \
    --as-of "$as_of" --progress never >/dev/null 2>&1 || [[ $? == 3 ]]
whole=$(calc "$(date +%s.%N) - $start")

start=$(date +%s.%N)
python3 "$repo/Integrations/spark/dayfold_spark.py" --master "local[$cores]" --dayfold "$dayfold" \
    --log-level ERROR --input "$drop" --output "$workdir/spark" --as-of "$as_of" --shards "$shards" \
    2>"$workdir/spark.log" || [[ $? == 3 ]]
spark=$(calc "$(date +%s.%N) - $start")
line=$(grep 'dayfold_spark: seconds:' "$workdir/spark.log")
start_s=$(sed -E 's/.*spark start ([0-9.]+),.*/\1/' <<<"$line")
stop_s=$(sed -E 's/.*spark stop ([0-9.]+),.*/\1/' <<<"$line")
shard_s=$(sed -E 's/.*, shard ([0-9.]+),.*/\1/' <<<"$line")
runs_s=$(sed -E 's/.*runs ([0-9.]+) .*/\1/' <<<"$line")
merge_s=$(sed -E 's/.*merge ([0-9.]+).*/\1/' <<<"$line")
per_shard=$(sed -E 's/.*per shard: ([0-9. ]+)\).*/\1/' <<<"$line")

# The same bytes, or the figures mean nothing.
for file in $(cd "$workdir/whole" && find reports snapshots rejects -type f | sort); do
    cmp -s "$workdir/whole/$file" "$workdir/spark/$file" || { echo "DIFFERENT: $file" >&2; exit 1; }
done

echo "drop: ${drop_mb} MB, $shards shards on local[$cores], $(nproc) cores"
printf 'whole run        %7.2f s  (peak RSS %d MB)\n' "$whole" $(( $(cat "$workdir/whole.rss") / 1024 ))
printf 'spark job        %7.2f s  = %.2f× the whole run (Spark start and stop included)\n' "$spark" \
    "$(calc "$spark / $whole")"
printf '  shard step     %7.2f s  %6.0f MB/s\n' "$shard_s" "$(calc "$drop_mb / $shard_s")"
printf '  shard runs     %7.2f s  (each: %s s)\n' "$runs_s" "$per_shard"
printf '  merge step     %7.2f s  %6.0f MB/s of drop\n' "$merge_s" "$(calc "$drop_mb / $merge_s")"
printf '  Spark start    %7.2f s  (JVM, context, shipping the binary)\n' "$start_s"
printf '  Spark stop     %7.2f s\n' "$stop_s"
printf '  the rest       %7.2f s  (Python, pipeline checks, between steps)\n' \
    "$(calc "$spark - $start_s - $shard_s - $runs_s - $stop_s - $merge_s")"
echo "outputs: byte-identical to the whole run"

#!/usr/bin/env bash
# Two dayfold binaries on one drop, alternated (issue 19's "speed kept"):
#   Benchmarks/compare_binaries.sh BEFORE_BIN AFTER_BIN DROP [PAIRS] [extra run flags…]
# Prints each run, then the medians and the ratios after/before of wall
# time, CPU time (user + system) and peak RSS. Runs alternate, and every
# other pair runs after first (before after after before …), so drift in the
# machine's load, and whatever a run leaves the next (page cache, memory the
# host has backed), hit both sides alike. A binary against itself is the
# noise floor: on this VM ±5–7 % in single pairs, a few % in medians of 5.
# Every run is as of $AS_OF (default 2026-04-01T12:00:00Z); AS_OF= (empty)
# passes no --as-of, for runs whose flags fix it themselves (--as-of-series).
# NIGHTLY_FROM=INSTANT times nightly runs instead: before each timed run,
# the same binary writes a state and outputs as of INSTANT (not timed), and
# the timed run continues from them with --state (issue 21's nightly case,
# the drop unchanged).
set -euo pipefail
before=$1 after=$2 drop=$3 pairs=${4:-3}
shift $(( $# < 4 ? $# : 4 ))
as_of=(--as-of "${AS_OF-2026-04-01T12:00:00Z}")
[ -z "${AS_OF-x}" ] && as_of=()
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for pair in $(seq "$pairs"); do
  order="before after"; (( pair % 2 == 0 )) && order="after before"
  for side in $order; do
    bin=$before; [ "$side" = after ] && bin=$after
    rm -rf "$work/out" "$work/state"
    state=()
    if [ -n "${NIGHTLY_FROM:-}" ]; then
      state=(--state "$work/state")
      "$bin" run --input "$drop" --output "$work/out" --as-of "$NIGHTLY_FROM" "${state[@]}" --progress never "$@" \
        >/dev/null 2>&1 || [ $? -eq 3 ]
    fi
    /usr/bin/time -f "$side %e %U %M %S" -o "$work/time" "$bin" run --input "$drop" --output "$work/out" \
      "${as_of[@]}" "${state[@]}" --progress never "$@" >/dev/null
    cat "$work/time" | tee -a "$work/all"
  done
done
python3 - "$work/all" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
def medians(side):
    mine = [r for r in rows if r[0] == side]
    return [statistics.median(v) for v in (
        [float(r[1]) for r in mine], [float(r[2]) for r in mine], [float(r[3]) for r in mine],
        [float(r[2]) + float(r[4]) for r in mine])]
med = {side: medians(side) for side in ("before", "after")}
for side in ("before", "after"):
    wall, user, rss, cpu = med[side]
    print(f"{side:6}  wall {wall:7.2f} s  user {user:7.2f} s  cpu {cpu:7.2f} s  peak {rss / 1024:7.0f} MB")
b, a = med["before"], med["after"]
print(f"after/before  wall {a[0] / b[0]:.3f}×  user {a[1] / b[1]:.3f}×  cpu {a[3] / b[3]:.3f}×  peak {a[2] / b[2]:.3f}×")
PY

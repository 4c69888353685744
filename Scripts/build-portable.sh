#!/usr/bin/env bash
# Builds a release dayfold with the Swift runtime (stdlib, Foundation,
# Dispatch) linked statically, and prints the binary's path. It runs on a
# machine without a Swift toolchain that has the Debian C libraries the
# README names (what an executor of a Spark cluster needs, SPEC §13).
#   Scripts/build-portable.sh            -> prints .build/portable/release/dayfold
#   Scripts/build-portable.sh --tarball  -> also writes dayfold.tar.gz beside it
#                                           (for spark-submit --archives)
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/ensure-deps.sh >&2
swift build -c release --static-swift-stdlib --build-path .build/portable --product dayfold >&2
binary="$(pwd)/.build/portable/release/dayfold"
# Refuse to hand out a binary that would need the toolchain after all.
if ldd "$binary" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime' >&2; then
  echo "build-portable: $binary still links the Swift runtime dynamically (above)" >&2
  exit 1
fi
if [ "${1:-}" = "--tarball" ]; then
  tar -czf "$(dirname "$binary")/dayfold.tar.gz" -C "$(dirname "$binary")" dayfold
  echo "$(dirname "$binary")/dayfold.tar.gz" >&2
fi
echo "$binary"

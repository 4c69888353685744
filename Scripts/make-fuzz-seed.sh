#!/usr/bin/env bash
# Builds Tests/DayfoldCoreTests/Fixtures/FuzzSeed/drop: a small cut of the
# conformance drop (subjects whole, the first 40 lines of every other file,
# the Apple Health exports trimmed) that the fuzz test mutates. Every kind of
# file the drop layout knows is there: plain, zstd and gzip CSV, an
# export.xml, a malformed zstd export and an export.zip.
set -eu
cd "$(dirname "$0")/.."
src=Tests/DayfoldCoreTests/Fixtures/Conformance/drop
out=Tests/DayfoldCoreTests/Fixtures/FuzzSeed/drop
rm -rf "$out"
mkdir -p "$out"
(cd "$src" && find . -type f | LC_ALL=C sort) | while read -r f; do
  mkdir -p "$out/$(dirname "$f")"
  case "$f" in
    ./subjects/*.zst) cp "$src/$f" "$out/$f" ;;
    ./subjects/*) cp "$src/$f" "$out/$f" ;;
    */export.xml.zst) cp "$src/$f" "$out/$f" ;;
    */export_cda.xml) cp "$src/$f" "$out/$f" ;;
    *.xml) { head -60 "$src/$f"; echo '</HealthData>'; } > "$out/$f" ;;
    *.csv.zst) zstd -dcq "$src/$f" | head -40 | zstd -q --no-progress -o "$out/$f" ;;
    *.csv) head -40 "$src/$f" > "$out/$f" ;;
  esac
done
# A gzip CSV and an export.zip, the other compressed forms SPEC §10 reads.
head -40 "$src/tasks/status_events/events-002-late.csv" | gzip -n -9 > "$out/tasks/status_events/events-004.csv.gz"
zipuser=0620f087-7e5f-4381-83fa-ac572f564652
tmp=$(mktemp -d)
mkdir -p "$tmp/apple_health_export"
{ head -60 "$src/health/41b07915-7a6d-4ff3-984a-e56db93ba169/export.xml"; echo '</HealthData>'; } \
  > "$tmp/apple_health_export/export.xml"
echo '<ClinicalDocument/>' > "$tmp/apple_health_export/export_cda.xml"
mkdir -p "$out/health/$zipuser"
(cd "$tmp" && TZ=UTC touch -t 202603290000 apple_health_export apple_health_export/* &&
  zip -X -q -r "$OLDPWD/$out/health/$zipuser/export.zip" apple_health_export)
rm -rf "$tmp"
du -sh "$out"

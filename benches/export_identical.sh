#!/usr/bin/env bash
# Whether two tether builds produce the same graph on real repositories: each repository is
# indexed and exported (`tether export`) with each build, the export's `indexed_at_unix`
# timestamp blanked, and the two compared byte for byte. For changes that must not change
# behaviour (moves, formatting, the protocol's types).
#
#     bash benches/export_identical.sh OLD/tether NEW/tether REPO...
set -euo pipefail
old=$1
new=$2
shift 2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
status=0
for repo in "$@"; do
  for build in old new; do
    binary=${!build}
    "$binary" index "$repo" >/dev/null 2>&1
    "$binary" export "$repo" 2>/dev/null | sed -E 's/"indexed_at_unix": ?[0-9]+/"indexed_at_unix":0/' >"$scratch/$build.json"
  done
  if cmp -s "$scratch/old.json" "$scratch/new.json"; then
    echo "$repo: identical ($(wc -c <"$scratch/new.json") bytes, sha256 $(sha256sum <"$scratch/new.json" | cut -c1-16))"
  else
    echo "$repo: DIFFERENT (old $(wc -c <"$scratch/old.json") bytes, new $(wc -c <"$scratch/new.json") bytes)"
    status=1
  fi
done
exit "$status"

#!/usr/bin/env bash
# Builds the Go adapters (cmd/<name>) into $REPTEST_STATE/bin, with the module versions
# pinned in go.mod and go.sum. Idempotent: a binary newer than every source is kept.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${REPTEST_STATE:-$here/../.state}"
mkdir -p "$state/bin"
state="$(cd "$state" && pwd)"

if ! command -v go >/dev/null 2>&1; then
  echo "go setup: the Go toolchain (go) is not on PATH" >&2
  exit 1
fi
export GOFLAGS="-mod=readonly -buildvcs=false"

cd "$here"
sources=(go.mod go.sum internal cmd)
for dir in cmd/*/; do
  name="$(basename "$dir")"
  bin="$state/bin/$name"
  if [ -x "$bin" ] && [ -z "$(find "${sources[@]}" -newer "$bin" -print -quit)" ]; then
    echo "go setup: $name is up to date"
    continue
  fi
  echo "go setup: building $name"
  go build -trimpath -o "$bin.tmp" "./$dir"
  mv -f "$bin.tmp" "$bin"
done

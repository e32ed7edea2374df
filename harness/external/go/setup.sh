#!/usr/bin/env bash
# Builds the Go adapters (cmd/<name>) into $REPTEST_STATE/bin, with the module versions
# pinned in go.mod and go.sum. Idempotent: a binary newer than every source is kept.
# With --latest: the newest releases instead, into $REPTEST_STATE/bin-latest (setup).
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

if [ "${1:-}" = "--latest" ]; then
  # The newest release of each module go.mod requires, built into $REPTEST_STATE/bin-latest
  # from a copy of this module under $REPTEST_STATE/go-latest (go.mod and go.sum here keep
  # the pins). `go get MODULE@latest` asks the module proxy; on a second run it changes
  # nothing unless a newer release came out, and the build is cached.
  src="$state/go-latest"
  mkdir -p "$src" "$state/bin-latest"
  rm -rf "$src/cmd" "$src/internal"
  cp -r "$here/go.mod" "$here/go.sum" "$here/cmd" "$here/internal" "$src/"
  cd "$src"
  mapfile -t modules < <(go mod edit -json | python3 -c 'import json, sys; print("\n".join(r["Path"] for r in json.load(sys.stdin).get("Require") or [] if not r.get("Indirect")))')
  export GOFLAGS="-mod=mod -buildvcs=false"
  failed=()
  for module in "${modules[@]}"; do
    echo "go setup --latest: go get $module@latest"
    go get "$module@latest" || failed+=("$module")
  done
  status=0
  for dir in cmd/*/; do
    name="$(basename "$dir")"
    # A program whose library did not resolve to its newest release is not built: built,
    # it would link the pin and pass it off as the newest.
    missing=""
    for module in "${failed[@]}"; do
      if go list -deps -f '{{if .Module}}{{.Module.Path}}{{end}}' "./$dir" | grep -qx "$module"; then
        missing="$module"
      fi
    done
    if [ -n "$missing" ]; then
      echo "go setup --latest: $name not built: the newest release of $missing could not be resolved (see above)" >&2
      rm -f "$state/bin-latest/$name"
      status=1
      continue
    fi
    go build -trimpath -o "$state/bin-latest/$name.tmp" "./$dir"
    mv -f "$state/bin-latest/$name.tmp" "$state/bin-latest/$name"
    echo "go setup --latest: built $name"
  done
  grep -E '^\s+[a-z].* v[0-9]' go.mod | sed 's/^\s*/go setup --latest: requires /'
  exit "$status"
fi

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

#!/usr/bin/env bash
# Installs the Node robots.txt libraries reptest tests, at the versions pinned in
# package.json / package-lock.json, into harness/external/node/node_modules (npm ci).
# Idempotent: skipped when node_modules already matches the lock file and this Node.
# With --latest: the newest releases instead, into $REPTEST_STATE/node-latest (setup).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"

missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "node: installing ${missing[*]} from Debian"
    if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
      apt-get update
      apt-get install -y --no-install-recommends "${missing[@]}"
    fi
  else
    echo "node: missing ${missing[*]}; install them (Debian: apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi

if [ "${1:-}" = "--latest" ]; then
  # The newest release of each dependency of package.json, into its own npm prefix beside
  # the pins (which stay in package.json and ./node_modules). npm re-resolves `@latest`
  # on every run and changes nothing when nothing newer came out.
  state="${REPTEST_STATE:-$(cd "$here/.." && pwd)/.state}"
  prefix="$state/node-latest"
  mkdir -p "$prefix"
  [ -f "$prefix/package.json" ] || echo '{ "private": true }' > "$prefix/package.json"
  mapfile -t wanted < <(node -e 'for (const name of Object.keys(require("./package.json").dependencies)) console.log(`${name}@latest`)')
  echo "node: npm install --prefix $prefix ${wanted[*]}"
  npm install --prefix "$prefix" --ignore-scripts --no-audit --no-fund --loglevel=warn "${wanted[@]}"
  for lib in robots-parser robots-txt-guard robots-txt-parser robots robots-txt; do
    if ! hello="$(node adapter.js "$lib" "$prefix" </dev/null | head -n 1)" || [ -z "$hello" ]; then
      echo "node: adapter for the newest $lib does not start" >&2
      exit 1
    fi
    echo "node (latest): $hello"
  done
  exit 0
fi

# The stamp records what node_modules was installed from: the lock file and Node's version.
stamp_file=node_modules/.reptest-stamp
want="$(sha256sum package-lock.json | cut -d' ' -f1) node $(node --version)"
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$want" ]; then
  echo "node: node_modules up to date"
else
  echo "node: npm ci"
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=warn
  echo "$want" > "$stamp_file"
fi

# Each adapter must load its library and complete the handshake.
for lib in robots-parser robots-txt-guard robots-txt-parser robots robots-txt; do
  if ! hello="$(node adapter.js "$lib" </dev/null | head -n 1)" || [ -z "$hello" ]; then
    echo "node: adapter for $lib does not start" >&2
    exit 1
  fi
  echo "node: $hello"
done

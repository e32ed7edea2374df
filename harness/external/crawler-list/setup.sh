#!/usr/bin/env bash
# Installs the `crawler-user-agents` package (PyPI, pinned: MIT, Martin Monperrus et al.)
# into $REPTEST_STATE/crawler-user-agents: `reptest policy --audit` reads its JSON of
# user-agent patterns to cross-check the curated crawler catalogue
# (harness/report/data/crawlers.toml). Data, never committed.
# Run through the entry point: bash harness/external/setup crawler-list
#
# Idempotent: pip runs only when the pinned version's dist-info or the JSON is missing;
# every run ends by checking that the JSON parses and lists patterns.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
state="${REPTEST_STATE:-$repo/harness/external/.state}"
version=1.67.0
dest="$state/crawler-user-agents"
json="$dest/crawleruseragents/crawler-user-agents.json"
python="$state/venv/bin/python"
[ -x "$python" ] || python="${REPTEST_PYTHON:-python3}"

step=""
trap 'echo "crawler-list setup: FAILED while: $step" >&2' ERR

if [ ! -d "$dest/crawler_user_agents-$version.dist-info" ] || [ ! -f "$json" ]; then
  step="pip install --target $dest crawler-user-agents==$version"
  mkdir -p "$state"
  tmp="$(mktemp -d "$state/crawler-user-agents.XXXXXX")"
  "$python" -m pip install --disable-pip-version-check --no-input --quiet --no-deps \
    --target "$tmp" "crawler-user-agents==$version"
  rm -rf "$dest"
  mv "$tmp" "$dest"
fi

step="reading $json"
count="$("$python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$json")"
[ "$count" -gt 0 ]
echo "crawler-list setup: crawler-user-agents $version, $count patterns ($json)"

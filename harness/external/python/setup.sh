#!/usr/bin/env bash
# Installs the Python robots.txt libraries reptest tests (requirements.txt, pinned) and
# pytest for test_adapters.py (requirements-dev.txt) into the venv $REPTEST_STATE/venv.
# Run through the entry point: bash harness/external/setup python
# With --latest: the newest releases instead, into $REPTEST_STATE/venv-latest (setup).
#
# Idempotent: the venv is created only when missing or broken, and pip runs only when
# the stamp file in the venv does not match the hash of both requirement files and the
# interpreter's version. Every run ends by importing each library (adapter.py --list).
# Any failure exits non-zero with a message naming the step.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
state="${REPTEST_STATE:-$repo/harness/external/.state}"
venv="$state/venv"
source "$here/../venv.sh"

step=""
trap 'echo "python setup: FAILED while: $step" >&2' ERR

if [ "${1:-}" = "--latest" ]; then
  # The newest release of each library of requirements.txt, into its own venv beside the
  # pinned one: requirements.txt without its pins, then `pip install --upgrade` (on a
  # second run pip only checks that nothing newer came out).
  venv="$state/venv-latest"
  unpinned="$state/requirements-latest.txt"
  step="writing $unpinned (requirements.txt without its pins)"
  mkdir -p "$state"
  sed -e 's/#.*//' -e 's/[=<>!~].*//' -e 's/[[:space:]]//g' -e '/^$/d' \
    "$here/requirements.txt" > "$unpinned"
  step="making the venv $venv"
  ensure_venv "python setup --latest" "$venv" "$unpinned"
  step="upgrading to the newest releases in $venv"
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input --quiet \
    --upgrade -r "$unpinned"
  step="importing every library from $venv (adapter.py --list)"
  "$venv/bin/python" "$here/adapter.py" --list
  exit 0
fi

step="installing requirements.txt and requirements-dev.txt into $venv"
ensure_venv "python setup" "$venv" "$here/requirements.txt" "$here/requirements-dev.txt"

step="importing every library (adapter.py --list)"
"$venv/bin/python" "$here/adapter.py" --list

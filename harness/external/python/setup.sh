#!/usr/bin/env bash
# Installs the Python robots.txt libraries reptest tests (requirements.txt, pinned) and
# pytest for test_adapters.py (requirements-dev.txt) into the venv $REPTEST_STATE/venv.
# Run through the entry point: bash harness/external/setup python
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
python="${REPTEST_PYTHON:-python3}"
stamp="$venv/.reptest-requirements.sha256"

step=""
trap 'echo "python setup: FAILED while: $step" >&2' ERR

step="checking the interpreter ($python)"
"$python" -c 'import sys; assert sys.version_info >= (3, 10), sys.version' \
  || { echo "python setup: $python is missing or older than 3.10" >&2; exit 1; }

if [ -d "$venv" ] && ! "$venv/bin/python" -c '' 2>/dev/null; then
  step="removing a broken venv at $venv"
  echo "python setup: $venv is broken (its interpreter does not run); recreating it"
  rm -rf "$venv"
fi

if [ ! -x "$venv/bin/python" ]; then
  step="creating the venv at $venv"
  mkdir -p "$state"
  "$python" -m venv "$venv"
fi

step="hashing the requirements"
want="$( { cat "$here/requirements.txt" "$here/requirements-dev.txt";
           "$venv/bin/python" -c 'import sys; print(sys.version)'; } | sha256sum | cut -d' ' -f1 )"
have="$(cat "$stamp" 2>/dev/null || true)"

if [ "$want" = "$have" ]; then
  echo "python setup: venv up to date ($venv)"
else
  step="pip install -r requirements.txt -r requirements-dev.txt"
  rm -f "$stamp"
  "$venv/bin/python" -m pip install --disable-pip-version-check --no-input \
    -r "$here/requirements.txt" -r "$here/requirements-dev.txt"
  echo "$want" > "$stamp"
fi

step="importing every library (adapter.py --list)"
"$venv/bin/python" "$here/adapter.py" --list

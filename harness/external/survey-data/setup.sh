#!/usr/bin/env bash
# Fetches the real robots.txt files the survey runs on (issue 12): protego 0.7.0's
# source distribution on PyPI ships 4,231 of them from top sites under tests/test_data
# (BSD-3-Clause). They are inputs, never content: they live under
# $REPTEST_STATE/survey/, never in the repository.
# Run through the entry point: bash harness/external/setup survey-data
#
# Idempotent: the sdist is downloaded and unpacked only when the unpacked folder is
# missing or holds another number of files than the sdist lists.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
state="${REPTEST_STATE:-$repo/harness/external/.state}"
version=0.7.0
dest="$state/survey/protego-$version"
sdist="$state/survey/protego-$version.tar.gz"
python="$state/venv/bin/python"
[ -x "$python" ] || python="${REPTEST_PYTHON:-python3}"

step=""
trap 'echo "survey-data setup: FAILED while: $step" >&2' ERR

count() { find "$dest/test_data" -maxdepth 1 -type f 2>/dev/null | wc -l; }

if [ ! -f "$sdist" ]; then
  step="pip download --no-binary :all: --no-deps protego==$version"
  mkdir -p "$state/survey"
  tmp="$(mktemp -d "$state/survey/download.XXXXXX")"
  "$python" -m pip download --disable-pip-version-check --no-input --quiet \
    --no-binary :all: --no-deps "protego==$version" -d "$tmp"
  mv "$tmp/protego-$version.tar.gz" "$sdist"
  rm -rf "$tmp"
fi

step="listing the sdist's test data"
want="$(tar tzf "$sdist" | grep -c "^protego-$version/tests/test_data/[^/]\+$")"
if [ "$(count)" = "$want" ]; then
  echo "survey-data setup: $want files up to date ($dest/test_data)"
  exit 0
fi

step="unpacking tests/test_data"
tmp="$(mktemp -d "$state/survey/unpack.XXXXXX")"
tar xzf "$sdist" -C "$tmp" "protego-$version/tests/test_data"
rm -rf "$dest"
mkdir -p "$dest"
mv "$tmp/protego-$version/tests/test_data" "$dest/test_data"
rm -rf "$tmp"
echo "survey-data setup: $(count) real robots.txt files in $dest/test_data (protego $version, BSD-3-Clause)"
[ "$(count)" = "$want" ]

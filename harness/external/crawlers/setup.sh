#!/usr/bin/env bash
# Installs the real crawlers reptest judges as black boxes on its loopback site
# (harness/site/src/crawl/pinned.rs):
# - GNU wget and HTTrack, from Debian, as root; otherwise says what to install. pinned.rs
#   names the Debian versions they were verified with;
# - Scrapy, pinned in scrapy-requirements.txt, into its own venv
#   $REPTEST_STATE/crawlers/scrapy-venv;
# - a small Colly program (harness/site/crawlers/colly, Colly pinned in its go.mod and
#   go.sum), built with `go build` into $REPTEST_STATE/crawlers/colly-crawler.
# Idempotent: wget and httrack are only checked when on PATH; pip runs only when the
# venv's stamp does not match the hash of scrapy-requirements.txt and the interpreter's
# version; go build runs only when the stamp does not match the hash of the Colly
# program's sources (main.go, go.mod, go.sum) and the Go version.
# Run through the entry point: bash harness/external/setup crawlers
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
state="${REPTEST_STATE:-$repo/harness/external/.state}"
source "$here/../debian.sh"

have_wget() { command -v wget >/dev/null 2>&1; }
have_httrack() { command -v httrack >/dev/null 2>&1; }

ensure_debian wget have_wget wget
ensure_debian httrack have_httrack httrack
echo "crawlers: $(wget --version | head -n 1); $(httrack --version 2>/dev/null | head -n 1)"

step=""
trap 'echo "crawlers setup: FAILED while: $step" >&2' ERR
mkdir -p "$state/crawlers"

# Scrapy, in a venv of its own.
source "$here/../venv.sh"
venv="$state/crawlers/scrapy-venv"
step="installing scrapy-requirements.txt into $venv"
ensure_venv "crawlers setup" "$venv" "$here/scrapy-requirements.txt"
step="running scrapy version"
echo "crawlers: $("$venv/bin/scrapy" version 2>/dev/null)"

# Colly, built from its pinned module.
colly_src="$repo/harness/site/crawlers/colly"
colly_bin="$state/crawlers/colly-crawler"
colly_stamp="$colly_bin.sha256"
step="checking for go"
command -v go >/dev/null 2>&1 \
  || { echo "crawlers setup: go is missing (needed to build the Colly crawler)" >&2; exit 1; }
step="hashing the Colly crawler's sources"
want="$( { cat "$colly_src/main.go" "$colly_src/go.mod" "$colly_src/go.sum"; go version; } \
  | sha256sum | cut -d' ' -f1 )"
if [ "$want" = "$(cat "$colly_stamp" 2>/dev/null || true)" ] && [ -x "$colly_bin" ]; then
  echo "crawlers setup: colly-crawler up to date ($colly_bin)"
else
  step="go build the Colly crawler into $colly_bin"
  rm -f "$colly_stamp"
  (cd "$colly_src" && GOFLAGS=-mod=mod go build -o "$colly_bin.tmp" . && mv "$colly_bin.tmp" "$colly_bin")
  echo "$want" > "$colly_stamp"
fi
step="listing Colly's pinned version"
echo "crawlers: $(cd "$colly_src" && go list -m github.com/gocolly/colly/v2)"

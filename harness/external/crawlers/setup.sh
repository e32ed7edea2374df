#!/usr/bin/env bash
# Installs the real crawlers reptest judges as black boxes on its loopback site
# (harness/site/src/crawl/pinned.rs):
# - GNU wget, GNU Wget2, HTTrack, libwww-perl (LWP::RobotUA) and LinkChecker, from
#   Debian, as root; otherwise says what to install. pinned.rs names the Debian versions they were verified with;
# - Scrapy, the MCP fetch server, Crawlee for Python and trafilatura, each pinned in its
#   NAME-requirements.txt, each in its own venv $REPTEST_STATE/crawlers/NAME-venv;
# - a small Colly program (harness/site/crawlers/colly, Colly pinned in its go.mod and
#   go.sum), built with `go build` into $REPTEST_STATE/crawlers/colly-crawler;
# - the npm crawlers (Crawlee's @crawlee/cheerio, simplecrawler), pinned in
#   node/package.json and node/package-lock.json, with `npm ci` into
#   $REPTEST_STATE/crawlers/node/node_modules;
# Idempotent: the Debian crawlers are only checked when on PATH; pip runs only when a
# venv's stamp does not match the hash of its requirements and the interpreter's
# version; go build and npm ci run only when their stamp does not match the
# hash of their sources and pins and of the toolchain's version.
# Run through the entry point: bash harness/external/setup crawlers
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
state="${REPTEST_STATE:-$repo/harness/external/.state}"
source "$here/../debian.sh"

have_wget() { command -v wget >/dev/null 2>&1; }
have_httrack() { command -v httrack >/dev/null 2>&1; }
have_wget2() { command -v wget2 >/dev/null 2>&1; }
have_robotua() { perl -MLWP::RobotUA -MHTML::LinkExtor -e 1 >/dev/null 2>&1; }
have_linkchecker() { command -v linkchecker >/dev/null 2>&1; }

ensure_debian wget have_wget wget
ensure_debian httrack have_httrack httrack
ensure_debian wget2 have_wget2 wget2
ensure_debian libwww-perl have_robotua libwww-perl
ensure_debian linkchecker have_linkchecker linkchecker
echo "crawlers: $(wget --version | head -n 1); $(httrack --version 2>/dev/null | head -n 1);" \
  "$(wget2 --version | head -n 1)"

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

# The MCP fetch server, Crawlee for Python and trafilatura, each in a venv of its own.
for name in mcp-fetch crawlee trafilatura; do
  step="installing $name-requirements.txt into $state/crawlers/$name-venv"
  ensure_venv "crawlers setup" "$state/crawlers/$name-venv" "$here/$name-requirements.txt"
done

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

# stamp_matches STAMP FILE...: whether STAMP holds the hash of the FILEs and of the
# toolchain line in $toolchain (then the build is up to date); else writes the hash to
# $want and removes STAMP.
stamp_matches() {
  local stamp=$1
  shift
  want="$( { cat "$@"; echo "$toolchain"; } | sha256sum | cut -d' ' -f1 )"
  [ "$want" = "$(cat "$stamp" 2>/dev/null || true)" ] && return 0
  rm -f "$stamp"
  return 1
}

# The npm crawlers, from their lock file.
node_dir="$state/crawlers/node"
step="checking for node and npm"
command -v npm >/dev/null 2>&1 \
  || { echo "crawlers setup: npm is missing (needed for the npm crawlers)" >&2; exit 1; }
toolchain="$(node --version) $(npm --version)"
if stamp_matches "$node_dir/.reptest.sha256" "$here/node/package.json" "$here/node/package-lock.json" \
  && [ -d "$node_dir/node_modules" ]; then
  echo "crawlers setup: npm crawlers up to date ($node_dir)"
else
  step="npm ci the npm crawlers into $node_dir"
  mkdir -p "$node_dir"
  cp "$here/node/package.json" "$here/node/package-lock.json" "$node_dir/"
  (cd "$node_dir" && npm ci --no-audit --no-fund --ignore-scripts)
  echo "$want" > "$node_dir/.reptest.sha256"
fi

#!/usr/bin/env bash
# Installs the real crawlers reptest judges as black boxes on its loopback site
# (harness/site/src/crawl/known.rs): GNU wget and HTTrack, from Debian, as root;
# otherwise says what to install. known.rs names the Debian versions they were verified
# with. Idempotent: when both are on PATH, it only checks.
# Run through the entry point: bash harness/external/setup crawlers
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../debian.sh"

have_wget() { command -v wget >/dev/null 2>&1; }
have_httrack() { command -v httrack >/dev/null 2>&1; }

ensure_debian wget have_wget wget
ensure_debian httrack have_httrack httrack
echo "crawlers: $(wget --version | head -n 1); $(httrack --version 2>/dev/null | head -n 1)"

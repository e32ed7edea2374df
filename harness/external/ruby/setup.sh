#!/usr/bin/env bash
# Installs Ruby and the webrobots gem for the Ruby adapter from Debian (ruby,
# ruby-webrobots), as root; otherwise says what to install. JSON and Base64 come with Ruby.
# Idempotent: when the library loads, it only checks.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
packages=(ruby ruby-webrobots)

library_loads() {
  command -v ruby >/dev/null 2>&1 &&
    ruby -e 'require "webrobots"; require "json"; require "base64"' 2>/dev/null
}

if library_loads; then
  echo "ruby: webrobots already installed"
else
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ruby: ruby or webrobots is missing; install them as root: apt-get install ${packages[*]}" >&2
    exit 1
  fi
  # apt-get update only when the package lists do not know the package yet.
  # (The policy is read whole first: grep -q would cut the pipe, and pipefail would see it.)
  policy="$(apt-cache policy ruby-webrobots 2>/dev/null || true)"
  if ! grep -q 'Candidate: [0-9]' <<<"$policy"; then
    apt-get update
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${packages[@]}"
  library_loads || { echo "ruby: webrobots still does not load" >&2; exit 1; }
fi

hello="$(ruby "$here/adapter.rb" </dev/null | head -n 1)" || true
[ -n "$hello" ] || { echo "ruby: the adapter does not start" >&2; exit 1; }
echo "ruby: $hello"

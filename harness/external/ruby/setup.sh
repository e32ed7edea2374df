#!/usr/bin/env bash
# Installs Ruby and the webrobots gem for the Ruby adapter from Debian (ruby,
# ruby-webrobots), as root; otherwise says what to install. JSON and Base64 come with Ruby.
# Idempotent: when the library loads, it only checks.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../debian.sh"

library_loads() {
  command -v ruby >/dev/null 2>&1 &&
    ruby -e 'require "webrobots"; require "json"; require "base64"' 2>/dev/null
}

ensure_debian ruby library_loads ruby ruby-webrobots
say_hello ruby ruby "$here/adapter.rb"

#!/usr/bin/env bash
# Installs WWW::RobotRules for the Perl adapter from Debian (libwww-robotrules-perl), as
# root; otherwise says what to install. JSON::PP and MIME::Base64 are core Perl.
# Idempotent: when the modules load, it only checks.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
packages=(perl libwww-robotrules-perl)

modules_load() {
  command -v perl >/dev/null 2>&1 &&
    perl -MWWW::RobotRules -MJSON::PP -MMIME::Base64 -e 1 2>/dev/null
}

if modules_load; then
  echo "perl: WWW::RobotRules already installed"
else
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "perl: WWW::RobotRules is missing; install it as root: apt-get install ${packages[*]}" >&2
    exit 1
  fi
  # apt-get update only when the package lists do not know the package yet.
  # (The policy is read whole first: grep -q would cut the pipe, and pipefail would see it.)
  policy="$(apt-cache policy libwww-robotrules-perl 2>/dev/null || true)"
  if ! grep -q 'Candidate: [0-9]' <<<"$policy"; then
    apt-get update
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${packages[@]}"
  modules_load || { echo "perl: WWW::RobotRules still does not load" >&2; exit 1; }
fi

hello="$(perl "$here/adapter.pl" </dev/null | head -n 1)" || true
[ -n "$hello" ] || { echo "perl: the adapter does not start" >&2; exit 1; }
echo "perl: $hello"

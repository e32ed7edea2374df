#!/usr/bin/env bash
# Installs WWW::RobotRules for the Perl adapter from Debian (libwww-robotrules-perl), as
# root; otherwise says what to install. JSON::PP and MIME::Base64 are core Perl.
# Idempotent: when the modules load, it only checks.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../debian.sh"

modules_load() {
  command -v perl >/dev/null 2>&1 &&
    perl -MWWW::RobotRules -MJSON::PP -MMIME::Base64 -e 1 2>/dev/null
}

ensure_debian perl modules_load perl libwww-robotrules-perl
say_hello perl perl "$here/adapter.pl"

#!/usr/bin/env bash
# The commands the GitHub Action (action.yml) runs, in one place: CI (.ci/run) runs the
# example site (docs/examples/site/) through this same script.
#
# Environment: ROBOTS (required: a path or an http(s) URL), EXPECT (an expectations
# file, optional), ALLOW (lint ids to silence, comma-separated, optional), IMPL (other
# parsers, default none), FORMAT (default github), REPTEST (the binary, default reptest).
# Exit status: the first non-zero of the audit and the expectations check.
set -uo pipefail
: "${ROBOTS:?ROBOTS names the robots.txt to check}"
reptest="${REPTEST:-reptest}"
format="${FORMAT:-github}"
impl="${IMPL:-none}"

status=0
"$reptest" policy --audit --robots "$ROBOTS" --format "$format" --impl "$impl" \
  ${ALLOW:+--allow "$ALLOW"} || status=$?
if [ -n "${EXPECT:-}" ]; then
  "$reptest" policy --robots "$ROBOTS" --expect "$EXPECT" --format "$format" --impl "$impl"
  code=$?
  if [ "$status" = 0 ]; then status=$code; fi
fi
exit "$status"

#!/usr/bin/env bash
# Builds the Java adapters (one shaded jar, versions pinned in pom.xml) into
# $REPTEST_STATE/java/reptest-adapters.jar. Idempotent: a jar newer than pom.xml and every
# main source is kept. The first build downloads from Maven Central into ~/.m2; later
# builds need no network.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
state="${REPTEST_STATE:-$here/../.state}"
mkdir -p "$state/java"
state="$(cd "$state" && pwd)"
jar="$state/java/reptest-adapters.jar"

if [ -f "$jar" ] && [ -z "$(find "$here/pom.xml" "$here/src/main" -newer "$jar" -print -quit)" ]; then
  echo "java setup: reptest-adapters.jar is up to date"
  exit 0
fi

if ! command -v mvn >/dev/null 2>&1 || ! command -v javac >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "java setup: installing maven and a JDK (Debian packages)"
    apt-get update -qq && apt-get install -y -qq --no-install-recommends maven default-jdk-headless
  else
    echo "java setup: needs mvn and a JDK 17+ on PATH" >&2
    exit 1
  fi
fi

echo "java setup: building reptest-adapters.jar"
cd "$here"
# (Debian's Maven 3.8 prints stray ESC[0m resets even in batch mode: drop them.)
mvn -q -B -Dstyle.color=never package -DskipTests 2>&1 | sed $'s/\e\\[0m//g'
cp -f target/reptest-adapters.jar "$jar.tmp"
mv -f "$jar.tmp" "$jar"

#!/usr/bin/env bash
# Mutation testing of the reference matcher, with the corpus as its only oracle.
#
#   cargo install cargo-mutants --version 27.1.0 --locked
#   conformance/reference/mutants.sh            # every mutant (see STRENGTH.md for the time)
#   conformance/reference/mutants.sh --list     # list the mutants without testing them
#   conformance/reference/mutants.sh -f src/pattern.rs   # one file
#
# cargo-mutants changes the reference's source one mutant at a time (a `<` made `<=`, a
# function body replaced by a constant...) and runs `cargo test --test integration corpus::`
# (the `corpus` module of tests/integration/: every decided corpus query, under
# Config::rfc9309() and Config::google()). A mutant that the corpus does not catch is
# "missed": either a query is missing, or the mutant is equivalent (it changes no verdict
# on any input) and is listed with its reason in STRENGTH.md. Results land in
# target/mutants/mutants.out/.
#
# JOBS (default 2) mutants are built and tested at once, each in its own copy of the tree.
set -euo pipefail
cd "$(dirname "$0")"
want="27.1.0"
if ! version=$(cargo mutants --version 2>/dev/null); then
    echo "cargo-mutants is not installed: cargo install cargo-mutants --version $want --locked" >&2
    exit 2
fi
case "$version" in
*"$want"*) ;;
*) echo "warning: $version; STRENGTH.md was measured with cargo-mutants $want" >&2 ;;
esac
exec cargo mutants --package reptest-reference --profile mutants --jobs "${JOBS:-2}" --timeout 60 \
    --output ../../target/mutants "$@" -- --test integration corpus::

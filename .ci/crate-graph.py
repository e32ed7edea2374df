#!/usr/bin/env python3
"""The workspace's internal dependency edges, checked against a written list (CI: .ci/run).

Reads `cargo metadata --locked --format-version 1 --no-deps` and takes every dependency
of a workspace member on another workspace member (itself included), of each kind:
`normal` ([dependencies], optional ones too), `dev` ([dev-dependencies]) and `build`
([build-dependencies]); a platform-specific table counts like the plain one. Fails when

1. an edge is not in ALLOWED below: the graph changed, so the list says whether it may
   (add the edge with its reason when it is right);
2. an edge in ALLOWED no longer exists: the list must stay true (remove it).

The graph reads top-down, in layers (normal edges; a crate may use any layer below its
own, never one above; dev edges serve tests only and may point up, as fuzz-gen's tests
tag their inputs with triage's dimensions):

    7  reptest (the CLI and its façade)
    6  reptest-cargo-test ─▶ report
    5  reptest-report ─▶ fuzz-diff, survey, triage, site
    4  reptest-fuzz-diff ─▶ fuzz-gen, triage    reptest-survey ─▶ triage
       reptest-impls ─▶ site
    3  reptest-triage ─▶ core    reptest-site ─▶ core
    2  reptest-core ─▶ reference, corpus
    1  reptest-reference ─▶ corpus (its `corpus` feature)
    0  reptest-corpus    reptest-fuzz-gen (arbitrary only: nothing of the workspace)

In particular the survey knows nothing of the fuzzer, and the generator nothing of the
harness (issue 21, "The crate graph reads top-down"); the report crate renders the
survey's model, and the survey knows nothing of its renderings (issue 21, "Output lives
in the report crate").

Usage: python3 .ci/crate-graph.py [METADATA.json]   (default: runs cargo metadata)
"""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# crate, kind, dependency; then why. One edge a line, bottom layers first.
ALLOWED = """
reptest-reference       normal  reptest-corpus     the optional `corpus` feature: the case model
reptest-reference       dev     reptest-reference  its own tests turn the `corpus` feature on
reptest-reference       dev     reptest-corpus     the corpus test drives the corpus
reptest-core            normal  reptest-corpus     the case model the runner runs
reptest-core            normal  reptest-reference  the path every rule is matched against
reptest-triage          normal  reptest-core       implementations and the runner's evaluate
reptest-triage          normal  reptest-corpus     dimensions, outcome words, the questions
reptest-triage          normal  reptest-reference  the deciding rule's kind, comparison paths
reptest-fuzz-gen        dev     reptest-reference  generated queries often hit a rule
reptest-fuzz-gen        dev     reptest-triage     every dimension is generated
reptest-fuzz-gen        dev     reptest-corpus     the dimensions' names
reptest-fuzz-diff       normal  reptest-core       implementations and the runner
reptest-fuzz-diff       normal  reptest-corpus     findings are corpus cases
reptest-fuzz-diff       normal  reptest-reference  the reference's parse, once per input
reptest-fuzz-diff       normal  reptest-fuzz-gen   the campaign's inputs
reptest-fuzz-diff       normal  reptest-triage     signatures, minimizer, attribution
reptest-site            normal  reptest-core       crawlers are implementations
reptest-site            normal  reptest-corpus     the corpus's fetch scenarios
reptest-impls           normal  reptest-core       the Implementation trait
reptest-impls           normal  reptest-corpus     the case model (eval, fetch outcomes)
reptest-impls           normal  reptest-reference  the reference adapter
reptest-impls           normal  reptest-site       crawlers on the loopback site (`crawlers`)
reptest-survey          normal  reptest-core       every answer goes through the runner
reptest-survey          normal  reptest-corpus     the question catalogue
reptest-survey          normal  reptest-reference  the access method, SurveyFile::fetch
reptest-survey          normal  reptest-triage     attribution and minimization of new groups
reptest-report          normal  reptest-core       runs and scores
reptest-report          normal  reptest-corpus     the case model
reptest-report          normal  reptest-reference  lint warnings of `reptest policy`
reptest-report          normal  reptest-fuzz-diff  the campaign report `reptest fuzz` prints
reptest-report          normal  reptest-triage     why a minimization stopped
reptest-report          normal  reptest-survey     the survey's model, rendered as its pages
reptest-report          normal  reptest-site       the crawlers' reproducers replay the site's scenario
reptest-report          dev     reptest-impls      the reference, for the renderers' tests
reptest-cargo-test      normal  reptest-core       the runner
reptest-cargo-test      normal  reptest-corpus     one test per corpus query
reptest-cargo-test      normal  reptest-report     baselines, judged like `reptest gate`
reptest-example-texting-robots dev reptest-cargo-test  the example's own cargo test
reptest                 normal  reptest-core       the CLI and the façade
reptest                 normal  reptest-corpus     the CLI and the façade
reptest                 normal  reptest-reference  the CLI and the façade
reptest                 normal  reptest-impls      the CLI and the façade
reptest                 normal  reptest-report     the CLI and the façade
reptest                 normal  reptest-triage     the CLI and the façade
reptest                 normal  reptest-fuzz-gen   the CLI and the façade
reptest                 normal  reptest-fuzz-diff  the CLI and the façade
reptest                 normal  reptest-survey     the CLI and the façade
reptest                 dev     reptest-site       the loopback site of the fetch tests
"""

KINDS = ("normal", "dev", "build")


def allowed_edges():
    """{(crate, kind, dependency)} from ALLOWED; fails on a malformed line."""
    edges = set()
    for number, line in enumerate(ALLOWED.strip().splitlines(), 1):
        fields = line.split(maxsplit=3)
        if len(fields) < 4 or fields[1] not in KINDS:
            sys.exit(f"crate-graph.py: ALLOWED line {number} is not "
                     f"'crate kind dependency why' with kind in {KINDS}: {line!r}")
        edge = tuple(fields[:3])
        if edge in edges:
            sys.exit(f"crate-graph.py: ALLOWED lists {edge_text(edge)} twice")
        edges.add(edge)
    return edges


def metadata(argv):
    """The metadata JSON: from the file named on the command line, else from cargo."""
    if len(argv) > 1:
        return json.loads(pathlib.Path(argv[1]).read_text())
    command = ["cargo", "metadata", "--locked", "--format-version", "1", "--no-deps"]
    return json.loads(subprocess.run(command, cwd=ROOT, check=True,
                                     capture_output=True, text=True).stdout)


def actual_edges(meta):
    """{(crate, kind, dependency)} between workspace members."""
    members = set(meta["workspace_members"])
    packages = [p for p in meta["packages"] if p["id"] in members]
    names = {p["name"] for p in packages}
    return {(p["name"], d["kind"] or "normal", d["name"])
            for p in packages for d in p["dependencies"] if d["name"] in names}


def edge_text(edge):
    crate, kind, dependency = edge
    return f"{crate} -> {dependency} ({kind})"


def main(argv):
    allowed, actual = allowed_edges(), actual_edges(metadata(argv))
    unlisted, gone = sorted(actual - allowed), sorted(allowed - actual)
    for edge in unlisted:
        print(f"crate graph: {edge_text(edge)} is not an allowed edge. If the crate "
              "really needs it, add it to ALLOWED in .ci/crate-graph.py with its reason; "
              "otherwise move the code so the graph keeps reading top-down.")
    for edge in gone:
        print(f"crate graph: {edge_text(edge)} is listed in .ci/crate-graph.py but no "
              "longer exists: remove it from ALLOWED.")
    if unlisted or gone:
        return 1
    print(f"crate graph: {len(actual)} internal edges (normal, dev, build), all allowed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

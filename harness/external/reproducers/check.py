#!/usr/bin/env python3
"""Runs every reproducer `reptest report` wrote (DIR/upstream/reproducers.json) against the
pinned libraries and checks that each still shows the behaviour its bug report claims:
it must print `expected: E` and `actual: A` with the report's E and A, and exit 1 (the
answer differs from RFC 9309's). A reproducer that now answers as the RFC says, fails to
run, or prints anything else fails the check: the bug report is stale.

Each runs the way its header tells a maintainer to, against the libraries setup
installed at their pins (harness/external/setup):
- Python: the project venv ($REPTEST_STATE/venv), which holds the pins of
  harness/external/python/requirements.txt; the crawlers' loopback scripts (Python too)
  start wget, wget2 and httrack from Debian, Scrapy, the MCP fetch server, Crawlee
  for Python and trafilatura from their own venvs and the npm crawlers from theirs;
- JavaScript: node with NODE_PATH=harness/external/node/node_modules (package-lock.json);
- Go: a fresh module per reproducer, made by the report's own install line
  (`go mod init repro && go get MODULE@VERSION`), then `go run`;
- Java: java's single-file launcher with the pinned artifacts of
  harness/external/java/pom.xml and their dependencies on the class path;
- Perl and Ruby: the system interpreters with Debian's packages;
- Rust: one Cargo project (in $REPTEST_STATE/reproducers-rust) made by the reports'
  install lines (`cargo add CRATE@=VERSION`), each reproducer a binary of it.

Usage: python3 check.py [--require-all] [--only LANGUAGE] UPSTREAM_DIR
Exit: 0 every reproducer checked showed its behaviour; 1 one did not, or (with
--require-all) a language's toolchain is missing; 2 usage errors.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
EXTERNAL = HERE.parent
STATE = Path(os.environ.get("REPTEST_STATE", EXTERNAL / ".state"))
TIMEOUT = 120  # seconds per reproducer run
BUILD_TIMEOUT = 1200  # seconds for the one Rust build


class Skip(Exception):
    """The language's toolchain or pinned libraries are not installed here."""


# The hash seeds reptest starts adapters with (reptest_core::environment::PROCESS_SEEDS);
# the reproducers' run lines set them too.
SEEDS = {"PYTHONHASHSEED": "0", "PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0"}


def run(cmd, cwd=None, env=None, timeout=TIMEOUT):
    env = dict(env or os.environ, **SEEDS)
    return subprocess.run(
        cmd, cwd=cwd, env=env, timeout=timeout, capture_output=True, text=True,
        errors="replace", stdin=subprocess.DEVNULL,
    )


def need(path_or_cmd: str) -> str:
    found = shutil.which(path_or_cmd) if os.sep not in path_or_cmd else (
        path_or_cmd if Path(path_or_cmd).exists() else None)
    if not found:
        raise Skip(f"{path_or_cmd} is not installed (bash harness/external/setup)")
    return found


def python_cmd(entry, file: Path, _work: Path):
    # The crawlers' scripts start the crawler by name: Scrapy, the MCP fetch server,
    # Crawlee for Python and trafilatura (`python3` runs the driver scripts) from their
    # own venvs, the npm crawlers with NODE_PATH their pinned node_modules (as their run
    # line says).
    # A driver may import its crawler (trafilatura's, Crawlee's), so the crawler's own venv
    # (the one its implementation's name names) comes first on PATH, then the others.
    crawlers = STATE / "crawlers"
    names = ["crawlee", "mcp-fetch", "scrapy", "trafilatura"]
    names.sort(key=lambda name: name not in entry.get("implementation", ""))
    venvs = [crawlers / f"{name}-venv" / "bin" for name in names]
    path = os.pathsep.join([*map(str, venvs), os.environ.get("PATH", "")])
    env = dict(os.environ, PATH=path, NODE_PATH=str(crawlers / "node" / "node_modules"))
    return [need(str(STATE / "venv" / "bin" / "python")), str(file)], None, env


def node_cmd(entry, file: Path, _work: Path):
    modules = EXTERNAL / "node" / "node_modules"
    if not modules.is_dir():
        raise Skip(f"{modules} is missing (bash harness/external/setup node)")
    env = dict(os.environ, NODE_PATH=str(modules))
    return [need("node"), str(file)], None, env


_CLASSPATH: list[str] = []


def java_classpath() -> str:
    """The class path of the pinned artifacts of harness/external/java/pom.xml and their
    dependencies (Maven's dependency:build-classpath; setup fetched them already)."""
    if not _CLASSPATH:
        mvn = need("mvn")
        out = Path(tempfile.mkdtemp(prefix="reptest-classpath-")) / "classpath.txt"
        result = run([mvn, "-q", "-B", "-ntp", "-f", str(EXTERNAL / "java" / "pom.xml"),
                      "dependency:build-classpath", f"-Dmdep.outputFile={out}",
                      "-Dmdep.includeScope=runtime"], timeout=BUILD_TIMEOUT)
        if result.returncode != 0 or not out.exists():
            raise RuntimeError(f"mvn dependency:build-classpath failed: {result.stdout[-600:]}")
        _CLASSPATH.append(out.read_text().strip())
    return _CLASSPATH[0]


def java_cmd(entry, file: Path, _work: Path):
    return [need("java"), "-cp", java_classpath(), str(file)], file.parent, None


def perl_cmd(entry, file: Path, _work: Path):
    return [need("perl"), str(file)], file.parent, None


def ruby_cmd(entry, file: Path, _work: Path):
    return [need("ruby"), str(file)], None, None


def go_cmd(entry, file: Path, work: Path):
    go = need("go")
    module = work / f"go-{file.parent.name}-{file.stem}"
    module.mkdir(parents=True, exist_ok=True)
    shutil.copy(file, module / "main.go")
    if entry.get("body_file"):
        shutil.copy(file.parent / Path(entry["body_file"]).name, module)
    install = entry["install"]
    steps = [s.strip() for s in install.split("&&")]
    for step in steps:
        words = step.split()
        if words[:1] != ["go"]:
            raise RuntimeError(f"unexpected install step {step!r}")
        result = run([go, *words[1:]], cwd=module)
        if result.returncode != 0:
            raise RuntimeError(f"`{step}` failed: {result.stderr.strip()[-400:]}")
    return [go, "run", "."], module, None


def rust_project(entries, upstream: Path) -> Path:
    """One Cargo project holding every Rust reproducer as a binary, its dependencies
    added by the reports' install lines; built once."""
    cargo = need("cargo")
    project = STATE / "reproducers-rust"
    if project.exists():
        shutil.rmtree(project)
    project.mkdir(parents=True)
    # Written by hand rather than by `cargo init`, which would enrol it in reptest's own
    # workspace when the state folder is inside the checkout: `[workspace]` makes it a
    # workspace of its own.
    (project / "Cargo.toml").write_text(
        '[package]\nname = "reproducers"\nversion = "0.0.0"\nedition = "2021"\n'
        'publish = false\n\n[workspace]\n\n[dependencies]\n')
    (project / "src").mkdir()
    bins = project / "src" / "bin"
    bins.mkdir(parents=True)
    for e in entries:
        folder = bins / binary_name(e)
        folder.mkdir()
        shutil.copy(upstream / e["file"], folder / "main.rs")
        if e.get("body_file"):
            shutil.copy(upstream / e["body_file"], folder)
    adds = sorted({w for e in entries for w in cargo_adds(e["install"])})
    result = run([cargo, "add", "--quiet", *adds], cwd=project, timeout=BUILD_TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError(f"cargo add {' '.join(adds)} failed: {result.stderr.strip()[-600:]}")
    env = dict(os.environ, CARGO_TARGET_DIR=str(STATE / "reproducers-rust-target"))
    started = time.monotonic()
    result = run([cargo, "build", "--quiet", "--bins"], cwd=project, env=env, timeout=BUILD_TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError(f"cargo build failed: {result.stderr.strip()[-1500:]}")
    print(f"  rust: built {len(entries)} reproducers in {time.monotonic() - started:.0f} s")
    return STATE / "reproducers-rust-target" / "debug"


def cargo_adds(install: str) -> list[str]:
    """The crates of the `cargo add ...` step of an install line."""
    for step in install.split("&&"):
        words = step.split()
        if words[:2] == ["cargo", "add"]:
            return words[2:]
    raise RuntimeError(f"no `cargo add` in the install line {install!r}")


def binary_name(entry) -> str:
    stem = f"{entry['implementation']}-{entry['question']}".lower()
    return re.sub(r"[^a-z0-9_]", "_", stem)


def check_output(entry, result) -> str | None:
    """Why the run does not show the claimed behaviour, or None when it does."""
    lines = dict(
        (k.strip(), v.strip())
        for k, _, v in (line.partition(":") for line in result.stdout.splitlines())
        if k.strip() in ("expected", "actual")
    )
    if lines.get("expected") != entry["expected"]:
        return f"printed expected {lines.get('expected')!r}, not {entry['expected']!r}"
    if lines.get("actual") != entry["actual"]:
        return (f"now answers {lines.get('actual')!r}, the report claims "
                f"{entry['actual']!r}{tail(result)}")
    if result.returncode != 1:
        return f"exit status {result.returncode}, not 1{tail(result)}"
    return None


def tail(result) -> str:
    """What the reproducer printed besides its answer (a crawler's reproducer lists the
    requests it saw), so a failure in CI can be told apart from a stale report."""
    err = result.stderr.strip()
    if err:
        return f" (stderr: {err[-400:]})"
    out = [line for line in result.stdout.splitlines()
           if line.split(":", 1)[0].strip() not in ("expected", "actual")]
    return f" (printed: {' | '.join(out)[-400:]})" if out else ""


COMMANDS = {
    "python": python_cmd, "javascript": node_cmd, "java": java_cmd,
    "perl": perl_cmd, "ruby": ruby_cmd, "go": go_cmd,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("upstream", type=Path, help="the upstream/ folder of a report")
    parser.add_argument("--require-all", action="store_true",
                        help="a missing toolchain fails the check (CI)")
    parser.add_argument("--only", help="only this language (python, javascript, go, ...)")
    parser.add_argument("--impl", help="only the reproducers of implementations whose name starts so")
    args = parser.parse_args()
    manifest = args.upstream / "reproducers.json"
    try:
        entries = json.loads(manifest.read_text())
    except (OSError, ValueError) as e:
        print(f"check.py: cannot read {manifest}: {e}", file=sys.stderr)
        return 2
    if args.only:
        entries = [e for e in entries if e["language"] == args.only]
    if args.impl:
        entries = [e for e in entries if e["implementation"].startswith(args.impl)]
    results: dict[str, list[tuple[dict, str | None]]] = {}
    skipped: dict[str, str] = {}
    work = Path(tempfile.mkdtemp(prefix="reptest-reproducers-"))
    try:
        # The one Rust build (minutes, cold) runs beside the other languages' runs.
        rust = [e for e in entries if e["language"] == "rust"]
        build: dict = {}

        def build_rust():
            try:
                build["dir"] = rust_project(rust, args.upstream)
            except Skip as s:
                build["skip"] = str(s)
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                build["error"] = str(e)

        builder = threading.Thread(target=build_rust) if rust else None
        if builder:
            builder.start()
        ordered = [e for e in entries if e["language"] != "rust"] + rust
        rust_dir = None
        for entry in ordered:
            language = entry["language"]
            if language == "rust" and builder is not None:
                builder.join()
                builder = None
                if "skip" in build:
                    skipped["rust"] = build["skip"]
                if "error" in build:
                    print(f"  rust: the reproducers' project did not build: {build['error']}")
                    for e in rust:
                        results.setdefault("rust", []).append((e, "not built (see above)"))
                rust_dir = build.get("dir")
            if language in skipped or (language == "rust" and rust_dir is None):
                continue
            file = (args.upstream / entry["file"]).resolve()
            try:
                if language == "rust":
                    cmd, cwd, env = [str(rust_dir / binary_name(entry))], None, None
                else:
                    cmd, cwd, env = COMMANDS[language](entry, file, work)
                why = check_output(entry, run(cmd, cwd=cwd, env=env))
            except Skip as s:
                skipped[language] = str(s)
                continue
            except subprocess.TimeoutExpired:
                why = f"no answer within {TIMEOUT} s"
            except (RuntimeError, OSError, KeyError) as e:
                why = f"cannot run: {e}"
            results.setdefault(language, []).append((entry, why))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summarize(results, skipped, args.require_all)


def summarize(results, skipped, require_all: bool) -> int:
    failed = 0
    for language, items in sorted(results.items()):
        bad = [(e, why) for e, why in items if why]
        failed += len(bad)
        libraries = sorted({e["implementation"] for e, _ in items})
        print(f"{language:11} {len(items) - len(bad):3} of {len(items):3} show their "
              f"behaviour  ({', '.join(libraries)})")
        for e, why in bad:
            print(f"  FAILED {e['file']}: {why}")
    for language, why in sorted(skipped.items()):
        print(f"{language:11} not checked: {why}")
    total = sum(len(v) for v in results.values())
    print(f"check.py: {total - failed} of {total} reproducers show the behaviour their "
          f"report claims; {failed} do not; {len(skipped)} language(s) not checked")
    return 1 if failed or (require_all and skipped) else 0


if __name__ == "__main__":
    sys.exit(main())

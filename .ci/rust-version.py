#!/usr/bin/env python3
"""The declared minimum Rust version, checked without that toolchain (CI: .ci/run).

Reads `rust-version` from [workspace.package] in the root Cargo.toml and fails when:

1. a workspace member declares no rust-version or another one (each should inherit the
   workspace's with `rust-version.workspace = true`);
2. a package the locked build uses (any feature, dev and build dependencies included,
   Linux x86_64 only) declares a rust-version newer than ours: cargo on that toolchain
   would refuse to build it, so the lock file would have to pin an older version;
3. something turns clippy's `incompatible_msrv` lint off or lowers the version it
   checks against (`allow` or `expect(clippy::incompatible_msrv)` in a source file, a
   level for it in a Cargo.toml's [lints], an `msrv` key in a clippy.toml): that lint,
   denied by the clippy steps, is the check of our own code.

What this proves and what it does not is said in .ci/run, beside the step.
"""

import json
import pathlib
import re
import subprocess
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGET = "x86_64-unknown-linux-gnu"


def version_key(text):
    """(major, minor, patch) of a rust-version such as "1.90" or "1.85.1"."""
    parts = [int(part) for part in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def declared_version():
    with open(ROOT / "Cargo.toml", "rb") as manifest:
        workspace = tomllib.load(manifest)["workspace"]
    return workspace["package"]["rust-version"]


def locked_metadata():
    command = ["cargo", "metadata", "--locked", "--format-version", "1",
               "--all-features", "--filter-platform", TARGET]
    return json.loads(subprocess.run(command, cwd=ROOT, check=True,
                                     capture_output=True, text=True).stdout)


def member_problems(metadata, declared):
    members = set(metadata["workspace_members"])
    return [f"workspace member {package['name']} declares rust-version "
            f"{package['rust_version']!r}, the workspace {declared!r}"
            for package in metadata["packages"]
            if package["id"] in members and package["rust_version"] != declared]


def dependency_problems(metadata, declared):
    used = {node["id"] for node in metadata["resolve"]["nodes"]}
    limit = version_key(declared)
    return [f"{package['name']} {package['version']} needs Rust "
            f"{package['rust_version']}, newer than our {declared}"
            for package in metadata["packages"]
            if package["id"] in used and package["rust_version"]
            and version_key(package["rust_version"]) > limit]


def lint_escapes():
    """Places that would silence or retarget clippy's incompatible_msrv lint."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                             capture_output=True).stdout.decode().split("\0")
    problems = []
    for name in tracked:
        path = ROOT / name
        if name.endswith(".rs") and path.is_file():
            if re.search(r"(allow|expect)\s*\([^)]*incompatible_msrv",
                         path.read_text(errors="replace")):
                problems.append(f"{name} allows clippy::incompatible_msrv")
        elif path.name == "Cargo.toml" and path.is_file():
            if re.search(r"incompatible_msrv\s*=", path.read_text()):
                problems.append(f"{name} sets the level of clippy::incompatible_msrv")
        elif path.name in ("clippy.toml", ".clippy.toml") and path.is_file():
            if re.search(r"^\s*msrv\s*=", path.read_text(), re.MULTILINE):
                problems.append(f"{name} sets msrv (clippy must read rust-version)")
    return problems


def main():
    declared = declared_version()
    metadata = locked_metadata()
    problems = (member_problems(metadata, declared)
                + dependency_problems(metadata, declared) + lint_escapes())
    for problem in problems:
        print(f"rust-version: {problem}", file=sys.stderr)
    if problems:
        return 1
    used = {node["id"] for node in metadata["resolve"]["nodes"]}
    unknown = sum(1 for package in metadata["packages"]
                  if package["id"] in used and not package["rust_version"])
    print(f"rust-version {declared}: {len(metadata['workspace_members'])} workspace "
          f"members declare it; {len(used)} locked packages, none newer "
          f"({unknown} declare none)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Two rules every library of the workspace keeps (issue 21, "Errors and configuration").

1. No library reads the environment: only the command line (harness/cli/src) calls
   std::env::var / var_os / vars / vars_os (PATH, REPTEST_STATE, REPTEST_ADAPTERS and
   REPTEST_PROTOCOL included) and hands the values down (reptest_core::Environment).
2. No public library function returns Result<_, String>: errors are typed.

A library file is a .rs file under conformance/, harness/ or fuzz/ that is not test,
bench or example code (tests/, benches/, examples/, a `#[cfg(test)] mod`), not a
build script (build.rs), not a binary (src/main.rs, src/bin/) and not
under harness/cli/src (the command line) or fuzz/targets (the cargo-fuzz binaries).

One read may be allowed where it is the entry point of a program, with a comment
`library-rules: allow env (why)` on its line or the line before it: today only
reptest-cargo-test's `Suite::run`, the `main` of a user's test binary.

Exits 1 listing every violation as `file:line: what`; 0 when there is none.
Usage: python3 .ci/library-rules.py [ROOT]
"""

import re
import sys
from pathlib import Path

ROOTS = ("conformance", "harness", "fuzz")
EXCLUDED_DIRS = {"tests", "benches", "examples", "target", "bin", "node_modules"}
EXCLUDED_PREFIXES = ("harness/cli/src/", "fuzz/targets/", "harness/external/")
ALLOW = "library-rules: allow env"

ENV_READ = re.compile(r"\benv::(?:var|var_os|vars|vars_os)\b")
PUB_FN = re.compile(r"\bpub\s+(?:const\s+|async\s+|unsafe\s+)*fn\s+(\w+)")
PUB_TYPE = re.compile(r"\bpub\s+type\s+(\w+)[^=;]*=\s*([^;]*);")
TEST_MODULE = re.compile(r"^\s*#\[cfg\(test\)\]\s*\n\s*(?:pub(?:\([^)]*\))?\s+)?mod\s", re.M)


def library_files(root):
    for top in ROOTS:
        for path in sorted((root / top).rglob("*.rs")):
            relative = path.relative_to(root).as_posix()
            parts = set(path.relative_to(root).parts[:-1])
            if parts & EXCLUDED_DIRS or relative.startswith(EXCLUDED_PREFIXES):
                continue
            if path.name == "build.rs" or relative.endswith("/src/main.rs"):
                continue
            yield relative, path


def block_end(text, i):
    """The offset after the `}` closing the block whose `{` is at `i`, skipping strings,
    raw strings, character literals and comments."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.find("*/", i + 2)
            i = n if i < 0 else i + 2
            continue
        elif (raw := re.match(r'b?r(#*)"', text[i : i + 260])) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            close = '"' + raw.group(1)
            i = text.find(close, i + raw.end())
            i = n if i < 0 else i + len(close)
            continue
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "'" and (char := re.match(r"'(?:\\.[^']*|[^\\'])'", text[i : i + 12])):
            i += char.end()
            continue
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def without_tests(text):
    """The text with every `#[cfg(test)] mod` blanked out (its lines kept, empty)."""
    while match := TEST_MODULE.search(text):
        opening = text.find("{", match.end())
        if opening < 0:
            break
        end = block_end(text, opening)
        blanked = "\n" * text.count("\n", match.start(), end)
        text = text[: match.start()] + blanked + text[end:]
    return text


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def split_top_level(generics):
    """`A, B<C, D>` -> ["A", "B<C, D>"]: the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(generics):
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(generics[start:i].strip())
            start = i + 1
    parts.append(generics[start:].strip())
    return parts


def is_string_result(return_type):
    """Whether a return type is `Result<T, String>` (any path to Result or String)."""
    kind = re.sub(r"\s+", "", return_type)
    match = re.fullmatch(r"(?:[\w:]*::)?Result<(.*)>", kind)
    if not match:
        return False
    arguments = split_top_level(match.group(1))
    return len(arguments) == 2 and re.fullmatch(r"(?:[\w:]*::)?String", arguments[1]) is not None


def return_type(text, after):
    """The return type of the signature starting at `after`, or None."""
    depth, i = 0, after
    while i < len(text):
        c = text[i]
        if c in "(<[":
            depth += 1
        elif c in ")>]" and not (c == ">" and text[i - 1] == "-"):
            depth -= 1
        elif depth == 0 and (c in "{;" or text.startswith("where", i)):
            break
        i += 1
    signature = text[after:i]
    arrow = signature.find("->")
    return signature[arrow + 2 :].strip() if arrow >= 0 else None


def violations(root):
    found = []
    for relative, path in library_files(root):
        text = without_tests(path.read_text(encoding="utf-8"))
        lines = text.split("\n")
        for match in ENV_READ.finditer(text):
            number = line_of(text, match.start())
            here = lines[number - 1]
            before = lines[number - 2] if number > 1 else ""
            if ALLOW in here or ALLOW in before or here.lstrip().startswith("//"):
                continue
            found.append(f"{relative}:{number}: reads the environment ({match.group(0)}): take the value as a parameter (reptest_core::Environment); only the command line reads it")
        for match in PUB_FN.finditer(text):
            returned = return_type(text, match.end())
            if returned and is_string_result(returned):
                number = line_of(text, match.start())
                returned = " ".join(returned.split())
                found.append(f"{relative}:{number}: pub fn {match.group(1)} returns {returned}: give it a typed error")
        for match in PUB_TYPE.finditer(text):
            if is_string_result(match.group(2)):
                number = line_of(text, match.start())
                found.append(f"{relative}:{number}: pub type {match.group(1)} is a Result<_, String>: give it a typed error")
    return found


def main():
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    found = violations(root)
    for violation in found:
        print(violation)
    if found:
        print(f"{len(found)} violation(s) of the library rules (.ci/library-rules.py)")
        return 1
    print("library rules: no library reads the environment or returns Result<_, String>")
    return 0


if __name__ == "__main__":
    sys.exit(main())

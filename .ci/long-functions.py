#!/usr/bin/env python3
"""Every Rust function outside tests fits a reader's screen: none is over the limit.

Finds each `fn` with a body in the workspace's tracked `.rs` files, except files under a
`tests/` folder and items marked `#[cfg(test)]` (the unit-test modules), counts its lines
from the `fn` line to its closing brace, prints the longest ones, and exits 1 when any is
over the limit (issue 21, "Functions a reader can hold": 120 lines).

The braces are matched on the source with its comments, strings (plain, byte, raw) and
character literals blanked out, so a `{` in a string or a comment counts for nothing.
A lifetime (`'a`) is told from a character literal (`'a'`) by its missing closing quote.

Usage: long-functions.py [--limit N] [--top N] [FILE...]
(no files: every tracked .rs file; a fn inside another fn is listed on its own too).
"""

import argparse
import re
import subprocess
import sys

LIMIT = 120
IDENT = re.compile(r"[A-Za-z0-9_]")


def blank(text):
    """The text with comments, strings and char literals replaced by spaces.

    Newlines stay where they were, so line numbers and lengths are unchanged.
    """
    out = []
    i, n = 0, len(text)

    def keep_lines(chunk):
        out.append("".join(c if c == "\n" else " " for c in chunk))

    while i < n:
        c = text[i]
        two = text[i : i + 2]
        if two == "//":
            end = text.find("\n", i)
            end = n if end < 0 else end
            keep_lines(text[i:end])
            i = end
        elif two == "/*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            keep_lines(text[i:j])
            i = j
        elif c == "r" and (i == 0 or not IDENT.match(text[i - 1]) or text[i - 1] in "bc") and (
            m := re.match(r'r(#*)"', text[i:])
        ):
            close = '"' + m.group(1)
            end = text.find(close, i + len(m.group(0)))
            end = n if end < 0 else end + len(close)
            keep_lines(text[i:end])
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            keep_lines(text[i : j + 1])
            i = j + 1
        elif c == "'":
            if text.startswith("\\", i + 1):
                end = text.find("'", i + 3)  # '\'' and '\\' : the quote after the escape
                keep_lines(text[i : end + 1])
                i = end + 1
            elif i + 2 < n and text[i + 2] == "'":
                keep_lines(text[i : i + 3])
                i += 3
            else:  # a lifetime or a label
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def block_end(code, open_at):
    """The index just past the `}` that closes the `{` at `open_at`."""
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == "{":
            depth += 1
        elif code[j] == "}":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


def body_start(code, at):
    """The `{` opening the item whose header starts at `at`, or None for `fn f();`.

    A `;` or `{` inside (), [] or <> belongs to the header (`[u8; 4]`, `Foo<{ N }>`).
    """
    depth = 0
    for j in range(at, len(code)):
        c = code[j]
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "<" and not code.startswith("<=", j):
            depth += 1
        elif c == ">" and code[j - 1] not in "-=" and depth > 0:
            depth -= 1
        elif depth == 0 and c == ";":
            return None
        elif depth == 0 and c == "{":
            return j
    return None


CFG_TEST = re.compile(r"#\[cfg\(test\)\]")
FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def test_spans(code):
    """The (start, end) spans of the items marked `#[cfg(test)]`."""
    spans = []
    for m in CFG_TEST.finditer(code):
        opening = body_start(code, m.end())
        if opening is not None:
            spans.append((m.start(), block_end(code, opening)))
    return spans


def functions(path):
    """(lines, line number, name) of each fn with a body outside the test items."""
    with open(path, encoding="utf-8") as f:
        code = blank(f.read())
    skip = test_spans(code)
    found = []
    for m in FN.finditer(code):
        if any(start <= m.start() < end for start, end in skip):
            continue
        opening = body_start(code, m.end())
        if opening is None:
            continue
        end = block_end(code, opening)
        first = code.count("\n", 0, m.start()) + 1
        last = code.count("\n", 0, end - 1) + 1
        found.append((last - first + 1, first, m.group(1)))
    return found


def tracked_sources():
    """The tracked .rs files outside `tests/` folders."""
    files = subprocess.run(
        ["git", "ls-files", "*.rs"], capture_output=True, text=True, check=True
    ).stdout.split()
    return [f for f in files if "tests" not in f.split("/")[:-1]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=LIMIT)
    parser.add_argument("--top", type=int, default=15, help="how many of the longest to print")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    rows = [
        (lines, f"{path}:{line}", name)
        for path in (args.files or tracked_sources())
        for lines, line, name in functions(path)
    ]
    rows.sort(key=lambda r: (-r[0], r[1]))
    print(f"{len(rows)} functions outside tests; the longest (limit {args.limit} lines):")
    for lines, where, name in rows[: args.top]:
        mark = "  OVER" if lines > args.limit else ""
        print(f"{lines:5}  {name}  {where}{mark}")
    over = [r for r in rows if r[0] > args.limit]
    if over:
        print(f"{len(over)} function(s) over {args.limit} lines: split them.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

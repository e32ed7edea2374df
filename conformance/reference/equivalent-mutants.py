#!/usr/bin/env python3
"""The reference's surviving mutants, each with the reason it is equivalent.

    conformance/reference/mutants.sh                 # writes target/mutants/mutants.out/
    conformance/reference/equivalent-mutants.py      # explains every missed mutant
    conformance/reference/equivalent-mutants.py PATH/missed.txt --markdown

Every mutant that `cargo mutants` reports as missed must match one rule below (file,
function and mutation, never a line number, so the rules survive edits); the rule says
why no corpus query can catch it. A missed mutant that matches no rule is a gap in the
corpus (or an equivalence nobody has argued yet): the script lists it and exits 1.
With --markdown it prints the table that conformance/reference/STRENGTH.md holds.
"""
import re
import sys
from pathlib import Path

# (class, reason): the classes of equivalence, by what the mutant can change.
CLASSES = {
    "fast-path": "A test for a shortcut (input already in normal form, a prefilter, which of "
    "two searchers) that now answers `false` more often, or picks the other of two "
    "implementations of one function; the slow path gives the same result. "
    "`encode::tests::short_and_long_inputs_are_classified_alike` checks over every input "
    "of its alphabet that a plain input normalizes to itself and that the short and long "
    "classifiers agree.",
    "disjoint-bits": "`|` and `^` (or `&` and a mask) on operands that share no bit: "
    "the same value.",
    "capacity": "Only how much memory is reserved or released (`with_capacity`, "
    "`reserve`, `shrink_to_fit`), never a value.",
    "hash": "A hash only picks a bucket: every lookup then compares the needle itself, so "
    "a constant or weaker hash changes speed only.",
    "diagnostic": "Only what is reported beside the verdict (the deciding line, the group "
    "lines, the rule's text, warnings and their wording), never allowed or disallowed; "
    "the corpus states verdicts. Unit tests in the same file check these.",
    "redundant-guard": "A check whose other branch reaches the same result: the callee "
    "guards the same condition again, or the arm's input takes the same path without it.",
    "identity": "The mutant returns what the code already returns.",
    "choice": "Changes only a verdict RFC 9309 leaves to the implementation (the query is "
    "`either`, its sentence quoted in the case): no decided query can tell, and the "
    "mutant still conforms. `every_conforming_choice_keeps_the_decided_verdicts` checks "
    "that such choices never move a decided verdict.",
    "outside-domain": "Differs only on a query URL that is neither an absolute URL nor a "
    "path (`a/b:c`), which no crawler fetches and no case asks about.",
    "api": "A public function beside the verdict path (used by the harness, the fuzzers or "
    "callers): its doc tests and unit tests check it; the corpus cannot reach it.",
}

# (file, function, mutation regex, class, note)
RULES = [
    ("access.rs", "rules_in_force", r"delete match arm 500..= 599", "diagnostic",
     "a 5xx then reaches the catch-all arm, which disallows as well; only the reason "
     "(Unreachable, UnexpectedStatus) differs"),
    ("access.rs", "rules_in_force", r"match guard config.too_many_requests_unreachable with true",
     "choice", "429 under RFC 9309: §2.3.1.3 MAY (`access-429` is `either`)"),
    ("config.rs", "Config::rfc9309", r"with Default::default\(\)", "identity",
     "`rfc9309()` is `Config::default()`"),
    ("encode.rs", "is_plain", r"replace is_plain -> bool with false", "fast-path", ""),
    ("encode.rs", "is_plain", r"replace <= with >", "fast-path",
     "short inputs take the vectorized classifier, long ones the table"),
    ("encode.rs", "is_plain", r"replace (!=|&) with (==|\||\^)", "fast-path",
     "every such test now rejects more octets"),
    ("encode.rs", "is_plain", r"replace \| with \^", "disjoint-bits", ""),
    ("encode.rs", "is_plain", r"replace \|\| with &&", "fast-path", ""),
    ("encode.rs", "is_plain", r"replace \+ with [-*]", "fast-path",
     "the searched slice then starts at the `?` (or the octet before it), which is found: "
     "`false`"),
    ("encode.rs", "pattern_body", r"replace <= with >", "fast-path",
     "short patterns take the vectorized split, long ones the one-pass loop"),
    ("encode.rs", "pattern_body", r"replace (&|\|\|) with (\||\^|&&)", "fast-path",
     "the plainness test answers `false`, or defers to `is_plain`"),
    ("encode.rs", "pattern_body", r"replace \| with \^", "disjoint-bits", ""),
    ("encode.rs", "split", r"replace != with ==", "choice",
     "what follows a `$` before the end of a pattern: `Q-DOLLAR-MID`, §2.2.3 says nothing "
     "(`either`)"),
    ("encode.rs", "path_is_plain", r"with false", "fast-path", ""),
    ("encode.rs", "normalize", r"replace \+ with \*", "capacity", "`out.reserve`"),
    ("encode.rs", "normalize", r"replace \| with \^", "disjoint-bits", ""),
    ("group.rs", "is_product_token", r".", "diagnostic",
     "decides only the `UserAgentNotToken` warning"),
    ("group.rs", "Groups::with_capacity", r".", "capacity", ""),
    ("group.rs", "Groups::finish", r".", "capacity", "`shrink_to_fit` only"),
    ("group.rs", "Groups::is_empty", r"with false", "redundant-guard",
     "a rule before any user-agent line then reaches `add_rule`, which ignores a rule "
     "without a group"),
    ("group.rs", "Groups::lines", r".", "diagnostic", "the lines of the applied groups"),
    ("group.rs", "lossy", r".", "diagnostic", "the deciding rule's text"),
    ("syntax.rs", "<impl Iterator for Lines<'a>>::next", r"replace (\+= with \*=|== with !=|\+ with \*)",
     "diagnostic", "line numbers, or CRLF read as CR then an empty line (which changes "
     "nothing: blank lines neither start nor end a group, §2.1)"),
    ("syntax.rs", "Key::name", r".", "diagnostic", "the record named in a warning"),
    ("syntax.rs", "is_user_space_agent", r"(match guard key.len\(\) > 9 with true|replace > with >=)",
     "identity", "a key of 9 octets that fits `user…agent` is `useragent`, which the "
     "typo list accepts anyway"),
    ("syntax.rs", "has_control", r"replace \| with \^", "disjoint-bits",
     "an octet below 0x20 is never 0x7F (the `found |` fold is caught)"),
    ("syntax.rs", "read", r"(replace != with ==|replace \|\| with &&|delete !)",
     "choice", "how the missing-colon leniency (§2.2.4 MAY) reads `Disallow /a:b`; "
     "Google reads such a key by its prefix, a departure `Config::google()` does not model"),
    ("pattern.rs", "Lead::of", r".", "fast-path", "the prefilter then lets every path through"),
    ("pattern.rs", "Pattern::may_match", r"with true", "fast-path",
     "the prefilter then lets every path through"),
    ("pattern.rs", "<impl Hasher for Fnv>::finish", r".", "hash", ""),
    ("pattern.rs", "<impl Hasher for Fnv>::write", r".", "hash", ""),
    ("pattern.rs", "fnv", r".", "hash", ""),
    ("pattern.rs", "Store::with_capacity", r".", "capacity", ""),
    ("pattern.rs", "Store::finish", r".", "capacity", "`shrink_to_fit` only"),
    ("pattern.rs", "Store::needle", r"replace <= with >", "fast-path",
     "short needles then get a prebuilt finder and long ones the memchr search: both find "
     "the same occurrence"),
    ("pattern.rs", "Store::finder", r"replace <= with >", "fast-path",
     "the finder cache is then indexed by hash from the start"),
    ("pattern.rs", "Store::finder", r"delete !", "fast-path",
     "the hash index then starts with one entry and misses earlier needles, which get a "
     "second finder for the same octets"),
    ("robots.rs", "build", r"replace && with \|\|", "diagnostic",
     "decides only whether the `NotUtf8` warning is looked for"),
    ("robots.rs", "build", r"replace > with >=", "diagnostic",
     "a line exactly as long as the limit gets a `LineTooLong` warning, cut to itself"),
    ("robots.rs", "build", r"(replace != with ==|replace && with \|\||delete !)", "diagnostic",
     "decides only the `UserAgentNotToken` warning"),
    ("url.rs", "target_path", r".", "api", ""),
    ("url.rs", "origin", r".", "api", ""),
    ("url.rs", "path_and_query", r"delete match arm Some\(b'/'\)", "redundant-guard",
     "`scheme_end` returns `None` for a URL that starts with `/`"),
    ("url.rs", "scheme_end", r"match guard .* with true", "outside-domain", ""),
    ("verdict.rs", "Verdict::line", r".", "diagnostic", ""),
    ("warning.rs", "<impl fmt::Display for WarningKind>::fmt", r".", "diagnostic", ""),
    ("warning.rs", "<impl fmt::Display for Warning>::fmt", r".", "diagnostic", ""),
    ("warning.rs", "Sink<'w>::enabled", r"with true", "capacity",
     "a disabled sink then evaluates a check whose warning it drops"),
    ("warning.rs", "Sink<'w>::enabled", r"with false", "diagnostic",
     "it guards only the costly `NotUtf8` check; `warn` itself still reports"),
    ("pattern.rs", "Store::finder", r"replace == with !=", "hash",
     "the equality check after a hash lookup: without it a repeated needle gets a second "
     "finder for the same octets; it would matter only for two needles of one file with "
     "one 64-bit FNV-1a hash, which no case has"),
    ("url.rs", "remove_dot_segments", r"replace && with \|\|", "fast-path",
     "the prefilter for `/.` then lets more paths through to the exact test"),
    ("url.rs", "remove_dot_segments", r"replace > with >=", "redundant-guard",
     "a `.` at offset 0: a comparison path always starts with `/`"),
    ("url.rs", "remove_dot_segments", r"replace == with !=", "fast-path",
     "the test for a `.` or `..` segment then answers yes; resolving a path without dot "
     "segments "
     "gives it back unchanged"),
]

LINE = re.compile(r"^conformance/reference/src/(?P<file>[\w.]+):\d+:\d+: (?P<what>.*) in (?P<function>.+)$")
WHOLE = re.compile(r"^conformance/reference/src/(?P<file>[\w.]+):\d+:\d+: (?P<what>replace (?P<function>[^ ]+|<impl .+?>::\w+) -> .*|replace (?P<function2>[^ ]+|<impl .+?>::\w+) with \(\))$")


def parse(line):
    """(file, function, mutation) of one line of missed.txt."""
    whole = WHOLE.match(line)
    if whole:
        return whole["file"], whole["function"] or whole["function2"], whole["what"]
    match = LINE.match(line)
    if match:
        return match["file"], match["function"], match["what"]
    return None


def classify(line):
    parsed = parse(line)
    if parsed is None:
        return None
    file, function, what = parsed
    for rule_file, rule_function, pattern, kind, note in RULES:
        if file == rule_file and function == rule_function and re.search(pattern, what):
            return kind, note
    return None


def main():
    markdown = "--markdown" in sys.argv
    paths = [a for a in sys.argv[1:] if not a.startswith("--")]
    default = Path(__file__).resolve().parents[2] / "target/mutants/mutants.out/missed.txt"
    out = Path(paths[0]) if paths else default
    missed = [l for l in out.read_text().splitlines() if l.strip()]
    explained, gaps = [], []
    for line in missed:
        found = classify(line)
        (explained if found else gaps).append((line, found))
    if markdown:
        print("| class | mutant | why it is equivalent |")
        print("| --- | --- | --- |")
        for line, (kind, note) in sorted(explained, key=lambda e: (e[1][0], e[0])):
            mutant = line.removeprefix("conformance/reference/src/")
            print(f"| {kind} | `{mutant}` | {note} |")
        print()
        for kind, reason in CLASSES.items():
            print(f"- **{kind}**: {reason}")
    for line, _ in gaps:
        print(f"not explained (a corpus gap?): {line}", file=sys.stderr)
    print(f"{len(missed)} missed: {len(explained)} explained, {len(gaps)} not", file=sys.stderr)
    return 1 if gaps else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Fails when an implementation's non-passing queries carry a question less than 95 % of the time.

Reads `reptest run --json` or a report folder's report.json (the same model): per implementation, `causes.rfc9309` gives `non_passing`
(decided queries failed or without a verdict) and `with_question` (how many of those name a
question of corpus/questions.toml). Prints one line per implementation.
"""
import json
import sys

THRESHOLD = 95.0


def main(path: str) -> int:
    with open(path, encoding="utf-8") as f:
        run = json.load(f)
    names = [score["name"] for score in run["scores"]]
    failing = []
    for name, score in zip(names, run["scores"]):
        causes = score["causes"]["rfc9309"]
        share = causes["share"]
        print(f"{name:36} {causes['with_question']:4}/{causes['non_passing']:<4} {share:5.1f} %")
        if share < THRESHOLD:
            failing.append(name)
    if len(names) < 2:
        print("causes: fewer than two implementations ran", file=sys.stderr)
        return 1
    if failing:
        print(f"causes: below {THRESHOLD} %: {', '.join(failing)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))

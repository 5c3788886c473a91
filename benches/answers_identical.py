#!/usr/bin/env python3
"""Whether two tether builds give the same answers on a real repository: a seeded sample of
symbols is asked `blast`, `callers`, `callees` and `context` (as `--json`) of each build's
daemon in turn, freshness dropped, and the answers compared. For changes that must not change
behaviour (moves, splits of long functions, the protocol's types); `export_identical.sh`
compares the graphs themselves.

    python3 benches/answers_identical.py OLD/tether NEW/tether REPO [--sample 40] [--seed 1]
"""

import argparse
import json
import random
import subprocess
import sys

METHODS = ["blast", "callers", "callees", "context"]


def run(binary, *arguments):
    completed = subprocess.run([binary, *arguments], capture_output=True, text=True)
    return completed.returncode, completed.stdout


def without_freshness(text):
    """The answer with what depends on the moment (freshness, timings) removed."""
    try:
        answer = json.loads(text)
    except json.JSONDecodeError:
        return text
    if isinstance(answer, dict):
        answer.pop("freshness", None)
    return json.dumps(answer, sort_keys=True)


def answers(binary, repository, symbols):
    found = {}
    for symbol in symbols:
        for method in METHODS:
            code, output = run(binary, method, "--json", "-C", repository, symbol)
            found[(method, symbol)] = (code, without_freshness(output))
    run(binary, "stop", repository)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("repository")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    run(options.old, "stop", options.repository)
    run(options.new, "stop", options.repository)
    code, export = run(options.new, "export", options.repository)
    if code != 0:
        sys.exit(f"export failed on {options.repository}")
    symbols = sorted(
        symbol["id"]
        for symbol in json.loads(export)["symbols"]
        if symbol.get("kind") in ("function", "method", "class", "struct", "trait", "enum")
    )
    chosen = random.Random(options.seed).sample(symbols, min(options.sample, len(symbols)))
    old = answers(options.old, options.repository, chosen)
    new = answers(options.new, options.repository, chosen)
    differing = [key for key in old if old[key] != new[key]]
    for method, symbol in differing[:10]:
        print(f"DIFFERENT {method} {symbol}", file=sys.stderr)
    print(
        f"{options.repository}: {len(old) - len(differing)} of {len(old)} answers identical "
        f"({len(chosen)} symbols x {', '.join(METHODS)})"
    )
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()

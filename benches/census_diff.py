#!/usr/bin/env python3
"""The census diff: which CALLS and REFERENCES edges one tether build adds or drops against
another, on real repositories.

Each repository is indexed with both builds (`tether index`), exported (`tether export`), and
the edges compared by (kind, source, target, line). Prints one line per repository: the edge
counts, the new edges by rule and the gone ones; with `--sample N`, N new edges at random
(with `--seed`), each with its site's source line, for reading by hand.

    python3 benches/census_diff.py --old OLD/tether --new NEW/tether REPO... [--sample 20 --seed 14]
"""

import argparse
import collections
import json
import random
import subprocess


def edges_of(binary, repo):
    subprocess.run([binary, "index", repo], capture_output=True, check=True)
    exported = json.loads(subprocess.run([binary, "export", repo], capture_output=True, check=True, text=True).stdout)
    symbols = {symbol["id"]: symbol for symbol in exported["symbols"]}
    edges = {}
    for edge in exported["edges"]:
        if edge["kind"] in ("CALLS", "REFERENCES"):
            edges[(edge["kind"], edge["source"], edge["target"], edge["line"])] = edge["rule"]
    return edges, symbols


def source_line(repo, path, line):
    try:
        with open(f"{repo}/{path}", encoding="utf-8", errors="replace") as file:
            return file.read().split("\n")[line - 1].strip()
    except (OSError, IndexError):
        return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("repos", nargs="+")
    arguments = parser.parse_args()
    for repo in arguments.repos:
        old, _ = edges_of(arguments.old, repo)
        new, symbols = edges_of(arguments.new, repo)
        added = sorted(set(new) - set(old))
        gone = sorted(set(old) - set(new))
        by_rule = collections.Counter(new[key] for key in added)
        print(f"{repo}: {len(old)} -> {len(new)} CALLS+REFERENCES; new {len(added)} {dict(by_rule.most_common())}; gone {len(gone)}")
        random.seed(arguments.seed)
        for key in random.sample(added, min(arguments.sample, len(added))):
            kind, source, target, line = key
            caller = symbols.get(source, {"qualified_name": "?", "path": ""})
            callee = symbols.get(target, {"qualified_name": "?"})
            print(f"  {new[key]:15} {caller['qualified_name']} -> {callee['qualified_name']}  {caller['path']}:{line}  | {source_line(repo, caller['path'], line)[:90]}")
        for key in gone[: arguments.sample]:
            kind, source, target, line = key
            caller = symbols.get(source, {"qualified_name": "?", "path": ""})
            callee = symbols.get(target, {"qualified_name": "?"})
            print(f"  gone {old[key]:10} {caller['qualified_name']} -> {callee['qualified_name']}  {caller['path']}:{line}  | {source_line(repo, caller['path'], line)[:90]}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The dead-code deletion check: is what `tether health` calls `dead` really unused?

For a Python repository with a pytest suite, or one crate of a Rust workspace: run the suite
once (the tests that pass), list every symbol `tether health --kind dead_code` says is `dead`
(exact completeness), then for each of N sampled ones (fixed seed) delete its definition, run
the project's own suite again (Python: also byte-compile the edited file; Rust: the crate must
still build) and count the deletions after which every test that passed still passes.
Issue 43 asks for at least 95 % on each repository measured.

    python3 benches/dead_code_deletion.py REPO --tether PATH/TO/tether [--sample 30] [--seed 1]
        [--tests tests] [--pytest-arg ARG]... [--json OUT]
    python3 benches/dead_code_deletion.py REPO --tether PATH/TO/tether --cargo-package NAME
        [--sample 30] [--seed 1] [--json OUT]

REPO is copied to a temporary folder (the original is not touched); the runners are the
mutation check's (`mutation_runners.py`, `mutation_cargo.py`).
"""

import argparse
import json
import os
import random
import shutil
import sys
import tempfile

from mutation_cargo import CargoRunner
from mutation_runners import PytestRunner, edited, run


def dead_symbols(tether, work):
    """Every `dead` finding of `tether health --kind dead_code`, paged to the end."""
    found, cursor = [], None
    while True:
        command = [tether, "health", "--kind", "dead_code", "--json", "--limit", "200"]
        if cursor:
            command += ["--cursor", cursor]
        output = run(command, work, timeout=600)
        answer = json.loads(output.stdout)
        section = answer["sections"][0]
        found += [item for item in section.get("dead_code", []) if item["verdict"] == "dead"]
        cursor = section.get("next_cursor")
        if not cursor:
            return found


def deleted(symbol, language):
    """`text -> text` without the symbol's lines; a Python body left empty gets `pass`."""
    first, last = symbol["line"], symbol["end_line"]

    def delete(text):
        lines = text.split("\n")
        if last > len(lines):
            return None
        start = first
        if language == "rust":
            # Its attributes and doc comment go with it (a span starts at the item's keyword).
            while start > 1 and lines[start - 2].lstrip().startswith(("#[", "///")):
                start -= 1
        removed = lines[start - 1:last]
        kept = lines[:start - 1] + lines[last:]
        if language == "python":
            indent = removed[0][: len(removed[0]) - len(removed[0].lstrip())]
            kept = lines[:start - 1] + [f"{indent}pass"] + lines[last:]
        return "\n".join(kept)

    return delete


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo")
    parser.add_argument("--tether", required=True)
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tests", default="tests")
    parser.add_argument("--pytest-arg", action="append", default=[])
    parser.add_argument("--cargo-package")
    parser.add_argument("--json")
    arguments = parser.parse_args()
    tether = os.path.abspath(arguments.tether)
    scratch = tempfile.mkdtemp(prefix="tether-dead-code-")
    work = os.path.join(scratch, "repo")
    # tether's own state (a database, a live daemon's socket) is not the project's.
    def tether_state(folder, names):
        return ["tether"] if os.path.basename(folder) == ".git" else []

    shutil.copytree(arguments.repo, work, symlinks=True, ignore=tether_state)
    language = "rust" if arguments.cargo_package else "python"
    if language == "rust":
        runner = CargoRunner(work, scratch, arguments.cargo_package)
    else:
        runner = PytestRunner(work, scratch, arguments.tests, arguments.pytest_arg)
    runner.prepare()
    baseline = runner.suite()
    if baseline is None:
        raise SystemExit("the suite does not build before any deletion")
    passed, _ = baseline
    print(f"baseline: {len(passed)} tests pass", flush=True)
    indexed = run([tether, "index", work], work, timeout=1800)
    if indexed.returncode != 0:
        raise SystemExit(f"tether index failed:\n{indexed.stderr[-2000:]}")
    candidates = [item["symbol"] for item in dead_symbols(tether, work)]
    if language == "rust" and runner.package_folder not in ("", "."):
        candidates = [symbol for symbol in candidates if symbol["path"].startswith(runner.package_folder + "/")]
    random.Random(arguments.seed).shuffle(candidates)
    sample = candidates[: arguments.sample]
    print(f"dead+exact: {len(candidates)} symbols; deleting {len(sample)}", flush=True)
    run([tether, "stop"], work, timeout=60)
    results = []
    for symbol in sample:
        with edited(work, symbol["path"], deleted(symbol, language)) as applied:
            if not applied:
                continue
            broken, why = [], ""
            if language == "python":
                compiled = run([runner.python, "-m", "py_compile", symbol["path"]], work)
                if compiled.returncode != 0:
                    why = "does not compile: " + compiled.stderr.strip().splitlines()[-1]
            if not why:
                outcome = runner.suite()
                if outcome is None:
                    why = "does not build"
                else:
                    still_passed, _ = outcome
                    broken = sorted(passed - still_passed)
                    missing = runner.not_collected(passed)
                    broken = sorted(set(broken) | missing)
                    if broken:
                        why = f"{len(broken)} tests broke, e.g. {broken[0]}"
        green = not why
        name = f"{symbol['qualified_name']} ({symbol['path']}:{symbol['line']})"
        print(f"{'green' if green else 'RED  '} {name}{'' if green else ': ' + why}", flush=True)
        results.append({"symbol": name, "green": green, "why": why})
    kept = sum(result["green"] for result in results)
    share = 100.0 * kept / len(results) if results else 0.0
    print(f"kept green: {kept} of {len(results)} deletions ({share:.1f} %); dead+exact symbols: {len(candidates)}")
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as out:
            json.dump({"repository": arguments.repo, "dead_exact": len(candidates), "results": results, "kept_green": kept}, out, indent=2)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

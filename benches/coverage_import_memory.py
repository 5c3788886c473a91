#!/usr/bin/env python3
"""The memory and latency of runtime evidence under hostile reports (issue 39).

A copy of REPO gets a running daemon (`tether start`), then three reports written inside it:
- `tiny.json`: a coverage.py report of about SIZE MiB made of one file's lines each listing
  the same few tests again and again (the issue's "500 MiB of tiny items": 131M entries);
- `many.json`: one line executed by more distinct tests than the cap allows (refused);
- `wide.json`: as many distinct tests as the cap allows, each on every line of one file.
Each is imported with `tether coverage import`; the daemon's peak resident memory (VmHWM) and
current memory (VmRSS) are read from /proc after each, and `tether blast` of a symbol of the
covered file is timed (median of 5) with the wide evidence in force.

    python3 benches/coverage_import_memory.py REPO --tether PATH/TO/tether [--size 500]
        [--file PATH] [--symbol NAME] [--json OUT]

FILE is a Python or Rust file of REPO to attribute lines to (default: the largest tracked
`.py` file); SYMBOL a symbol in it to blast (default: the first function of the file in `tether export`).
"""

import argparse
import json
import os
import statistics
import time

from bench_daemon import memory_of, report, run, running_daemon

CONTEXT_CAP = 250_000


def write_tiny(path, covered, size_mib):
    """Lines of `covered` each listing the same three tests, until the file is size_mib."""
    names = '"t::a", "t::b", "t::c", ' * 2000
    with open(path, "w") as report:
        report.write('{"meta": {"show_contexts": true}, "files": {"%s": {"contexts": {' % covered)
        line = 1
        while report.tell() < size_mib << 20:
            report.write('%s"%d": [%s"t::a"]' % ("" if line == 1 else ", ", line, names))
            line += 1
        report.write("}}}}")


def write_distinct(path, covered, count, lines):
    """`lines` lines of `covered`, each executed by `count` distinct tests."""
    tests = ", ".join('"tests/test_x.py::test_%d"' % n for n in range(count))
    with open(path, "w") as report:
        report.write('{"meta": {"show_contexts": true}, "files": {"%s": {"contexts": {' % covered)
        report.write(", ".join('"%d": [%s]' % (line, tests) for line in range(1, lines + 1)))
        report.write("}}}}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo")
    parser.add_argument("--tether", required=True)
    parser.add_argument("--size", type=int, default=500)
    parser.add_argument("--file")
    parser.add_argument("--symbol")
    parser.add_argument("--json")
    args = parser.parse_args()
    with running_daemon(args.repo, args.tether, "tether-coverage-memory-") as daemon:
        tether, repo, pid = daemon.tether, daemon.repo, daemon.pid
        covered = args.file
        if covered is None:
            tracked = run(["git", "ls-files", "*.py"], repo).stdout.split()
            covered = max(tracked, key=lambda path: os.path.getsize(os.path.join(repo, path)))
        symbol = args.symbol
        if symbol is None:
            named = [item["qualified_name"] for item in daemon.symbols()
                     if item.get("path") == covered and item.get("kind") in ("function", "method")]
            symbol = named[0] if named else None
        results = {"repo": args.repo, "file": covered, "symbol": symbol, "rest_mib": memory_of(pid)[1]}
        with open(os.path.join(repo, covered), errors="replace") as source:
            length = len(source.read().splitlines())
        reports = [
            ("tiny", lambda path: write_tiny(path, covered, args.size)),
            ("many", lambda path: write_distinct(path, covered, CONTEXT_CAP + 1, 1)),
            ("wide", lambda path: write_distinct(path, covered, CONTEXT_CAP, min(length, 40))),
        ]
        for name, write in reports:
            path = os.path.join(repo, f"{name}.json")
            write(path)
            started = time.monotonic()
            imported = run([tether, "coverage", "import", path, "-C", repo], repo, check=False)
            seconds = time.monotonic() - started
            peak, current = memory_of(pid)
            results[name] = {
                "report_mib": round(os.path.getsize(path) / (1 << 20), 1),
                "import_seconds": round(seconds, 2),
                "exit": imported.returncode,
                "said": (imported.stdout + imported.stderr).strip().splitlines()[-1:],
                "daemon_peak_mib": round(peak),
                "daemon_now_mib": round(current),
            }
            os.remove(path)
            print(name, json.dumps(results[name]), flush=True)
        if symbol:
            timings = []
            for _ in range(5):
                started = time.monotonic()
                run([tether, "blast", symbol, "-C", repo, "--json"], repo, check=False)
                timings.append(time.monotonic() - started)
            results["blast_with_wide_evidence_seconds"] = round(statistics.median(timings), 3)
    report(results, args.json)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The mutation check: does `tether blast` name the tests that really break?

For a Python repository with a pytest suite, or one crate of a Rust workspace: run the suite
once (the tests that pass), then for each of N sampled functions make it raise (panic) at
entry, run the suite again, and compare the tests that now fail with `tether blast`'s
`tests_affected` for that function. Reported: recall of really failing (function, test)
pairs (micro over pairs, macro over functions), precision of the listed tests, and the
false-safe count: answers that say `exact` while a really failing test is missing from them.
With `--with-coverage`, the suite is also run once with per-test coverage (pytest-cov
`--cov-context=test`, imported with `tether coverage import`; Rust: `tether coverage cargo`,
every test alone with `-C instrument-coverage`), and recall and precision are
reported for static answers, for static + runtime evidence, and for the first tier alone
(`tier: ran`: tests fresh evidence saw run the function). With `--only-exact`, only functions whose answer says `exact` are sampled: the direct hunt for
false-safe answers. A missing test that passes when run alone with the mutation is state leaking between tests
(no static graph can know it) and is not counted.

    python3 benches/mutation_check.py REPO --tether PATH/TO/tether [--sample 40] [--seed 1]
        [--source src] [--tests tests] [--pytest-arg ARG]... [--only-exact] [--with-coverage]
        [--json OUT]
    python3 benches/mutation_check.py REPO --tether PATH/TO/tether --cargo-package NAME
        --source crates/NAME/src [--sample 40] [--seed 1] [--with-coverage] [--json OUT]

REPO is copied to a temporary folder (the original is not touched). Python: a virtualenv
there gets the project (`pip install -e .`), pytest and the project's pinned test
dependencies. Rust: `cargo test -p NAME --lib --bins --tests` (doc tests are not in the graph
and are left out), lints capped at warnings so an unreachable body still builds. Needs
network access to PyPI or crates.io the first time.
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import tempfile

from mutation_cargo import CargoRunner
from mutation_runners import PytestRunner, run

# Missing tests run alone (to tell state leaking between tests) per false-safe candidate.
MAX_ALONE_RUNS = 10


def blast(tether, work, path, def_line):
    output = run([tether, "blast", f"{path}:{def_line}", "--json", "--limit", "1", "--tests-limit", "10000"], work, timeout=300)
    try:
        return json.loads(output.stdout)
    except json.JSONDecodeError:
        return {"error": output.stdout + output.stderr}


def check_function(runner, tether, work, function, baseline, only_exact):
    """One sampled function: its blast answer against the tests its mutation breaks; None
    when it cannot be measured (no subject, or the mutated code does not build) or, with
    `only_exact`, when the answer is a lower bound."""
    path, def_line = function.path, function.line
    answer = blast(tether, work, path, def_line)
    if "error" in answer or answer.get("subject") is None:
        return None
    if only_exact and answer.get("completeness", {}).get("status") != "exact":
        return None
    with runner.mutated(function) as applied:
        if not applied:
            return None
        outcome = runner.suite()
    if outcome is None:
        return None
    _, failed = outcome
    # A test that passed before breaks when it fails now, or when it is not run because its
    # module (or a conftest it needs) fails to import: pytest reports the collection error,
    # not the test. Tests missing for another reason (an aborted session) are not counted.
    broken = {ident for ident in failed if ident in baseline} | runner.not_collected(baseline)
    # Tests the suite does not run (another crate's) cannot be measured. Static: the graph's
    # paths; with evidence: also the tests runtime evidence saw executing the function.
    everything = [test for test in answer.get("tests_affected", []) if runner.runs(test)]
    listed = [test for test in everything if "static" in test.get("why", ["static"])]
    found = {ident for ident in broken if runner.is_listed(ident, listed)}
    found_with_evidence = {ident for ident in broken if runner.is_listed(ident, everything)}
    # The first tier: tests fresh runtime evidence saw run the function (`tier: ran`).
    ran = [test for test in everything if in_first_tier(test)]
    found_ran = {ident for ident in broken if runner.is_listed(ident, ran)}
    # Precision counts listed tests (one per test function, parameters folded) that really fail.
    failing_listed = runner.failing_listed(broken, listed)
    failing_listed_with_evidence = runner.failing_listed(broken, everything)
    missing = broken - found
    # Each listed test with its path (hops, confidence) and whether it really fails: what
    # `--json` keeps to study which paths list tests that do not break.
    listed_tests = [
        {
            "test": test.get("qualified_name"),
            "fails": runner.failing_listed(broken, [test]) > 0,
            "distance": test.get("distance"),
            "confidence": test.get("confidence"),
        }
        for test in listed
    ]
    exact = answer.get("completeness", {}).get("status") == "exact"
    leaking = set()
    if exact and missing:
        # Does the missing test fail alone with the mutation? If not, state leaked into it.
        # Checked for the first few missing tests (each is a run of its own); the others
        # count as missing.
        with runner.mutated(function):
            for ident in sorted(missing)[:MAX_ALONE_RUNS]:
                if not runner.fails_alone(ident):
                    leaking.add(ident)
    return {
        "function": f"{path}:{def_line} {function.name}",
        "subject": answer.get("subject"),
        "broken": len(broken),
        "listed": len(listed),
        "listed_total": answer.get("tests_total", len(listed)),
        "listed_truncated": answer.get("tests_truncated", False),
        "found": len(found),
        "failing_listed": failing_listed,
        "failing_listed_with_evidence": failing_listed_with_evidence,
        "listed_with_evidence": len(everything),
        "found_with_evidence": len(found_with_evidence),
        "listed_ran": len(ran),
        "found_ran": len(found_ran),
        "failing_listed_ran": runner.failing_listed(broken, ran),
        "missing_ran": sorted(runner.describe(ident) for ident in broken - found_ran)[:20],
        "missing_with_evidence": sorted(runner.describe(ident) for ident in broken - found_with_evidence)[:20],
        "exact": exact,
        "missing": sorted(runner.describe(ident) for ident in missing - leaking),
        "leaking": sorted(runner.describe(ident) for ident in leaking),
        "causes": [cause.get("kind") for cause in answer.get("completeness", {}).get("causes", [])],
        "listed_tests": listed_tests,
    }


def in_first_tier(test):
    """A test of the answer's first tier: `tier: ran`, or (answers from before tiers) one
    fresh evidence saw executing the subject."""
    if "tier" in test:
        return test["tier"] == "ran"
    return "executed" in test.get("why", []) and test.get("evidence") == "fresh"


def recall_and_precision(results, found_key, listed_key, failing_listed_key):
    with_breaks = [result for result in results if result["broken"] > 0]
    pairs = sum(result["broken"] for result in with_breaks)
    found = sum(result[found_key] for result in with_breaks)
    listed = sum(result[listed_key] for result in results)
    macro = sum(result[found_key] / result["broken"] for result in with_breaks) / len(with_breaks) if with_breaks else 0.0
    return {
        "micro_recall": round(found / pairs, 3) if pairs else None,
        "macro_recall": round(macro, 3),
        "listed_precision": round(sum(result[failing_listed_key] for result in results) / listed, 3) if listed else None,
    }


def summarize(results):
    with_breaks = [result for result in results if result["broken"] > 0]
    false_safe = [result for result in results if result["exact"] and result["missing"]]
    return {
        "functions": len(results),
        "functions_with_breaking_tests": len(with_breaks),
        "failing_pairs": sum(result["broken"] for result in with_breaks),
        **recall_and_precision(results, "found", "listed", "failing_listed"),
        "with_evidence": recall_and_precision(results, "found_with_evidence", "listed_with_evidence", "failing_listed_with_evidence"),
        "first_tier": recall_and_precision(results, "found_ran", "listed_ran", "failing_listed_ran"),
        "exact_answers": sum(1 for result in results if result["exact"]),
        "exact_answers_with_breaking_tests": sum(1 for result in with_breaks if result["exact"]),
        "false_safe": len(false_safe),
        "false_safe_functions": [result["function"] for result in false_safe],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo")
    parser.add_argument("--tether", required=True)
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", default="src")
    parser.add_argument("--tests", default="tests")
    parser.add_argument("--pytest-arg", action="append", default=[], help="passed to every pytest run (repeatable)")
    parser.add_argument("--cargo-package", help="measure this crate of a Rust workspace with cargo test")
    parser.add_argument("--only-exact", action="store_true", help="sample only functions whose answer says exact (the false-safe hunt)")
    parser.add_argument("--with-coverage", action="store_true", help="also record per-test coverage once (pytest-cov, or tether coverage cargo) and import it: recall with runtime evidence")
    parser.add_argument("--json")
    arguments = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="tether-mutation-")
    work = os.path.join(scratch, "repo")
    skipped = shutil.ignore_patterns(".tox", ".venv", "__pycache__", "target")

    def ignore(folder, names):
        # tether's own folder (graph, sockets) is not copied: the copy is indexed afresh.
        own = {"tether"} if os.path.basename(folder) == ".git" else set()
        return set(skipped(folder, names)) | own

    shutil.copytree(arguments.repo, work, symlinks=True, ignore=ignore)
    if arguments.cargo_package:
        runner = CargoRunner(work, scratch, arguments.cargo_package)
    else:
        runner = PytestRunner(work, scratch, arguments.tests, arguments.pytest_arg, arguments.with_coverage)
    runner.prepare()
    outcome = runner.suite()
    if outcome is None:
        raise SystemExit("the unmodified suite does not build")
    baseline, baseline_failed = outcome
    print(f"baseline      {len(baseline)} tests pass, {len(baseline_failed)} fail", flush=True)
    indexed = run([arguments.tether, "index", "."], work, timeout=900)
    if indexed.returncode != 0:
        raise SystemExit(f"tether index failed:\n{indexed.stderr}")
    if arguments.with_coverage:
        imported = runner.import_coverage(arguments.tether, arguments.source)
        print(f"evidence      {imported.stdout.strip() or imported.stderr.strip()}", flush=True)
        if imported.returncode != 0:
            raise SystemExit("tether coverage import failed")

    functions = runner.functions(arguments.source)
    random.Random(arguments.seed).shuffle(functions)
    results = []
    for function in functions:
        if len(results) >= arguments.sample:
            break
        result = check_function(runner, arguments.tether, work, function, baseline, arguments.only_exact)
        if result is None:
            continue
        results.append(result)
        false_safe = result["exact"] and bool(result["missing"])
        status = "exact" if result["exact"] else "lower_bound"
        evidence = f" (with evidence {result['listed_with_evidence']} listed, {result['found_with_evidence']} found; ran {result['listed_ran']} listed, {result['found_ran']} found)" if arguments.with_coverage else ""
        print(f"{result['function']}: {result['broken']} break, {result['listed']} listed, {result['found']} found{evidence}, {status}{' FALSE SAFE' if false_safe else ''}", flush=True)

    summary = summarize(results)
    print(json.dumps(summary, indent=2))
    if arguments.json:
        json.dump({"summary": summary, "results": results}, open(arguments.json, "w"), indent=2)
    subprocess.run(["chmod", "-R", "u+w", scratch], check=False)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

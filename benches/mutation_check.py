#!/usr/bin/env python3
"""The mutation check: does `tether blast` name the tests that really break?

For a Python repository with a pytest suite: run the suite once (the tests that pass), then
for each of N sampled functions make it raise at entry, run the suite again, and compare the
tests that now fail with `tether blast`'s `tests_affected` for that function. Reported:
recall of really failing (function, test) pairs (micro over pairs, macro over functions),
precision of the listed tests, and the false-safe count: answers that say `exact` while a
really failing test is missing from them. A missing test that passes when run alone with the
mutation is state leaking between tests (no static graph can know it) and is not counted.

    python3 benches/mutation_check.py REPO --tether PATH/TO/tether [--sample 40] [--seed 1]
        [--source src] [--tests tests] [--json OUT]

REPO is copied to a temporary folder (the original is not touched); a virtualenv there gets
the project (`pip install -e .`) and pytest. Needs network access to PyPI the first time.
"""

import argparse
import ast
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

MUTATION = 'raise RuntimeError("tether mutation")'
# Missing tests run alone (to tell state leaking between tests) per false-safe candidate.
MAX_ALONE_RUNS = 10


def run(command, cwd, env=None, timeout=900):
    return subprocess.run(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)


def pytest_results(python, work, tests, junit, only=None, timeout=900):
    """The test ids that passed and failed, from a JUnit report."""
    command = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", f"--junitxml={junit}"]
    command += only if only else [tests]
    run(command, work, timeout=timeout)
    passed, failed = set(), set()
    try:
        root = ElementTree.parse(junit).getroot()
    except (ElementTree.ParseError, FileNotFoundError):
        return passed, failed
    for case in root.iter("testcase"):
        classname = case.get("classname", "")
        name = case.get("name", "")
        file = case.get("file")
        ident = (file, classname, name)
        if case.find("failure") is not None or case.find("error") is not None:
            failed.add(ident)
        elif case.find("skipped") is None:
            passed.add(ident)
    return passed, failed


def test_key(ident):
    """A pytest case as (module path suffix, qualified test name without parameters)."""
    file, classname, name = ident
    base = name.split("[", 1)[0]
    parts = classname.split(".")
    # classname is `tests.test_basic` or `tests.test_basic.TestClass`.
    class_part = [part for part in parts if part[:1].isupper()]
    qualified = ".".join(class_part + [base])
    module = ".".join(part for part in parts if not part[:1].isupper())
    return module.split(".")[-1], qualified


def tether_test_key(test):
    """A tether test as (module file stem, qualified test name inside its module)."""
    path = test["path"]
    stem = os.path.splitext(os.path.basename(path))[0]
    qualified = test["qualified_name"]
    module_prefix = qualified.split(".")
    # Drop the module segments: keep from the first segment that is the test (or its class).
    for position, segment in enumerate(module_prefix):
        if segment == stem:
            return stem, ".".join(module_prefix[position + 1:])
    return stem, qualified.split(".", 1)[-1]


def functions_of(source_root, work):
    """(path, def line, insertion line, indent) of every function and method with a body."""
    found = []
    for folder, _, files in os.walk(os.path.join(work, source_root)):
        for file in sorted(files):
            if not file.endswith(".py"):
                continue
            path = os.path.join(folder, file)
            relative = os.path.relpath(path, work)
            try:
                tree = ast.parse(open(path, encoding="utf-8").read())
            except (SyntaxError, UnicodeDecodeError):
                continue
            for node in ast.walk(tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                body = node.body
                first = body[0]
                if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) and isinstance(first.value.value, str):
                    if len(body) == 1:
                        continue
                    first = body[1]
                if isinstance(first, ast.Pass) and len(body) == 1:
                    continue
                # A body on the `def` line (`def f(): ...`, an overload stub) has no line of its
                # own to put the mutation before.
                if first.lineno <= node.lineno or (isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) and first.value.value is Ellipsis):
                    continue
                found.append((relative, node.lineno, first.lineno, first.col_offset, node.name))
    return sorted(set(found))


def test_dependencies(work):
    """The project's test dependency group (`[dependency-groups] tests`), pinned to the
    versions its `uv.lock` records when it has one (the suite was written against them)."""
    import tomllib

    try:
        project = tomllib.load(open(os.path.join(work, "pyproject.toml"), "rb"))
    except (OSError, tomllib.TOMLDecodeError):
        return []
    groups = project.get("dependency-groups", {})
    names = [entry for entry in groups.get("tests", groups.get("test", [])) if isinstance(entry, str)]
    pinned = {}
    try:
        lock = tomllib.load(open(os.path.join(work, "uv.lock"), "rb"))
        pinned = {package["name"].lower(): package["version"] for package in lock.get("package", []) if "version" in package}
    except (OSError, tomllib.TOMLDecodeError):
        pass
    requirements = []
    for entry in names:
        name = entry.split(";")[0].split("[")[0].split("=")[0].split(">")[0].split("<")[0].strip()
        version = pinned.get(name.lower())
        requirements.append(f"{name}=={version}" if version and name == entry.strip() else entry)
    return requirements


def mutate(work, path, line, indent):
    """Puts the raising line before line `line`; returns the original text, or None (nothing
    written) when the mutated file would not parse."""
    full = os.path.join(work, path)
    lines = open(full, encoding="utf-8").read().split("\n")
    original = "\n".join(lines)
    lines.insert(line - 1, " " * indent + MUTATION)
    mutated = "\n".join(lines)
    try:
        ast.parse(mutated)
    except SyntaxError:
        return None
    open(full, "w", encoding="utf-8").write(mutated)
    return original


def blast(tether, work, path, def_line):
    output = run([tether, "blast", f"{path}:{def_line}", "--json", "--limit", "1"], work, timeout=300)
    try:
        return json.loads(output.stdout)
    except json.JSONDecodeError:
        return {"error": output.stdout + output.stderr}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo")
    parser.add_argument("--tether", required=True)
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--source", default="src")
    parser.add_argument("--tests", default="tests")
    parser.add_argument("--json")
    arguments = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="tether-mutation-")
    work = os.path.join(scratch, "repo")
    shutil.copytree(arguments.repo, work, symlinks=True, ignore=shutil.ignore_patterns(".tox", ".venv", "__pycache__"))
    venv = os.path.join(scratch, "venv")
    run([sys.executable, "-m", "venv", venv], scratch)
    python = os.path.join(venv, "bin", "python")
    install = run([python, "-m", "pip", "install", "-q", "-e", ".", "pytest"], work, timeout=1800)
    if install.returncode != 0:
        sys.exit(f"pip install failed:\n{install.stderr[-2000:]}")
    test_requirements = test_dependencies(work)
    if test_requirements:
        installed = run([python, "-m", "pip", "install", "-q", *test_requirements], work, timeout=1800)
        if installed.returncode != 0:
            sys.exit(f"pip install {test_requirements} failed:\n{installed.stderr[-2000:]}")
    for requirements in ["requirements/tests.txt", "requirements-dev.txt", "requirements/tests.in"]:
        if os.path.exists(os.path.join(work, requirements)):
            run([python, "-m", "pip", "install", "-q", "-r", requirements], work, timeout=1800)
            break
    junit = os.path.join(scratch, "junit.xml")
    baseline, baseline_failed = pytest_results(python, work, arguments.tests, junit)
    print(f"baseline      {len(baseline)} tests pass, {len(baseline_failed)} fail", flush=True)
    indexed = run([arguments.tether, "index", "."], work, timeout=900)
    if indexed.returncode != 0:
        sys.exit(f"tether index failed:\n{indexed.stderr}")

    functions = functions_of(arguments.source, work)
    random.Random(arguments.seed).shuffle(functions)
    results = []
    for path, def_line, insert_line, indent, name in functions:
        if len(results) >= arguments.sample:
            break
        answer = blast(arguments.tether, work, path, def_line)
        if "error" in answer or answer.get("subject") is None:
            continue
        original = mutate(work, path, insert_line, indent)
        if original is None:
            continue
        try:
            _, failed = pytest_results(python, work, arguments.tests, junit)
        finally:
            open(os.path.join(work, path), "w", encoding="utf-8").write(original)
        broken = {ident for ident in failed if ident in baseline}
        listed = {tether_test_key(test) for test in answer.get("tests_affected", [])}
        broken_keys = {test_key(ident): ident for ident in broken}
        missing = {key: ident for key, ident in broken_keys.items() if key not in listed}
        exact = answer.get("completeness", {}).get("status") == "exact"
        leaking = set()
        if exact and missing:
            # Does the missing test fail alone with the mutation? If not, state leaked into it.
            # Checked for the first few missing tests (each is a run of its own); the others
            # count as missing.
            original = mutate(work, path, insert_line, indent)
            try:
                for key, ident in sorted(missing.items())[:MAX_ALONE_RUNS]:
                    modules = [part for part in ident[1].split(".") if not part[:1].isupper()]
                    node = "/".join(modules) + ".py::" + "::".join(key[1].split("."))
                    _, alone_failed = pytest_results(python, work, arguments.tests, junit, only=[node], timeout=300)
                    if not alone_failed:
                        leaking.add(key)
            finally:
                open(os.path.join(work, path), "w", encoding="utf-8").write(original)
        found = {key for key in broken_keys if key in listed}
        result = {
            "function": f"{path}:{def_line} {name}",
            "subject": answer.get("subject"),
            "broken": len(broken_keys),
            "listed": len(listed),
            "found": len(found),
            "exact": exact,
            "missing": sorted(".".join(key) for key in missing if key not in leaking),
            "leaking": sorted(".".join(key) for key in leaking),
            "causes": [cause.get("kind") for cause in answer.get("completeness", {}).get("causes", [])],
        }
        results.append(result)
        false_safe = exact and bool(result["missing"])
        print(f"{result['function']}: {result['broken']} break, {result['listed']} listed, {result['found']} found, {'exact' if exact else 'lower_bound'}{' FALSE SAFE' if false_safe else ''}", flush=True)

    with_breaks = [result for result in results if result["broken"] > 0]
    pairs = sum(result["broken"] for result in with_breaks)
    found = sum(result["found"] for result in with_breaks)
    listed = sum(result["listed"] for result in results)
    listed_found = sum(result["found"] for result in results)
    macro = sum(result["found"] / result["broken"] for result in with_breaks) / len(with_breaks) if with_breaks else 0.0
    false_safe = [result for result in results if result["exact"] and result["missing"]]
    exact = sum(1 for result in results if result["exact"])
    summary = {
        "functions": len(results),
        "functions_with_breaking_tests": len(with_breaks),
        "failing_pairs": pairs,
        "micro_recall": round(found / pairs, 3) if pairs else None,
        "macro_recall": round(macro, 3),
        "listed_precision": round(listed_found / listed, 3) if listed else None,
        "exact_answers": exact,
        "false_safe": len(false_safe),
        "false_safe_functions": [result["function"] for result in false_safe],
    }
    print(json.dumps(summary, indent=2))
    if arguments.json:
        json.dump({"summary": summary, "results": results}, open(arguments.json, "w"), indent=2)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()

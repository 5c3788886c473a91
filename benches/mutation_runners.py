"""The mutation check's pytest runner, and what every runner shares.

Each runner prepares the copied repository, runs its suite (the test ids that pass and fail),
lists the functions that can be mutated, applies a mutation, tells whether a failing test is
among a blast answer's `tests_affected`, and reruns one test alone.
"""

import ast
import contextlib
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

PYTHON_MUTATION = 'raise RuntimeError("tether mutation")'


def run(command, cwd, env=None, timeout=900):
    return subprocess.run(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)


@dataclass(frozen=True, order=True)
class Function:
    """A function to mutate: where it is defined, and where the mutation goes."""

    path: str
    line: int
    insert_line: int
    insert_column: int
    name: str


@contextlib.contextmanager
def edited(work, path, insert):
    """Applies `insert(text) -> text or None` to a file for the duration; yields whether it
    was applied. The file is restored whatever happens."""
    full = os.path.join(work, path)
    original = open(full, encoding="utf-8").read()
    mutated = insert(original)
    if mutated is None:
        yield False
        return
    open(full, "w", encoding="utf-8").write(mutated)
    try:
        yield True
    finally:
        open(full, "w", encoding="utf-8").write(original)


class PytestRunner:
    def __init__(self, work, scratch, tests, extra_arguments, with_coverage=False):
        self.work, self.scratch, self.tests, self.extra_arguments = work, scratch, tests, extra_arguments
        self.with_coverage = with_coverage
        self.python = os.path.join(scratch, "venv", "bin", "python")
        self.junit = os.path.join(scratch, "junit.xml")
        self.collection_failures = set()
        self.session_failed = False

    def prepare(self):
        run([sys.executable, "-m", "venv", os.path.join(self.scratch, "venv")], self.scratch)
        tools = ["pytest", "pytest-cov"] if self.with_coverage else ["pytest"]
        install = run([self.python, "-m", "pip", "install", "-q", "-e", ".", *tools], self.work, timeout=1800)
        if install.returncode != 0:
            raise SystemExit(f"pip install failed:\n{install.stderr[-2000:]}")
        requirements = python_test_dependencies(self.work)
        if requirements:
            installed = run([self.python, "-m", "pip", "install", "-q", *requirements], self.work, timeout=1800)
            if installed.returncode != 0:
                raise SystemExit(f"pip install {requirements} failed:\n{installed.stderr[-2000:]}")
        for file in ["requirements/tests.txt", "requirements-dev.txt", "requirements/tests.in"]:
            if os.path.exists(os.path.join(self.work, file)):
                run([self.python, "-m", "pip", "install", "-q", "-r", file], self.work, timeout=1800)
                break

    def suite(self, only=None, timeout=900):
        """The test ids (file, classname, name) that passed and failed, from a JUnit report."""
        # A module that fails to import stops only its own tests, not the session.
        command = [self.python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--continue-on-collection-errors", f"--junitxml={self.junit}", *self.extra_arguments]
        command += only if only else [self.tests]
        if os.path.exists(self.junit):
            os.remove(self.junit)
        output = run(command, self.work, timeout=timeout)
        passed, failed = set(), set()
        self.collection_failures = set()
        # A conftest.py (or the package it imports) that fails to import stops the session
        # before any test runs: pytest exits with 4 and writes no report. Every test is broken.
        self.session_failed = "ImportError while loading conftest" in output.stdout + output.stderr
        try:
            root = ElementTree.parse(self.junit).getroot()
        except (ElementTree.ParseError, FileNotFoundError):
            return passed, failed
        for case in root.iter("testcase"):
            error = case.find("error")
            # A module that failed to import: `classname=""`, its dotted path as the name.
            if error is not None and not case.get("classname") and "collection failure" in (error.get("message") or ""):
                self.collection_failures.add(case.get("name", ""))
                continue
            ident = (case.get("file"), case.get("classname", ""), case.get("name", ""))
            if case.find("failure") is not None or case.find("error") is not None:
                failed.add(ident)
            elif case.find("skipped") is None:
                passed.add(ident)
        return passed, failed

    def not_collected(self, baseline):
        """The baseline tests of the modules the last run could not import (all of them when
        a conftest.py could not be imported)."""
        if self.session_failed:
            return set(baseline)
        return {ident for ident in baseline for module in self.collection_failures if module and (ident[1] == module or ident[1].startswith(module + "."))}

    def import_coverage(self, tether, source_root):
        """Records per-test coverage once with `tether coverage run` (the suite's own pytest
        with pytest-cov's per-test contexts; tether's hooks attribute what a test runs in a
        subprocess to it) and imports it; returns tether's run. A module that fails to import
        stops only its own tests, as in `suite`."""
        pytest = [self.python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--continue-on-collection-errors", f"--cov={source_root}", "--cov-context=test", *self.extra_arguments, self.tests]
        return run([tether, "coverage", "run", "--python", self.python, "--", *pytest], self.work, timeout=1800)

    def functions(self, source_root):
        """Every function and method with a body of its own lines."""
        found = []
        for folder, _, files in os.walk(os.path.join(self.work, source_root)):
            for file in sorted(files):
                if not file.endswith(".py"):
                    continue
                path = os.path.join(folder, file)
                try:
                    tree = ast.parse(open(path, encoding="utf-8").read())
                except (SyntaxError, UnicodeDecodeError):
                    continue
                relative = os.path.relpath(path, self.work)
                for node in ast.walk(tree):
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        first = first_statement(node)
                        if first is not None:
                            found.append(Function(relative, node.lineno, first.lineno, first.col_offset, node.name))
        return sorted(set(found))

    def mutated(self, function):
        def insert(text):
            lines = text.split("\n")
            lines.insert(function.insert_line - 1, " " * function.insert_column + PYTHON_MUTATION)
            mutated = "\n".join(lines)
            try:
                ast.parse(mutated)
            except SyntaxError:
                return None
            return mutated

        return edited(self.work, function.path, insert)

    def runs(self, test):
        return True

    def is_listed(self, ident, listed):
        return pytest_key(ident) in {key for test in listed for key in tether_python_test_keys(test)}

    def failing_listed(self, broken, listed):
        """How many listed tests (parameters folded) really fail."""
        failing = {pytest_key(ident) for ident in broken}
        return sum(1 for test in listed if failing & tether_python_test_keys(test))

    def fails_alone(self, ident):
        _, classname, name = ident
        modules = [part for part in classname.split(".") if not part[:1].isupper()]
        node = "/".join(modules) + ".py::" + "::".join(pytest_key(ident)[1].split("."))
        _, failed = self.suite(only=[node], timeout=300)
        return bool(failed)

    def describe(self, ident):
        return ".".join(pytest_key(ident))


def first_statement(node):
    """The statement a mutation goes before, or None for bodies that are only a docstring,
    `pass`, or written on the `def` line (`def f(): ...`, an overload stub)."""
    body = node.body
    first = body[0]
    if is_constant(first, str):
        if len(body) == 1:
            return None
        first = body[1]
    if isinstance(first, ast.Pass) and len(body) == 1:
        return None
    if first.lineno <= node.lineno or is_constant(first, type(Ellipsis)):
        return None
    return first


def is_constant(statement, kind):
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, kind)


def pytest_key(ident):
    """A pytest case as (module file stem, qualified test name without parameters)."""
    _, classname, name = ident
    parts = classname.split(".")
    # classname is `tests.test_basic` or `tests.test_basic.TestClass`.
    qualified = ".".join([part for part in parts if part[:1].isupper()] + [name.split("[", 1)[0]])
    module = [part for part in parts if not part[:1].isupper()]
    return module[-1], qualified


def tether_python_test_keys(test):
    """A tether test's keys: one per pytest node id it gives (`test_ids`: an inherited test
    method is collected by each test class inheriting it), else from its qualified name."""
    keys = set()
    for node_id in test.get("test_ids", []):
        path, _, inside = node_id.partition("::")
        keys.add((os.path.splitext(os.path.basename(path))[0], inside.replace("::", ".")))
    return keys or {tether_python_test_key(test)}


def tether_python_test_key(test):
    """A tether test as (module file stem, qualified test name inside its module)."""
    stem = os.path.splitext(os.path.basename(test["path"]))[0]
    segments = test["qualified_name"].split(".")
    for position, segment in enumerate(segments):
        if segment == stem:
            return stem, ".".join(segments[position + 1:])
    return stem, test["qualified_name"].split(".", 1)[-1]


def python_test_dependencies(work):
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
        name = re.split(r"[;\[=<>~!]", entry, maxsplit=1)[0].strip()
        version = pinned.get(name.lower())
        requirements.append(f"{name}=={version}" if version and name == entry.strip() else entry)
    return requirements


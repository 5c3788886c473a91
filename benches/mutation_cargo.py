"""The mutation check's cargo runner: one crate of a Rust workspace, `cargo test`.

Functions are found by their `fn` line and the first `{` after it outside parentheses (a
`;` first means no body); those in `#[cfg(test)]` modules, `#[test]` and `#[cfg(test)]`
items, and `macro_rules!` templates (`fn $name`) are not mutated. A mutated file that does not
build is skipped. Test ids are (target source, test path) as cargo prints them.
"""

import json
import os
import re

from mutation_runners import Function, edited, run

RUST_MUTATION = ' panic!("tether mutation");'
FUNCTION_LINE = re.compile(r'^\s*(pub(\([^)]*\))?\s+)?((const|async|unsafe|default|extern\s+"[^"]*")\s+)*fn\s+([A-Za-z_][A-Za-z0-9_]*)')
RUNNING = re.compile(r"^\s+Running (?:unittests )?(\S+) \(")
RESULT = re.compile(r"^test (\S+) \.\.\. (ok|FAILED|ignored)")


class CargoRunner:
    def __init__(self, work, scratch, package):
        self.work, self.package = work, package
        self.environment = dict(os.environ, CARGO_TARGET_DIR=os.path.join(scratch, "target"), RUSTFLAGS="--cap-lints=warn")
        self.package_folder = None
        # `name@version`: a dependency may be another version of the same crate (itoa's
        # dev-dependencies pull in a newer itoa), and a bare `-p name` is then ambiguous.
        self.spec = package
        self.roots = {}
        self.other_folders = []

    def not_collected(self, baseline):
        """Cargo runs every test of a crate that builds: none goes missing."""
        return set()

    def prepare(self):
        metadata = run(["cargo", "metadata", "--no-deps", "--format-version", "1"], self.work, env=self.environment)
        if metadata.returncode != 0:
            raise SystemExit(f"cargo metadata failed:\n{metadata.stderr[-2000:]}")
        for package in json.loads(metadata.stdout)["packages"]:
            if package["name"] != self.package:
                self.other_folders.append(os.path.relpath(os.path.dirname(package["manifest_path"]), self.work))
                continue
            self.package_folder = os.path.relpath(os.path.dirname(package["manifest_path"]), self.work)
            self.spec = f"{package['name']}@{package['version']}"
            for target in package["targets"]:
                source = os.path.relpath(target["src_path"], os.path.dirname(package["manifest_path"]))
                # Integration tests are crates named after their file; the others after the target.
                self.roots[source] = target["name"].replace("-", "_")
        if self.package_folder is None:
            raise SystemExit(f"no package {self.package} in this workspace")

    def suite(self, only=None, timeout=1800):
        """The test ids that passed and failed; None when the code does not build."""
        command = ["cargo", "test", "--no-fail-fast", "-p", self.spec]
        command += only if only else ["--lib", "--bins", "--tests"]
        # Cargo names each test binary on stderr and its results on stdout; merged, in order.
        output = run(["sh", "-c", '"$@" 2>&1', "sh", *command], self.work, env=self.environment, timeout=timeout)
        if "error: could not compile" in output.stdout:
            return None
        passed, failed = set(), set()
        target = None
        for line in output.stdout.splitlines():
            running = RUNNING.match(line)
            if running:
                target = running.group(1)
                continue
            result = RESULT.match(line)
            if result and target is not None:
                ident = (target, result.group(1))
                if result.group(2) == "FAILED":
                    failed.add(ident)
                elif result.group(2) == "ok":
                    passed.add(ident)
        return passed, failed

    def import_coverage(self, tether, source_root):
        """`tether coverage cargo`: every test of the targets the check runs, alone, instrumented."""
        return run([tether, "coverage", "cargo", "-p", self.spec, "--", "--lib", "--bins", "--tests"], self.work, env=self.environment, timeout=3600)

    def functions(self, source_root):
        found = []
        for folder, _, files in os.walk(os.path.join(self.work, source_root)):
            for file in sorted(files):
                if file.endswith(".rs"):
                    path = os.path.join(folder, file)
                    found += rust_functions(os.path.relpath(path, self.work), open(path, encoding="utf-8", errors="replace").read())
        return sorted(set(found))

    def mutated(self, function):
        def insert(text):
            lines = text.split("\n")
            line = lines[function.insert_line - 1]
            lines[function.insert_line - 1] = line[: function.insert_column] + RUST_MUTATION + line[function.insert_column :]
            return "\n".join(lines)

        return edited(self.work, function.path, insert)

    def runs(self, test):
        # A package at the workspace's root (folder ".") owns every path but other members'.
        if self.package_folder == ".":
            return not any(test["path"].startswith(other + "/") for other in self.other_folders)
        return test["path"].startswith(self.package_folder + "/")

    def is_listed(self, ident, listed):
        target, name = ident
        full = f"{self.roots.get(target, target)}::{name}"
        for test in listed:
            qualified = test["qualified_name"]
            # A test module stands for the tests a macro writes inside it.
            if qualified == full or (test["kind"] not in ("function", "method") and full.startswith(qualified + "::")):
                return True
        return False

    def failing_listed(self, broken, listed):
        """How many listed tests (a test module counts once) really fail."""
        return sum(1 for test in listed if any(self.is_listed(ident, [test]) for ident in broken))

    def fails_alone(self, ident):
        target, name = ident
        selection = ["--test", os.path.splitext(os.path.basename(target))[0]] if target.startswith("tests/") else ["--lib"]
        outcome = self.suite(only=[*selection, "--", "--exact", name], timeout=600)
        return outcome is not None and bool(outcome[1])

    def describe(self, ident):
        return f"{ident[0]}::{ident[1]}"


def rust_functions(path, text):
    """The functions of one file that can be mutated."""
    lines = text.split("\n")
    found = []
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("mod ") and preceded_by(lines, number, "#[cfg(test)]"):
            break  # test modules close their files, by convention
        match = FUNCTION_LINE.match(line)
        if not match or preceded_by(lines, number, "#[test]") or preceded_by(lines, number, "#[cfg(test)]"):
            continue
        body = body_start(lines, number, match.end())
        if body is not None:
            found.append(Function(path, number + 1, body[0] + 1, body[1] + 1, match.group(5)))
    return found


def preceded_by(lines, number, attribute):
    """Whether the attribute lines right above line `number` include `attribute`."""
    above = number - 1
    while above >= 0 and lines[above].strip().startswith(("#[", "///", "//")):
        if lines[above].strip().startswith(attribute):
            return True
        above -= 1
    return False


def body_start(lines, number, column):
    """(line, column) of the body's `{` for the signature starting at (number, column)."""
    depth = 0
    for current in range(number, min(number + 40, len(lines))):
        start = column if current == number else 0
        for position in range(start, len(lines[current])):
            character = lines[current][position]
            if lines[current][position:position + 2] == "//":
                break
            if character in "([":
                depth += 1
            elif character in ")]":
                depth -= 1
            elif depth == 0 and character == ";":
                return None
            elif depth == 0 and character == "{":
                return current, position
    return None

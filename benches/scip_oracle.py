#!/usr/bin/env python3
"""The oracle comparison: tether's Python call edges against `@sourcegraph/scip-python`.

scip-python runs pyright (a type checker) over the repository and writes `index.scip`: every
name occurrence with the symbol it resolves to. A call site's oracle target is the symbol at
its callee's name (the `f` of `f(…)`, the `m` of `x.m(…)`, a bare `@decorator`), when that
symbol is defined in the repository (a function, method or class; a class call is its
`__init__`, own or inherited through the oracle's bases, as tether binds it). Call sites are
found with Python's `ast`, on the line tether records (the call expression's first line).
tether's CALLS edges come from `tether export`; an edge is compared at its caller's file and
its line (edges carry no column).

    python3 benches/scip_oracle.py REPO --tether BIN [--scip-python PATH] [--index FILE]
        [--export FILE] [--source-root DIR]... [--examples N] [--json OUT] [--check]

REPO is indexed with `BIN index REPO` and exported with `BIN export REPO -o …` (no daemon is
started; a running one is asked instead); `--export FILE` reads an earlier export and skips
both. scip-python (`npm install --prefix DIR @sourcegraph/scip-python`, then
`DIR/node_modules/.bin/scip-python`; default: `scip-python` on PATH) runs in a throwaway
virtualenv that sees the system's packages plus REPO's source roots (`src/` when it exists,
and each `--source-root`) ahead of them, so that `import pkg` reaches the checkout rather
than an installed copy of the same package; `--index FILE` reads an earlier `index.scip`.
The index is read with the small protobuf decoder below (no generated code).

What each number means (an edge is a CALLS edge to a project symbol; "≥ 0.9" keeps the edges
of confidence ≥ 0.9):

- oracle edges: distinct (file, line, target) of call sites whose oracle target is a project
  function, method or class.
- recall: the share of oracle edges for which tether has an edge at that file and line to the
  same definition (compared by definition file, line and name).
- wrong-target rate: of the oracle call sites tether links to some project symbol by the
  callee's name, the share where it links to a different project function than the oracle's
  (an override of the oracle's method in a subclass is not counted wrong: it is listed as
  `override`, dynamic dispatch may reach it).
- precision: of tether's edges the oracle can judge (attributed to a call site of the callee's
  name whose oracle target is known), the share that agree; `+override` counts overrides as
  right. Judged edges whose site the oracle resolves outside the project (the standard
  library, a dependency) count against precision and are listed as `outside`.
- oracle misnamed: edges where the oracle's target has another name than the one written at
  the site and the file binds no `import … as` that name (scip-python resolves names reached
  through a star import to the wrong definition); listed, left out of every rate.
- not judged: edges whose line has no call of that name (pytest fixtures, `with`/operator
  dunders, property reads, callbacks, value calls), or whose site pyright leaves unresolved
  or types as a local.

`--check` exits 1 when any edge at confidence ≥ 0.9 has a wrong target (the issue's done-when).
"""

import argparse
import ast
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HIGH = 0.9
OUTSIDE_KINDS = {"external", "builtin"}
# Call-site outcomes that say the oracle knows the target.
PROJECT, OUTSIDE, LOCAL, NONE, OTHER = "project", "outside", "local", "none", "project_other"


# --- a minimal protobuf reader for scip.proto (Index, Document, Occurrence, SymbolInformation)


def varint(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


def fields(data):
    """(field number, wire type, value) of one message; length-delimited values are bytes."""
    at, end = 0, len(data)
    while at < end:
        key, at = varint(data, at)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, at = varint(data, at)
        elif wire == 2:
            length, at = varint(data, at)
            value = data[at : at + length]
            at += length
        elif wire == 1:
            value, at = data[at : at + 8], at + 8
        elif wire == 5:
            value, at = data[at : at + 4], at + 4
        else:
            raise ValueError(f"unsupported protobuf wire type {wire}")
        yield number, wire, value


def packed_ints(value, wire):
    if wire == 0:
        return [value]
    numbers, at = [], 0
    while at < len(value):
        number, at = varint(value, at)
        numbers.append(number)
    return numbers


def read_scip(path):
    """{relative_path: {"occurrences": [(line, start, symbol, roles)], "encoding": n}},
    {symbol: [(relationship symbol, is_implementation)]}, {symbols documented as properties}."""
    with open(path, "rb") as file:
        data = file.read()
    documents, relationships, properties = {}, {}, set()
    for number, _, value in fields(data):
        if number != 2:  # Index.documents
            continue
        document = {"occurrences": [], "encoding": 0}
        relative_path = None
        for field, wire, item in fields(value):
            if field == 1:
                relative_path = item.decode()
            elif field == 2:  # Occurrence: range = 1, symbol = 2, symbol_roles = 3
                occurrence_range, symbol, roles = [], "", 0
                for part, part_wire, part_value in fields(item):
                    if part == 1:
                        occurrence_range += packed_ints(part_value, part_wire)
                    elif part == 2:
                        symbol = part_value.decode()
                    elif part == 3:
                        roles = part_value
                if len(occurrence_range) >= 3 and symbol:
                    document["occurrences"].append((occurrence_range[0], occurrence_range[1], symbol, roles))
            elif field == 3:  # SymbolInformation: symbol = 1, documentation = 3, relationships = 4
                symbol, related, documentation = "", [], None
                for part, _, part_value in fields(item):
                    if part == 1:
                        symbol = part_value.decode()
                    elif part == 3 and documentation is None:
                        documentation = part_value.decode(errors="replace")
                    elif part == 4:  # Relationship: symbol = 1, is_implementation = 3
                        target, implementation = "", False
                        for key, _, inner in fields(part_value):
                            if key == 1:
                                target = inner.decode()
                            elif key == 3:
                                implementation = bool(inner)
                        related.append((target, implementation))
                if symbol and related:
                    relationships[symbol] = related
                # scip-python's hover text: "```python\n@property\ndef name(…".
                if documentation and any(line.startswith("@") and line.split("(")[0].endswith("property")
                                         for line in documentation.split("\n")[1:4]):
                    properties.add(symbol)
            elif field == 6:
                document["encoding"] = item
        if relative_path is not None:
            documents[relative_path] = document
    return documents, relationships, properties


def descriptors(symbol):
    """[(name, suffix)] of a SCIP symbol's descriptors: suffix `/` namespace, `#` type, `.` term,
    `()` method, `:` meta, `(p)` parameter, `[p]` type parameter."""
    # Skip scheme, manager, package name and version (a space inside one is doubled).
    at, spaces = 0, 0
    while at < len(symbol) and spaces < 4:
        if symbol[at] == " ":
            if symbol[at + 1 : at + 2] == " ":
                at += 2
                continue
            spaces += 1
        at += 1
    text, parts = symbol[at:], []
    at = 0
    while at < len(text):
        if text[at] in "([":  # a parameter or type parameter: no name before it
            close = text.index(")" if text[at] == "(" else "]", at)
            parts.append((text[at + 1 : close], text[at] + "p" + text[close]))
            at = close + 1
            continue
        if text[at] == "`":
            name, at = "", at + 1
            while at < len(text):
                if text[at] == "`" and text[at + 1 : at + 2] == "`":
                    name, at = name + "`", at + 2
                elif text[at] == "`":
                    at += 1
                    break
                else:
                    name, at = name + text[at], at + 1
        else:
            start = at
            while at < len(text) and (text[at].isalnum() or text[at] in "_+-$"):
                at += 1
            name = text[start:at]
        if at >= len(text):
            parts.append((name, ""))
            break
        if text[at] == "(":
            close = text.index(")", at)
            parts.append((name, "()"))
            at = close + 2  # `(disambiguator).`
        else:
            parts.append((name, text[at]))
            at += 1
    return parts


def pretty(symbol):
    return ".".join(name for name, suffix in descriptors(symbol) if suffix in ("/", "#", ".", "()", "(p)")) or symbol


def symbol_kind(symbol):
    parts = descriptors(symbol)
    if not parts:
        return None
    return {"()": "callable", "#": "class"}.get(parts[-1][1], "other")


# --- the oracle


class Oracle:
    def __init__(self, documents, relationships, properties):
        self.documents = documents
        self.relationships = relationships
        self.properties = properties
        self.definitions = collections.defaultdict(set)  # symbol -> {(path, line, name)}
        self.at = {}  # (path, line0, character) -> [(symbol, roles)]
        self.referenced_in = collections.defaultdict(set)  # path -> symbols it refers to
        for path, document in documents.items():
            for line, character, symbol, roles in document["occurrences"]:
                self.at.setdefault((path, line, character), []).append((symbol, roles))
                if not roles & 1:
                    self.referenced_in[path].add(symbol)
                if roles & 1 and not symbol.startswith("local "):
                    parts = descriptors(symbol)
                    if parts:
                        self.definitions[symbol].add((path, line + 1, parts[-1][0]))
        self._mro = {}

    def resolve(self, path, line, character):
        """(outcome, symbol) for the name starting at 1-based `line`, oracle `character`."""
        found = [entry for entry in self.at.get((path, line - 1, character), []) if not entry[1] & 1]
        if not found:
            return NONE, None
        for symbol, _ in found:
            if symbol in self.definitions and symbol_kind(symbol) in ("callable", "class"):
                return PROJECT, symbol
        symbol = found[0][0]
        if symbol.startswith("local "):
            return LOCAL, symbol
        if symbol in self.definitions:
            return OTHER, symbol
        return OUTSIDE, symbol

    def bases(self, symbol):
        return [target for target, implementation in self.relationships.get(symbol, []) if implementation]

    def mro(self, cls, depth=0):
        """C3 linearization over the oracle's bases (a depth-first order if C3 fails)."""
        if cls in self._mro:
            return self._mro[cls]
        if depth > 50:
            return [cls]
        self._mro[cls] = [cls]  # guards cycles
        sequences = [self.mro(base, depth + 1) for base in self.bases(cls)] + [self.bases(cls)]
        result = [cls]
        sequences = [list(sequence) for sequence in sequences if sequence]
        while sequences:
            for sequence in sequences:
                head = sequence[0]
                if not any(head in other[1:] for other in sequences):
                    break
            else:  # inconsistent: fall back to depth first
                seen = list(result)
                for sequence in sequences:
                    seen += [item for item in sequence if item not in seen]
                result = seen
                break
            result.append(head)
            sequences = [[item for item in sequence if item != head] for sequence in sequences]
            sequences = [sequence for sequence in sequences if sequence]
        self._mro[cls] = result
        return result

    def constructor(self, cls):
        """The project `__init__` a call of `cls` runs (own or inherited), else None."""
        for each in self.mro(cls):
            init = each + "__init__()."
            if init in self.definitions:
                return init
        return None

    def overrides(self, method, base):
        """Whether `method` overrides `base` (directly or through intermediate overrides)."""
        seen, stack = set(), [method]
        while stack:
            current = stack.pop()
            for parent in self.bases(current):
                if parent == base:
                    return True
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return False


def run_scip_python(repo, scip_python, python, source_roots, output):
    """Runs scip-python in a virtualenv whose sys.path puts the source roots before site-packages."""
    with tempfile.TemporaryDirectory(prefix="scip-oracle-venv-") as venv:
        subprocess.run([python, "-m", "venv", "--system-site-packages", venv], check=True)
        site = subprocess.run(
            [os.path.join(venv, "bin", "python"), "-c", "import site; print(site.getsitepackages()[0])"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
        with open(os.path.join(site, "_scip_oracle_source_roots.pth"), "w", encoding="utf-8") as file:
            file.write("".join(os.path.abspath(root) + "\n" for root in source_roots))
        environment = dict(os.environ, PATH=os.path.join(venv, "bin") + os.pathsep + os.environ.get("PATH", ""))
        environment.pop("PYTHONPATH", None)
        subprocess.run(
            [scip_python, "index", "--quiet", "--cwd", repo, "--output", output],
            check=True, env=environment, cwd=repo, stdout=subprocess.DEVNULL,
        )


# --- call sites


def utf16_column(line_bytes, byte_column):
    prefix = line_bytes[:byte_column].decode("utf-8", errors="replace")
    return len(prefix.encode("utf-16-le")) // 2


def call_sites(source_bytes):
    """[(is a call, line, name, name line, name byte column)]: every call expression whose
    callee ends in a name and every bare decorator (calls, on the line of the call's start),
    then every other attribute read `x.name` (not calls: a property's getter runs there)."""
    tree = ast.parse(source_bytes)
    sites, callees = [], set()
    for node in ast.walk(tree):
        found = []
        if isinstance(node, ast.Call):
            found.append((node.lineno, node.func))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found += [(decorator.lineno, decorator) for decorator in node.decorator_list
                      if isinstance(decorator, (ast.Name, ast.Attribute))]
        for line, callee in found:
            callees.add(id(callee))
            if isinstance(callee, ast.Name):
                sites.append((True, line, callee.id, callee.lineno, callee.col_offset))
            elif isinstance(callee, ast.Attribute):
                column = callee.end_col_offset - len(callee.attr.encode("utf-8"))
                sites.append((True, line, callee.attr, callee.end_lineno, column))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and id(node) not in callees:
            column = node.end_col_offset - len(node.attr.encode("utf-8"))
            sites.append((False, node.lineno, node.attr, node.end_lineno, column))
    return sites


# --- the comparison


def load_export(repo, tether, export):
    if export:
        with open(export, encoding="utf-8") as file:
            return json.load(file)
    subprocess.run([tether, "index", repo], check=True, stdout=subprocess.DEVNULL)
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([tether, "export", repo, "-o", out.name], check=True)
        with open(out.name, encoding="utf-8") as file:
            return json.load(file)


def source_line(repo, path, line):
    try:
        with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as file:
            return file.read().split("\n")[line - 1].strip()
    except (OSError, IndexError):
        return ""


def compare(repo, exported, oracle):
    symbols = {symbol["id"]: symbol for symbol in exported["symbols"]}

    def is_project(symbol):
        return symbol["kind"] not in OUTSIDE_KINDS and symbol["path"] != ""

    # Call sites, with the oracle's answer, by (path, line).
    sites = collections.defaultdict(list)
    counts = collections.Counter()
    for file in exported["files"]:
        path = file["path"]
        if file["language"] != "python" or path not in oracle.documents:
            counts["files without the oracle" if file["language"] == "python" else "other files"] += 1
            continue
        try:
            with open(os.path.join(repo, path), "rb") as handle:
                source = handle.read()
            found = call_sites(source)
        except (OSError, SyntaxError, ValueError):
            counts["files ast cannot parse"] += 1
            continue
        counts["python files compared"] += 1
        lines = source.split(b"\n")
        utf8 = oracle.documents[path]["encoding"] == 1
        for is_call, line, name, name_line, byte_column in found:
            line_bytes = lines[name_line - 1] if name_line - 1 < len(lines) else b""
            column = byte_column if utf8 else utf16_column(line_bytes, byte_column)
            outcome, symbol = oracle.resolve(path, name_line, column)
            if not is_call and (outcome != PROJECT or symbol not in oracle.properties):
                continue  # an attribute read is a call only of a project property's getter
            sites[(path, line)].append({"call": is_call, "name": name, "outcome": outcome, "symbol": symbol,
                                        "edges": []})
            counts[f"{'call sites' if is_call else 'attribute reads'}: oracle {outcome}"] += 1

    # An oracle definition (path, line, name) is the innermost tether symbol of that path and name
    # whose lines hold it (tether's span starts at a function's first decorator).
    by_name = collections.defaultdict(list)
    for symbol in exported["symbols"]:
        if is_project(symbol):
            by_name[(symbol["path"], symbol["name"])].append(symbol)

    def tether_at(place):
        path, line, name = place
        holding = [symbol for symbol in by_name.get((path, name), [])
                   if symbol["start_line"] <= line <= symbol["end_line"]]
        return min(holding, key=lambda symbol: symbol["end_line"] - symbol["start_line"], default=None)

    def same_binding(target, symbol):
        """The same symbol, or a same-named definition in the same scope (`@overload`s, the
        branches of `if`, a property's setter): one name, which pyright names by its first."""
        return symbol is not None and (target["id"] == symbol["id"] or (
            target["name"] == symbol["name"] and target["path"] == symbol["path"]
            and target["parent"] == symbol["parent"]))

    def agrees(target, oracle_symbol):
        candidates = [oracle_symbol]
        if symbol_kind(oracle_symbol) == "class":
            init = oracle.constructor(oracle_symbol)
            if init is not None:
                candidates.append(init)
        return any(same_binding(target, tether_at(place))
                   for candidate in candidates for place in oracle.definitions[candidate])

    oracle_symbol_of = {}  # tether id -> oracle symbol
    for symbol, places in oracle.definitions.items():
        for place in places:
            found = tether_at(place)
            if found is not None:
                oracle_symbol_of.setdefault(found["id"], symbol)

    def named_like(site, target):
        if site["name"] == target["name"]:
            return True
        parent = symbols.get(target["parent"] or "")
        return target["name"] == "__init__" and parent is not None and parent["name"] == site["name"]

    def alternative_binding(target, oracle_symbol):
        """A module-level function whose module also imports the oracle's target under the
        same name (`if WIN: from ._winconsole import f` / `else: def f`, try/except imports):
        one name bound two ways, of which pyright reports the first declaration."""
        parent = symbols.get(target["parent"] or "")
        parts = descriptors(oracle_symbol)
        return (parent is not None and parent["kind"] == "module" and parts and parts[-1][0] == target["name"]
                and oracle_symbol in oracle.referenced_in.get(target["path"], ()))

    aliases_in = {}  # path -> names the file binds with `as`

    def oracle_misnamed(path, site):
        """The oracle's target has another name than the one written at the site, which the
        file never binds by `import … as name`: scip-python resolves a name reached through a
        star import (`toolz.valfilter`, where `toolz/__init__.py` does `from .dicttoolz import
        *`) to the first name of the star-imported module (`merge`), so such a site is not the
        oracle's to judge (tether's target carries the written name)."""
        parts = descriptors(site["symbol"])
        if not parts or parts[-1][0] == site["name"]:
            return False
        if path not in aliases_in:
            try:
                with open(os.path.join(repo, path), encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
            except OSError:
                text = ""
            aliases_in[path] = set(re.findall(r"\bas\s+([A-Za-z_][A-Za-z_0-9]*)", text))
        return site["name"] not in aliases_in[path]

    edges = []
    for edge in exported["edges"]:
        if edge["kind"] != "CALLS":
            continue
        source, target = symbols.get(edge["source"]), symbols.get(edge["target"])
        if source is None or target is None:
            continue
        path, line = source["path"], edge["line"]
        record = {"path": path, "line": line, "confidence": edge["confidence"], "rule": edge["rule"],
                  "caller": source["qualified_name"], "target": target["qualified_name"],
                  "target_at": f"{target['path']}:{target['start_line']}", "verdict": None, "site": None}
        on_line = sites.get((path, line), [])
        if not is_project(target):
            # Kept only to explain recall misses: tether bound the site outside the project.
            for site in on_line:
                if site["name"] == target["name"]:
                    site.setdefault("tether_outside", []).append(record)
            continue
        edges.append(record)
        judged = [site for site in on_line if site["outcome"] == PROJECT]
        agreeing = [site for site in judged if agrees(target, site["symbol"])]
        if agreeing:
            record["verdict"], record["site"] = "agree", agreeing[0]
            for site in agreeing:
                site["edges"].append(record)
            continue
        named = [site for site in on_line if named_like(site, target)]
        named_project = [site for site in named if site["outcome"] == PROJECT]
        if named_project:
            site = named_project[0]
            target_symbol = oracle_symbol_of.get(target["id"])
            if target_symbol is not None and oracle.overrides(target_symbol, site["symbol"]):
                record["verdict"] = "override"
            elif alternative_binding(target, site["symbol"]):
                record["verdict"] = "alternative"
            elif oracle_misnamed(path, site):
                record["verdict"] = "oracle_misnamed"
            else:
                record["verdict"] = "wrong"
            record["site"] = site
            site["edges"].append(record)
        elif any(site["outcome"] == OUTSIDE for site in named):
            record["verdict"] = "outside"
            record["site"] = next(site for site in named if site["outcome"] == OUTSIDE)
        elif named:
            record["verdict"] = "unjudged"  # the oracle has the site but no target for it
        else:
            record["verdict"] = "no_call_site"  # fixtures, dunders, properties, callbacks…

    unresolved = {(call["path"], call["line"], call["callee_name"]) for call in exported["unresolved_calls"]}
    return sites, edges, counts, unresolved, agrees


def figures(sites, edges, unresolved, minimum):
    """The numbers for the edges of confidence ≥ `minimum`."""
    kept = [edge for edge in edges if edge["confidence"] >= minimum - 1e-6]
    verdicts = collections.Counter(edge["verdict"] for edge in kept)
    judged = verdicts["agree"] + verdicts["override"] + verdicts["wrong"] + verdicts["outside"]
    # Recall over distinct oracle edges (file, line, target).
    oracle_edges = {}
    for (path, line), on_line in sites.items():
        for site in on_line:
            if site["outcome"] == PROJECT and site["call"]:
                oracle_edges.setdefault((path, line, site["symbol"]), []).append(site)
    found, misses = 0, collections.Counter()
    for key, group in list(oracle_edges.items()):
        path, line, _ = key
        linked = [edge for site in group for edge in site["edges"] if edge["confidence"] >= minimum - 1e-6]
        if any(edge["verdict"] == "oracle_misnamed" for edge in linked):
            del oracle_edges[key]  # the oracle's own answer is wrong there: not counted
            misses["left out: the oracle misnames the target"] += 1
        elif any(edge["verdict"] == "agree" for edge in linked):
            found += 1
        elif any(edge["verdict"] == "override" for edge in linked):
            misses["tether: an override"] += 1
        elif linked:
            misses["tether: a wrong target"] += 1
        elif any(site.get("tether_outside") for site in group):
            misses["tether: outside the project"] += 1
        elif any((path, line, site["name"]) in unresolved for site in group):
            misses["tether: unresolved"] += 1
        else:
            misses["tether: no edge of that name"] += 1
    # Wrong-target rate over oracle call sites tether links by name.
    linked_sites = wrong_sites = 0
    for on_line in sites.values():
        for site in on_line:
            linked = [edge for edge in site["edges"] if edge["confidence"] >= minimum - 1e-6]
            if any(edge["verdict"] == "oracle_misnamed" for edge in linked):
                continue  # not the oracle's to judge
            if site["outcome"] == PROJECT and linked:
                linked_sites += 1
                wrong_sites += any(edge["verdict"] == "wrong" for edge in linked)
    return {
        "edges": len(kept),
        "verdicts": dict(verdicts),
        "oracle_edges": len(oracle_edges),
        "recall": ratio(found, len(oracle_edges)),
        "recall_found": found,
        "recall_misses": dict(misses),
        "linked_sites": linked_sites,
        "wrong_sites": wrong_sites,
        "wrong_target_rate": ratio(wrong_sites, linked_sites),
        "judged": judged,
        "precision": ratio(verdicts["agree"], judged),
        "precision_with_overrides": ratio(verdicts["agree"] + verdicts["override"], judged),
    }


def ratio(part, whole):
    return round(part / whole, 4) if whole else None


def percent(value):
    return "n/a" if value is None else f"{100 * value:.1f} %"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo")
    parser.add_argument("--tether", help="the tether binary (needed unless --export is given)")
    parser.add_argument("--export", help="an earlier `tether export` of REPO, instead of indexing")
    parser.add_argument("--scip-python", default="scip-python", help="the scip-python program")
    parser.add_argument("--index", help="an earlier index.scip of REPO, instead of running scip-python")
    parser.add_argument("--python", default=sys.executable, help="the Python whose packages scip-python sees")
    parser.add_argument("--source-root", action="append", default=[], help="a folder imports start from (repeatable)")
    parser.add_argument("--keep-index", help="keep the index.scip scip-python writes here")
    parser.add_argument("--examples", type=int, default=20, help="how many examples of each kind to print")
    parser.add_argument("--json", help="write every figure and every wrong or outside edge here")
    parser.add_argument("--check", action="store_true", help="exit 1 when an edge at confidence >= 0.9 has a wrong target")
    arguments = parser.parse_args()
    repo = os.path.abspath(arguments.repo)
    if not arguments.export and not arguments.tether:
        parser.error("give --tether BIN or --export FILE")

    exported = load_export(repo, arguments.tether, arguments.export)
    if arguments.index:
        scip = read_scip(arguments.index)
    else:
        roots = [os.path.join(repo, root) for root in arguments.source_root]
        if os.path.isdir(os.path.join(repo, "src")):
            roots.append(os.path.join(repo, "src"))
        with tempfile.TemporaryDirectory(prefix="scip-oracle-") as scratch:
            output = arguments.keep_index or os.path.join(scratch, "index.scip")
            run_scip_python(repo, arguments.scip_python, arguments.python, roots, os.path.abspath(output))
            scip = read_scip(output)
    oracle = Oracle(*scip)
    sites, edges, counts, unresolved, _ = compare(repo, exported, oracle)
    overall = figures(sites, edges, unresolved, 0.0)
    high = figures(sites, edges, unresolved, HIGH)

    print(f"{repo} at {(exported['meta'].get('head_commit') or '?')[:12]}: "
          + ", ".join(f"{name} {count}" for name, count in sorted(counts.items())))
    print(f"oracle edges (file, line, project target): {overall['oracle_edges']}")
    for label, numbers in (("all edges", overall), (f"confidence >= {HIGH}", high)):
        verdicts = numbers["verdicts"]
        print(f"{label}: {numbers['edges']} project CALLS edges: "
              + ", ".join(f"{name} {verdicts.get(name, 0)}" for name in
                          ("agree", "override", "wrong", "outside", "unjudged", "no_call_site",
                           "oracle_misnamed")))
        print(f"  recall {percent(numbers['recall'])} ({numbers['recall_found']}/{numbers['oracle_edges']}; "
              f"misses: {', '.join(f'{k} {v}' for k, v in sorted(numbers['recall_misses'].items()))})")
        print(f"  wrong-target rate {percent(numbers['wrong_target_rate'])} "
              f"({numbers['wrong_sites']}/{numbers['linked_sites']} call sites)")
        print(f"  precision {percent(numbers['precision'])} ({verdicts.get('agree', 0)}/{numbers['judged']}), "
              f"+override {percent(numbers['precision_with_overrides'])}")
    by_rule = collections.defaultdict(collections.Counter)
    for edge in edges:
        by_rule[edge["rule"]][edge["verdict"]] += 1
    print("by rule: " + "; ".join(
        f"{rule} " + " ".join(f"{verdict} {count}" for verdict, count in sorted(verdicts.items()))
        for rule, verdicts in sorted(by_rule.items())))

    def describe(edge):
        site = edge["site"]
        places = sorted(oracle.definitions.get(site["symbol"], ())) if site["outcome"] == PROJECT else []
        oracle_at = f" ({places[0][0]}:{places[0][1]})" if places else ""
        return {
            "site": f"{edge['path']}:{edge['line']}", "confidence": edge["confidence"], "rule": edge["rule"],
            "caller": edge["caller"], "tether": f"{edge['target']} ({edge['target_at']})",
            "oracle": f"{pretty(site['symbol'])}{oracle_at}" if site["outcome"] == PROJECT else site["symbol"],
            "text": source_line(repo, edge["path"], edge["line"])[:100],
        }

    ordered = sorted(edges, key=lambda edge: (-edge["confidence"], edge["path"], edge["line"]))
    listed = {verdict: [describe(edge) for edge in ordered if edge["verdict"] == verdict]
              for verdict in ("wrong", "outside", "override", "oracle_misnamed")}
    for verdict, examples in listed.items():
        if not examples:
            continue
        print(f"{verdict} ({len(examples)}; highest confidence first):")
        for example in examples[: arguments.examples]:
            print(f"  {example['site']}  {example['confidence']:.2f} {example['rule']:15} tether {example['tether']}"
                  f"  oracle {example['oracle']}  | {example['text']}")
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as file:
            json.dump({"repo": repo, "head_commit": exported["meta"].get("head_commit"), "counts": dict(counts),
                       "all": overall, "high": high, "high_threshold": HIGH,
                       "by_rule": {rule: dict(verdicts) for rule, verdicts in by_rule.items()},
                       **listed}, file, indent=1)
            file.write("\n")
    if arguments.check and high["verdicts"].get("wrong", 0):
        sys.exit(1)


if __name__ == "__main__":
    main()

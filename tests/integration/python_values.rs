//! Python values typed beyond annotations and constructors: module variables read from other
//! modules (`pytest.mark`, `LEGACY_PATH = py.path.local`), locals assigned from attributes,
//! generic classes and annotations, properties, and fixtures pytest itself provides.

use expect_test::expect;
use tether_tests::check;

#[test]
fn module_variables_and_attribute_assignments_carry_their_values() {
    check(
        r#"
        //- /pkg/__init__.py
        from pkg.marks import MARK_GEN as mark
        //- /pkg/marks.py
        class Decorator:
            def __call__(self, *args):
                return self
        class Generator:
            parametrize: Decorator
        MARK_GEN = Generator()
        //- /pkg/paths.py
        class LocalPath:
            def join(self, name):
                return self
        local = LocalPath
        class Maker:
            def checked_call(self, func):
                return func
        _maker = Maker()
        checked_call = _maker.checked_call
        //- /pkg/compat.py
        from pkg import paths
        LEGACY_PATH = paths.local
        //- /app.py
        import pkg
        from pkg import paths
        from pkg.compat import LEGACY_PATH

        class Reporter:
            def __init__(self):
                self.tw = LEGACY_PATH()  # calls: pkg.paths.LocalPath

        def run(reporter: Reporter):
            pkg.mark.parametrize("a", [1])  # calls: pkg.marks.Decorator.__call__
            paths.checked_call(1)  # calls: pkg.paths.Maker.checked_call
            tw = reporter.tw
            tw.join("x")  # calls: pkg.paths.LocalPath.join
            unknown = reporter.missing
            unknown.join("z")  # calls: unresolved

        def annotated(p: LEGACY_PATH):
            p.join("y")  # calls: pkg.paths.LocalPath.join
        "#,
        expect![[r#"
            app.Reporter.__init__ -> pkg.paths.LocalPath @7 constructor 0.9
            app.annotated -> pkg.paths.LocalPath.join @18 typed_receiver 0.85
            app.run -> pkg.marks.Decorator.__call__ @10 typed_receiver 0.85
            app.run -> pkg.paths.LocalPath.join @13 typed_receiver 0.85
            app.run -> pkg.paths.Maker.checked_call @11 typed_receiver 0.85
            pkg.marks -> pkg.marks.Generator @6 constructor 0.9
            pkg.paths -> pkg.paths.Maker @8 constructor 0.9
            unresolved app.run app.py:15 unknown.join (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn reading_a_property_gives_what_its_getter_returns() {
    check(
        r#"
        //- /props.py
        class Node:
            def warn(self):
                return 1

        class Request:
            def __init__(self):
                self._node = Node()  # calls: props.Node
            @property
            def node(self) -> Node:
                return self._node
            @node.setter
            def node(self, value):
                self._node = value
            @property
            def untyped(self):
                return 42

        def use(request: Request):
            request.node.warn()  # calls: props.Node.warn, props.Request.node
            current = request.node
            current.warn()  # calls: props.Node.warn
            value = request.untyped
            value()  # calls: unresolved
        "#,
        expect![[r#"
            props.Request -> <builtin>.property @14 same_scope 0.95
            props.Request -> <builtin>.property @8 same_scope 0.95
            props.Request.__init__ -> props.Node @7 constructor 0.9
            props.use -> props.Node.warn @19 typed_receiver 0.85
            props.use -> props.Node.warn @21 typed_receiver 0.85
            props.use -> props.Request.node @19 typed_receiver 0.85
            props.use -> props.Request.node @20 typed_receiver 0.85
            props.use -> props.Request.untyped @22 typed_receiver 0.85
            unresolved props.Request props.py:11 node.setter (no_project_symbol_named)
            unresolved props.use props.py:23 value (value_call)
        "#]],
    );
}

#[test]
fn fixtures_of_plugins_and_generator_fixtures_feed_tests() {
    check(
        r#"
        //- /plugin/__init__.py
        //- /plugin/paths.py
        from typing import Generator
        import pytest

        class Patcher:
            def setattr(self, name, value):
                return None

        class Factory:
            def mktemp(self, name) -> "Patcher":
                return Patcher()

        @pytest.fixture
        def monkeypatch() -> Generator[Patcher, None, None]:
            patcher = Patcher()
            yield patcher

        class LegacyPlugin:
            @pytest.fixture(scope="session")
            @staticmethod
            def tmpdir_factory() -> Factory:
                return Factory()

        @pytest.fixture
        def helper() -> Factory:
            return Factory()
        //- /plugin/other.py
        import pytest
        from plugin.paths import Factory
        @pytest.fixture
        def helper() -> Factory:
            return Factory()
        //- /tests/test_things.py
        import pytest

        @pytest.fixture
        def path1(tmpdir_factory):
            path = tmpdir_factory.mktemp("x")  # calls: plugin.paths.Factory.mktemp
            yield path

        def test_patch(monkeypatch, path1, helper):
            monkeypatch.setattr("a", 1)  # calls: plugin.paths.Patcher.setattr
            path1.setattr("b", 2)  # calls: plugin.paths.Patcher.setattr
            helper.mktemp("y")  # calls: unresolved
        "#,
        expect![[r#"
            plugin.other -> pytest.fixture @3 import 0.95
            plugin.other.helper -> plugin.paths.Factory @5 constructor 0.9
            plugin.paths -> pytest.fixture @12 import 0.95
            plugin.paths -> pytest.fixture @23 import 0.95
            plugin.paths.Factory.mktemp -> plugin.paths.Patcher @10 constructor 0.9
            plugin.paths.LegacyPlugin -> <builtin>.staticmethod @19 same_scope 0.95
            plugin.paths.LegacyPlugin -> pytest.fixture @18 import 0.95
            plugin.paths.LegacyPlugin.tmpdir_factory -> plugin.paths.Factory @21 constructor 0.9
            plugin.paths.helper -> plugin.paths.Factory @25 constructor 0.9
            plugin.paths.monkeypatch -> plugin.paths.Patcher @14 constructor 0.9
            test_things -> pytest.fixture @3 import 0.95
            test_things.path1 -> plugin.paths.Factory.mktemp @5 typed_receiver 0.85
            test_things.path1 -> plugin.paths.LegacyPlugin.tmpdir_factory @4 pytest_fixture 0.9
            test_things.test_patch -> plugin.paths.Patcher.setattr @10 typed_receiver 0.85
            test_things.test_patch -> plugin.paths.Patcher.setattr @9 typed_receiver 0.85
            test_things.test_patch -> plugin.paths.monkeypatch @8 pytest_fixture 0.9
            test_things.test_patch -> test_things.path1 @8 pytest_fixture 0.9
            unresolved test_things.test_patch tests/test_things.py:11 helper.mktemp (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn overload_stubs_give_way_to_their_implementation() {
    check(
        r#"
        //- /paths.py
        from typing import overload

        class LocalPath:
            @overload
            def stat(self, raising: bool) -> int: ...
            @overload
            def stat(self) -> int: ...
            def stat(self, raising=True):
                return 1

        @overload
        def parse(text: str) -> int: ...
        def parse(text):
            return 1

        def use(p: LocalPath):
            p.stat()  # calls: paths.LocalPath.stat
            parse("x")  # calls: paths.parse
        "#,
        expect![[r#"
            paths -> typing.overload @11 import 0.95
            paths.LocalPath -> typing.overload @4 import 0.95
            paths.LocalPath -> typing.overload @6 import 0.95
            paths.use -> paths.LocalPath.stat @17 typed_receiver 0.85
            paths.use -> paths.parse @18 same_scope 0.95
        "#]],
    );
}

#[test]
fn generic_classes_bases_and_annotations_name_their_class() {
    check(
        r#"
        //- /capture.py
        from typing import Generic, TypeVar, Optional
        T = TypeVar("T")

        class CaptureBase(Generic[T]):
            def done(self):
                return None

        class FDCapture(CaptureBase[str]):
            def snap(self):
                return super().done()  # calls: <builtin>.super, capture.CaptureBase.done

        class StashKey(Generic[T]):
            def get(self):
                return None

        key = StashKey[int]()  # calls: capture.StashKey

        def use(captures: list[FDCapture], current: Optional[CaptureBase[str]], table: dict[str, int]):
            FDCapture().done()  # calls: capture.FDCapture, capture.CaptureBase.done
            key.get()  # calls: capture.StashKey.get
            current.done()  # calls: capture.CaptureBase.done
            captures.append(1)  # calls: <builtin>.list.append
            table.get("a")  # calls: <builtin>.dict.get
        "#,
        expect![[r#"
            capture -> capture.StashKey @16 constructor 0.9
            capture -> typing.TypeVar @2 import 0.95
            capture.FDCapture.snap -> <builtin>.super @10 same_scope 0.95
            capture.FDCapture.snap -> capture.CaptureBase.done @10 self_method 0.9
            capture.use -> <builtin>.dict.get @23 typed_receiver 0.85
            capture.use -> <builtin>.list.append @22 typed_receiver 0.85
            capture.use -> capture.CaptureBase.done @19 typed_receiver 0.85
            capture.use -> capture.CaptureBase.done @21 typed_receiver 0.85
            capture.use -> capture.FDCapture @19 constructor 0.9
            capture.use -> capture.StashKey.get @20 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn tuples_callable_objects_and_context_managers_type_what_they_give() {
    check(
        r#"
        //- /junit.py
        from contextlib import contextmanager
        from typing import Iterator, Self

        class DomNode:
            def get_first_by_tag(self, tag) -> "DomNode":
                return self
            def assert_attr(self, **kwargs):
                return None

        class RunResult:
            def assert_outcomes(self):
                return None

        class RunAndParse:
            def __call__(self, *args) -> tuple[RunResult, DomNode]:
                return RunResult(), DomNode()

        class ExceptionInfo:
            def match(self, pattern):
                return True

        class Watcher:
            def __enter__(self) -> Self:
                return self
            def has_new_errors(self):
                return False

        class RaisesContext:
            def __enter__(self) -> ExceptionInfo:
                return ExceptionInfo()

        def raises(kind) -> RaisesContext:
            return RaisesContext()

        class Patcher:
            def setattr(self, name, value):
                return None
            @contextmanager
            def context(self) -> Iterator["Patcher"]:
                yield Patcher()

        def test_junit(run_and_parse: RunAndParse, patcher: Patcher):
            result, dom = run_and_parse()  # calls: junit.RunAndParse.__call__
            node = dom.get_first_by_tag("testcase")  # calls: junit.DomNode.get_first_by_tag
            node.assert_attr(name="x")  # calls: junit.DomNode.assert_attr
            result.assert_outcomes()  # calls: junit.RunResult.assert_outcomes
            first, *rest = run_and_parse()  # calls: junit.RunAndParse.__call__
            first.assert_outcomes()  # calls: junit.RunResult.assert_outcomes
            with raises(ValueError) as excinfo:  # calls: junit.raises, junit.RaisesContext.__enter__
                pass
            excinfo.match("x")  # calls: junit.ExceptionInfo.match
            with Watcher() as watcher:  # calls: junit.Watcher, junit.Watcher.__enter__
                watcher.has_new_errors()  # calls: junit.Watcher.has_new_errors
            with patcher.context() as patched:  # calls: junit.Patcher.context
                patched.setattr("a", 1)  # calls: junit.Patcher.setattr
        //- /test_fixture.py
        from junit import RunAndParse

        def run_and_parse() -> RunAndParse:
            return RunAndParse()  # calls: junit.RunAndParse

        def test_fixture(run_and_parse):
            result, dom = run_and_parse()  # calls: junit.RunAndParse.__call__
            dom.assert_attr()  # calls: junit.DomNode.assert_attr
        "#,
        expect![[r#"
            junit.Patcher -> contextlib.contextmanager @38 import 0.95
            junit.Patcher.context -> junit.Patcher @40 constructor 0.9
            junit.RaisesContext.__enter__ -> junit.ExceptionInfo @30 constructor 0.9
            junit.RunAndParse.__call__ -> junit.DomNode @16 constructor 0.9
            junit.RunAndParse.__call__ -> junit.RunResult @16 constructor 0.9
            junit.raises -> junit.RaisesContext @33 constructor 0.9
            junit.test_junit -> junit.DomNode.assert_attr @45 typed_receiver 0.85
            junit.test_junit -> junit.DomNode.get_first_by_tag @44 typed_receiver 0.85
            junit.test_junit -> junit.ExceptionInfo.match @51 typed_receiver 0.85
            junit.test_junit -> junit.Patcher.context @54 typed_receiver 0.85
            junit.test_junit -> junit.Patcher.setattr @55 typed_receiver 0.85
            junit.test_junit -> junit.RaisesContext.__enter__ @49 typed_receiver 0.85
            junit.test_junit -> junit.RunAndParse.__call__ @43 typed_receiver 0.85
            junit.test_junit -> junit.RunAndParse.__call__ @47 typed_receiver 0.85
            junit.test_junit -> junit.RunResult.assert_outcomes @46 typed_receiver 0.85
            junit.test_junit -> junit.RunResult.assert_outcomes @48 typed_receiver 0.85
            junit.test_junit -> junit.Watcher @52 constructor 0.9
            junit.test_junit -> junit.Watcher.__enter__ @52 typed_receiver 0.85
            junit.test_junit -> junit.Watcher.has_new_errors @53 typed_receiver 0.85
            junit.test_junit -> junit.raises @49 same_scope 0.95
            test_fixture.run_and_parse -> junit.RunAndParse @4 constructor 0.9
            test_fixture.test_fixture -> junit.DomNode.assert_attr @8 typed_receiver 0.85
            test_fixture.test_fixture -> junit.RunAndParse.__call__ @7 typed_receiver 0.85
            test_fixture.test_fixture -> test_fixture.run_and_parse @6 pytest_fixture 0.9
        "#]],
    );
}

#[test]
fn factory_fixtures_class_fixtures_stub_subclasses_and_outside_super() {
    check(
        r#"
        //- /marks.py
        from typing import TYPE_CHECKING, overload

        class MarkDecorator:
            def __call__(self, *args):
                return self

        class Traceback(list):
            def __init__(self, entries):
                super().__init__(entries)  # calls: <builtin>.super, <builtin>.list.__init__

        if TYPE_CHECKING:
            class XfailDecorator(MarkDecorator):
                @overload
                def __call__(self, reason: str) -> MarkDecorator: ...
                @overload
                def __call__(self, condition: bool) -> MarkDecorator: ...

        def use(xfail: XfailDecorator):
            xfail("why")  # calls: marks.MarkDecorator.__call__
        //- /test_factories.py
        import pytest

        class ColorMapping:
            @classmethod
            def format(cls, text):
                return text

        @pytest.fixture
        def color_mapping():
            return ColorMapping

        class TestThings:
            @pytest.fixture
            def importasmod(self):
                def importasmod(source):
                    return source
                return importasmod

            def test_import(self, importasmod, color_mapping):
                importasmod("x = 1")  # calls: test_factories.TestThings.importasmod.importasmod
                color_mapping.format("{red}")  # calls: test_factories.ColorMapping.format
        "#,
        expect![[r#"
            marks.Traceback.__init__ -> <builtin>.list.__init__ @9 self_method 0.9
            marks.Traceback.__init__ -> <builtin>.super @9 same_scope 0.95
            marks.XfailDecorator -> typing.overload @13 import 0.95
            marks.XfailDecorator -> typing.overload @15 import 0.95
            marks.use -> marks.MarkDecorator.__call__ @19 typed_receiver 0.85
            test_factories -> pytest.fixture @8 import 0.95
            test_factories.ColorMapping -> <builtin>.classmethod @4 same_scope 0.95
            test_factories.TestThings -> pytest.fixture @13 import 0.95
            test_factories.TestThings.test_import -> test_factories.ColorMapping.format @21 typed_receiver 0.85
            test_factories.TestThings.test_import -> test_factories.TestThings.importasmod @19 pytest_fixture 0.9
            test_factories.TestThings.test_import -> test_factories.TestThings.importasmod.importasmod @20 typed_receiver 0.85
            test_factories.TestThings.test_import -> test_factories.color_mapping @19 pytest_fixture 0.9
        "#]],
    );
}

#[test]
fn builtin_containers_keep_their_element() {
    check(
        r#"
        //- /plugins.py
        from typing import Sequence, Mapping, Optional

        class Plugin:
            def get_hook(self, name):
                return None

        class Graph:
            def __init__(self, plugins: list[Plugin], by_name: dict[str, Plugin]):
                self._plugins = plugins
                self.by_name: Mapping[str, Plugin] = by_name

            def hooks(self, extra: Optional[Sequence[Plugin]], names: list[str]):
                for plugin in self._plugins:
                    plugin.get_hook("a")  # calls: plugins.Plugin.get_hook
                found = [p.get_hook("b") for p in extra]  # calls: plugins.Plugin.get_hook
                for key, value in self.by_name.items():  # calls: <builtin>.dict.items
                    value.get_hook(key)  # calls: plugins.Plugin.get_hook
                self.by_name.get("c").get_hook("c")  # calls: <builtin>.dict.get, plugins.Plugin.get_hook
                last = self._plugins.pop()  # calls: <builtin>.list.pop
                last.get_hook("d")  # calls: plugins.Plugin.get_hook
                self._plugins.append(last)  # calls: <builtin>.list.append
                for name in names:
                    name.strip()  # calls: <builtin>.str.strip
                for other in unknown_things():  # calls: unresolved
                    other.get_hook("e")  # calls: unresolved
        "#,
        expect![[r#"
            plugins.Graph.hooks -> <builtin>.dict.get @18 self_method 0.9
            plugins.Graph.hooks -> <builtin>.dict.items @16 self_method 0.9
            plugins.Graph.hooks -> <builtin>.list.append @21 self_method 0.9
            plugins.Graph.hooks -> <builtin>.list.pop @19 self_method 0.9
            plugins.Graph.hooks -> <builtin>.str.strip @23 typed_receiver 0.85
            plugins.Graph.hooks -> plugins.Plugin.get_hook @14 typed_receiver 0.85
            plugins.Graph.hooks -> plugins.Plugin.get_hook @15 typed_receiver 0.85
            plugins.Graph.hooks -> plugins.Plugin.get_hook @17 typed_receiver 0.85
            plugins.Graph.hooks -> plugins.Plugin.get_hook @18 typed_receiver 0.85
            plugins.Graph.hooks -> plugins.Plugin.get_hook @20 typed_receiver 0.85
            unresolved plugins.Graph.hooks plugins.py:24 unknown_things (no_project_symbol_named)
            unresolved plugins.Graph.hooks plugins.py:25 other.get_hook (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn subscripts_read_elements_of_containers_and_getitem() {
    check(
        r#"
        //- /reports.py
        class Report:
            def to_json(self):
                return {}

        class Traceback:
            def __getitem__(self, index) -> Report:
                return Report()

        def use(reports: list[Report], by_id: dict[str, Report], traceback: Traceback, pairs: list[tuple[str, int]]):
            reports[0].to_json()  # calls: reports.Report.to_json
            rep = reports[1]
            rep.to_json()  # calls: reports.Report.to_json
            by_id["a"].to_json()  # calls: reports.Report.to_json
            traceback[-1].to_json()  # calls: reports.Report.to_json, reports.Traceback.__getitem__
            pairs[0].to_json()  # calls: unresolved
        "#,
        expect![[r#"
            reports.Traceback.__getitem__ -> reports.Report @7 constructor 0.9
            reports.use -> reports.Report.to_json @10 typed_receiver 0.85
            reports.use -> reports.Report.to_json @12 typed_receiver 0.85
            reports.use -> reports.Report.to_json @13 typed_receiver 0.85
            reports.use -> reports.Report.to_json @14 typed_receiver 0.85
            reports.use -> reports.Traceback.__getitem__ @14 typed_receiver 0.85
            unresolved reports.use reports.py:15 pairs[0].to_json (unknown_member)
        "#]],
    );
}

#[test]
fn a_narrowing_ends_with_its_branch_and_a_binding_never_types_its_own_value() {
    check(
        r#"
        //- /shapes.py
        class Circle:
            def area(self):
                return 1
            def strip(self):
                return self
        class Square:
            def area(self):
                return 2

        def label(shape: Circle | str):
            if isinstance(shape, Circle):
                return shape.area()  # calls: shapes.Circle.area
            shape = shape.strip()  # calls: unresolved
            return shape

        def describe(shape):
            if isinstance(shape, Circle):
                shape.area()  # calls: shapes.Circle.area
            else:
                shape.strip()  # calls: unresolved

        def report(shape: Square):
            def inner():
                if isinstance(shape, Circle):
                    shape.area()  # calls: shapes.Circle.area
                return shape.area()  # calls: shapes.Square.area
            return inner
        "#,
        expect![[r#"
            shapes.describe -> <builtin>.isinstance @17 same_scope 0.95
            shapes.describe -> shapes.Circle.area @18 typed_receiver 0.85
            shapes.label -> <builtin>.isinstance @11 same_scope 0.95
            shapes.label -> shapes.Circle.area @12 typed_receiver 0.85
            shapes.report.inner -> <builtin>.isinstance @24 same_scope 0.95
            shapes.report.inner -> shapes.Circle.area @25 typed_receiver 0.85
            shapes.report.inner -> shapes.Square.area @26 typed_receiver 0.85
            unresolved shapes.describe shapes.py:20 shape.strip (unknown_receiver_type)
            unresolved shapes.label shapes.py:13 shape.strip (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn builtin_calls_give_what_the_builtin_stub_says() {
    check(
        r#"
        //- /text.py
        def normalise(value: str, items: list, data: bytes):
            value.strip().lower()  # calls: <builtin>.str.strip, <builtin>.str.lower
            str(items).upper()  # calls: <builtin>.str, <builtin>.str.upper
            len(items).bit_length()  # calls: <builtin>.len, <builtin>.int.bit_length
            seen = set()  # calls: <builtin>.set
            seen.add(value)  # calls: <builtin>.set.add
            b"x".decode()  # calls: <builtin>.bytes.decode
            return data.decode().split(",")  # calls: <builtin>.bytes.decode, <builtin>.str.split
        "#,
        expect![[r#"
            text.normalise -> <builtin>.bytes.decode @7 same_scope 0.95
            text.normalise -> <builtin>.bytes.decode @8 typed_receiver 0.85
            text.normalise -> <builtin>.int.bit_length @4 typed_receiver 0.85
            text.normalise -> <builtin>.len @4 same_scope 0.95
            text.normalise -> <builtin>.set @5 same_scope 0.95
            text.normalise -> <builtin>.set.add @6 typed_receiver 0.85
            text.normalise -> <builtin>.str @3 same_scope 0.95
            text.normalise -> <builtin>.str.lower @2 typed_receiver 0.85
            text.normalise -> <builtin>.str.split @8 typed_receiver 0.85
            text.normalise -> <builtin>.str.strip @2 typed_receiver 0.85
            text.normalise -> <builtin>.str.upper @3 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn a_loop_over_a_literal_of_functions_calls_each_of_them() {
    check(
        r#"
        //- /grouping.py
        def group_brackets(tokens):
            return tokens

        def group_case(tokens):
            return tokens

        class Aligner:
            def __init__(self, width):
                self.width = width

        def group(tokens):
            for func in [
                group_brackets,
                # a comment between the names
                group_case,
            ]:
                func(tokens)  # calls: grouping.group_brackets, grouping.group_case
            for make in (Aligner,):
                make(3)  # calls: grouping.Aligner.__init__
            for step in [group_case, len]:
                step(tokens)  # calls: grouping.group_case
            for mixed in [group_case, lambda t: t]:
                mixed(tokens)  # calls: unresolved
        "#,
        expect![[r#"
            grouping.group -> grouping.Aligner.__init__ @19 constructor 0.9
            grouping.group -> grouping.group_brackets @17 ambiguous 0.4
            grouping.group -> grouping.group_case @17 ambiguous 0.4
            grouping.group -> grouping.group_case @21 typed_receiver 0.85
            unresolved grouping.group grouping.py:23 mixed (value_call)
        "#]],
    );
}

#[test]
fn an_attribute_only_subclasses_set_is_an_instance_of_their_nearest_common_class() {
    // boltons' tests are a mixin of test methods on `self.spooled_flo`, which each TestCase
    // subclass sets in `setUp` to another subclass of one base.
    check(
        r#"
        //- /streams.py
        class Stream:
            def write(self, data):
                return len(data)
            def close(self):
                pass
        class BytesStream(Stream):
            def write(self, data):
                return 1
        class TextStream(Stream):
            pass
        class Log:
            def write(self, data):
                return 0
        //- /tests/test_streams.py
        import unittest
        from streams import BytesStream, TextStream, Log

        class StreamTests:
            def test_write(self):
                self.stream.write(b"x")  # calls: streams.Stream.write
                self.stream.close()  # calls: streams.Stream.close
            def test_log(self):
                self.log.write("x")  # calls: streams.Log.write
            def test_unrelated(self):
                self.mixed.write("x")  # calls: unresolved

        class TestBytes(unittest.TestCase, StreamTests):
            def setUp(self):
                self.stream = BytesStream()  # calls: streams.BytesStream
                self.log = Log()  # calls: streams.Log
                self.mixed = Log()  # calls: streams.Log

        class TestText(unittest.TestCase, StreamTests):
            def setUp(self):
                self.stream = TextStream()  # calls: streams.TextStream
                self.mixed = TextStream()  # calls: streams.TextStream
        "#,
        expect![[r#"
            streams.Stream.write -> <builtin>.len @3 same_scope 0.95
            test_streams.StreamTests.test_log -> streams.Log.write @9 typed_receiver 0.85
            test_streams.StreamTests.test_write -> streams.Stream.close @7 typed_receiver 0.85
            test_streams.StreamTests.test_write -> streams.Stream.write @6 typed_receiver 0.85
            test_streams.TestBytes.setUp -> streams.BytesStream @15 constructor 0.9
            test_streams.TestBytes.setUp -> streams.Log @16 constructor 0.9
            test_streams.TestBytes.setUp -> streams.Log @17 constructor 0.9
            test_streams.TestText.setUp -> streams.TextStream @21 constructor 0.9
            test_streams.TestText.setUp -> streams.TextStream @22 constructor 0.9
            unresolved test_streams.StreamTests.test_unrelated tests/test_streams.py:11 self.mixed.write (unknown_member)
        "#]],
    );
}

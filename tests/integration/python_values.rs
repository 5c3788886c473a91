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
            request.node.warn()  # calls: props.Node.warn
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
            unresolved props.Request props.py:11 node.setter (no_project_symbol_named)
            unresolved props.use props.py:23 value (unknown_receiver_type)
        "#]],
    );
}

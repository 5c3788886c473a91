//! Honest completeness: a corpus of idioms whose calls no call expression spells out (values,
//! the language's own invocations, outside code, overrides), in both languages. Each
//! `hidden:` marker is a call the line truly makes; where the graph lacks it, `callers` of the
//! callee must be a lower bound naming the marker's cause, and `blast` must not say exact.
//! Every cause kind is needed by some marker, so removing one makes this fail.

use expect_test::expect;
use tether_tests::check_hidden;

const PYTHON_IDIOMS: &str = r#"
//- /app/__init__.py
//- /app/values.py
import threading
from typing import cast

def on_done():
    return 1

def run(callback):
    return callback()  # hidden: app.values.on_done by escaped_value

def wire():
    return run(on_done)

def make():
    def inner():
        return 2
    return inner

def use_made():
    return make()()  # hidden: app.values.make.inner by escaped_value

def make_cast():
    def casted():
        return 5
    return cast(object, casted)

def use_cast():
    return make_cast()()  # hidden: app.values.make_cast.casted by called_from_outside

class Widget:
    def __init__(self, size):
        self.size = size

    def area(self):
        return self.size

def build(factory):
    return factory(3)  # hidden: app.values.Widget.__init__ by escaped_value

def assemble():
    return build(Widget)

REGISTRY = []

def register(function):
    REGISTRY.append(function)
    return function

@register
def plugin():
    return 3

def run_plugins():
    for each in REGISTRY:
        each()  # hidden: app.values.plugin by escaped_value

def casted(thing):
    return cast(Widget, thing).area()  # hidden: app.values.Widget.area by unresolved_call_sites

def background():
    return 4

def start():
    threading.Timer(1.0, background).start()  # hidden: app.values.background by called_from_outside

def rewrapped():
    return 5

rewrapped = register(rewrapped)

def run_first():
    return REGISTRY[0]()  # hidden: app.values.rewrapped by escaped_value

class Dispatcher:
    def on_start(self):
        return 6

    def handle(self, kind):
        return getattr(self, "on_" + kind)()  # hidden: app.values.Dispatcher.on_start by called_from_outside

def compute_total():
    return 7

def evaluate(expression):
    return eval(expression)  # hidden: app.values.compute_total by called_from_outside

def default_route():
    return 8

def late_route():
    return 9

ROUTES = {"get": {"home": default_route}}
ROUTES["get"]["late"] = late_route

def route(method, name):
    return ROUTES["get"]["late"]()  # hidden: app.values.late_route by escaped_value
//- /app/registry.py
import weakref
import click

def on_version(ctx, param, value):
    return value

VERSION = click.Option(
    ["--version"],
    callback=on_version,
)

class Provider:
    def __init__(self, app):  # hidden: app.registry.Provider.__init__ by escaped_value
        self.app = app

class DefaultProvider(Provider):
    pass

class Scaffold:
    provider_class = DefaultProvider

    def register(self, rules):
        rules.append(self.serve)
        self.provider = self.provider_class(self)

class Blueprint(Scaffold):
    def serve(self):  # hidden: app.registry.Blueprint.serve by escaped_value
        return 1

class App:
    def __init__(self, rules):
        me = weakref.ref(self)
        rules.append(lambda: me().show())  # hidden: app.registry.App.show by unresolved_call_sites

    def show(self):
        return 2

class Settings:
    @property
    def path(self):
        return self._path

    @path.setter
    def path(self, value):
        self._path = value

def configure(settings: Settings):
    settings.path = "/"  # hidden: app/registry.py:44 by implicit_invocation

class RawStream:
    def readable(self):
        return True

def wrap_stream():
    import io
    return io.BufferedReader(RawStream())  # hidden: app.registry.RawStream.readable by called_from_outside

def __getattr__(name):
    return name

def old_name():
    from app import registry
    return registry.renamed  # hidden: app.registry.__getattr__ by implicit_invocation
//- /app/protocols.py
class Session:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __eq__(self, other):
        return True

    def __iter__(self):
        return iter([])

    @property
    def name(self):
        return "s"

def use_session(other):
    with Session() as session:  # hidden: app.protocols.Session.__enter__ by implicit_invocation
        if session == other:  # hidden: app.protocols.Session.__eq__ by implicit_invocation
            return session.name  # hidden: app.protocols.Session.name by implicit_invocation
        for item in session:  # hidden: app.protocols.Session.__iter__ by implicit_invocation
            return item
//- /app/overrides.py
import http.server

class Base:
    def run(self):
        return self.step()

    def step(self):
        return 0

class Child(Base):
    def step(self):  # hidden: app.overrides.Child.step by overrides
        return 1

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # hidden: app.overrides.Handler.do_GET by called_from_outside
        return None
//- /app/loops.py
def fetch(x):
    return x

def build(x):
    return x

EXTRA = []

def run_steps(x):
    for step in [fetch] + EXTRA:
        step(x)  # hidden: app.loops.fetch by escaped_value
    for each in [build]:
        each(x)
//- /app/escapes.py
def in_lambda(x):
    return x

def in_comprehension(x):
    return x

def as_key(x):
    return x

def splatted(x):
    return x

def make_thunk():
    return lambda: in_lambda

HOOKS = {}
SLOTS = (1, 2)
KEYS = {as_key: 1}

def fill():
    HOOKS["all"] = [in_comprehension for _ in SLOTS]

def keep(*fns):
    return fns

def run(x):
    make_thunk()()(x)  # hidden: app.escapes.in_lambda by escaped_value
    for hook in HOOKS["all"]:
        hook(x)  # hidden: app.escapes.in_comprehension by escaped_value
    for key in KEYS:
        key(x)  # hidden: app.escapes.as_key by escaped_value
    for fn in keep(*[splatted]):
        fn(x)  # hidden: app.escapes.splatted by escaped_value
//- /tests/test_values.py
from app.values import wire

def test_wire():  # hidden: test_values.test_wire by called_from_outside
    assert wire() == 1
"#;

#[test]
fn python_calls_no_call_expression_spells_out_are_reported() {
    let report = check_hidden(PYTHON_IDIOMS);
    expect![[r#"
        app/values.py:8 app.values.on_done: in the graph
        app/values.py:19 app.values.make.inner: in the graph
        app/values.py:27 app.values.make_cast.casted: lower_bound: outside: app.values.make_cast.casted is passed to the outside typing.cast at app/values.py:24
        app/values.py:37 app.values.Widget.__init__: in the graph
        app/values.py:54 app.values.plugin: in the graph
        app/values.py:57 app.values.Widget.area: in the graph
        app/values.py:63 app.values.background: lower_bound: outside: app.values.background may be reached by name through <builtin>.eval() at app/values.py:84 (a name or code computed at run time) | app.values.background is passed to the outside threading.Timer().start at app/values.py:63
        app/values.py:71 app.values.rewrapped: in the graph
        app/values.py:78 app.values.Dispatcher.on_start: lower_bound: outside: app.values.Dispatcher.on_start may be reached by name through <builtin>.getattr() at app/values.py:78 (a name or code computed at run time)
        app/values.py:84 app.values.compute_total: lower_bound: outside: app.values.compute_total may be reached by name through <builtin>.eval() at app/values.py:84 (a name or code computed at run time)
        app/values.py:96 app.values.late_route: lower_bound: 1 escaped as values, 15 value calls; outside: app.values.late_route may be reached by name through <builtin>.eval() at app/values.py:84 (a name or code computed at run time)
        app/registry.py:13 app.registry.Provider.__init__: lower_bound: 1 escaped as values, 15 value calls
        app/registry.py:27 app.registry.Blueprint.serve: lower_bound: 1 escaped as values, 15 value calls
        app/registry.py:33 app.registry.App.show: lower_bound: 1 unresolved sites calling "show"
        app/registry.py:48 app/registry.py:44: in the graph
        app/registry.py:56 app.registry.RawStream.readable: lower_bound: outside: app.registry.RawStream.readable: the file protocol (io.TextIOWrapper) calls it on objects handed to it
        app/registry.py:63 app.registry.__getattr__: lower_bound: implicit: app.registry.__getattr__: reading a missing attribute of the module, dir(module)
        app/protocols.py:19 app.protocols.Session.__enter__: in the graph
        app/protocols.py:20 app.protocols.Session.__eq__: in the graph
        app/protocols.py:21 app.protocols.Session.name: in the graph
        app/protocols.py:22 app.protocols.Session.__iter__: in the graph
        app/overrides.py:11 app.overrides.Child.step: lower_bound: 1 overridden calls
        app/overrides.py:15 app.overrides.Handler.do_GET: lower_bound: outside: app.overrides.Handler.do_GET: its class extends http.server.BaseHTTPRequestHandler, outside the project, which may call it
        app/loops.py:11 app.loops.fetch: lower_bound: 1 escaped as values, 15 value calls
        app/escapes.py:27 app.escapes.in_lambda: lower_bound: 1 escaped as values, 15 value calls
        app/escapes.py:29 app.escapes.in_comprehension: lower_bound: 1 escaped as values, 15 value calls
        app/escapes.py:31 app.escapes.as_key: lower_bound: 1 escaped as values, 15 value calls
        app/escapes.py:33 app.escapes.splatted: lower_bound: 1 escaped as values, 15 value calls
        tests/test_values.py:3 test_values.test_wire: lower_bound: outside: test_values.test_wire is run by the test runner
    "#]]
    .assert_eq(&report);
}

const RUST_IDIOMS: &str = r#"
//- /Cargo.toml
[package]
name = "idioms"
//- /src/lib.rs
use std::fmt;
use std::ops::Add;

pub fn target() -> u32 { 1 }

pub fn apply(f: impl Fn() -> u32) -> u32 {
    f()  // hidden: idioms::target by escaped_value
}

pub fn wire() -> u32 { apply(target) }

pub struct Handlers { pub run: fn() -> u32 }

pub fn on_event() -> u32 { 2 }

pub fn dispatch(handlers: &Handlers) -> u32 {
    (handlers.run)()  // hidden: idioms::on_event by escaped_value
}

pub fn table() -> Handlers { Handlers { run: on_event } }

pub struct Meters(pub u32);

impl fmt::Display for Meters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {  // hidden: idioms::{impl Display for Meters}::fmt by implicit_invocation
        write!(f, "{} m", self.0)
    }
}

impl Add for Meters {
    type Output = Meters;
    fn add(self, other: Meters) -> Meters {  // hidden: idioms::{impl Add for Meters}::add by implicit_invocation
        Meters(self.0 + other.0)
    }
}

impl Drop for Meters {
    fn drop(&mut self) {}  // hidden: idioms::{impl Drop for Meters}::drop by implicit_invocation
}

#[derive(Debug)]
pub struct Failure;

impl std::error::Error for Failure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {  // hidden: idioms::{impl Error for Failure}::source by called_from_outside
        None
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "failure") }
}

pub trait Shape { fn area(&self) -> u32; }

impl Shape for Meters {
    fn area(&self) -> u32 { self.0 }
}

pub fn measure(distance: &Meters) -> u32 {
    <Meters as Shape>::area(distance)
}

pub fn measure_outside() -> u32 {
    outside::shape().area()  // hidden: idioms::{impl Shape for Meters}::area by unresolved_call_sites
}

pub fn show(distance: Meters) -> String {
    let total = distance + Meters(1);
    format!("{total}")
}

pub fn parse_width(text: &str) -> u32 { text.len() as u32 }

pub fn widths() -> Vec<u32> {
    outside_macros::map_all!(parse_width, "a", "bb")  // hidden: idioms::parse_width by unanalysed_code
}

pub trait Halve { fn halve(self) -> Self; }

impl Halve for u32 { fn halve(self) -> Self { self / 2 } }

macro_rules! through_trait { ($method:ident) => { <u32 as Halve>::$method(4) } }

pub fn halved() -> u32 {
    through_trait!(halve)  // hidden: idioms::{impl Halve for u32}::halve by unanalysed_code
}

pub trait Widen { fn widen(n: u8) -> Self; }

impl Widen for u64 { fn widen(n: u8) -> Self { n as u64 } }

impl Widen for u32 { fn widen(n: u8) -> Self { n as u32 } }

pub fn widened<T: Widen>() -> T {
    T::widen(1)  // hidden: idioms::{impl Widen for u64}::widen by overrides
}
"#;

#[test]
fn rust_calls_no_call_expression_spells_out_are_reported() {
    let report = check_hidden(RUST_IDIOMS);
    expect![[r#"
        src/lib.rs:7 idioms::target: in the graph
        src/lib.rs:17 idioms::on_event: in the graph
        src/lib.rs:25 idioms::{impl Display for Meters}::fmt: lower_bound: implicit: idioms::{impl Display for Meters}::fmt (Display): format!, println!, write!, {} and to_string()
        src/lib.rs:32 idioms::{impl Add for Meters}::add: lower_bound: implicit: idioms::{impl Add for Meters}::add (Add): +
        src/lib.rs:38 idioms::{impl Drop for Meters}::drop: lower_bound: implicit: idioms::{impl Drop for Meters}::drop (Drop): the end of the value's scope
        src/lib.rs:45 idioms::{impl Error for Failure}::source: lower_bound: outside: idioms::{impl Error for Failure}::source implements std::error::Error, outside the project, whose code may call it
        src/lib.rs:65 idioms::{impl Shape for Meters}::area: lower_bound: 1 unresolved sites calling "area"
        src/lib.rs:76 idioms::parse_width: in the graph
        src/lib.rs:86 idioms::{impl Halve for u32}::halve: in the graph
        src/lib.rs:96 idioms::{impl Widen for u64}::widen: in the graph
    "#]]
    .assert_eq(&report);
}

/// Idioms that must be honest alone: each fixture holds no other call through a value, so the
/// cause comes from the idiom itself (`eval` runs code that may call what the module defines;
/// a function stored into a nested dict after its literal is called through the same keys; a
/// module-level proxy or `Any` stands for a project object whose methods it calls).
#[test]
fn python_dynamic_code_and_nested_stores_are_reported_alone() {
    let evaluated = r#"
//- /app/__init__.py
//- /app/run.py
def compute_total():
    return 7

def evaluate(expression):
    return eval(expression)  # hidden: app.run.compute_total by called_from_outside
"#;
    let nested = r#"
//- /app/__init__.py
//- /app/routes.py
def default_route():
    return 8

def late_route():
    return 9

ROUTES = {"get": {"home": default_route}}
ROUTES["get"]["late"] = late_route

def route():
    return ROUTES["get"]["late"]()  # hidden: app.routes.late_route by escaped_value
"#;
    let proxied = r#"
//- /app/__init__.py
//- /app/core.py
from typing import Any
from werkzeug.local import LocalProxy

class App:
    def dispatch(self):
        return 10

    def teardown(self):
        return 11

_app = App()
current_app = LocalProxy(lambda: _app)
anything: Any = _app

def view():
    return current_app.dispatch()  # hidden: app.core.App.dispatch by unresolved_call_sites

def close():
    return anything.teardown()  # hidden: app.core.App.teardown by unresolved_call_sites
"#;
    let report: String = [evaluated, nested, proxied].into_iter().map(check_hidden).collect();
    expect![[r#"
        app/run.py:5 app.run.compute_total: lower_bound: outside: app.run.compute_total may be reached by name through <builtin>.eval() at app/run.py:5 (a name or code computed at run time)
        app/routes.py:11 app.routes.late_route: lower_bound: 1 escaped as values, 1 value calls
        app/core.py:16 app.core.App.dispatch: lower_bound: 1 unresolved sites calling "dispatch"
        app/core.py:19 app.core.App.teardown: lower_bound: 1 unresolved sites calling "teardown"
    "#]].assert_eq(&report);
}

/// A constructor is called by its class's name: an unresolved `self.Wrapper(obj)` (a nested
/// class only subclasses define, read through `self` in the base) may run `Wrapper.__init__`,
/// and through `super().__init__` the base wrapper's; constructing any project subclass by an
/// unresolved name may run the base's `__init__` too.
#[test]
fn python_constructors_called_by_an_unresolved_class_name_are_reported() {
    let nested_class_through_self = r#"
//- /app/__init__.py
//- /app/described.py
class WrapperBase:
    def __init__(self, obj):
        self.obj = obj

class DescriptorBase:
    def __get__(self, obj, objtype=None):
        return self.Wrapper(obj)  # hidden: app.described.cached.Descriptor.Wrapper.__init__ by unresolved_call_sites

def cached(method):
    class Descriptor(DescriptorBase):
        class Wrapper(WrapperBase):
            def __init__(self, obj):
                super().__init__(obj)
                self.method = method

    return Descriptor()
"#;
    let subclass_by_name = r#"
//- /app/__init__.py
//- /app/shapes.py
class Shape:
    def __init__(self, size):
        self.size = size

class Square(Shape):
    pass

def build(module):
    return module.Square(3)  # hidden: app.shapes.Shape.__init__ by unresolved_call_sites
"#;
    let report: String =
        [nested_class_through_self, subclass_by_name].into_iter().map(check_hidden).collect();
    expect![[r#"
        app/described.py:7 app.described.cached.Descriptor.Wrapper.__init__: in the graph
        app/shapes.py:9 app.shapes.Shape.__init__: lower_bound: 1 unresolved sites calling "Square"
    "#]]
    .assert_eq(&report);
}

/// Methods handed on without a call expression that names them, each alone: a method of a
/// receiver no path names passed to `functools.partial` (`partial(machine.get_state(name)
/// .exit, …)`); a function stored onto a class under a literal name (`setattr(cls,
/// "add_model", add_model_override)`, then `machine.add_model(…)`), a store and not a value
/// handed to outside code; a method read through an alias of `__getattribute__` with a literal
/// name (`get_attr = super(Locked, self).__getattribute__`, then `get_attr("_locked_method")`).
#[test]
fn python_methods_handed_on_through_partial_setattr_and_getattribute_are_reported_alone() {
    let partial_of_a_call = r#"
//- /app/__init__.py
//- /app/states.py
from functools import partial

class State:
    def scoped_exit(self, event):
        return event

def exits(machine, names, event):
    callbacks = [partial(machine.get_state(name).scoped_exit, event) for name in names]
    return [each() for each in callbacks]  # hidden: app.states.State.scoped_exit by escaped_value
"#;
    let stored_by_setattr = r#"
//- /app/__init__.py
//- /app/patch.py
def with_model_definitions(cls):
    add_model = getattr(cls, "add_model")

    def add_model_override(self, model):
        return add_model(self, model)

    setattr(cls, "add_model", add_model_override)
    return cls

@with_model_definitions
class Machine:
    def add_model(self, model):
        return model

def attach(machine: Machine, model):
    return machine.add_model(model)  # hidden: app.patch.with_model_definitions.add_model_override by escaped_value
"#;
    let read_by_getattribute = r#"
//- /app/__init__.py
//- /app/locked.py
from functools import partial

class Base:
    pass

class Locked(Base):
    def _locked_method(self, func, *args):
        return func(*args)

    def __getattribute__(self, item):
        get_attr = super(Locked, self).__getattribute__
        found = get_attr(item)
        if not item.startswith("_"):
            return partial(get_attr("_locked_method"), found)
        return found

    def trigger(self):
        return 1

def fire(locked: Locked):
    return locked.trigger()  # hidden: app.locked.Locked._locked_method by called_from_outside
"#;
    let report: String = [partial_of_a_call, stored_by_setattr, read_by_getattribute]
        .into_iter()
        .map(check_hidden)
        .collect();
    expect![[r#"
        app/states.py:9 app.states.State.scoped_exit: lower_bound: 1 escaped as values, 1 value calls
        app/patch.py:16 app.patch.with_model_definitions.add_model_override: lower_bound: 1 escaped as values, 1 value calls
        app/locked.py:21 app.locked.Locked._locked_method: lower_bound: outside: app.locked.Locked._locked_method is passed to the outside functools.partial at app/locked.py:14
    "#]].assert_eq(&report);
}

/// A name a macro's tokens mention, where the expansion is not followed, is a `maybe` caller
/// (`name_only` edges from the invocation, or from the tests the macro writes there) and the
/// answer names the `unanalysed_code` cause with the site.
#[test]
fn names_in_unanalysed_macro_tokens_are_maybe_callers_and_a_named_cause() {
    let (_directory, snapshot) = tether_tests::snapshot_of(RUST_IDIOMS);
    for address in ["idioms::parse_width", "idioms::{impl Halve for u32}::halve"] {
        let subject = snapshot.resolve_address(address).unwrap();
        let answer = snapshot.neighbours(
            subject,
            tether_query::NeighbourKind::Callers,
            tether_query::PageRequest::default(),
        );
        let callers: Vec<(&str, &str)> = answer
            .items
            .iter()
            .map(|item| (snapshot.symbol(item.index).qualified_name.as_str(), item.rule.as_str()))
            .collect();
        let completeness = tether_tests::render_completeness(&answer.completeness);
        assert!(completeness.contains("unanalysed mentions of"), "{address}: {completeness}");
        assert!(
            !callers.is_empty() && callers.iter().all(|(_, rule)| *rule == "name_only"),
            "{address}: {callers:?}"
        );
    }
}

/// A function a program's entry reaches (`if __name__ == "__main__":`, a package's
/// `__main__.py`, a crate's `main`) runs when a test starts the program in a subprocess, which
/// the graph does not see: its blast is a lower bound that names the entry, never `exact`.
#[test]
fn what_a_program_entry_reaches_is_never_exact_in_a_blast() {
    let fixture = r#"
        //- /tool/__init__.py
        //- /tool/cli.py
        def run():
            return 1

        def only_for_tests():
            return 2

        if __name__ == "__main__":
            run()
        //- /tool/__main__.py
        from tool.cli import run as start
        from tool.report import show
        show()
        //- /tool/report.py
        def show():
            return 3
        //- /tests/test_cli.py
        import subprocess, sys
        from tool.cli import only_for_tests

        def test_script():
            subprocess.run([sys.executable, "tool/cli.py"], check=True)

        def test_direct():
            assert only_for_tests() == 2
        //- /Cargo.toml
        [package]
        name = "prog"
        //- /src/main.rs
        fn work() -> u32 { 1 }

        fn main() {
            work();
        }
        "#;
    let (_directory, snapshot) = tether_tests::snapshot_of(fixture);
    let status = |address: &str| {
        let subject = snapshot.resolve_address(address).unwrap();
        let answer = snapshot.blast_symbol(subject, tether_query::BlastOptions::default()).unwrap();
        tether_tests::render_completeness(&answer.completeness)
    };
    expect![[r#"
        tool.cli.run: lower_bound: outside: tool.cli.__main__ runs when the file is run as a script: a test that starts it in a subprocess is not seen | tool.__main__ runs as `python -m`: a test that starts it in a subprocess is not seen
        tool.report.show: lower_bound: outside: tool.__main__ runs as `python -m`: a test that starts it in a subprocess is not seen
        prog::work: lower_bound: outside: prog::main is the program's entry point: a test that runs the binary is not seen
        tool.cli.only_for_tests: exact"#]]
    .assert_eq(
        &["tool.cli.run", "tool.report.show", "prog::work", "tool.cli.only_for_tests"]
            .map(|address| format!("{address}: {}", status(address)))
            .join("\n"),
    );
}

/// A macro invoked where items go (an impl body) in another file writes methods the graph
/// does not hold (the expansion is not followed): what calls them is not seen, so a blast of
/// the macro is a lower bound naming the invocations, never `exact`.
#[test]
fn a_macro_writing_items_elsewhere_is_never_exact_in_a_blast() {
    let fixture = r#"
        //- /Cargo.toml
        [package]
        name = "iters"
        //- /src/lib.rs
        #[macro_use]
        mod macros;
        pub mod list;
        //- /src/macros.rs
        macro_rules! counting_methods {
            () => {
                fn count_all(&self) -> usize { self.items.len() }
            };
        }
        //- /src/list.rs
        pub struct List { items: Vec<u32> }

        impl List {
            counting_methods!();
        }

        #[cfg(test)]
        mod tests {
            #[test]
            fn counts() {
                let list = super::List { items: vec![1] };
                assert_eq!(list.count_all(), 1);
            }
        }
        "#;
    let (_directory, snapshot) = tether_tests::snapshot_of(fixture);
    let subject = snapshot.resolve_address("iters::macros::counting_methods").unwrap();
    let answer = snapshot.blast_symbol(subject, tether_query::BlastOptions::default()).unwrap();
    expect![[r#"lower_bound: 1 unanalysed mentions of "iters::macros::counting_methods""#]]
        .assert_eq(&tether_tests::render_completeness(&answer.completeness));
}

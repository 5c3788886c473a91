//! Edges no call expression spells out: pytest fixtures (parameters, `usefixtures`, autouse,
//! conftest chains), callbacks through outside code, and `cls` rebound inside a method. Each
//! marker line must reach exactly its targets; removing a rule fails its test.

use expect_test::expect;
use tether_tests::check;

#[test]
fn tests_and_fixtures_depend_on_the_fixtures_they_request() {
    check(
        r#"
        //- /tests/conftest.py
        import pytest
        from app import make_app

        @pytest.fixture
        def app():
            return make_app()  # calls: app.make_app

        @pytest.fixture
        def client(app):  # calls: conftest.app
            return app.client()  # calls: app.App.client

        @pytest.fixture(autouse=True)
        def clean_environment(monkeypatch):  # calls: none
            pass

        @pytest.fixture
        def database():
            return 1
        //- /tests/test_views.py
        import pytest

        @pytest.fixture
        def client():
            return 2

        def test_index(client, tmp_path):  # calls: test_views.client, conftest.clean_environment
            pass

        def test_app(app):  # calls: conftest.app, conftest.clean_environment
            pass

        @pytest.mark.usefixtures("database")  # calls: pytest.mark.usefixtures, conftest.database, conftest.clean_environment
        def test_with_database():  # calls: none
            pass

        def helper(app):  # calls: none
            pass

        @pytest.mark.usefixtures("database")  # calls: pytest.mark.usefixtures, conftest.database
        class TestGroup:
            @pytest.fixture(autouse=True)
            def reset(self):  # calls: none
                pass

            def test_one(self, app):  # calls: conftest.app, test_views.TestGroup.reset, conftest.clean_environment
                pass
        //- /app.py
        class App:
            def client(self):
                return 3

        def make_app() -> App:
            return App()  # calls: app.App
        "#,
        expect![[r#"
            app.make_app -> app.App @6 constructor 0.9
            conftest -> pytest.fixture @12 import 0.95
            conftest -> pytest.fixture @16 import 0.95
            conftest -> pytest.fixture @4 import 0.95
            conftest -> pytest.fixture @8 import 0.95
            conftest.app -> app.make_app @6 import 0.95
            conftest.client -> app.App.client @10 typed_receiver 0.85
            conftest.client -> conftest.app @9 pytest_fixture 0.9
            test_views -> pytest.fixture @3 import 0.95
            test_views -> pytest.mark.usefixtures @13 import 0.95
            test_views -> pytest.mark.usefixtures @20 import 0.95
            test_views.TestGroup -> pytest.fixture @22 import 0.95
            test_views.TestGroup.test_one -> conftest.app @26 pytest_fixture 0.9
            test_views.TestGroup.test_one -> conftest.clean_environment @26 pytest_fixture 0.9
            test_views.TestGroup.test_one -> conftest.database @20 pytest_fixture 0.9
            test_views.TestGroup.test_one -> test_views.TestGroup.reset @26 pytest_fixture 0.9
            test_views.test_app -> conftest.app @10 pytest_fixture 0.9
            test_views.test_app -> conftest.clean_environment @10 pytest_fixture 0.9
            test_views.test_index -> conftest.clean_environment @7 pytest_fixture 0.9
            test_views.test_index -> test_views.client @7 pytest_fixture 0.9
            test_views.test_with_database -> conftest.clean_environment @13 pytest_fixture 0.9
            test_views.test_with_database -> conftest.database @13 pytest_fixture 0.9
        "#]],
    );
}

#[test]
fn fixtures_renamed_by_their_decorator_are_requested_by_that_name() {
    check(
        r#"
        //- /tests/conftest.py
        import pytest

        @pytest.fixture(name="client")
        def _client_fixture():
            return 1

        @pytest.fixture(name="same")
        def same():
            return 2
        //- /tests/test_renamed.py
        import pytest

        @pytest.fixture(name="async_app")
        def _async_app():
            return 3

        def test_route(async_app, client, same):  # calls: test_renamed._async_app, conftest._client_fixture, conftest.same
            pass

        def test_function_name(_async_app):  # calls: none
            pass

        class TestGroup:
            @pytest.fixture(name="resource")
            def _make_resource(self):
                return 4

            def test_one(self, resource):  # calls: test_renamed.TestGroup._make_resource
                pass
        "#,
        expect![[r#"
            conftest -> pytest.fixture @3 import 0.95
            conftest -> pytest.fixture @7 import 0.95
            test_renamed -> pytest.fixture @3 import 0.95
            test_renamed.TestGroup -> pytest.fixture @14 import 0.95
            test_renamed.TestGroup.test_one -> test_renamed.TestGroup._make_resource @18 pytest_fixture 0.9
            test_renamed.test_route -> conftest._client_fixture @7 pytest_fixture 0.9
            test_renamed.test_route -> conftest.same @7 pytest_fixture 0.9
            test_renamed.test_route -> test_renamed._async_app @7 pytest_fixture 0.9
        "#]],
    );
}

#[test]
fn a_serializer_handed_to_itsdangerous_is_called_back() {
    check(
        r#"
        //- /app/sessions.py
        from itsdangerous import URLSafeTimedSerializer

        class TaggedSerializer:
            def dumps(self, value):
                return ""

            def loads(self, text):
                return {}

            def unrelated(self):
                return 1

        session_serializer = TaggedSerializer()

        class SessionInterface:
            serializer = session_serializer

            def signing_serializer(self, key):
                return URLSafeTimedSerializer(key, serializer=self.serializer)  # calls: itsdangerous.URLSafeTimedSerializer, sessions.TaggedSerializer.dumps, sessions.TaggedSerializer.loads

            def spread_over_lines(self, key):
                return URLSafeTimedSerializer(  # calls: itsdangerous.URLSafeTimedSerializer, sessions.TaggedSerializer.dumps, sessions.TaggedSerializer.loads
                    key,
                    serializer=self.serializer,
                )
        "#,
        expect![[r#"
            sessions -> sessions.TaggedSerializer @13 constructor 0.9
            sessions.SessionInterface.signing_serializer -> itsdangerous.URLSafeTimedSerializer @19 import 0.95
            sessions.SessionInterface.signing_serializer -> sessions.TaggedSerializer.dumps @19 callback 0.5
            sessions.SessionInterface.signing_serializer -> sessions.TaggedSerializer.loads @19 callback 0.5
            sessions.SessionInterface.spread_over_lines -> itsdangerous.URLSafeTimedSerializer @22 import 0.95
            sessions.SessionInterface.spread_over_lines -> sessions.TaggedSerializer.dumps @22 callback 0.5
            sessions.SessionInterface.spread_over_lines -> sessions.TaggedSerializer.loads @22 callback 0.5
        "#]],
    );
}

#[test]
fn outside_code_calls_back_into_project_objects() {
    check(
        r#"
        //- /web/__init__.py
        //- /web/app.py
        from werkzeug.serving import run_simple
        from werkzeug.test import Client
        from signals import started

        class App:
            def __call__(self, environ, start_response):
                return self.dispatch(environ)  # calls: web.app.App.dispatch

            def dispatch(self, environ):
                return []

            def run(self):
                started.send(self)  # calls: signals.started.send
                run_simple("localhost", 5000, self)  # calls: werkzeug.serving.run_simple, web.app.App.__call__

            def test_client(self):
                return AppClient(self)  # calls: web.app.AppClient, web.app.App.__call__

        class AppClient(Client):
            def open(self, *args):
                return super().open(*args)  # calls: <builtin>.super, werkzeug.test.Client.open

            def session(self):
                return 1

            def _private(self):
                return 2

        def use(client: AppClient):
            client.get("/")  # calls: werkzeug.test.Client.get, web.app.AppClient.open
            client.session()  # calls: web.app.AppClient.session
        //- /web/cli.py
        import click
        from click.testing import CliRunner

        class AppGroup(click.Group):
            def get_command(self, ctx, name):
                return None

            def helper(self):
                return None

        def run_cli():
            runner = CliRunner()
            group = AppGroup()
            runner.invoke(group, ["x"])  # calls: click.testing.CliRunner().invoke, web.cli.AppGroup.get_command
        "#,
        expect![[r#"
            web.app.App.__call__ -> web.app.App.dispatch @7 self_method 0.9
            web.app.App.run -> signals.started.send @13 import 0.95
            web.app.App.run -> web.app.App.__call__ @14 callback 0.5
            web.app.App.run -> werkzeug.serving.run_simple @14 import 0.95
            web.app.App.test_client -> web.app.App.__call__ @17 callback 0.5
            web.app.App.test_client -> web.app.AppClient @17 constructor 0.9
            web.app.AppClient.open -> <builtin>.super @21 same_scope 0.95
            web.app.AppClient.open -> werkzeug.test.Client.open @21 self_method 0.9
            web.app.use -> web.app.AppClient.open @30 callback 0.5
            web.app.use -> web.app.AppClient.session @31 typed_receiver 0.85
            web.app.use -> werkzeug.test.Client.get @30 typed_receiver 0.85
            web.cli.run_cli -> click.testing.CliRunner @12 import 0.95
            web.cli.run_cli -> click.testing.CliRunner().invoke @14 typed_receiver 0.85
            web.cli.run_cli -> web.cli.AppGroup @13 constructor 0.9
            web.cli.run_cli -> web.cli.AppGroup.get_command @14 callback 0.5
        "#]],
    );
}

#[test]
fn cls_rebound_inside_a_method_is_the_local() {
    check(
        r#"
        //- /pkg/__init__.py
        //- /pkg/app.py
        class App:
            def make_client(self):
                cls = self.client_class
                if cls is None:
                    from pkg.client import Client as cls
                return cls(self)  # calls: pkg.client.Client.__init__

            @classmethod
            def create(cls):
                return cls()  # calls: pkg.app.App
        //- /pkg/client.py
        class Client:
            def __init__(self, app):
                self.app = app
        "#,
        expect![[r#"
            pkg.app.App -> <builtin>.classmethod @8 same_scope 0.95
            pkg.app.App.create -> pkg.app.App @10 constructor 0.9
            pkg.app.App.make_client -> pkg.client.Client.__init__ @6 constructor 0.9
        "#]],
    );
}

#[test]
fn reading_a_property_runs_its_getter_and_writing_it_its_setter() {
    check(
        r#"
        //- /shop/__init__.py
        //- /shop/cart.py
        from functools import cached_property

        class Cart:
            def __init__(self):
                self.items = []

            @property
            def total(self) -> int:
                return len(self.items)  # calls: <builtin>.len

            @total.setter
            def total(self, value):
                pass

            @cached_property
            def owner(self) -> "Cart":
                return self

            def describe(self):
                print(self.total)  # calls: <builtin>.print, shop.cart.Cart.total
                return self.owner.total  # calls: shop.cart.Cart.owner, shop.cart.Cart.total

        def reset(cart: Cart, other):
            cart.total = 0  # calls: shop.cart.Cart.total
            cart.total += 1  # calls: shop.cart.Cart.total
            cart.items = []  # calls: none
            if cart.total > 1:  # calls: shop.cart.Cart.total
                return other.total  # calls: none
            return cart.items  # calls: none
        "#,
        expect![[r#"
            shop.cart.Cart -> <builtin>.property @7 same_scope 0.95
            shop.cart.Cart -> functools.cached_property @15 import 0.95
            shop.cart.Cart.describe -> <builtin>.print @20 same_scope 0.95
            shop.cart.Cart.describe -> shop.cart.Cart.owner @21 self_method 0.9
            shop.cart.Cart.describe -> shop.cart.Cart.total @20 self_method 0.9
            shop.cart.Cart.describe -> shop.cart.Cart.total @21 self_method 0.9
            shop.cart.Cart.total -> <builtin>.len @9 same_scope 0.95
            shop.cart.reset -> shop.cart.Cart.total @24 typed_receiver 0.85
            shop.cart.reset -> shop.cart.Cart.total @25 typed_receiver 0.85
            shop.cart.reset -> shop.cart.Cart.total @25 typed_receiver 0.85
            shop.cart.reset -> shop.cart.Cart.total @27 typed_receiver 0.85
            unresolved shop.cart.Cart shop/cart.py:11 total.setter (no_project_symbol_named)
            unresolved shop.cart.reset shop/cart.py:28 other.total (value_reference)
        "#]],
    );
}

#[test]
fn operators_loops_subscripts_and_builtins_call_dunders() {
    check(
        r#"
        //- /vec/__init__.py
        //- /vec/point.py
        class Point:
            def __eq__(self, other):
                return True

            def __add__(self, other) -> "Point":
                return self

            def __iter__(self):
                return iter([1, 2])  # calls: <builtin>.iter

            def __contains__(self, item):
                return False

            def __getitem__(self, index):
                return 0

            def __setitem__(self, index, value):
                pass

            def __len__(self):
                return 2

            def __repr__(self):
                return "Point"

            def __format__(self, spec):
                return "P"

        def use(a: Point, b: Point, items):
            same = a == b  # calls: vec.point.Point.__eq__
            total = a + b  # calls: vec.point.Point.__add__
            for x in a:  # calls: vec.point.Point.__iter__
                pass
            squares = [x for x in b]  # calls: vec.point.Point.__iter__
            found = 1 in a  # calls: vec.point.Point.__contains__
            first = a[0]  # calls: vec.point.Point.__getitem__
            a[1] = 3  # calls: vec.point.Point.__setitem__
            size = len(a)  # calls: <builtin>.len, vec.point.Point.__len__
            text = f"{a!r} {b}"  # calls: vec.point.Point.__repr__, vec.point.Point.__format__
            other = items[0] + 1  # calls: none
            return (a) == b  # calls: vec.point.Point.__eq__
        "#,
        expect![[r#"
            vec.point.Point.__iter__ -> <builtin>.iter @9 same_scope 0.95
            vec.point.use -> <builtin>.len @38 same_scope 0.95
            vec.point.use -> vec.point.Point.__add__ @31 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__contains__ @35 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__eq__ @30 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__eq__ @41 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__format__ @39 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__getitem__ @36 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__iter__ @32 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__iter__ @34 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__len__ @38 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__repr__ @39 typed_receiver 0.85
            vec.point.use -> vec.point.Point.__setitem__ @37 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn rust_tests_written_by_a_macro_call_what_the_macro_calls() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "globs"
        //- /src/lib.rs
        pub struct Glob;
        impl Glob {
            pub fn new(pattern: &str) -> Glob { Glob }
        }
        pub fn is_match(glob: &Glob, path: &str) -> bool { true }
        impl Glob {
            pub fn matcher(&self) -> Matcher { Matcher }
        }
        pub struct Matcher;
        impl Matcher {
            pub fn matches(&self, path: &str) -> bool { true }
        }

        #[cfg(test)]
        mod tests {
            use super::{is_match, Glob};

            macro_rules! matches {
                ($name:ident, $pattern:expr, $path:expr) => {
                    #[test]
                    fn $name() {
                        let glob = Glob::new($pattern);  // calls: globs::Glob::new
                        assert!(is_match(&glob, $path));  // calls: <builtin>::assert!, globs::is_match
                        let matcher = glob.matcher();  // calls: globs::Glob::matcher
                        assert!(matcher.matches($path));  // calls: <builtin>::assert!, globs::Matcher::matches
                    }
                };
            }

            macro_rules! plain {
                () => { helper() };  // calls: none
            }

            // An invocation calls the macro; the test it writes (named by its first token)
            // is expanded, and calls what the body calls, at the body's lines.
            matches!(star, "*", "a");  // calls: globs::tests::matches
            matches!(question, "?", "b");  // calls: globs::tests::matches
        }
        "#,
        expect![[r#"
            globs::tests -> globs::tests::matches @36 macro 0.9
            globs::tests -> globs::tests::matches @37 macro 0.9
            globs::tests::matches -> <builtin>::assert! @23 macro 0.9
            globs::tests::matches -> <builtin>::assert! @25 macro 0.9
            globs::tests::matches -> globs::Glob::matcher @24 typed_receiver 0.85
            globs::tests::matches -> globs::Glob::new @22 import 0.95
            globs::tests::matches -> globs::Matcher::matches @25 typed_receiver 0.85
            globs::tests::matches -> globs::is_match @23 import 0.95
            globs::tests::question -> <builtin>::assert! @23 macro 0.9
            globs::tests::question -> <builtin>::assert! @25 macro 0.9
            globs::tests::question -> globs::Glob::matcher @24 typed_receiver 0.85
            globs::tests::question -> globs::Glob::new @22 import 0.95
            globs::tests::question -> globs::Matcher::matches @25 typed_receiver 0.85
            globs::tests::question -> globs::is_match @23 import 0.95
            globs::tests::star -> <builtin>::assert! @23 macro 0.9
            globs::tests::star -> <builtin>::assert! @25 macro 0.9
            globs::tests::star -> globs::Glob::matcher @24 typed_receiver 0.85
            globs::tests::star -> globs::Glob::new @22 import 0.95
            globs::tests::star -> globs::Matcher::matches @25 typed_receiver 0.85
            globs::tests::star -> globs::is_match @23 import 0.95
            unresolved globs::tests::plain src/lib.rs:31 helper (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn rust_methods_reached_through_deref_call_deref() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "tokens"
        //- /src/lib.rs
        use std::ops::{Deref, DerefMut};

        pub struct Token;
        pub struct Tokens(Vec<Token>);

        impl Deref for Tokens {
            type Target = Vec<Token>;
            fn deref(&self) -> &Vec<Token> { &self.0 }
        }

        impl DerefMut for Tokens {
            fn deref_mut(&mut self) -> &mut Vec<Token> { &mut self.0 }
        }

        impl Tokens {
            pub fn new() -> Tokens { Tokens(Vec::new()) }  // calls: <builtin>::Vec::new, tokens::Tokens
            pub fn first(&self) -> Option<&Token> { None }
        }

        pub fn fill(tokens: &mut Tokens) {
            tokens.push(Token);  // calls: tokens::{impl Deref for Tokens}::deref, tokens::{impl DerefMut for Tokens}::deref_mut
            tokens.first();  // calls: tokens::Tokens::first
            let again = Tokens::new();  // calls: tokens::Tokens::new
        }
        "#,
        expect![[r#"
            tokens::Tokens::new -> <builtin>::Vec::new @16 same_scope 0.95
            tokens::Tokens::new -> tokens::Tokens @16 constructor 0.9
            tokens::fill -> tokens::Tokens::first @22 typed_receiver 0.85
            tokens::fill -> tokens::Tokens::new @23 type_member 0.9
            tokens::fill -> tokens::{impl Deref for Tokens}::deref @21 ambiguous 0.4
            tokens::fill -> tokens::{impl DerefMut for Tokens}::deref_mut @21 ambiguous 0.4
            unresolved tokens::fill src/lib.rs:21 tokens.push (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn rust_operators_and_loops_call_the_project_impls() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "money"
        //- /src/lib.rs
        use std::ops::{Add, Index};

        #[derive(Clone, Copy)]
        pub struct Cents(u64);

        impl PartialEq for Cents {
            fn eq(&self, other: &Cents) -> bool { self.0 == other.0 }  // calls: none
        }

        impl Add for Cents {
            type Output = Cents;
            fn add(self, other: Cents) -> Cents { Cents(self.0 + other.0) }  // calls: money::Cents
        }

        #[derive(PartialEq)]
        pub struct Derived(u64);

        pub struct Ledger { entries: Vec<Cents> }

        impl Index<usize> for Ledger {
            type Output = Cents;
            fn index(&self, at: usize) -> &Cents { &self.entries[at] }  // calls: none
        }

        impl std::ops::IndexMut<usize> for Ledger {
            fn index_mut(&mut self, at: usize) -> &mut Cents { &mut self.entries[at] }  // calls: none
        }

        pub fn write(ledger: &mut Ledger, c: Cents) {
            ledger[0] = c;  // calls: money::{impl IndexMut for Ledger}::index_mut
            let place = &mut ledger[1];  // calls: money::{impl IndexMut for Ledger}::index_mut
        }

        pub struct Countdown(u32);

        impl Iterator for Countdown {
            type Item = u32;
            fn next(&mut self) -> Option<u32> { None }
        }

        pub fn use_them(a: Cents, b: Cents, ledger: &Ledger, d: Derived, e: Derived, count: Countdown) {
            let same = a == b;  // calls: money::{impl PartialEq for Cents}::eq
            let total = a + b;  // calls: money::{impl Add for Cents}::add
            let first = ledger[0];  // calls: money::{impl Index for Ledger}::index
            let derived = d == e;  // calls: none
            for n in count {}  // calls: money::{impl Iterator for Countdown}::next
            let plain = 1 + 2;  // calls: none
        }
        "#,
        expect![[r#"
            money::use_them -> money::{impl Add for Cents}::add @43 typed_receiver 0.85
            money::use_them -> money::{impl Index for Ledger}::index @44 typed_receiver 0.85
            money::use_them -> money::{impl Iterator for Countdown}::next @46 typed_receiver 0.85
            money::use_them -> money::{impl PartialEq for Cents}::eq @42 typed_receiver 0.85
            money::write -> money::{impl IndexMut for Ledger}::index_mut @30 typed_receiver 0.85
            money::write -> money::{impl IndexMut for Ledger}::index_mut @31 typed_receiver 0.85
            money::{impl Add for Cents}::add -> money::Cents @12 constructor 0.9
        "#]],
    );
}

#[test]
fn rust_comparing_assertions_call_the_first_arguments_eq() {
    // `assert_eq!(a, b)` is `a == b`: indexmap's tests compare maps this way, and its
    // `PartialEq` impl was reached by none of them.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "money"
        //- /src/lib.rs
        pub struct Cents(u64);

        impl PartialEq for Cents {
            fn eq(&self, other: &Cents) -> bool { self.0 == other.0 }  // calls: none
        }

        impl Cents {
            pub fn new(v: u64) -> Cents { Cents(v) }  // calls: money::Cents
            pub fn half(&self) -> Cents { Cents(self.0 / 2) }  // calls: money::Cents
        }

        pub struct Wallet { pub cash: Cents }

        #[test]
        fn compares() {
            let a = Cents::new(1);  // calls: money::Cents::new
            let w = Wallet { cash: Cents::new(2) };  // calls: money::Cents::new
            assert_eq!(a, Cents::new(1));  // calls: <builtin>::assert_eq!, money::Cents::new, money::{impl PartialEq for Cents}::eq
            assert_ne!(&w.cash, &a);  // calls: <builtin>::assert_ne!, money::{impl PartialEq for Cents}::eq
            debug_assert_eq!(a.half(), a);  // calls: <builtin>::debug_assert_eq!, money::Cents::half, money::{impl PartialEq for Cents}::eq
            assert_eq!(a.0, 1);  // calls: <builtin>::assert_eq!
            assert!(a == a);  // calls: <builtin>::assert!, money::{impl PartialEq for Cents}::eq
        }
        "#,
        expect![[r#"
            money::Cents::half -> money::Cents @9 constructor 0.9
            money::Cents::new -> money::Cents @8 constructor 0.9
            money::compares -> <builtin>::assert! @22 macro 0.9
            money::compares -> <builtin>::assert_eq! @18 macro 0.9
            money::compares -> <builtin>::assert_eq! @21 macro 0.9
            money::compares -> <builtin>::assert_ne! @19 macro 0.9
            money::compares -> <builtin>::debug_assert_eq! @20 macro 0.9
            money::compares -> money::Cents::half @20 typed_receiver 0.85
            money::compares -> money::Cents::new @16 type_member 0.9
            money::compares -> money::Cents::new @17 type_member 0.9
            money::compares -> money::Cents::new @18 type_member 0.9
            money::compares -> money::{impl PartialEq for Cents}::eq @18 typed_receiver 0.85
            money::compares -> money::{impl PartialEq for Cents}::eq @19 typed_receiver 0.85
            money::compares -> money::{impl PartialEq for Cents}::eq @20 typed_receiver 0.85
            money::compares -> money::{impl PartialEq for Cents}::eq @22 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn rust_format_strings_call_display_and_debug_of_their_arguments() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "money"
        //- /src/lib.rs
        use std::fmt;

        pub struct Cents(u64);

        impl fmt::Display for Cents {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "{}c", self.0) }  // calls: <builtin>::write!
        }

        impl fmt::Debug for Cents {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "Cents({})", self.0) }  // calls: <builtin>::write!
        }

        pub struct Wallet { pub cash: Cents }

        impl fmt::Display for Wallet {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "wallet with {}", self.cash)  // calls: <builtin>::write!, money::{impl Display for Cents}::fmt
            }
        }

        pub fn show(c: Cents, w: &Wallet) -> String {
            println!("{} and {:?}", c, &c);  // calls: <builtin>::println!, money::{impl Debug for Cents}::fmt, money::{impl Display for Cents}::fmt
            println!("{c:?} {0}", w);  // calls: <builtin>::println!, money::{impl Debug for Cents}::fmt, money::{impl Display for Wallet}::fmt
            println!("{value}", value = c);  // calls: <builtin>::println!, money::{impl Display for Cents}::fmt
            println!("{:x} {:>1$}", 3, 4);  // calls: <builtin>::println!
            assert!(true, "{}", w);  // calls: <builtin>::assert!, money::{impl Display for Wallet}::fmt
            format!("{}", w)  // calls: <builtin>::format!, money::{impl Display for Wallet}::fmt
        }
        "#,
        expect![[r#"
            money::show -> <builtin>::assert! @26 macro 0.9
            money::show -> <builtin>::format! @27 macro 0.9
            money::show -> <builtin>::println! @22 macro 0.9
            money::show -> <builtin>::println! @23 macro 0.9
            money::show -> <builtin>::println! @24 macro 0.9
            money::show -> <builtin>::println! @25 macro 0.9
            money::show -> money::{impl Debug for Cents}::fmt @22 typed_receiver 0.85
            money::show -> money::{impl Debug for Cents}::fmt @23 typed_receiver 0.85
            money::show -> money::{impl Display for Cents}::fmt @22 typed_receiver 0.85
            money::show -> money::{impl Display for Cents}::fmt @24 typed_receiver 0.85
            money::show -> money::{impl Display for Wallet}::fmt @23 typed_receiver 0.85
            money::show -> money::{impl Display for Wallet}::fmt @26 typed_receiver 0.85
            money::show -> money::{impl Display for Wallet}::fmt @27 typed_receiver 0.85
            money::{impl Debug for Cents}::fmt -> <builtin>::write! @10 macro 0.9
            money::{impl Display for Cents}::fmt -> <builtin>::write! @6 macro 0.9
            money::{impl Display for Wallet}::fmt -> <builtin>::write! @17 macro 0.9
            money::{impl Display for Wallet}::fmt -> money::{impl Display for Cents}::fmt @17 self_method 0.9
        "#]],
    );
}

#[test]
fn a_local_named_like_a_marker_does_not_make_a_function_a_fixture() {
    // `fixture` and `overload` are locals here, not the markers extraction records for
    // `@pytest.fixture` and `@overload`: `app` is not given the `app` fixture.
    check(
        r#"
        //- /conftest.py
        import pytest

        class App:
            def run(self):
                return 1

        @pytest.fixture
        def app():
            return App()  # calls: conftest.App
        //- /tools.py
        def build(app):
            fixture = 1
            overload = 2
            return app.run()  # calls: none
        "#,
        expect![[r#"
            conftest -> pytest.fixture @7 import 0.95
            conftest.app -> conftest.App @9 constructor 0.9
            unresolved tools.build tools.py:4 app.run (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn truth_tests_in_place_operators_unpacking_and_builtins_call_dunders() {
    check(
        r#"
        //- /buf/__init__.py
        //- /buf/buffer.py
        class Buffer:
            def __len__(self):
                return 0

            def __iadd__(self, other) -> "Buffer":
                return self

            def __neg__(self) -> "Buffer":
                return self

            def __radd__(self, other) -> "Buffer":
                return self

            def __iter__(self):
                return self

            def __bytes__(self):
                return b""

            def __str__(self):
                return "B"

        class Flag:
            def __bool__(self):
                return True

        def use(b: Buffer, f: Flag, items):
            if b:  # calls: buf.buffer.Buffer.__len__
                pass
            while not f:  # calls: buf.buffer.Flag.__bool__
                pass
            ok = f and b  # calls: buf.buffer.Flag.__bool__
            if f or b:  # calls: buf.buffer.Flag.__bool__, buf.buffer.Buffer.__len__
                pass
            value = 1 if f else 2  # calls: buf.buffer.Flag.__bool__
            assert b  # calls: buf.buffer.Buffer.__len__
            kept = [x for x in items if f]  # calls: buf.buffer.Flag.__bool__
            b += b"x"  # calls: buf.buffer.Buffer.__iadd__
            flipped = -b  # calls: buf.buffer.Buffer.__neg__
            total = 1 + b  # calls: buf.buffer.Buffer.__radd__
            first, second = b  # calls: buf.buffer.Buffer.__iter__
            raw = bytes(b)  # calls: <builtin>.bytes, buf.buffer.Buffer.__bytes__
            print("at", b)  # calls: <builtin>.print, buf.buffer.Buffer.__str__
            listed = list(b)  # calls: <builtin>.list, buf.buffer.Buffer.__iter__
            if items == 1 and b is not None:  # calls: none
                pass
            return (x for x in [*b])  # calls: buf.buffer.Buffer.__iter__

        def delegate(b: Buffer):
            yield from b  # calls: buf.buffer.Buffer.__iter__
        "#,
        expect![[r#"
            buf.buffer.delegate -> buf.buffer.Buffer.__iter__ @50 typed_receiver 0.85
            buf.buffer.use -> <builtin>.bytes @42 same_scope 0.95
            buf.buffer.use -> <builtin>.list @44 same_scope 0.95
            buf.buffer.use -> <builtin>.print @43 same_scope 0.95
            buf.buffer.use -> buf.buffer.Buffer.__bytes__ @42 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__iadd__ @38 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__iter__ @41 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__iter__ @44 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__iter__ @47 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__len__ @28 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__len__ @33 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__len__ @36 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__neg__ @39 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__radd__ @40 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Buffer.__str__ @43 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Flag.__bool__ @30 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Flag.__bool__ @32 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Flag.__bool__ @33 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Flag.__bool__ @35 typed_receiver 0.85
            buf.buffer.use -> buf.buffer.Flag.__bool__ @37 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn defining_a_class_calls_its_bases_metaclass_and_descriptors_hooks() {
    check(
        r#"
        //- /models/__init__.py
        //- /models/base.py
        class Meta(type):
            def __new__(mcs, name, bases, namespace):
                return super().__new__(mcs, name, bases, namespace)  # calls: <builtin>.super, <builtin>.type.__new__

        class Field:
            def __set_name__(self, owner, name):
                self.name = name

        class Registered:
            def __init_subclass__(cls, **kwargs):
                pass
        //- /models/user.py
        from models.base import Field, Meta, Registered

        class User(Registered, metaclass=Meta):  # calls: models.base.Registered.__init_subclass__, models.base.Meta.__new__
            name = Field()  # calls: models.base.Field, models.base.Field.__set_name__
            count = 0  # calls: none
        "#,
        expect![[r#"
            models.base.Meta.__new__ -> <builtin>.super @3 same_scope 0.95
            models.base.Meta.__new__ -> <builtin>.type.__new__ @3 self_method 0.9
            models.user.User -> models.base.Field @4 constructor 0.9
            models.user.User -> models.base.Field.__set_name__ @4 import 0.95
            models.user.User -> models.base.Meta.__new__ @3 import 0.95
            models.user.User -> models.base.Registered.__init_subclass__ @3 import 0.95
        "#]],
    );
}

#[test]
fn type_of_a_value_is_its_class() {
    check(
        r#"
        //- /shapes.py
        class Box:
            @classmethod
            def build(cls):
                return cls()  # calls: shapes.Box

            def copy(self):
                return type(self).build()  # calls: <builtin>.type, shapes.Box.build

        def use(b: Box):
            return type(b).build()  # calls: <builtin>.type, shapes.Box.build
        "#,
        expect![[r#"
            shapes.Box -> <builtin>.classmethod @2 same_scope 0.95
            shapes.Box.build -> shapes.Box @4 constructor 0.9
            shapes.Box.copy -> <builtin>.type @7 same_scope 0.95
            shapes.Box.copy -> shapes.Box.build @7 typed_receiver 0.85
            shapes.use -> <builtin>.type @10 same_scope 0.95
            shapes.use -> shapes.Box.build @10 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn rust_values_of_a_type_with_drop_are_dropped_by_who_makes_them() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "guards"
        //- /src/lib.rs
        pub struct Guard { depth: u32 }

        impl Guard {
            pub fn new() -> Self { Guard { depth: 0 } }  // calls: none
            pub fn maybe(on: bool) -> Option<Guard> { None }  // calls: none
            pub fn depth(&self) -> u32 { self.depth }  // calls: none
        }

        impl Drop for Guard {
            fn drop(&mut self) {}
        }

        pub struct Plain;

        impl Plain {
            pub fn new() -> Plain { Plain }  // calls: none
        }

        pub fn work() -> u32 {
            let guard = Guard::new();  // calls: guards::Guard::new, guards::{impl Drop for Guard}::drop
            let plain = Plain::new();  // calls: guards::Plain::new
            let other = Guard::maybe(true);  // calls: guards::Guard::maybe, guards::{impl Drop for Guard}::drop
            guard.depth()  // calls: guards::Guard::depth
        }
        "#,
        expect![[r#"
            guards::work -> guards::Guard::depth @23 typed_receiver 0.85
            guards::work -> guards::Guard::maybe @22 type_member 0.9
            guards::work -> guards::Guard::new @20 type_member 0.9
            guards::work -> guards::Plain::new @21 type_member 0.9
            guards::work -> guards::{impl Drop for Guard}::drop @20 typed_receiver 0.85
            guards::work -> guards::{impl Drop for Guard}::drop @22 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn rust_question_mark_calls_every_from_into_the_functions_error_type() {
    // `?` converts an error with `From::from` into the function's error type: which impl runs
    // depends on the error's type, so each `impl From<…> for Error` may be called. A `?` in a
    // closure returns from the closure; a function returning an alias is not followed.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "parse"
        //- /src/lib.rs
        pub struct Error;
        pub struct Other;

        impl From<std::io::Error> for Error {
            fn from(error: std::io::Error) -> Error { Error }
        }

        impl From<std::fmt::Error> for Error {
            fn from(error: std::fmt::Error) -> Error { Error }
        }

        impl From<std::io::Error> for Other {
            fn from(error: std::io::Error) -> Other { Other }
        }

        fn read() -> Result<u32, std::io::Error> { Ok(1) }

        pub fn load() -> Result<u32, Error> {
            let n = read()?;  // calls: parse::read, parse::{impl From for Error}::from, parse::{impl From for Error}::from
            let inner = || -> Result<u32, Other> { Ok(read()?) };  // calls: <builtin>::Ok, parse::read
            Ok(n)
        }

        pub fn once() -> Result<u32, Other> {
            Ok(read()?)  // calls: <builtin>::Ok, parse::read, parse::{impl From for Other}::from
        }

        pub type Aliased<T> = Result<T, Error>;

        pub fn aliased() -> Aliased<u32> {
            Ok(read()?)  // calls: <builtin>::Ok, parse::read
        }
        "#,
        expect![[r#"
            parse::aliased -> <builtin>::Ok @31 same_scope 0.95
            parse::aliased -> parse::read @31 same_scope 0.95
            parse::load -> <builtin>::Ok @20 same_scope 0.95
            parse::load -> <builtin>::Ok @21 same_scope 0.95
            parse::load -> parse::read @19 same_scope 0.95
            parse::load -> parse::read @20 same_scope 0.95
            parse::load -> parse::{impl From for Error}::from @19 dynamic_dispatch 0.5
            parse::load -> parse::{impl From for Error}::from @19 dynamic_dispatch 0.5
            parse::once -> <builtin>::Ok @25 same_scope 0.95
            parse::once -> parse::read @25 same_scope 0.95
            parse::once -> parse::{impl From for Other}::from @25 qualified_path 0.95
            parse::read -> <builtin>::Ok @16 same_scope 0.95
        "#]],
    );
}

//! Python call resolution on multi-file fixtures: every marker line must reach exactly its targets.

use expect_test::expect;
use tether_tests::check;

#[test]
fn imports_aliases_relative_and_package_reexports() {
    check(
        r#"
        //- /pkg/__init__.py
        from .util import helper
        //- /pkg/util.py
        def helper():
            return 1
        def other():
            return helper()  # calls: pkg.util.helper
        //- /pkg/sub/__init__.py
        //- /pkg/sub/deep.py
        from .. import util
        from ..util import other as renamed
        from pkg import helper
        import pkg.util as u
        import pkg.util

        def run():
            util.helper()  # calls: pkg.util.helper
            renamed()  # calls: pkg.util.other
            helper()  # calls: pkg.util.helper
            u.other()  # calls: pkg.util.other
            pkg.util.other()  # calls: pkg.util.other
            len([])  # calls: <builtin>.len
            import json
            json.dumps({})  # calls: json.dumps
        "#,
        expect![[r#"
            pkg.sub.deep.run -> <builtin>.len @13 same_scope 0.95
            pkg.sub.deep.run -> json.dumps @15 import 0.95
            pkg.sub.deep.run -> pkg.util.helper @10 import 0.95
            pkg.sub.deep.run -> pkg.util.helper @8 import 0.95
            pkg.sub.deep.run -> pkg.util.other @11 import 0.95
            pkg.sub.deep.run -> pkg.util.other @12 import 0.95
            pkg.sub.deep.run -> pkg.util.other @9 import 0.95
            pkg.util.other -> pkg.util.helper @4 same_scope 0.95
        "#]],
    );
}

#[test]
fn classes_constructors_self_super_and_typed_receivers() {
    check(
        r#"
        //- /app/__init__.py
        //- /app/models.py
        class Helper:
            def run(self):
                return 1

        class Base:
            def __init__(self):
                self.helper = Helper()  # calls: app.models.Helper
            def save(self):
                return self.helper.run()  # calls: app.models.Helper.run

        class User(Base):
            def save(self):
                super().save()  # calls: <builtin>.super, app.models.Base.save
                return self.validate()  # calls: app.models.User.validate
            def validate(self):
                return True
            @classmethod
            def create(cls):
                return cls()  # calls: app.models.Base.__init__

        def make_user() -> User:
            user = User()  # calls: app.models.Base.__init__
            user.save()  # calls: app.models.User.save
            return user

        def typed(u: User, h: "Helper"):
            u.validate()  # calls: app.models.User.validate
            h.run()  # calls: app.models.Helper.run
            unknown.thing()  # calls: unresolved
        "#,
        expect![[r#"
            app.models.Base.__init__ -> app.models.Helper @7 constructor 0.9
            app.models.Base.save -> app.models.Helper.run @9 self_method 0.9
            app.models.User -> <builtin>.classmethod @17 same_scope 0.95
            app.models.User.create -> app.models.Base.__init__ @19 constructor 0.9
            app.models.User.save -> <builtin>.super @13 same_scope 0.95
            app.models.User.save -> app.models.Base.save @13 self_method 0.9
            app.models.User.save -> app.models.User.validate @14 self_method 0.9
            app.models.make_user -> app.models.Base.__init__ @22 constructor 0.9
            app.models.make_user -> app.models.User.save @23 typed_receiver 0.85
            app.models.typed -> app.models.Helper.run @28 typed_receiver 0.85
            app.models.typed -> app.models.User.validate @27 typed_receiver 0.85
            unresolved app.models.typed app/models.py:29 unknown.thing (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn same_named_functions_in_different_modules_are_never_merged() {
    check(
        r#"
        //- /a.py
        def parse():
            return 1
        def use_a():
            return parse()  # calls: a.parse
        //- /b.py
        import a
        def parse():
            return 2
        def use_b():
            parse()  # calls: b.parse
            a.parse()  # calls: a.parse
        "#,
        expect![[r#"
            a.use_a -> a.parse @4 same_scope 0.95
            b.use_b -> a.parse @6 import 0.95
            b.use_b -> b.parse @5 same_scope 0.95
        "#]],
    );
}

#[test]
fn decorators_lambdas_nested_functions_and_default_arguments() {
    check(
        r#"
        //- /m.py
        def deco(fn):
            return fn

        def default_value():
            return 3

        @deco  # calls: m.deco
        def decorated(x=default_value()):  # calls: m.default_value
            def inner():
                return decorated()  # calls: m.decorated
            key = lambda item: default_value()  # calls: m.default_value
            return inner()  # calls: m.decorated.inner
        "#,
        expect![[r#"
            m -> m.deco @7 same_scope 0.95
            m -> m.default_value @8 same_scope 0.95
            m.decorated -> m.decorated.inner @12 same_scope 0.95
            m.decorated -> m.default_value @11 same_scope 0.95
            m.decorated.inner -> m.decorated @10 same_scope 0.95
        "#]],
    );
}

#[test]
fn a_python_package_and_a_rust_crate_of_one_name_stay_apart() {
    check(
        r#"
        //- /py/shared/__init__.py
        //- /py/shared/tools.py
        def run():
            return 1
        //- /py/app.py
        import shared.tools as tools
        tools.run()  # calls: shared.tools.run
        //- /Cargo.toml
        [package]
        name = "shared"
        //- /src/lib.rs
        pub mod tools;
        //- /src/tools.rs
        pub fn run() {}
        fn caller() { crate::tools::run(); }  // calls: shared::tools::run
        "#,
        expect![[r#"
            app -> shared.tools.run @2 import 0.95
            shared::tools::caller -> shared::tools::run @2 qualified_path 0.95
        "#]],
    );
}

#[test]
fn fallback_imports_of_one_name_are_ambiguous() {
    check(
        r#"
        //- /app/__init__.py
        //- /app/fast.py
        def loads(text): pass
        //- /app/slow.py
        def loads(text): pass
        //- /app/main.py
        try:
            from app.fast import loads
        except ImportError:
            from app.slow import loads

        def run():
            loads("{}")  # calls: app.fast.loads, app.slow.loads
        "#,
        expect![[r#"
            app.main.run -> app.fast.loads @7 ambiguous 0.4
            app.main.run -> app.slow.loads @7 ambiguous 0.4
        "#]],
    );
}

#[test]
fn with_statements_call_enter_and_exit() {
    check(
        r#"
        //- /ctx.py
        class Session:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

        class Pool:
            async def __aenter__(self):
                return self

            async def __aexit__(self, *exc):
                return False

        def make() -> Session:
            return Session()

        def use(session: Session):
            with session:  # calls: ctx.Session.__enter__, ctx.Session.__exit__
                pass
            with make() as again, open("f") as f:  # calls: ctx.make, ctx.Session.__enter__, ctx.Session.__exit__, <builtin>.open
                pass

        async def use_pool(pool: Pool):
            async with pool:  # calls: ctx.Pool.__aenter__, ctx.Pool.__aexit__
                pass
        "#,
        expect![[r#"
            ctx.make -> ctx.Session @16 constructor 0.9
            ctx.use -> <builtin>.open @21 same_scope 0.95
            ctx.use -> ctx.Session.__enter__ @19 typed_receiver 0.85
            ctx.use -> ctx.Session.__enter__ @21 typed_receiver 0.85
            ctx.use -> ctx.Session.__exit__ @19 typed_receiver 0.85
            ctx.use -> ctx.Session.__exit__ @21 typed_receiver 0.85
            ctx.use -> ctx.make @21 same_scope 0.95
            ctx.use_pool -> ctx.Pool.__aenter__ @25 typed_receiver 0.85
            ctx.use_pool -> ctx.Pool.__aexit__ @25 typed_receiver 0.85
        "#]],
    );
}

/// `raise C` instantiates the class it names, as `C()` would: a change to `C.__init__` breaks
/// it. `raise e` of a caught instance and `raise` alone instantiate nothing.
#[test]
fn raising_a_class_constructs_it() {
    check(
        r#"
        //- /app/__init__.py
        //- /app/errors.py
        class NotFound(Exception):
            def __init__(self):
                super().__init__("not found")

        class Gone(NotFound):
            pass
        //- /app/views.py
        from app import errors
        from app.errors import NotFound, Gone

        def find(key):
            if not key:
                raise NotFound  # calls: app.errors.NotFound.__init__
            raise errors.Gone from None  # calls: app.errors.NotFound.__init__

        def again(key):
            try:
                return find(key)  # calls: app.views.find
            except NotFound as error:
                raise error
            except ValueError:
                raise
        "#,
        expect![[r#"
            app.errors.NotFound.__init__ -> <builtin>.Exception.__init__ @3 self_method 0.9
            app.errors.NotFound.__init__ -> <builtin>.super @3 same_scope 0.95
            app.views.again -> app.views.find @11 same_scope 0.95
            app.views.find -> app.errors.NotFound.__init__ @6 constructor 0.9
            app.views.find -> app.errors.NotFound.__init__ @7 constructor 0.9
        "#]],
    );
}

/// A decorator in a class body is evaluated before the method it decorates is bound: a name
/// shared by both means the imported decorator. A method called on an attribute holding a
/// subclass (annotated with the base: `name: Field = String()`) is the subclass's override.
#[test]
fn class_body_names_are_bound_in_order_and_overrides_win_on_typed_attributes() {
    check(
        r#"
        //- /app/__init__.py
        //- /app/decorators.py
        def post_load(pass_original=False):
            def wrap(function):
                return function
            return wrap
        //- /app/fields.py
        class Field:
            def serialize(self, value):
                return self._serialize(value)  # calls: app.fields.Field._serialize

            def _serialize(self, value):
                return value

        class String(Field):
            def _serialize(self, value):
                return str(value)
        //- /app/schema.py
        from app.decorators import post_load
        from app.fields import Field, String

        class Schema:
            name: Field = String()

            def __init__(self):
                self.title = String()

            @post_load(pass_original=True)  # calls: app.decorators.post_load, app.decorators.post_load.wrap
            def post_load(self, data):
                return data

            def dump(self, value):
                self.title._serialize(value)  # calls: app.fields.String._serialize
                return self.name._serialize(value)  # calls: app.fields.String._serialize
        "#,
        expect![[r#"
            app.fields.Field.serialize -> app.fields.Field._serialize @3 self_method 0.9
            app.fields.String._serialize -> <builtin>.str @10 same_scope 0.95
            app.schema.Schema -> app.decorators.post_load @10 import 0.95
            app.schema.Schema -> app.decorators.post_load.wrap @10 typed_receiver 0.85
            app.schema.Schema -> app.fields.String @5 constructor 0.9
            app.schema.Schema.__init__ -> app.fields.String @8 constructor 0.9
            app.schema.Schema.dump -> app.fields.String._serialize @15 self_method 0.9
            app.schema.Schema.dump -> app.fields.String._serialize @16 self_method 0.9
        "#]],
    );
}

/// `-> Self` (typing's) on a method gives an instance of its class: a call on what
/// `bind()` returns binds to the class's method, not to an outside `typing.Self`.
#[test]
fn methods_returning_self_give_an_instance_of_their_class() {
    check(
        r#"
        //- /app/__init__.py
        //- /app/logger.py
        from typing import Self

        class Logger:
            def bind(self, **values) -> Self:
                return self.__class__()

            def unbind(self, *keys) -> Self:
                return self

        def use(logger: Logger):
            bound = logger.bind(x=1)  # calls: app.logger.Logger.bind
            return bound.unbind("x")  # calls: app.logger.Logger.unbind
        "#,
        expect![[r#"
            app.logger.use -> app.logger.Logger.bind @11 typed_receiver 0.85
            app.logger.use -> app.logger.Logger.unbind @12 typed_receiver 0.85
            unresolved app.logger.Logger.bind app/logger.py:5 self.__class__ (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn imports_by_path_reach_modules_of_folders_without_an_init() {
    // No `__init__.py` anywhere: each module is named by its stem, yet tests run from the root
    // import them by their path (and a `src/` layout's by the path below `src/`).
    check(
        r#"
        //- /pkg/core.py
        def helper():
            return 1
        //- /src/lib/tools.py
        def tool():
            return 2
        //- /tests/test_core.py
        from pkg.core import helper
        from lib.tools import tool
        import pkg.core as core_module
        import pkg.core

        def test_helper():
            helper()  # calls: core.helper
            tool()  # calls: tools.tool
            core_module.helper()  # calls: core.helper
            pkg.core.helper()  # calls: core.helper
        "#,
        expect![[r#"
            test_core.test_helper -> core.helper @10 import 0.95
            test_core.test_helper -> core.helper @7 import 0.95
            test_core.test_helper -> core.helper @9 import 0.95
            test_core.test_helper -> tools.tool @8 import 0.95
        "#]],
    );
}

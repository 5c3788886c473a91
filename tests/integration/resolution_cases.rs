//! The resolution cases of the call-resolution issue that the other fixture files do not
//! cover: star imports with `__all__`, imports inside functions, MRO through mixins,
//! static and class methods, instances returned by functions, functions passed as values,
//! calls in comprehensions and class bodies, Rust glob and `self::`/`super::` paths, `Self`
//! calls, typed fields, trait default methods, closures.

use expect_test::expect;
use tether_tests::check;

#[test]
fn python_star_imports_honour_all_and_imports_inside_functions_bind() {
    check(
        r#"
        //- /lib/__init__.py
        //- /lib/tools.py
        __all__ = ["public"]
        def public():
            return 1
        def hidden():
            return 2
        //- /main.py
        from lib.tools import *
        def run():
            public()  # calls: lib.tools.public
            hidden()  # calls: lib.tools.hidden
            def later():
                from lib.tools import hidden
                return hidden()  # calls: lib.tools.hidden
            return later()  # calls: main.run.later
        "#,
        expect![[r#"
            main.run -> lib.tools.hidden @4 name_only 0.2
            main.run -> lib.tools.public @3 import 0.95
            main.run -> main.run.later @8 same_scope 0.95
            main.run.later -> lib.tools.hidden @7 import 0.95
        "#]],
    );
}

#[test]
fn python_mro_static_class_methods_and_returned_instances() {
    check(
        r#"
        //- /shapes.py
        class Base:
            def __init__(self, size):
                self.size = size
            def area(self):
                return 0
            @staticmethod
            def unit():
                return 1
            @classmethod
            def make(cls):
                return cls(1)  # calls: shapes.Base.__init__

        class Mixin:
            def describe(self):
                return "mixin"

        class Square(Mixin, Base):
            def area(self):
                return self.size * self.describe()  # calls: shapes.Mixin.describe

        def build() -> Square:
            return Square(2)  # calls: shapes.Base.__init__

        def use():
            Base.unit()  # calls: shapes.Base.unit
            Square.make()  # calls: shapes.Base.make
            shape = build()  # calls: shapes.build
            shape.area()  # calls: shapes.Square.area
            values = [s.area() for s in [Square(1)]]  # calls: shapes.Base.__init__
            return sorted(values, key=len)  # calls: <builtin>.sorted, <builtin>.len
        "#,
        expect![[r#"
            shapes.Base -> <builtin>.classmethod @9 same_scope 0.95
            shapes.Base -> <builtin>.staticmethod @6 same_scope 0.95
            shapes.Base.make -> shapes.Base.__init__ @11 constructor 0.9
            shapes.Square.area -> shapes.Mixin.describe @19 self_method 0.9
            shapes.build -> shapes.Base.__init__ @22 constructor 0.9
            shapes.use -> <builtin>.len @30 same_scope 0.95
            shapes.use -> <builtin>.sorted @30 same_scope 0.95
            shapes.use -> shapes.Base.__init__ @29 constructor 0.9
            shapes.use -> shapes.Base.make @26 type_member 0.9
            shapes.use -> shapes.Base.unit @25 type_member 0.9
            shapes.use -> shapes.Square.area @28 typed_receiver 0.85
            shapes.use -> shapes.build @27 same_scope 0.95
            unresolved shapes.use shapes.py:29 s.area (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn python_functions_passed_as_values_and_class_body_calls() {
    check(
        r#"
        //- /values.py
        def double(x):
            return x * 2

        def keep(x):
            return x > 1

        def configure():
            return {}

        class Settings:
            defaults = configure()  # calls: values.configure

        def run(items):
            mapped = map(double, items)  # calls: <builtin>.map, values.double
            kept = filter(keep, mapped)  # calls: <builtin>.filter, values.keep
            return sorted(kept, key=double)  # calls: <builtin>.sorted, values.double
        "#,
        expect![[r#"
            values.Settings -> values.configure @11 same_scope 0.95
            values.run -> <builtin>.filter @15 same_scope 0.95
            values.run -> <builtin>.map @14 same_scope 0.95
            values.run -> <builtin>.sorted @16 same_scope 0.95
            values.run -> values.double @14 same_scope 0.95
            values.run -> values.double @16 same_scope 0.95
            values.run -> values.keep @15 same_scope 0.95
        "#]],
    );
}

#[test]
fn rust_globs_self_super_self_type_fields_defaults_and_closures() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "kit"
        //- /src/lib.rs
        pub mod parts;
        pub mod engine;
        //- /src/parts.rs
        pub struct Wheel;
        impl Wheel {
            pub fn new() -> Wheel { Wheel }
            pub fn spin(&self) -> u32 { self::helper() }  // calls: kit::parts::helper
        }
        pub fn helper() -> u32 { 1 }
        pub trait Check {
            fn check(&self) -> bool { true }
        }
        impl Check for Wheel {}
        //- /src/engine.rs
        use crate::parts::*;

        pub struct Engine { wheel: Wheel }

        impl Engine {
            pub fn new() -> Self {
                Self::with(Wheel::new())  // calls: kit::engine::Engine::with, kit::parts::Wheel::new
            }
            fn with(wheel: Wheel) -> Self { Engine { wheel } }
            pub fn run(&self) -> u32 {
                let spins: Vec<u32> = (0..3).map(|_| self.wheel.spin()).collect();  // calls: kit::parts::Wheel::spin
                self.wheel.check();  // calls: kit::parts::Check::check
                super::parts::helper()  // calls: kit::parts::helper
            }
        }

        pub fn start() -> u32 {
            let engine = Engine::new();  // calls: kit::engine::Engine::new
            engine.run()  // calls: kit::engine::Engine::run
        }
        "#,
        expect![[r#"
            kit::engine::Engine::new -> kit::engine::Engine::with @7 type_member 0.9
            kit::engine::Engine::new -> kit::parts::Wheel::new @7 import 0.95
            kit::engine::Engine::run -> kit::parts::Check::check @12 self_method 0.9
            kit::engine::Engine::run -> kit::parts::Wheel::spin @11 self_method 0.9
            kit::engine::Engine::run -> kit::parts::helper @13 qualified_path 0.95
            kit::engine::start -> kit::engine::Engine::new @18 type_member 0.9
            kit::engine::start -> kit::engine::Engine::run @19 typed_receiver 0.85
            kit::parts::Wheel::spin -> kit::parts::helper @4 qualified_path 0.95
            unresolved kit::engine::Engine::run src/engine.rs:11 (0..3).map (no_project_symbol_named)
            unresolved kit::engine::Engine::run src/engine.rs:11 (0..3).map(|_| self.wheel.spin()).collect (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn python_functions_in_a_dict_called_through_a_subscript() {
    check(
        r#"
        //- /dispatch.py
        def on_add(x):
            return x + 1

        def on_sub(x):
            return x - 1

        def apply(op, x):
            table = {"add": on_add, "sub": on_sub}
            return table[op](x)  # calls: dispatch.on_add, dispatch.on_sub
        "#,
        expect![[r#"
            dispatch.apply -> dispatch.on_add @9 ambiguous 0.4
            dispatch.apply -> dispatch.on_sub @9 ambiguous 0.4
        "#]],
    );
}

//! Closures passed to project functions take their parameters' types from the called
//! function's `Fn`-typed parameter (`impl FnOnce(&mut Builder)`, `F: FnMut(&Editor)` in a
//! where clause, `&mut dyn FnMut(…)`, `Box<dyn Fn(…)>`), read where the function is declared.
//! A static call on a bounded type parameter (`T::read(…)` with `T: Encodable`) reaches the
//! trait's method and its impls.

use expect_test::expect;
use tether_tests::check;

#[test]
fn closure_parameters_take_the_called_functions_callable_parameter_types() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "assists"
        //- /src/builder.rs
        pub struct Builder;
        impl Builder {
            pub fn edit(&mut self) {}
        }
        pub struct Editor;
        impl Editor {
            pub fn replace(&self) {}
        }
        //- /src/lib.rs
        mod builder;
        use crate::builder::{Builder, Editor};
        pub struct Acc;
        impl Acc {
            pub fn add(&mut self, id: u32, f: impl FnOnce(&mut Builder)) {}
            pub fn add_where<F>(&mut self, f: F) where F: FnMut(u32, &Editor) {}
            pub fn add_bound<F: Fn(&Editor) -> bool>(&self, f: F) {}
            pub fn add_dyn(&self, f: &mut dyn FnMut(&mut Builder)) {}
            pub fn add_boxed(&self, f: Box<dyn Fn(Editor) + Send>) {}
            pub fn add_generic<T>(&self, f: impl FnOnce(&T)) {}
            pub fn add_bounded<T: Replace>(&self, f: impl FnOnce(&T)) {}
        }
        pub trait Replace { fn replace(&self); }
        pub fn with_editor(id: u32, f: impl FnOnce(Editor)) {}
        pub fn f() {}
        pub fn run(mut acc: Acc) {
            acc.add(1, |builder| builder.edit());  // calls: assists::Acc::add, assists::builder::Builder::edit
            acc.add_where(|id, editor| editor.replace());  // calls: assists::Acc::add_where, assists::builder::Editor::replace
            acc.add_bound(|editor| { editor.replace(); true });  // calls: assists::Acc::add_bound, assists::builder::Editor::replace
            acc.add_dyn(&mut |builder| builder.edit());  // calls: assists::Acc::add_dyn
            acc.add_boxed(Box::new(|editor| editor.replace()));  // calls: assists::Acc::add_boxed, <builtin>::Box::new
            acc.add_generic(|value| value.replace());  // calls: assists::Acc::add_generic
            acc.add_bounded(|value| value.replace());  // calls: assists::Acc::add_bounded
            with_editor(2, |editor| editor.replace());  // calls: assists::with_editor, assists::builder::Editor::replace
            Acc::add(&mut acc, 3, |builder| builder.edit());  // calls: assists::Acc::add, assists::builder::Builder::edit
        }
        pub fn call_back(f: impl FnOnce()) {
            f();  // calls: none
        }
        "#,
        expect![[r#"
            assists::run -> <builtin>::Box::new @21 same_scope 0.95
            assists::run -> assists::Acc::add @17 typed_receiver 0.85
            assists::run -> assists::Acc::add @25 type_member 0.9
            assists::run -> assists::Acc::add_bound @19 typed_receiver 0.85
            assists::run -> assists::Acc::add_bounded @23 typed_receiver 0.85
            assists::run -> assists::Acc::add_boxed @21 typed_receiver 0.85
            assists::run -> assists::Acc::add_dyn @20 typed_receiver 0.85
            assists::run -> assists::Acc::add_generic @22 typed_receiver 0.85
            assists::run -> assists::Acc::add_where @18 typed_receiver 0.85
            assists::run -> assists::builder::Builder::edit @17 typed_receiver 0.85
            assists::run -> assists::builder::Builder::edit @25 typed_receiver 0.85
            assists::run -> assists::builder::Editor::replace @18 typed_receiver 0.85
            assists::run -> assists::builder::Editor::replace @19 typed_receiver 0.85
            assists::run -> assists::builder::Editor::replace @24 typed_receiver 0.85
            assists::run -> assists::with_editor @24 same_scope 0.95
            unresolved assists::call_back src/lib.rs:28 f (value_call)
            unresolved assists::run src/lib.rs:20 builder.edit (unknown_receiver_type)
            unresolved assists::run src/lib.rs:21 editor.replace (unknown_receiver_type)
            unresolved assists::run src/lib.rs:22 value.replace (unknown_receiver_type)
            unresolved assists::run src/lib.rs:23 value.replace (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn closure_parameters_naming_the_impls_parameter_take_the_receivers_argument() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "files"
        //- /src/lib.rs
        pub struct Fn;
        impl Fn { pub fn body(&self) {} }
        pub struct InFile<T> { pub value: T }
        impl<T> InFile<T> {
            pub fn map<U>(self, f: impl FnOnce(T) -> U) -> InFile<U> { unreachable!("fixture") }
            pub fn with<G: FnOnce(&T, u32)>(&self, f: G) {}
        }
        pub fn run(source: InFile<Fn>, unknown: InFile<u32>, other: InFile<Missing>) {
            source.with(|it, _| it.body());  // calls: files::InFile::with, files::Fn::body
            source.map(|it| it.body());  // calls: files::InFile::map, files::Fn::body
            unknown.map(|it| it.body());  // calls: files::InFile::map, <builtin>::u32::body
            other.map(|it| it.body());  // calls: files::InFile::map
        }
        "#,
        expect![[r#"
            files::InFile::map -> <builtin>::unreachable! @5 macro 0.9
            files::run -> <builtin>::u32::body @11 typed_receiver 0.85
            files::run -> files::Fn::body @10 typed_receiver 0.85
            files::run -> files::Fn::body @9 typed_receiver 0.85
            files::run -> files::InFile::map @10 typed_receiver 0.85
            files::run -> files::InFile::map @11 typed_receiver 0.85
            files::run -> files::InFile::map @12 typed_receiver 0.85
            files::run -> files::InFile::with @9 typed_receiver 0.85
            unresolved files::run src/lib.rs:12 it.body (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn static_calls_on_bounded_type_parameters_dispatch_to_the_traits_impls() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "codec"
        //- /src/lib.rs
        pub trait Encodable { fn read(bytes: &[u8]) -> Self; }
        pub struct Span;
        impl Encodable for Span { fn read(bytes: &[u8]) -> Span { Span } }
        pub fn decode<T: Encodable>(bytes: &[u8]) -> T {
            T::read(bytes)  // calls: codec::Encodable::read, codec::{impl Encodable for Span}::read
        }
        pub struct Reader<L> { marker: Option<L> }
        impl<L> Reader<L> where L: Encodable {
            pub fn next(&self) -> L { L::read(&[]) }  // calls: codec::Encodable::read, codec::{impl Encodable for Span}::read
        }
        pub fn unbounded<U>() { U::read(&[]); }  // calls: unresolved
        "#,
        expect![[r#"
            codec::Reader::next -> codec::Encodable::read @9 dynamic_dispatch 0.5
            codec::Reader::next -> codec::{impl Encodable for Span}::read @9 dynamic_dispatch 0.5
            codec::decode -> codec::Encodable::read @5 dynamic_dispatch 0.5
            codec::decode -> codec::{impl Encodable for Span}::read @5 dynamic_dispatch 0.5
            unresolved codec::unbounded src/lib.rs:11 U::read (unknown_name)
        "#]],
    );
}

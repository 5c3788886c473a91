//! Rust derives as calls: a derived `PartialEq`, `Clone` or `Debug` calls the same trait's
//! method of each field, down to the fields' project impls. Each marker line must reach
//! exactly its targets; removing the rule fails the test.

use expect_test::expect;
use tether_tests::check;

#[test]
fn rust_derived_impls_call_their_fields_project_impls() {
    // `Row` derives its traits and holds `Inner` (derived too) which holds `Key`, whose
    // impls are written: comparing, cloning or debug-printing a row reaches `Key`'s. A
    // derived `Clone` over fields with no project impl is std's. A derived `default()` is
    // still a value of its type (`b.add()` binds).
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "rows"
        //- /src/lib.rs
        use std::fmt;

        pub struct Key(u32);

        impl PartialEq for Key {
            fn eq(&self, other: &Key) -> bool { self.0 == other.0 }
        }

        impl fmt::Debug for Key {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str("key") }
        }

        impl Clone for Key {
            fn clone(&self) -> Key { Key(self.0) }
        }

        #[derive(PartialEq, Debug, Clone)]
        pub struct Inner { key: Key }

        #[derive(PartialEq, Debug, Clone)]
        pub enum Row { One(Inner), Many { cells: Vec<Inner> }, Empty }

        #[derive(Clone)]
        pub struct Plain { n: u32 }

        impl Default for Key {
            fn default() -> Key { Key(0) }
        }

        #[derive(Default)]
        pub struct Builder { key: Key }

        impl Builder {
            pub fn add(&mut self) {}
        }

        pub fn build() {
            let mut b = Builder::default();  // calls: <builtin>::Default::default, rows::{impl Default for Key}::default
            b.add();  // calls: rows::Builder::add
        }

        pub fn same(a: Row, b: Row) -> bool {
            a == b  // calls: rows::{impl PartialEq for Key}::eq
        }

        pub fn copied(a: Inner) -> Inner {
            a.clone()  // calls: <builtin>::Clone::clone, rows::{impl Clone for Key}::clone
        }

        pub fn shown(a: Row) -> String {
            format!("{a:?}")  // calls: <builtin>::format!, rows::{impl Debug for Key}::fmt
        }

        pub fn plain(p: Plain) -> Plain {
            p.clone()  // calls: <builtin>::Clone::clone
        }
        "#,
        expect![[r#"
            rows::build -> <builtin>::Default::default @38 type_member 0.9
            rows::build -> rows::Builder::add @39 typed_receiver 0.85
            rows::build -> rows::{impl Default for Key}::default @38 typed_receiver 0.85
            rows::copied -> <builtin>::Clone::clone @47 typed_receiver 0.85
            rows::copied -> rows::{impl Clone for Key}::clone @47 typed_receiver 0.85
            rows::plain -> <builtin>::Clone::clone @55 typed_receiver 0.85
            rows::same -> rows::{impl PartialEq for Key}::eq @43 typed_receiver 0.85
            rows::shown -> <builtin>::format! @51 macro 0.9
            rows::shown -> rows::{impl Debug for Key}::fmt @51 typed_receiver 0.85
            rows::{impl Clone for Key}::clone -> rows::Key @14 constructor 0.9
            rows::{impl Debug for Key}::fmt -> std::fmt::Formatter::write_str @10 typed_receiver 0.85
            rows::{impl Default for Key}::default -> rows::Key @27 constructor 0.9
        "#]],
    );
}

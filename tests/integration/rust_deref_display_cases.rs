//! Rust calls of `Deref::deref` and `Display::fmt` that no call expression spells out: `*x`
//! written out, an index reaching a slice through a project `Deref`, and
//! `x.to_string()`. Each marker line must reach exactly its targets; removing a rule fails
//! its test.

use expect_test::expect;
use tether_tests::check;

#[test]
fn rust_written_dereference_calls_deref_of_a_value_not_of_a_reference() {
    // `*v` on a value calls its type's `deref`; `*self` in a `&self` method is the built-in
    // dereference of a reference (no call) and `**self` calls `deref`; `*v = …` and
    // `&mut *v` call `deref_mut`; a parameter typed `&Stack` is a reference.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "stack"
        //- /src/lib.rs
        use std::ops::{Deref, DerefMut};

        pub struct Stack { items: Vec<u32> }

        impl Deref for Stack {
            type Target = Vec<u32>;
            fn deref(&self) -> &Vec<u32> { &self.items }
        }

        impl DerefMut for Stack {
            fn deref_mut(&mut self) -> &mut Vec<u32> { &mut self.items }
        }

        impl Stack {
            pub fn new() -> Stack { Stack { items: Vec::new() } }

            pub fn same(&self) -> &Stack {
                let copy = *self;
                &**self  // calls: stack::{impl Deref for Stack}::deref
            }
        }

        pub fn borrowed(stack: &Stack) -> usize {
            let first = *stack;
            first.len()
        }

        pub fn owned() -> usize {
            let mut v = Stack::new();  // calls: stack::Stack::new
            let slice = &*v;  // calls: stack::{impl Deref for Stack}::deref
            *v = Vec::new();  // calls: <builtin>::Vec::new, stack::{impl DerefMut for Stack}::deref_mut
            let all = &mut *v;  // calls: stack::{impl DerefMut for Stack}::deref_mut
            slice.len()
        }
        "#,
        expect![[r#"
            stack::Stack::new -> <builtin>::Vec::new @15 same_scope 0.95
            stack::Stack::same -> stack::{impl Deref for Stack}::deref @19 self_method 0.9
            stack::owned -> <builtin>::Vec::new @31 same_scope 0.95
            stack::owned -> stack::Stack::new @29 type_member 0.9
            stack::owned -> stack::{impl Deref for Stack}::deref @30 typed_receiver 0.85
            stack::owned -> stack::{impl DerefMut for Stack}::deref_mut @31 typed_receiver 0.85
            stack::owned -> stack::{impl DerefMut for Stack}::deref_mut @32 typed_receiver 0.85
            unresolved stack::borrowed src/lib.rs:25 first.len (no_project_symbol_named)
            unresolved stack::owned src/lib.rs:33 slice.len (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn rust_index_through_a_project_deref_calls_deref() {
    // `v[0]` on a type with no `Index` of its own reaches the slice through its `Deref`: its
    // `deref` runs first. A `Vec`'s index is std's.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "stack"
        //- /src/lib.rs
        use std::ops::Deref;

        pub struct Stack { items: Vec<u32> }

        impl Deref for Stack {
            type Target = [u32];
            fn deref(&self) -> &[u32] { &self.items }
        }

        pub fn first(v: Stack) -> u32 {
            let head = v[0];  // calls: stack::{impl Deref for Stack}::deref
            head
        }

        pub fn plain(v: Vec<u32>) -> u32 {
            v[0]
        }
        "#,
        expect![[r#"
            stack::first -> stack::{impl Deref for Stack}::deref @11 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn rust_to_string_calls_display_fmt_of_its_receiver() {
    // std's `impl<T: Display> ToString for T` calls the type's `Display::fmt`; an integer's
    // is std's.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "names"
        //- /src/lib.rs
        use std::fmt;

        pub struct Name(String);

        impl fmt::Display for Name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(&self.0) }
        }

        pub fn shown(name: Name, n: u32) -> String {
            let a = name.to_string();  // calls: <builtin>::ToString::to_string, names::{impl Display for Name}::fmt
            let c = n.to_string();  // calls: <builtin>::u32::to_string
            a
        }
        "#,
        expect![[r#"
            names::shown -> <builtin>::ToString::to_string @10 typed_receiver 0.85
            names::shown -> <builtin>::u32::to_string @11 typed_receiver 0.85
            names::shown -> names::{impl Display for Name}::fmt @10 typed_receiver 0.85
            names::{impl Display for Name}::fmt -> std::fmt::Formatter::write_str @6 typed_receiver 0.85
        "#]],
    );
}

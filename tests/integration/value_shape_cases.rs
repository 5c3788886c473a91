//! Rust values of shapes beyond names and calls: a unit variant named by its path
//! (`WrapperKind::Result.label()`, `let k = Kind::A;`) is an instance of its enum, and a
//! method on a value outside the project named by a path is a typed receiver's, not the
//! path's own item.

use expect_test::expect;
use tether_tests::check;

#[test]
fn unit_variants_named_by_path_are_instances_of_their_enum() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "kinds"
        //- /src/lib.rs
        pub enum WrapperKind { Option, Result, Tuple(u32) }
        impl WrapperKind {
            pub fn label(&self) -> u32 { 0 }
        }
        pub mod nested {
            pub enum Mode { Fast }
            impl Mode { pub fn speed(&self) {} }
        }
        pub fn run() {
            WrapperKind::Result.label();  // calls: kinds::WrapperKind::label
            let kind = WrapperKind::Option;
            kind.label();  // calls: kinds::WrapperKind::label
            crate::nested::Mode::Fast.speed();  // calls: kinds::nested::Mode::speed
            std::io::ErrorKind::Other.into_error();  // calls: std::io::ErrorKind::Other::into_error
            WrapperKind::Missing.label();  // calls: unresolved
        }
        "#,
        expect![[r#"
            kinds::run -> kinds::WrapperKind::label @10 typed_receiver 0.85
            kinds::run -> kinds::WrapperKind::label @12 typed_receiver 0.85
            kinds::run -> kinds::nested::Mode::speed @13 typed_receiver 0.85
            kinds::run -> std::io::ErrorKind::Other::into_error @14 typed_receiver 0.85
            unresolved kinds::run src/lib.rs:15 WrapperKind::Missing.label (unknown_receiver_type)
        "#]],
    );
}

//! Rust values of project generic types keep their written arguments: a field or a method's
//! return type naming the struct's or impl's parameter takes the instance's argument, and an
//! argument that is not known leaves the call unresolved.

use expect_test::expect;
use tether_tests::check;

#[test]
fn fields_and_methods_of_a_generic_type_take_the_instances_arguments() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "hir"
        //- /src/lib.rs
        pub trait AstNode { fn syntax(&self) -> u32; }
        pub struct Fn;
        impl Fn { pub fn name(&self) {} }
        pub struct SourceFile;
        impl SourceFile {
            pub fn parse() -> Parse<SourceFile> { todo!() }
            pub fn items(&self) {}
        }
        pub struct InFile<T> { pub file_id: u32, pub value: T }
        impl<T> InFile<T> {
            pub fn as_ref(&self) -> InFile<&T> { todo!() }
            pub fn get(&self) -> &T { &self.value }
            pub fn cloned(&self) -> Self { todo!() }
            pub fn boxed(&self) -> Option<T> { None }
        }
        pub struct Parse<T> { green: u32, marker: Option<T> }
        impl<T: AstNode> Parse<T> {
            pub fn tree(&self) -> T { todo!() }
        }
        pub struct Holder<'a, N: AstNode> { pub node: N, pub name: &'a str }
        pub fn use_them<U>(file: InFile<Fn>, maybe: Option<InFile<Fn>>, unknown: InFile<U>, holder: Holder<'_, Fn>) {
            file.value.name();  // calls: hir::Fn::name
            let borrowed = file.as_ref();  // calls: hir::InFile::as_ref
            borrowed.value.name();  // calls: hir::Fn::name
            file.get().name();  // calls: hir::InFile::get, hir::Fn::name
            file.cloned().get().name();  // calls: hir::InFile::cloned, hir::InFile::get, hir::Fn::name
            file.boxed().unwrap().name();  // calls: hir::InFile::boxed, <builtin>::Option::unwrap, hir::Fn::name
            let first = maybe.unwrap();  // calls: <builtin>::Option::unwrap
            first.value.name();  // calls: hir::Fn::name
            SourceFile::parse().tree().items();  // calls: hir::SourceFile::parse, hir::Parse::tree, hir::SourceFile::items
            let parse: Parse<SourceFile> = SourceFile::parse();  // calls: hir::SourceFile::parse
            parse.tree().items();  // calls: hir::Parse::tree, hir::SourceFile::items
            holder.node.name();  // calls: hir::Fn::name
            unknown.value.name();  // calls: unresolved
            unknown.get().name();  // calls: hir::InFile::get
        }
        "#,
        expect![[r#"
            hir::InFile::as_ref -> <builtin>::todo! @11 macro 0.9
            hir::InFile::cloned -> <builtin>::todo! @13 macro 0.9
            hir::Parse::tree -> <builtin>::todo! @18 macro 0.9
            hir::SourceFile::parse -> <builtin>::todo! @6 macro 0.9
            hir::use_them -> <builtin>::Option::unwrap @27 typed_receiver 0.85
            hir::use_them -> <builtin>::Option::unwrap @28 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @22 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @24 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @25 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @26 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @27 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @29 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @33 typed_receiver 0.85
            hir::use_them -> hir::InFile::as_ref @23 typed_receiver 0.85
            hir::use_them -> hir::InFile::boxed @27 typed_receiver 0.85
            hir::use_them -> hir::InFile::cloned @26 typed_receiver 0.85
            hir::use_them -> hir::InFile::get @25 typed_receiver 0.85
            hir::use_them -> hir::InFile::get @26 typed_receiver 0.85
            hir::use_them -> hir::InFile::get @35 typed_receiver 0.85
            hir::use_them -> hir::Parse::tree @30 typed_receiver 0.85
            hir::use_them -> hir::Parse::tree @32 typed_receiver 0.85
            hir::use_them -> hir::SourceFile::items @30 typed_receiver 0.85
            hir::use_them -> hir::SourceFile::items @32 typed_receiver 0.85
            hir::use_them -> hir::SourceFile::parse @30 type_member 0.9
            hir::use_them -> hir::SourceFile::parse @31 type_member 0.9
            unresolved hir::use_them src/lib.rs:34 unknown.value.name (unknown_receiver_type)
            unresolved hir::use_them src/lib.rs:35 unknown.get().name (unknown_receiver_type)
        "#]],
    );
}

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
            pub fn parse() -> Parse<SourceFile> { unreachable!("fixture") }
            pub fn items(&self) {}
        }
        pub struct InFile<T> { pub file_id: u32, pub value: T }
        impl<T> InFile<T> {
            pub fn as_ref(&self) -> InFile<&T> { unreachable!("fixture") }
            pub fn get(&self) -> &T { &self.value }
            pub fn cloned(&self) -> Self { unreachable!("fixture") }
            pub fn boxed(&self) -> Option<T> { None }
        }
        pub struct Parse<T> { green: u32, marker: Option<T> }
        impl<T: AstNode> Parse<T> {
            pub fn tree(&self) -> T { unreachable!("fixture") }
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
            hir::InFile::as_ref -> <builtin>::unreachable! @11 macro 0.9
            hir::InFile::cloned -> <builtin>::unreachable! @13 macro 0.9
            hir::Parse::tree -> <builtin>::unreachable! @18 macro 0.9
            hir::SourceFile::parse -> <builtin>::unreachable! @6 macro 0.9
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

#[test]
fn a_generic_alias_passes_its_arguments_to_the_type_it_stands_for() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "hir"
        //- /src/lib.rs
        pub struct FileId;
        impl FileId { pub fn original(&self) {} }
        pub struct Fn;
        impl Fn { pub fn name(&self) {} }
        pub struct InFileWrapper<K, T> { pub file_id: K, pub value: T }
        impl<K, T> InFileWrapper<K, T> {
            pub fn get(&self) -> &T { &self.value }
        }
        pub type InFile<T> = InFileWrapper<FileId, T>;
        impl<T> InFile<T> {
            pub fn alias_value(&self) -> T { unreachable!("fixture") }
            pub fn alias_self(&self) -> Self { unreachable!("fixture") }
        }
        pub struct FileAstId<N> { raw: u32, node: Option<N> }
        impl<N> FileAstId<N> { pub fn node(&self) -> N { unreachable!("fixture") } }
        pub type AstId<N> = InFile<FileAstId<N>>;
        pub trait Named { type Target; }
        impl<T> Named for InFileWrapper<FileId, T> { type Target = T; }
        pub fn use_them(file: InFile<Fn>, other: InFile<u32>, missing: InFile<NotHere>) {
            file.file_id.original();  // calls: hir::FileId::original
            file.value.name();  // calls: hir::Fn::name
            file.get().name();  // calls: hir::InFileWrapper::get, hir::Fn::name
            other.value.name();  // calls: <builtin>::u32::name
            missing.value.name();  // calls: unresolved
            file.alias_value().name();  // calls: hir::InFile::alias_value, hir::Fn::name
            file.alias_self().get();  // calls: hir::InFile::alias_self, hir::InFileWrapper::get
        }
        pub fn through_two_aliases(ast: AstId<Fn>) {
            ast.file_id.original();  // calls: hir::FileId::original
            ast.value.node().name();  // calls: hir::FileAstId::node, hir::Fn::name
        }
        "#,
        expect![[r#"
            hir::FileAstId::node -> <builtin>::unreachable! @15 macro 0.9
            hir::InFile::alias_self -> <builtin>::unreachable! @12 macro 0.9
            hir::InFile::alias_value -> <builtin>::unreachable! @11 macro 0.9
            hir::through_two_aliases -> hir::FileAstId::node @30 typed_receiver 0.85
            hir::through_two_aliases -> hir::FileId::original @29 typed_receiver 0.85
            hir::through_two_aliases -> hir::Fn::name @30 typed_receiver 0.85
            hir::use_them -> <builtin>::u32::name @23 typed_receiver 0.85
            hir::use_them -> hir::FileId::original @20 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @21 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @22 typed_receiver 0.85
            hir::use_them -> hir::Fn::name @25 typed_receiver 0.85
            hir::use_them -> hir::InFile::alias_self @26 typed_receiver 0.85
            hir::use_them -> hir::InFile::alias_value @25 typed_receiver 0.85
            hir::use_them -> hir::InFileWrapper::get @22 typed_receiver 0.85
            hir::use_them -> hir::InFileWrapper::get @26 typed_receiver 0.85
            unresolved hir::use_them src/lib.rs:24 missing.value.name (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn deref_to_the_type_parameter_reaches_the_argument() {
    // tokio's `MutexGuard<T>`, `CachePadded<T>` and tokio-test's `Spawn<T>` deref to `T`.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "guards"
        //- /src/lib.rs
        use std::ops::Deref;
        pub struct Guard<T> { value: T }
        impl<T> Deref for Guard<T> {
            type Target = T;
            fn deref(&self) -> &T { &self.value }
        }
        impl<T> Guard<T> {
            pub fn release(&self) {}
        }
        pub struct Shared;
        impl Shared {
            pub fn broadcast(&self) {}
        }
        fn run(state: Guard<Shared>, other: Guard<Unknown>) {
            state.broadcast();  // calls: guards::Shared::broadcast, guards::{impl Deref for Guard}::deref
            state.release();  // calls: guards::Guard::release
            other.broadcast();  // calls: guards::{impl Deref for Guard}::deref
            (*state).broadcast();  // calls: guards::Shared::broadcast, guards::{impl Deref for Guard}::deref
            (*state).release();  // calls: guards::{impl Deref for Guard}::deref
        }
        "#,
        expect![[r#"
            guards::run -> guards::Guard::release @16 typed_receiver 0.85
            guards::run -> guards::Shared::broadcast @15 typed_receiver 0.85
            guards::run -> guards::Shared::broadcast @18 typed_receiver 0.85
            guards::run -> guards::{impl Deref for Guard}::deref @15 typed_receiver 0.85
            guards::run -> guards::{impl Deref for Guard}::deref @17 typed_receiver 0.85
            guards::run -> guards::{impl Deref for Guard}::deref @18 typed_receiver 0.85
            guards::run -> guards::{impl Deref for Guard}::deref @19 typed_receiver 0.85
            unresolved guards::run src/lib.rs:17 other.broadcast (unknown_member)
            unresolved guards::run src/lib.rs:19 (*state).release (unknown_receiver_type)
        "#]],
    );
}

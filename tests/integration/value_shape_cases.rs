//! Rust values of shapes beyond names and calls: a unit variant named by its path
//! (`WrapperKind::Result.label()`, `let k = Kind::A;`) is an instance of its enum, a method on
//! a value outside the project named by a path is a typed receiver's, not the path's own
//! item, `let x = if … { a } else { b }` / `match` takes the first visible branch's type, and a
//! project type implementing `Iterator` has std's adapters over its `Item`; fields read on a
//! call's result (`x.f()?.value.m()`) and elements (`xs[i]`, `graph[id]` through `impl Index`)
//! are typed; `Type::from(x)` is a `Type` even when its `From` impl is not visible; statics and
//! consts (also associated consts) have their written types.

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

#[test]
fn if_and_match_values_take_the_type_of_their_first_visible_branch() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "branches"
        //- /src/lib.rs
        pub struct Node;
        impl Node {
            pub fn new() -> Node { Node }
            pub fn kind(&self) -> u32 { 0 }
        }
        pub struct Report;
        impl Report { pub fn finish(&self) {} }
        pub fn make_report() -> Report { Report }
        pub fn run(flag: bool, maybe: Option<Node>, verbose: u32, nodes: Vec<Node>) {
            let node = if flag { Node::new() } else { return };  // calls: branches::Node::new
            node.kind();  // calls: branches::Node::kind
            let bar = match verbose {
                0 => panic!("quiet"),
                _ => make_report(),  // calls: branches::make_report
            };
            bar.finish();  // calls: branches::Report::finish
            let picked = if let Some(inner) = maybe { inner } else { Node::new() };  // calls: branches::Node::new
            picked.kind();  // calls: branches::Node::kind
            let nothing = if flag { None } else { Some(1) };
            nothing.kind();  // calls: unresolved
            for &node in &nodes {
                node.kind();  // calls: branches::Node::kind
            }
            let wrapped = Some(node);
            wrapped.is_some();  // calls: <builtin>::Option::is_some
            let (left, count) = match verbose {
                0 => (if flag { Node::new() } else { Node::new() }, 0),  // calls: branches::Node::new
                _ => (Node::new(), 1),  // calls: branches::Node::new
            };
            left.kind();  // calls: branches::Node::kind
            let (report, other) = (make_report(), 2);  // calls: branches::make_report
            report.finish();  // calls: branches::Report::finish
        }
        pub fn unbound_name(items: Vec<(u32, Node)>) {
            let it = Node::new();  // calls: branches::Node::new
            items.iter().for_each(|&(_, ref it)| { it.kind(); });  // calls: <builtin>::Vec::iter, <builtin>::Iterator::for_each, branches::Node::kind
        }
        "#,
        expect![[r#"
            branches::run -> <builtin>::Option::is_some @25 typed_receiver 0.85
            branches::run -> <builtin>::Some @19 same_scope 0.95
            branches::run -> <builtin>::Some @24 same_scope 0.95
            branches::run -> <builtin>::panic! @13 macro 0.9
            branches::run -> branches::Node::kind @11 typed_receiver 0.85
            branches::run -> branches::Node::kind @18 typed_receiver 0.85
            branches::run -> branches::Node::kind @22 typed_receiver 0.85
            branches::run -> branches::Node::kind @30 typed_receiver 0.85
            branches::run -> branches::Node::new @10 type_member 0.9
            branches::run -> branches::Node::new @17 type_member 0.9
            branches::run -> branches::Node::new @27 type_member 0.9
            branches::run -> branches::Node::new @28 type_member 0.9
            branches::run -> branches::Report::finish @16 typed_receiver 0.85
            branches::run -> branches::Report::finish @32 typed_receiver 0.85
            branches::run -> branches::make_report @14 same_scope 0.95
            branches::run -> branches::make_report @31 same_scope 0.95
            branches::unbound_name -> <builtin>::Iterator::for_each @36 typed_receiver 0.85
            branches::unbound_name -> <builtin>::Vec::iter @36 typed_receiver 0.85
            branches::unbound_name -> branches::Node::kind @36 typed_receiver 0.85
            branches::unbound_name -> branches::Node::new @35 type_member 0.9
            unresolved branches::run src/lib.rs:20 nothing.kind (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn project_iterators_have_std_adapters_over_their_item() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "ast"
        //- /src/lib.rs
        pub trait AstNode { fn syntax(&self) -> u32; }
        pub struct Field;
        impl Field { pub fn name(&self) {} }
        #[derive(Clone)]
        pub struct AstChildren<N> { marker: Option<N> }
        impl<N: AstNode> Iterator for AstChildren<N> {
            type Item = N;
            fn next(&mut self) -> Option<N> { None }
        }
        impl<N> AstChildren<N> {
            pub fn reset(&self) {}
        }
        pub fn fields() -> AstChildren<Field> { unreachable!("fixture") }
        pub fn run() {
            fields().map(|it| it.name());  // calls: ast::fields, <builtin>::Iterator::map, ast::Field::name
            for field in fields() {  // calls: ast::fields, ast::{impl Iterator for AstChildren}::next
                field.name();  // calls: ast::Field::name
            }
            fields().filter(|it| true).next().unwrap().name();  // calls: ast::fields, <builtin>::Iterator::filter, <builtin>::Iterator::next, <builtin>::Option::unwrap, ast::Field::name
            let copy = fields().clone();  // calls: ast::fields, <builtin>::Clone::clone
            copy.reset();  // calls: ast::AstChildren::reset
            copy.next();  // calls: ast::{impl Iterator for AstChildren}::next
        }
        "#,
        expect![[r#"
            ast::fields -> <builtin>::unreachable! @13 macro 0.9
            ast::run -> <builtin>::Clone::clone @20 typed_receiver 0.85
            ast::run -> <builtin>::Iterator::filter @19 typed_receiver 0.85
            ast::run -> <builtin>::Iterator::map @15 typed_receiver 0.85
            ast::run -> <builtin>::Iterator::next @19 typed_receiver 0.85
            ast::run -> <builtin>::Option::unwrap @19 typed_receiver 0.85
            ast::run -> ast::AstChildren::reset @21 typed_receiver 0.85
            ast::run -> ast::Field::name @15 typed_receiver 0.85
            ast::run -> ast::Field::name @17 typed_receiver 0.85
            ast::run -> ast::Field::name @19 typed_receiver 0.85
            ast::run -> ast::fields @15 same_scope 0.95
            ast::run -> ast::fields @16 same_scope 0.95
            ast::run -> ast::fields @19 same_scope 0.95
            ast::run -> ast::fields @20 same_scope 0.95
            ast::run -> ast::{impl Iterator for AstChildren}::next @16 typed_receiver 0.85
            ast::run -> ast::{impl Iterator for AstChildren}::next @22 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn fields_of_call_results_and_indexed_elements_are_typed() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "defs"
        //- /src/lib.rs
        use std::ops::Index;
        pub struct Scope;
        impl Scope { pub fn get(&self) {} }
        pub struct ModuleData { pub scope: Scope }
        pub struct DefMap { pub modules: Vec<ModuleData> }
        impl Index<u32> for DefMap {
            type Output = ModuleData;
            fn index(&self, id: u32) -> &ModuleData { unreachable!("fixture") }
        }
        impl DefMap {
            pub fn root(&self) -> Option<&ModuleData> { None }
        }
        pub struct Arena<T> { items: Vec<T> }
        impl<T> Index<u32> for Arena<T> {
            type Output = T;
            fn index(&self, id: u32) -> &T { unreachable!("fixture") }
        }
        pub fn run(def_map: DefMap, arena: Arena<Scope>) -> Option<()> {
            def_map[0].scope.get();  // calls: defs::Scope::get, defs::{impl Index for DefMap}::index
            def_map.modules[1].scope.get();  // calls: defs::Scope::get
            def_map.root()?.scope.get();  // calls: defs::DefMap::root, defs::Scope::get
            def_map.modules[1..].len();  // calls: unresolved
            arena[0].get();  // calls: defs::Scope::get, defs::{impl Index for Arena}::index
            None
        }
        "#,
        expect![[r#"
            defs::run -> defs::DefMap::root @21 typed_receiver 0.85
            defs::run -> defs::Scope::get @19 typed_receiver 0.85
            defs::run -> defs::Scope::get @20 typed_receiver 0.85
            defs::run -> defs::Scope::get @21 typed_receiver 0.85
            defs::run -> defs::Scope::get @23 typed_receiver 0.85
            defs::run -> defs::{impl Index for Arena}::index @23 typed_receiver 0.85
            defs::run -> defs::{impl Index for DefMap}::index @19 typed_receiver 0.85
            defs::{impl Index for Arena}::index -> <builtin>::unreachable! @16 macro 0.9
            defs::{impl Index for DefMap}::index -> <builtin>::unreachable! @8 macro 0.9
            unresolved defs::run src/lib.rs:22 def_map.modules[1..].len (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn conversions_into_a_project_type_give_that_type() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "ids"
        //- /src/lib.rs
        pub struct FunctionId;
        pub enum GenericDef { Function(FunctionId) }
        impl GenericDef { pub fn params(&self) {} }
        pub trait Named { fn name(&self); }
        pub fn run(id: FunctionId) {
            GenericDef::from(id).params();  // calls: ids::GenericDef::params
            let def = GenericDef::try_from(id).unwrap();  // calls: <builtin>::Result::unwrap
            def.params();  // calls: ids::GenericDef::params
            Named::from(id).name();  // calls: unresolved
        }
        "#,
        expect![[r#"
            ids::run -> <builtin>::Result::unwrap @7 typed_receiver 0.85
            ids::run -> ids::GenericDef::params @6 typed_receiver 0.85
            ids::run -> ids::GenericDef::params @8 typed_receiver 0.85
            unresolved ids::run src/lib.rs:6 GenericDef::from (no_project_symbol_named)
            unresolved ids::run src/lib.rs:7 GenericDef::try_from (no_project_symbol_named)
            unresolved ids::run src/lib.rs:9 Named::from (no_project_symbol_named)
            unresolved ids::run src/lib.rs:9 Named::from(id).name (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn statics_and_consts_have_their_written_types() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "cells"
        //- /src/lib.rs
        pub struct OnceCell<T> { value: Option<T> }
        impl<T> OnceCell<T> {
            pub const fn new() -> OnceCell<T> { OnceCell { value: None } }
            pub fn get(&self) -> Option<&T> { None }
        }
        pub struct Ready(u32);
        impl Ready {
            pub const ALL: Ready = Ready(0);
            pub const KINDS: &'static [Ready] = &[];
            pub fn as_usize(&self) -> usize { 0 }
        }
        static ONCE: OnceCell<u32> = OnceCell::new();  // calls: cells::OnceCell::new
        pub fn run() {
            ONCE.get();  // calls: cells::OnceCell::get
            Ready::ALL.as_usize();  // calls: cells::Ready::as_usize
            Ready::KINDS.iter().next().unwrap().as_usize();  // calls: <builtin>::Vec::iter, <builtin>::Iterator::next, <builtin>::Option::unwrap, cells::Ready::as_usize
            const LIMIT: usize = 3;
            LIMIT.count_ones();  // calls: <builtin>::usize::count_ones
            Ready::MISSING.as_usize();  // calls: unresolved
        }
        "#,
        expect![[r#"
            cells -> cells::OnceCell::new @12 type_member 0.9
            cells::run -> <builtin>::Iterator::next @16 typed_receiver 0.85
            cells::run -> <builtin>::Option::unwrap @16 typed_receiver 0.85
            cells::run -> <builtin>::Vec::iter @16 typed_receiver 0.85
            cells::run -> <builtin>::usize::count_ones @18 typed_receiver 0.85
            cells::run -> cells::OnceCell::get @14 typed_receiver 0.85
            cells::run -> cells::Ready::as_usize @15 typed_receiver 0.85
            cells::run -> cells::Ready::as_usize @16 typed_receiver 0.85
            cells::{impl Ready} -> cells::Ready @8 constructor 0.9
            unresolved cells::run src/lib.rs:19 Ready::MISSING.as_usize (unknown_receiver_type)
        "#]],
    );
}

//! Receivers typed without a type checker: `Option`/`Result` unwrapped by `?`, `unwrap` and
//! `Some(x)` patterns, enum variant fields in `match`, elements of `for` loops and of closures
//! passed to iterator methods, type aliases, std methods of derived traits, pytest fixtures,
//! Python return values and members inherited from a dependency's class, and Cargo targets
//! whose files are not under `src/`.

use expect_test::expect;
use tether_tests::check;

#[test]
fn rust_option_result_patterns_loops_and_closures_type_their_values() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "shop"
        //- /src/lib.rs
        pub mod model;
        use model::{Item, Cart, Event};

        pub fn find(cart: &Cart) -> Option<Item> { None }
        pub fn load() -> anyhow::Result<Cart> { Ok(Cart { items: Vec::new() }) }
        pub fn items(cart: &Cart) -> impl Iterator<Item = Item> { cart.items.clone().into_iter() }

        pub fn run(cart: &Cart, events: Vec<Event>) -> anyhow::Result<()> {
            find(cart)?.price();  // calls: shop::find, shop::model::Item::price
            load().unwrap().total();  // calls: <builtin>::Result::unwrap, shop::load, shop::model::Cart::total
            let loaded = load()?;
            loaded.total();  // calls: shop::model::Cart::total
            if let Some(item) = find(cart) {
                item.price();  // calls: shop::model::Item::price
            }
            for item in &cart.items {
                item.price();  // calls: shop::model::Item::price
            }
            cart.items.iter().map(|it| it.price());  // calls: <builtin>::Iterator::map, <builtin>::Vec::iter, shop::model::Item::price
            items(cart).filter(|it| it.cheap()).count();  // calls: <builtin>::Iterator::count, <builtin>::Iterator::filter, shop::items, shop::model::Item::cheap
            for event in events {
                match event {
                    Event::Added(item) => item.price(),  // calls: shop::model::Item::price
                    Event::Emptied(cart) => cart.total(),  // calls: shop::model::Cart::total
                };
            }
            matches!(find(cart), Some(Item { .. }) | None);  // calls: <builtin>::matches!, shop::find
            let first = cart.items.first().cloned().unwrap();
            first.price();  // calls: shop::model::Item::price
            Ok(())
        }
        //- /src/model.rs
        #[derive(Clone)]
        pub struct Item { pub cost: u32 }
        impl Item {
            pub fn price(&self) -> u32 { self.cost }
            pub fn cheap(&self) -> bool { self.cost < 10 }
        }
        pub struct Cart { pub items: Vec<Item> }
        impl Cart { pub fn total(&self) -> u32 { 0 } }
        pub enum Event { Added(Item), Emptied(Cart) }
        "#,
        expect![[r#"
            shop::items -> <builtin>::Vec::clone @6 typed_receiver 0.85
            shop::items -> <builtin>::Vec::into_iter @6 typed_receiver 0.85
            shop::load -> <builtin>::Ok @5 same_scope 0.95
            shop::load -> <builtin>::Vec::new @5 same_scope 0.95
            shop::run -> <builtin>::Iterator::count @20 typed_receiver 0.85
            shop::run -> <builtin>::Iterator::filter @20 typed_receiver 0.85
            shop::run -> <builtin>::Iterator::map @19 typed_receiver 0.85
            shop::run -> <builtin>::Ok @30 same_scope 0.95
            shop::run -> <builtin>::Option::cloned @28 typed_receiver 0.85
            shop::run -> <builtin>::Option::unwrap @28 typed_receiver 0.85
            shop::run -> <builtin>::Result::unwrap @10 typed_receiver 0.85
            shop::run -> <builtin>::Vec::first @28 typed_receiver 0.85
            shop::run -> <builtin>::Vec::iter @19 typed_receiver 0.85
            shop::run -> <builtin>::matches! @27 macro 0.9
            shop::run -> shop::find @13 same_scope 0.95
            shop::run -> shop::find @27 same_scope 0.95
            shop::run -> shop::find @9 same_scope 0.95
            shop::run -> shop::items @20 same_scope 0.95
            shop::run -> shop::load @10 same_scope 0.95
            shop::run -> shop::load @11 same_scope 0.95
            shop::run -> shop::model::Cart::total @10 typed_receiver 0.85
            shop::run -> shop::model::Cart::total @12 typed_receiver 0.85
            shop::run -> shop::model::Cart::total @24 typed_receiver 0.85
            shop::run -> shop::model::Item::cheap @20 typed_receiver 0.85
            shop::run -> shop::model::Item::price @14 typed_receiver 0.85
            shop::run -> shop::model::Item::price @17 typed_receiver 0.85
            shop::run -> shop::model::Item::price @19 typed_receiver 0.85
            shop::run -> shop::model::Item::price @23 typed_receiver 0.85
            shop::run -> shop::model::Item::price @29 typed_receiver 0.85
            shop::run -> shop::model::Item::price @9 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn rust_closure_parameters_sharing_a_name_keep_their_own_types() {
    // Two closures both call their parameter `it`; each `it` is typed by its own chain, and
    // one whose chain is not visible stays unresolved rather than borrowing the other's type.
    // A closure parameter or a block's `let` shadows a name only where it is in force.
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "zoo"
        //- /src/lib.rs
        pub struct Cat;
        impl Cat { pub fn speak(&self) {} }
        pub struct Dog;
        impl Dog { pub fn speak(&self) {} }
        pub fn chorus(cats: Vec<Cat>, dogs: Vec<Dog>, others: Unknown) {
            cats.iter().for_each(|it| it.speak());  // calls: <builtin>::Iterator::for_each, <builtin>::Vec::iter, zoo::Cat::speak
            dogs.iter().for_each(|it| it.speak());  // calls: <builtin>::Iterator::for_each, <builtin>::Vec::iter, zoo::Dog::speak
            others.iter().for_each(|it| it.speak());  // calls: unresolved
            let pet = Cat;
            pet.speak();  // calls: zoo::Cat::speak
            let pet = Dog;
            pet.speak();  // calls: zoo::Dog::speak
        }
        pub struct Ret;
        impl Ret { pub fn ty(&self) {} }
        pub struct FnPtr;
        impl FnPtr { pub fn ret_type(&self) -> Option<Ret> { None } }
        pub fn shadowing(ty: FnPtr) {
            ty.ret_type().and_then(|ty| ty.ty());  // calls: <builtin>::Option::and_then, zoo::FnPtr::ret_type, zoo::Ret::ty
            { let ty = Cat; ty.speak(); }  // calls: zoo::Cat::speak
            ty.ret_type();  // calls: zoo::FnPtr::ret_type
        }
        pub struct Shared;
        impl Shared { pub fn get(&self) {} }
        impl Clone for Shared { fn clone(&self) -> Self { Shared } }
        pub fn pointers(shared: std::sync::Arc<Shared>, boxed: Box<Shared>) {
            shared.clone();  // calls: <builtin>::Arc::clone
            shared.get();  // calls: zoo::Shared::get
            boxed.get();  // calls: zoo::Shared::get
        }
        pub struct Semantics { inner: Shared }
        impl std::ops::Deref for Semantics {
            type Target = Shared;
            fn deref(&self) -> &Shared { &self.inner }
        }
        pub fn through_deref(sema: &Semantics) {
            sema.get();  // calls: zoo::Shared::get, zoo::{impl Deref for Semantics}::deref
        }
        pub fn pair() -> (Cat, Dog) { (Cat, Dog) }
        pub fn tuples(pets: std::collections::HashMap<String, Dog>, cats: Vec<Cat>) {
            let (cat, dog) = pair();
            cat.speak();  // calls: zoo::Cat::speak
            dog.speak();  // calls: zoo::Dog::speak
            for (name, dog) in pets.iter() {
                dog.speak();  // calls: zoo::Dog::speak
            }
            for (index, cat) in cats.iter().enumerate() {
                cat.speak();  // calls: zoo::Cat::speak
            }
            // A wildcard takes its position; names after `..` are of no known type.
            let (_, second) = pair();
            second.speak();  // calls: zoo::Dog::speak
            cats.iter().fold(0, |_, cat| { cat.speak(); 0 });  // calls: <builtin>::Iterator::fold, <builtin>::Vec::iter, zoo::Cat::speak
            let (.., last) = pair();
            last.speak();  // calls: unresolved
        }
        "#,
        expect![[r#"
            zoo::chorus -> <builtin>::Iterator::for_each @6 typed_receiver 0.85
            zoo::chorus -> <builtin>::Iterator::for_each @7 typed_receiver 0.85
            zoo::chorus -> <builtin>::Vec::iter @6 typed_receiver 0.85
            zoo::chorus -> <builtin>::Vec::iter @7 typed_receiver 0.85
            zoo::chorus -> zoo::Cat::speak @10 typed_receiver 0.85
            zoo::chorus -> zoo::Cat::speak @6 typed_receiver 0.85
            zoo::chorus -> zoo::Dog::speak @12 typed_receiver 0.85
            zoo::chorus -> zoo::Dog::speak @7 typed_receiver 0.85
            zoo::pointers -> <builtin>::Arc::clone @27 typed_receiver 0.85
            zoo::pointers -> zoo::Shared::get @28 typed_receiver 0.85
            zoo::pointers -> zoo::Shared::get @29 typed_receiver 0.85
            zoo::shadowing -> <builtin>::Option::and_then @19 typed_receiver 0.85
            zoo::shadowing -> zoo::Cat::speak @20 typed_receiver 0.85
            zoo::shadowing -> zoo::FnPtr::ret_type @19 typed_receiver 0.85
            zoo::shadowing -> zoo::FnPtr::ret_type @21 typed_receiver 0.85
            zoo::shadowing -> zoo::Ret::ty @19 typed_receiver 0.85
            zoo::through_deref -> zoo::Shared::get @37 typed_receiver 0.85
            zoo::through_deref -> zoo::{impl Deref for Semantics}::deref @37 typed_receiver 0.85
            zoo::tuples -> <builtin>::HashMap::iter @44 typed_receiver 0.85
            zoo::tuples -> <builtin>::Iterator::enumerate @47 typed_receiver 0.85
            zoo::tuples -> <builtin>::Iterator::fold @53 typed_receiver 0.85
            zoo::tuples -> <builtin>::Vec::iter @47 typed_receiver 0.85
            zoo::tuples -> <builtin>::Vec::iter @53 typed_receiver 0.85
            zoo::tuples -> zoo::Cat::speak @42 typed_receiver 0.85
            zoo::tuples -> zoo::Cat::speak @48 typed_receiver 0.85
            zoo::tuples -> zoo::Cat::speak @53 typed_receiver 0.85
            zoo::tuples -> zoo::Dog::speak @43 typed_receiver 0.85
            zoo::tuples -> zoo::Dog::speak @45 typed_receiver 0.85
            zoo::tuples -> zoo::Dog::speak @52 typed_receiver 0.85
            zoo::tuples -> zoo::pair @41 same_scope 0.95
            zoo::tuples -> zoo::pair @51 same_scope 0.95
            zoo::tuples -> zoo::pair @54 same_scope 0.95
            unresolved zoo::chorus src/lib.rs:8 it.speak (unknown_receiver_type)
            unresolved zoo::chorus src/lib.rs:8 others.iter (no_project_symbol_named)
            unresolved zoo::chorus src/lib.rs:8 others.iter().for_each (no_project_symbol_named)
            unresolved zoo::tuples src/lib.rs:55 last.speak (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn rust_aliases_derived_methods_and_enum_globs() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "tree"
        //- /src/lib.rs
        pub mod kinds;
        use kinds::Kind::{self, *};

        pub type Node = rowan::SyntaxNode<Lang>;
        pub type Leaf = Token;

        #[derive(Clone, Default)]
        pub struct Token { pub text: String }
        impl Token { pub fn text(&self) -> &str { &self.text } }

        pub fn walk(node: Node, leaf: Leaf, token: Token) {
            node.text_range();  // calls: rowan::SyntaxNode::text_range
            leaf.text();  // calls: tree::Token::text
            Leaf::default();  // calls: <builtin>::Default::default
            token.clone();  // calls: <builtin>::Clone::clone
            let kind = Kind::Ident;
            Some(kind);  // calls: <builtin>::Some
            Ident;  // a variant brought in by the glob, not a call
        }
        //- /src/kinds.rs
        pub enum Kind { Ident, Punct }
        "#,
        expect![[r#"
            tree::walk -> <builtin>::Clone::clone @15 typed_receiver 0.85
            tree::walk -> <builtin>::Default::default @14 type_member 0.9
            tree::walk -> <builtin>::Some @17 same_scope 0.95
            tree::walk -> rowan::SyntaxNode::text_range @12 typed_receiver 0.85
            tree::walk -> tree::Token::text @13 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn cargo_targets_outside_src_and_test_roots_are_their_own_crates() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "grep-tool"
        autotests = false

        [[bin]]
        name = "rg"
        path = "crates/core/main.rs"

        [[test]]
        name = "integration"
        path = "tests/tests.rs"
        //- /crates/core/main.rs
        mod flags;
        fn main() { crate::flags::parse(); }  // calls: rg::flags::parse
        //- /crates/core/flags/mod.rs
        pub fn parse() {}
        //- /tests/tests.rs
        mod util;
        mod misc;
        //- /tests/util.rs
        pub struct Dir;
        impl Dir {
            pub fn create(&self) {}
            pub fn arg(&mut self, value: &str) -> &mut Dir { self }
            pub fn stdout(&mut self) -> String { String::new() }
        }
        //- /tests/misc.rs
        use crate::util::Dir;
        rgtest!(single_file, |dir: Dir| {
            dir.create();  // calls: grep_tool_tests::util::Dir::create
            assert_eq!("", dir.arg("a").arg("b").stdout());  // calls: <builtin>::assert_eq!, grep_tool_tests::util::Dir::arg, grep_tool_tests::util::Dir::stdout
        });
        rgtest!(ignored_command, |dir: Dir, _: Dir| {
            dir.create();  // calls: grep_tool_tests::util::Dir::create
        });
        "#,
        expect![[r#"
            grep_tool_tests::misc -> <builtin>::assert_eq! @4 macro 0.9
            grep_tool_tests::misc -> grep_tool_tests::util::Dir::arg @4 typed_receiver 0.85
            grep_tool_tests::misc -> grep_tool_tests::util::Dir::create @3 typed_receiver 0.85
            grep_tool_tests::misc -> grep_tool_tests::util::Dir::create @7 typed_receiver 0.85
            grep_tool_tests::misc -> grep_tool_tests::util::Dir::stdout @4 typed_receiver 0.85
            grep_tool_tests::util::Dir::stdout -> <builtin>::String::new @5 same_scope 0.95
            rg::main -> rg::flags::parse @2 qualified_path 0.95
            unresolved grep_tool_tests::misc tests/misc.rs:2 rgtest! (no_project_symbol_named)
            unresolved grep_tool_tests::misc tests/misc.rs:6 rgtest! (no_project_symbol_named)
        "#]],
    );
}

#[test]
fn python_fixtures_return_values_and_dependency_bases() {
    check(
        r#"
        //- /app/__init__.py
        //- /app/core.py
        from werkzeug.test import Client

        class Config(dict):
            def from_mapping(self, mapping):
                return True

        class Flask:
            def __init__(self):
                self.config = self.make_config()
            def make_config(self):
                return Config()
            def route(self, rule):
                return rule
            def test_client(self):
                return TestClient()

        class TestClient(Client):
            def session_transaction(self):
                return 1

        def create_app():
            app = Flask()
            return app
        //- /tests/conftest.py
        import pytest
        from app.core import create_app

        @pytest.fixture
        def app():
            app = create_app()
            yield app

        @pytest.fixture
        def client(app):
            return app.test_client()
        //- /tests/test_views.py
        from app.core import create_app, Flask

        def narrowed(value):
            if isinstance(value, Flask):
                value.route("/")  # calls: app.core.Flask.route
            elif isinstance(value, Config):
                value.from_mapping({})  # calls: unresolved
            value.route("/")  # calls: unresolved

        def test_index(app, client):
            app.route("/")  # calls: app.core.Flask.route
            client.session_transaction()  # calls: app.core.TestClient.session_transaction
            client.get("/")  # calls: werkzeug.test.Client.get
            create_app().route("/x")  # calls: app.core.create_app, app.core.Flask.route
            app.config.from_mapping({})  # calls: app.core.Config.from_mapping
            app.config.update({})  # calls: <builtin>.dict.update
        "#,
        expect![[r#"
            app.core.Flask.__init__ -> app.core.Flask.make_config @9 self_method 0.9
            app.core.Flask.make_config -> app.core.Config @11 constructor 0.9
            app.core.Flask.test_client -> app.core.TestClient @15 constructor 0.9
            app.core.create_app -> app.core.Flask.__init__ @22 constructor 0.9
            conftest -> pytest.fixture @4 import 0.95
            conftest -> pytest.fixture @9 import 0.95
            conftest.app -> app.core.create_app @6 import 0.95
            conftest.client -> app.core.Flask.test_client @11 typed_receiver 0.85
            conftest.client -> conftest.app @10 pytest_fixture 0.9
            test_views.narrowed -> <builtin>.isinstance @4 same_scope 0.95
            test_views.narrowed -> <builtin>.isinstance @6 same_scope 0.95
            test_views.narrowed -> app.core.Flask.route @5 typed_receiver 0.85
            test_views.test_index -> <builtin>.dict.update @16 typed_receiver 0.85
            test_views.test_index -> app.core.Config.from_mapping @15 typed_receiver 0.85
            test_views.test_index -> app.core.Flask.route @11 typed_receiver 0.85
            test_views.test_index -> app.core.Flask.route @14 typed_receiver 0.85
            test_views.test_index -> app.core.TestClient.session_transaction @12 typed_receiver 0.85
            test_views.test_index -> app.core.create_app @14 import 0.95
            test_views.test_index -> conftest.app @10 pytest_fixture 0.9
            test_views.test_index -> conftest.client @10 pytest_fixture 0.9
            test_views.test_index -> werkzeug.test.Client.get @13 typed_receiver 0.85
            unresolved test_views.narrowed tests/test_views.py:7 value.from_mapping (unknown_receiver_type)
            unresolved test_views.narrowed tests/test_views.py:8 value.route (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn rust_items_inside_brace_macros_are_definitions() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "rt"
        //- /src/lib.rs
        macro_rules! cfg_rt { ($($item:item)*) => { $( #[cfg(feature = "rt")] $item )* } }
        pub mod task;
        cfg_rt! {
            pub use task::spawn;
        }
        pub fn run() {
            spawn();  // calls: rt::task::spawn
            crate::task::Handle::current().id();  // calls: rt::task::Handle::current, rt::task::Handle::id
        }
        //- /src/task.rs
        cfg_rt! {
            /// Spawns a task.
            pub fn spawn() {}

            pub struct Handle;
            impl Handle {
                cfg_rt! {
                    pub fn current() -> Handle { Handle }
                }
                pub fn id(&self) {}
            }
        }
        "#,
        expect![[r#"
            rt -> rt::cfg_rt @3 macro 0.9
            rt::run -> rt::task::Handle::current @8 type_member 0.9
            rt::run -> rt::task::Handle::id @8 typed_receiver 0.85
            rt::run -> rt::task::spawn @7 import 0.95
            rt::task -> rt::cfg_rt @1 macro 0.9
            rt::task::{impl Handle} -> rt::cfg_rt @7 macro 0.9
        "#]],
    );
}

#[test]
fn struct_patterns_and_mut_or_ref_bindings_type_their_names() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "shapes"
        //- /src/lib.rs
        pub struct Pen;
        impl Pen { pub fn draw(&self) {} }
        pub struct Sheet { pub pen: Pen, pub spare: Pen }
        pub enum Tool { Marker { tip: Pen }, Blank }
        pub fn channel() -> (Pen, Pen) { (Pen, Pen) }
        pub fn use_them(sheet: Sheet, tool: Tool, maybe: Option<Pen>) {
            let Sheet { pen, spare: other } = sheet;
            pen.draw();  // calls: shapes::Pen::draw
            other.draw();  // calls: shapes::Pen::draw
            match tool {
                Tool::Marker { tip } => tip.draw(),  // calls: shapes::Pen::draw
                Tool::Blank => {}
            }
            let (first, mut second) = channel();
            second.draw();  // calls: shapes::Pen::draw
            if let Some(ref mut held) = maybe {
                held.draw();  // calls: shapes::Pen::draw
            }
        }
        "#,
        expect![[r#"
            shapes::use_them -> shapes::Pen::draw @11 typed_receiver 0.85
            shapes::use_them -> shapes::Pen::draw @15 typed_receiver 0.85
            shapes::use_them -> shapes::Pen::draw @17 typed_receiver 0.85
            shapes::use_them -> shapes::Pen::draw @8 typed_receiver 0.85
            shapes::use_them -> shapes::Pen::draw @9 typed_receiver 0.85
            shapes::use_them -> shapes::channel @14 same_scope 0.95
        "#]],
    );
}

#[test]
fn std_adapters_keep_what_their_closure_or_function_returns() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "tree"
        //- /src/lib.rs
        pub struct Node;
        pub struct Name;
        impl Node {
            pub fn name(&self) -> Option<Name> { None }
            pub fn parent(&self) -> Option<Node> { None }
            pub fn cast(other: Node) -> Option<Node> { Some(other) }
        }
        impl Name { pub fn text(&self) {} }
        pub fn outside(syntax: rowan::SyntaxNode) {
            syntax.ancestors().find_map(Node::cast).unwrap().name();  // calls: <builtin>::Option::unwrap, rowan::SyntaxNode::ancestors, rowan::SyntaxNode::ancestors()::find_map, tree::Node::name
            for node in syntax.children().filter_map(Node::cast) { node.name(); }  // calls: rowan::SyntaxNode::children, rowan::SyntaxNode::children()::filter_map, tree::Node::name
        }
        pub fn walk(node: Option<Node>, nodes: Vec<Node>) {
            node.as_ref().and_then(|it| it.name()).unwrap().text();  // calls: <builtin>::Option::and_then, <builtin>::Option::as_ref, <builtin>::Option::unwrap, tree::Name::text, tree::Node::name
            let names = nodes.iter().filter_map(|it| { let n = it; n.name() });
            for name in names { name.text(); }  // calls: tree::Name::text
            node.as_ref().and_then(|it| it.parent()).and_then(Node::cast).unwrap().name();  // calls: <builtin>::Option::and_then, <builtin>::Option::as_ref, <builtin>::Option::unwrap, tree::Node::name, tree::Node::parent
            let first = nodes.iter().map(|it| it.parent()).next();
            first.unwrap().unwrap().name();  // calls: <builtin>::Option::unwrap, tree::Node::name
        }
        "#,
        expect![[r#"
            tree::Node::cast -> <builtin>::Some @6 same_scope 0.95
            tree::outside -> <builtin>::Option::unwrap @10 typed_receiver 0.85
            tree::outside -> rowan::SyntaxNode::ancestors @10 typed_receiver 0.85
            tree::outside -> rowan::SyntaxNode::ancestors()::find_map @10 typed_receiver 0.85
            tree::outside -> rowan::SyntaxNode::children @11 typed_receiver 0.85
            tree::outside -> rowan::SyntaxNode::children()::filter_map @11 typed_receiver 0.85
            tree::outside -> tree::Node::name @10 typed_receiver 0.85
            tree::outside -> tree::Node::name @11 typed_receiver 0.85
            tree::walk -> <builtin>::Iterator::filter_map @15 typed_receiver 0.85
            tree::walk -> <builtin>::Iterator::map @18 typed_receiver 0.85
            tree::walk -> <builtin>::Iterator::next @18 typed_receiver 0.85
            tree::walk -> <builtin>::Option::and_then @14 typed_receiver 0.85
            tree::walk -> <builtin>::Option::and_then @17 typed_receiver 0.85
            tree::walk -> <builtin>::Option::as_ref @14 typed_receiver 0.85
            tree::walk -> <builtin>::Option::as_ref @17 typed_receiver 0.85
            tree::walk -> <builtin>::Option::unwrap @14 typed_receiver 0.85
            tree::walk -> <builtin>::Option::unwrap @17 typed_receiver 0.85
            tree::walk -> <builtin>::Option::unwrap @19 typed_receiver 0.85
            tree::walk -> <builtin>::Vec::iter @15 typed_receiver 0.85
            tree::walk -> <builtin>::Vec::iter @18 typed_receiver 0.85
            tree::walk -> tree::Name::text @14 typed_receiver 0.85
            tree::walk -> tree::Name::text @16 typed_receiver 0.85
            tree::walk -> tree::Node::name @14 typed_receiver 0.85
            tree::walk -> tree::Node::name @15 typed_receiver 0.85
            tree::walk -> tree::Node::name @17 typed_receiver 0.85
            tree::walk -> tree::Node::name @19 typed_receiver 0.85
            tree::walk -> tree::Node::parent @17 typed_receiver 0.85
            tree::walk -> tree::Node::parent @18 typed_receiver 0.85
        "#]],
    );
}

#[test]
fn generic_arguments_written_at_a_call_decide_its_generic_return_type() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "assists"
        //- /src/lib.rs
        pub trait AstNode {}
        pub struct LetStmt;
        impl AstNode for LetStmt {}
        impl LetStmt { pub fn pat(&self) {} }
        pub struct Ctx;
        impl Ctx {
            pub fn find_node<N: AstNode>(&self) -> Option<N> { None }
            pub fn first<N: AstNode>(&self) -> N { panic!("no node") }
        }
        pub fn assist(ctx: &Ctx) -> Option<()> {
            let stmt = ctx.find_node::<LetStmt>()?;
            stmt.pat();  // calls: assists::LetStmt::pat
            ctx.first::<LetStmt>().pat();  // calls: assists::Ctx::first, assists::LetStmt::pat
            let unknown = ctx.find_node()?;
            unknown.pat();  // calls: unresolved
            None
        }
        "#,
        expect![[r#"
            assists::Ctx::first -> <builtin>::panic! @8 macro 0.9
            assists::assist -> assists::Ctx::find_node @11 typed_receiver 0.85
            assists::assist -> assists::Ctx::find_node @14 typed_receiver 0.85
            assists::assist -> assists::Ctx::first @13 typed_receiver 0.85
            assists::assist -> assists::LetStmt::pat @12 typed_receiver 0.85
            assists::assist -> assists::LetStmt::pat @13 typed_receiver 0.85
            unresolved assists::assist src/lib.rs:15 unknown.pat (unknown_receiver_type)
        "#]],
    );
}

#[test]
fn async_calls_are_futures_until_awaited_and_local_closures_return_their_body() {
    check(
        r#"
        //- /Cargo.toml
        [package]
        name = "net"
        //- /src/lib.rs
        pub struct Stream;
        pub struct Listener;
        impl Listener {
            pub async fn accept(&self) -> Option<Stream> { None }
        }
        impl Stream {
            pub fn peer(&self) {}
            pub fn map(&self) {}
        }
        pub async fn serve(listener: Listener) {
            let stream = listener.accept().await.unwrap();
            stream.peer();  // calls: net::Stream::peer
            listener.accept().map();  // calls: net::Listener::accept
            let next = || listener.accept();
            let first = |x: u32| Stream;
            first(1).peer();  // calls: net::Stream::peer
            next().await.unwrap().peer();  // calls: <builtin>::Option::unwrap, net::Stream::peer
        }
        "#,
        expect![[r#"
            net::serve -> <builtin>::Option::unwrap @11 typed_receiver 0.85
            net::serve -> <builtin>::Option::unwrap @17 typed_receiver 0.85
            net::serve -> net::Listener::accept @11 typed_receiver 0.85
            net::serve -> net::Listener::accept @13 typed_receiver 0.85
            net::serve -> net::Listener::accept @14 typed_receiver 0.85
            net::serve -> net::Stream::peer @12 typed_receiver 0.85
            net::serve -> net::Stream::peer @16 typed_receiver 0.85
            net::serve -> net::Stream::peer @17 typed_receiver 0.85
            unresolved net::serve src/lib.rs:13 listener.accept().map (unknown_member)
            unresolved net::serve src/lib.rs:16 first (value_call)
            unresolved net::serve src/lib.rs:17 next (value_call)
        "#]],
    );
}

//! Queries on fixture snapshots: addressing, callers with completeness, blast with severity,
//! tests affected and pagination.

use expect_test::expect;
use tether_query::{AddressError, BlastOptions, NeighbourKind, PageRequest};
use tether_tests::{render_blast, render_completeness, snapshot_of};

const SHOP: &str = r#"
//- /shop/__init__.py
//- /shop/prices.py
def tax(amount):
    return amount * 0.2

def total(amount):
    return amount + tax(amount)
//- /shop/cart.py
from shop.prices import total

class Cart:
    def checkout(self, amount):
        return total(amount)

def handler(request):
    return Cart().checkout(request.amount)
//- /shop/other.py
def tax():
    return 0

def uses_unknown(thing):
    return thing.tax(1)
//- /tests/test_cart.py
from shop.cart import Cart

def test_checkout():
    assert Cart().checkout(10) == 12
"#;

#[test]
fn addresses_resolve_by_name_suffix_path_line_and_id_and_never_guess() {
    let (directory, snapshot) = snapshot_of(SHOP);
    let total = snapshot.resolve_address("shop.prices.total").unwrap();
    assert_eq!(snapshot.resolve_address("prices.total").unwrap(), total);
    assert_eq!(snapshot.resolve_address("shop/prices.py:5").unwrap(), total);
    assert_eq!(snapshot.resolve_address("./shop/prices.py:5").unwrap(), total);
    // An absolute path under the indexed root (an editor's, a `file://` URI's) is the same file.
    let rooted = tether_query::Snapshot::new(
        snapshot.graph.clone(),
        tether_model::IndexMeta {
            root: directory.path().display().to_string(),
            ..Default::default()
        },
    );
    let absolute = format!("{}/shop/prices.py:5", directory.path().display());
    assert_eq!(rooted.resolve_address(&absolute).unwrap(), total);
    assert!(matches!(
        rooted.resolve_address("/elsewhere/shop/prices.py:5"),
        Err(AddressError::NotFound { .. })
    ));
    assert_eq!(snapshot.resolve_address(&snapshot.symbol(total).id.to_string()).unwrap(), total);
    match snapshot.resolve_address("tax") {
        Err(AddressError::Ambiguous { candidates, .. }) => {
            let names: Vec<&str> =
                candidates.iter().map(|candidate| candidate.qualified_name.as_str()).collect();
            assert_eq!(names, ["shop.other.tax", "shop.prices.tax"]);
        }
        other => panic!("expected an ambiguity, got {other:?}"),
    }
    assert!(matches!(
        snapshot.resolve_address("nothing_like_it"),
        Err(AddressError::NotFound { .. })
    ));
}

#[test]
fn similar_names_are_ranked_by_closeness_and_said_only_when_there_are_some() {
    let (_directory, snapshot) = snapshot_of(SHOP);
    let similar = |address: &str| match snapshot.resolve_address(address) {
        Err(error @ AddressError::NotFound { .. }) => {
            let AddressError::NotFound { similar, .. } = &error else { unreachable!() };
            let names: Vec<String> =
                similar.iter().map(|candidate| candidate.qualified_name.clone()).collect();
            (names, tether_protocol::address_error_data(&error).0)
        }
        other => panic!("expected no match for {address}, got {other:?}"),
    };
    // A typo: within two edits of `total`, and closest to the path written.
    let (names, message) = similar("shop.prices.totl");
    assert_eq!(names, ["shop.prices.total"]);
    assert!(message.ends_with("(similar names are listed)"), "{message}");
    // Two at one edit (`tax`): the one whose path is nearer the address first.
    assert_eq!(similar("shop.other.tix").0, ["shop.other.tax", "shop.prices.tax"]);
    // Nothing close: the message does not promise a list.
    let (names, message) = similar("nothing_like_it");
    assert!(names.is_empty(), "{names:?}");
    assert!(!message.contains("similar names"), "{message}");
}

/// The names a user types for what a module or a type offers: re-exports, an impl's method, a
/// trait's default; the answer is the symbol itself, whose qualified name says which.
const OFFERED_MEMBERS: &str = r#"
//- /Cargo.toml
[package]
name = "fx"
//- /src/lib.rs
pub mod sync;
pub trait Greet {
    fn hello(&self) -> u32 { 1 }
    fn bye(&self) -> u32 { 2 }
}
pub trait Wave {
    fn hello(&self) -> u32 { 4 }
}
pub struct Dog;
impl Greet for Dog {
    fn hello(&self) -> u32 { 3 }
}
pub struct Cat;
impl Greet for Cat {
    fn hello(&self) -> u32 { 5 }
}
impl Wave for Cat {
    fn hello(&self) -> u32 { 6 }
}
//- /src/sync/mod.rs
mod mutex;
pub use self::mutex::Mutex;
//- /src/sync/mutex.rs
pub struct Mutex;
impl Mutex {
    pub fn lock(&self) -> u32 { 1 }
}
//- /pkg/__init__.py
from .core import Engine
//- /pkg/core.py
class Engine:
    def go(self):
        return 1
"#;

#[test]
fn addresses_name_what_modules_reexport_and_what_types_offer() {
    let (_directory, snapshot) = snapshot_of(OFFERED_MEMBERS);
    let resolved = |address: &str| match snapshot.resolve_address(address) {
        Ok(index) => snapshot.symbol(index).qualified_name.clone(),
        Err(AddressError::Ambiguous { candidates, .. }) => {
            let names: Vec<&str> =
                candidates.iter().map(|candidate| candidate.qualified_name.as_str()).collect();
            format!("ambiguous: {}", names.join(", "))
        }
        Err(AddressError::NotFound { .. }) => "not found".to_string(),
    };
    let answers: Vec<String> = [
        "sync::Mutex",
        "sync::Mutex::lock",
        "fx::sync::Mutex::lock",
        "pkg.Engine",
        "pkg.Engine.go",
        "Dog::hello",
        "Dog::bye",
        "Cat::hello",
        "Cat::bye",
        "sync::Mutex::unlock",
        "pkg.Motor",
    ]
    .iter()
    .map(|address| format!("{address} -> {}", resolved(address)))
    .collect();
    expect![[r#"
        sync::Mutex -> fx::sync::mutex::Mutex
        sync::Mutex::lock -> fx::sync::mutex::Mutex::lock
        fx::sync::Mutex::lock -> fx::sync::mutex::Mutex::lock
        pkg.Engine -> pkg.core.Engine
        pkg.Engine.go -> pkg.core.Engine.go
        Dog::hello -> fx::{impl Greet for Dog}::hello
        Dog::bye -> fx::Greet::bye
        Cat::hello -> ambiguous: fx::{impl Greet for Cat}::hello, fx::{impl Wave for Cat}::hello
        Cat::bye -> fx::Greet::bye
        sync::Mutex::unlock -> not found
        pkg.Motor -> not found"#]]
    .assert_eq(&answers.join("\n"));
}

#[test]
fn overload_stubs_are_listed_with_the_definition_an_address_names() {
    let (_directory, snapshot) = snapshot_of(
        r#"
//- /pkg/__init__.py
//- /pkg/core.py
import typing
from typing import overload

@overload
def parse(x: int) -> int: ...
@overload
def parse(x: str) -> str: ...
def parse(x):
    return x

class Reader:
    @typing.overload
    def read(self, n: int) -> bytes: ...
    @typing.overload
    def read(self) -> bytes: ...
    def read(self, n=None):
        return parse(n)
"#,
    );
    for (address, line) in [("parse", 8), ("pkg.core.parse", 8), ("Reader.read", 16)] {
        let index = snapshot.resolve_address(address).unwrap();
        assert_eq!(snapshot.symbol(index).span.start_line, line, "{address}");
        assert!(!snapshot.symbol(index).is_overload_stub, "{address}");
    }
    let answer = snapshot.lookup("parse", None, PageRequest::default());
    let listed: Vec<String> = answer
        .items
        .iter()
        .map(|item| {
            let symbol_ref = tether_protocol::symbol_ref(&snapshot, item.index);
            format!("{} {} :{}", symbol_ref.qualified_name, symbol_ref.kind, symbol_ref.line)
        })
        .collect();
    expect![[r#"
        pkg.core.parse function :8
        pkg.core.parse overload :4
        pkg.core.parse overload :6"#]]
    .assert_eq(&listed.join("\n"));
}

#[test]
fn callers_say_when_unresolved_sites_could_add_to_them() {
    let (_directory, snapshot) = snapshot_of(SHOP);
    let tax = snapshot.resolve_address("shop.prices.tax").unwrap();
    let answer = snapshot.neighbours(tax, NeighbourKind::Callers, PageRequest::default());
    let callers: Vec<&str> = answer
        .items
        .iter()
        .map(|item| snapshot.symbol(item.index).qualified_name.as_str())
        .collect();
    assert_eq!(callers, ["shop.prices.total"]);
    // `thing.tax(1)` could be a call of either `tax`: the answer is a lower bound, and says why.
    expect![[r#"lower_bound: 1 unresolved sites calling "tax""#]]
        .assert_eq(&render_completeness(&answer.completeness));

    let handler = snapshot.resolve_address("shop.cart.handler").unwrap();
    let answer = snapshot.neighbours(handler, NeighbourKind::Callers, PageRequest::default());
    assert_eq!(answer.total, 0);
    assert!(answer.completeness.is_exact(), "no site calls `handler`: zero callers is known");
}

#[test]
fn blast_walks_callers_with_distance_severity_and_tests() {
    let (_directory, snapshot) = snapshot_of(SHOP);
    let tax = snapshot.resolve_address("shop.prices.tax").unwrap();
    let answer = snapshot.blast_symbol(tax, BlastOptions::default()).unwrap();
    expect![[r#"
        total 5 (breaks 1)
        breaks shop.prices.total d=1 conf=0.95 CALLS via shop.prices.tax <- shop.prices.total
        maybe shop.cart d=2 conf=0.90 IMPORTS via shop.prices.tax <- shop.prices.total <- shop.cart
        maybe shop.cart.Cart.checkout d=2 conf=0.90 CALLS via shop.prices.tax <- shop.prices.total <- shop.cart.Cart.checkout
        maybe shop.cart.handler d=3 conf=0.77 CALLS via shop.prices.tax <- shop.prices.total <- shop.cart.Cart.checkout <- shop.cart.handler
        maybe test_cart.test_checkout d=3 conf=0.77 CALLS via shop.prices.tax <- shop.prices.total <- shop.cart.Cart.checkout <- test_cart.test_checkout
        test test_cart.test_checkout
        completeness lower_bound: 1 unresolved sites calling "tax"
    "#]].assert_eq(&render_blast(&snapshot, &answer));
}

#[test]
fn blast_pages_through_a_large_answer() {
    let mut fixture = String::from("//- /hub.py\ndef hub():\n    return 1\n");
    for index in 0..45 {
        fixture.push_str(&format!("def caller_{index}():\n    return hub()\n"));
    }
    let (_directory, snapshot) = snapshot_of(&fixture);
    let hub = snapshot.resolve_address("hub.hub").unwrap();
    let first = snapshot
        .blast_symbol(
            hub,
            BlastOptions {
                depth: 1,
                page: PageRequest::new(None, Some(20)).unwrap(),
                ..BlastOptions::default()
            },
        )
        .unwrap();
    assert_eq!((first.total, first.items.len()), (45, 20));
    let cursor = first.next_cursor.clone().expect("more pages");
    let second = snapshot
        .blast_symbol(
            hub,
            BlastOptions {
                depth: 1,
                page: PageRequest::new(Some(&cursor), Some(20)).unwrap(),
                ..BlastOptions::default()
            },
        )
        .unwrap();
    let third = snapshot
        .blast_symbol(
            hub,
            BlastOptions {
                depth: 1,
                page: PageRequest::new(second.next_cursor.as_deref(), Some(20)).unwrap(),
                ..BlastOptions::default()
            },
        )
        .unwrap();
    assert_eq!((second.items.len(), third.items.len(), third.next_cursor.clone()), (20, 5, None));
    let mut seen: Vec<u32> = first
        .items
        .iter()
        .chain(&second.items)
        .chain(&third.items)
        .map(|item| item.index)
        .collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), 45, "pages neither repeat nor skip");
    assert!(PageRequest::new(Some("garbage"), None).is_err());
    assert!(PageRequest::new(None, Some(0)).is_err(), "limit 0 is refused, not one item");
    let far = PageRequest::new(Some(&format!("o:{}", usize::MAX - 3)), Some(20)).unwrap();
    let beyond = snapshot
        .blast_symbol(hub, BlastOptions { depth: 1, page: far, ..BlastOptions::default() })
        .unwrap();
    assert_eq!(
        (beyond.items.len(), beyond.next_cursor),
        (0, None),
        "a cursor near the maximum does not wrap"
    );
}

/// An impl standing for a type a macro defines is its own self type. It was once recorded as
/// containing itself, and a blast of it re-added the same seeds until memory ran out.
#[test]
fn contains_is_a_forest_and_blast_of_a_stand_in_impl_ends() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /Cargo.toml
        [package]
        name = "flagged"
        //- /src/lib.rs
        macro_rules! make { ($name:ident) => { pub struct $name; } }
        make!(Flags);
        impl Flags {
            pub fn new() -> Flags { Flags }
        }
        impl Clone for Flags {
            fn clone(&self) -> Flags { Flags::new() }
        }
        pub fn user() -> Flags { Flags::new() }
        "#,
    );
    assert_eq!(snapshot.graph.contains_cycle_edges(), Vec::<usize>::new());
    let self_contained: Vec<&str> = snapshot
        .graph
        .edges
        .iter()
        .filter(|edge| edge.kind == tether_model::EdgeKind::Contains && edge.source == edge.target)
        .map(|edge| {
            snapshot
                .symbols()
                .iter()
                .find(|symbol| symbol.id == edge.source)
                .map_or("?", |symbol| symbol.qualified_name.as_str())
        })
        .collect();
    assert_eq!(self_contained, Vec::<&str>::new());
    let deadline = tether_model::Deadline::after(std::time::Duration::from_secs(20));
    for (index, symbol) in snapshot.symbols().iter().enumerate() {
        if symbol.kind == tether_model::SymbolKind::Impl {
            let answer = snapshot
                .blast_symbol(index as u32, BlastOptions { deadline, ..BlastOptions::default() })
                .expect("the blast ends before its deadline");
            assert!(answer.seeds.len() < snapshot.symbols().len(), "{}", symbol.qualified_name);
        }
    }
    let new = snapshot.resolve_address("flagged::Flags::new").unwrap();
    let answer = snapshot.blast_symbol(new, BlastOptions::default()).unwrap();
    assert!(
        answer
            .items
            .iter()
            .any(|item| snapshot.symbol(item.index).qualified_name == "flagged::user"),
        "{}",
        render_blast(&snapshot, &answer)
    );
}

/// A graph whose CONTAINS edges loop (a damaged database) is still walked to an end.
#[test]
fn a_contains_cycle_in_a_damaged_graph_cannot_loop_a_blast() {
    use tether_model::{
        Edge, EdgeKind, Graph, IndexMeta, Language, ResolutionRule, Span, Symbol, SymbolId,
        SymbolKind,
    };
    let symbol = |name: &str, id: u64| Symbol {
        id: SymbolId(id),
        kind: SymbolKind::Impl,
        name: name.into(),
        qualified_name: name.into(),
        path: "a.rs".into(),
        language: Language::Rust,
        span: Span::default(),
        parent: None,
        is_test: false,
        runs_as_test: false,
        content_hash: 0,
        body_start_line: 0,
        is_overload_stub: false,
        visibility: tether_model::Visibility::Undeclared,
    };
    let contains = |source: u64, target: u64| Edge {
        kind: EdgeKind::Contains,
        source: SymbolId(source),
        target: SymbolId(target),
        line: 1,
        confidence: 1.0,
        rule: ResolutionRule::Syntax,
    };
    let graph = Graph {
        symbols: vec![symbol("a", 1), symbol("b", 2)],
        edges: vec![contains(1, 2), contains(2, 1), contains(1, 1)],
        ..Graph::default()
    };
    assert_eq!(graph.contains_cycle_edges().len(), 2);
    let snapshot = tether_query::Snapshot::new(graph, IndexMeta::default());
    let answer = snapshot.blast_symbol(0, BlastOptions::default()).unwrap();
    assert_eq!(answer.seeds, [0, 1]);
}

/// A rebuild from cached facts and cached call resolution equals a cold build, whether the
/// edit stays inside a body (calls of that file only are re-resolved) or changes what other
/// files can bind to (everything is).
#[test]
fn cached_rebuilds_equal_cold_builds() {
    use tether_index::{build_graph, build_graph_cached, FactsCache, IndexOptions};
    let fixture = tether_tests::Fixture::parse(SHOP);
    let directory = tempfile::tempdir().unwrap();
    fixture.write_to(directory.path());
    let options = IndexOptions::new(directory.path());
    let mut cache = FactsCache::default();
    build_graph_cached(&options, &mut cache, &|_, _| {}).unwrap();
    let edges = |graph: &tether_model::Graph| {
        let mut edges: Vec<String> = graph
            .edges
            .iter()
            .map(|edge| {
                format!(
                    "{:?} {} {} {} {}",
                    edge.kind,
                    edge.source,
                    edge.target,
                    edge.line,
                    edge.rule.as_str()
                )
            })
            .collect();
        edges.sort();
        edges
    };
    let edits = [
        // Inside a body: `total` now calls `tax` twice, one line lower.
        ("shop/prices.py", "def tax(amount):\n    return amount * 0.2\n\ndef total(amount):\n    base = amount\n    return base + tax(amount) + tax(0)\n"),
        // The interface: a new function other files could call.
        ("shop/other.py", "def tax():\n    return 0\n\ndef uses_unknown(thing):\n    return thing.tax(1)\n\ndef extra():\n    return tax()\n"),
    ];
    for (path, text) in edits {
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(directory.path().join(path), text).unwrap();
        let cached = build_graph_cached(&options, &mut cache, &|_, _| {}).unwrap();
        assert_eq!(cached.files_extracted, 1, "only the edited file is re-extracted");
        let cold = build_graph(&options, &|_, _| {}).unwrap();
        assert_eq!(edges(&cached.graph), edges(&cold.graph), "after editing {path}");
        assert_eq!(cached.graph.unresolved, cold.graph.unresolved);
    }
}

/// What another file's call sites pass depends on a function's parameters (value flow binds
/// an argument to the parameter at its position or keyword) and on the attributes a method
/// sets from them: reordering them alone must not leave the callers' flows stale.
#[test]
fn cached_rebuilds_follow_parameters_other_files_pass_values_to() {
    use tether_index::{build_graph, build_graph_cached, FactsCache, IndexOptions};
    let fixture = tether_tests::Fixture::parse(
        r#"
        //- /jobs/__init__.py
        //- /jobs/runner.py
        def run(callback, label):
            return callback()

        class Button:
            def __init__(self, on_click, name):
                self.on_click = on_click

            def press(self):
                return self.on_click()
        //- /jobs/main.py
        from jobs.runner import run, Button

        def handler():
            return 1

        def go():
            run(handler, "a")
            Button(handler, "b").press()
        "#,
    );
    let directory = tempfile::tempdir().unwrap();
    fixture.write_to(directory.path());
    let options = IndexOptions::new(directory.path());
    let mut cache = FactsCache::default();
    let first = build_graph_cached(&options, &mut cache, &|_, _| {}).unwrap();
    let calls_of = |graph: &tether_model::Graph| {
        let name = |id| {
            graph.symbols.iter().find(|symbol| symbol.id == id).unwrap().qualified_name.clone()
        };
        let mut calls: Vec<String> = graph
            .edges
            .iter()
            .filter(|edge| edge.kind == tether_model::EdgeKind::Calls)
            .map(|edge| {
                format!("{} -> {} ({})", name(edge.source), name(edge.target), edge.rule.as_str())
            })
            .collect();
        calls.sort();
        calls
    };
    let first_calls = calls_of(&first.graph);
    assert!(
        first_calls.contains(&"jobs.runner.run -> jobs.main.handler (value_flow)".to_string()),
        "{first_calls:#?}"
    );
    // The parameters swap places; the bodies still call `callback` and `self.on_click`.
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::write(
        directory.path().join("jobs/runner.py"),
        "def run(label, callback):\n    return callback()\n\nclass Button:\n    def __init__(self, name, on_click):\n        self.on_click = on_click\n\n    def press(self):\n        return self.on_click()\n",
    )
    .unwrap();
    let cached = build_graph_cached(&options, &mut cache, &|_, _| {}).unwrap();
    let cold = build_graph(&options, &|_, _| {}).unwrap();
    assert_eq!(calls_of(&cached.graph), calls_of(&cold.graph));
    let cold_calls = calls_of(&cold.graph);
    let stale = |call: &String| call.ends_with("-> jobs.main.handler (value_flow)");
    assert!(!cold_calls.iter().any(stale), "{cold_calls:#?}");
}

/// Changing a test breaks that test first: the blast of a test lists it (distance 0), with the
/// tests that call it; the blast of a test file lists every test in it.
#[test]
fn the_blast_of_a_test_lists_the_test_itself() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /chain.py
        def base():
            return 1
        //- /tests/test_chain.py
        from chain import base

        def check_base():
            assert base() == 1

        def test_base():
            check_base()

        def test_alone():
            assert True
        "#,
    );
    let tests_of =
        |answer: tether_query::BlastAnswer| tether_tests::affected_test_names(&snapshot, &answer);
    let alone = snapshot.resolve_address("test_chain.test_alone").unwrap();
    let answer = snapshot.blast_symbol(alone, BlastOptions::default()).unwrap();
    assert_eq!(tests_of(answer), ["test_chain.test_alone"]);
    let helper = snapshot.resolve_address("test_chain.check_base").unwrap();
    let answer = snapshot.blast_symbol(helper, BlastOptions::default()).unwrap();
    assert_eq!(tests_of(answer), ["test_chain.test_base"]);
    let file =
        snapshot.blast_file("tests/test_chain.py", BlastOptions::default()).unwrap().unwrap();
    let mut in_file = tests_of(file);
    in_file.sort();
    assert_eq!(in_file, ["test_chain.test_alone", "test_chain.test_base"]);
}

/// A blast cut by its depth says so, and still counts every test it reaches beyond it.
#[test]
fn a_blast_cut_by_depth_says_so_and_counts_every_test() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /chain.py
        def base():
            return 1

        def middle():
            return base()

        def top():
            return middle()
        //- /tests/test_chain.py
        from chain import top

        def test_top():
            assert top() == 1
        "#,
    );
    let base = snapshot.resolve_address("chain.base").unwrap();
    let shallow =
        snapshot.blast_symbol(base, BlastOptions { depth: 1, ..BlastOptions::default() }).unwrap();
    let names: Vec<&str> = shallow
        .tests_affected
        .iter()
        .map(|test| snapshot.symbol(test.index).qualified_name.as_str())
        .collect();
    assert_eq!(
        (names, shallow.tests_total),
        (vec!["test_chain.test_top"], 1),
        "tests beyond the depth count"
    );
    assert_eq!(render_completeness(&shallow.completeness), "lower_bound: 1 beyond depth 1");
    let deep =
        snapshot.blast_symbol(base, BlastOptions { depth: 4, ..BlastOptions::default() }).unwrap();
    assert_eq!(render_completeness(&deep.completeness), "exact");
}

/// A call through a base's method may dispatch to a subclass's override: blast of the
/// override reaches the base method's callers (and their tests) as `maybe`, via INHERITS.
#[test]
fn blast_of_an_override_reaches_the_callers_of_the_method_it_overrides() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /shapes.py
        class Shape:
            def area(self):
                return 0

            def describe(self):
                return self.area()

        class Square(Shape):
            def __init__(self, side):
                self.side = side

            def area(self):
                return self.side ** 2

        def report(shape: Shape):
            return shape.area()
        //- /tests/test_shapes.py
        from shapes import Square

        def test_describe():
            assert Square(2).describe() == 4
        "#,
    );
    let square_area = snapshot.resolve_address("shapes.Square.area").unwrap();
    let answer = snapshot.blast_symbol(square_area, BlastOptions::default()).unwrap();
    let items: Vec<String> = answer
        .items
        .iter()
        .map(|item| {
            format!(
                "{} d{} {} {}",
                snapshot.symbol(item.index).qualified_name,
                item.distance,
                item.edge_kind.as_str(),
                item.severity.as_str()
            )
        })
        .collect();
    assert!(items.contains(&"shapes.Shape.area d1 INHERITS maybe".to_string()), "{items:?}");
    assert!(items.iter().any(|item| item.starts_with("shapes.Shape.describe d2")), "{items:?}");
    assert!(items.iter().any(|item| item.starts_with("shapes.report d2")), "{items:?}");
    let tests: Vec<&str> = answer
        .tests_affected
        .iter()
        .map(|test| snapshot.symbol(test.index).qualified_name.as_str())
        .collect();
    assert_eq!(tests, ["test_shapes.test_describe"]);
    // Constructors do not dispatch: constructing a Shape never runs Square.__init__.
    let square_init = snapshot.resolve_address("shapes.Square.__init__").unwrap();
    let answer = snapshot.blast_symbol(square_init, BlastOptions::default()).unwrap();
    assert!(
        answer.items.iter().all(|item| item.edge_kind != tether_model::EdgeKind::Inherits),
        "{:?}",
        answer.items
    );
}

#[test]
fn blast_of_code_run_at_import_reaches_every_test_of_the_importing_modules() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /app/__init__.py
        from app.routes import index
        //- /app/registry.py
        def register(function):
            return function

        def unused():
            return 1

        def cli():
            return 2

        if __name__ == "__main__":
            cli()
        //- /app/routes.py
        from app.registry import register

        class Views:
            @register
            def index(self):
                return "home"

        def index():
            return "home"
        //- /tests/conftest.py
        //- /tests/test_routes.py
        import app

        def test_home():
            assert app.index() == "home"

        def test_nothing():
            assert True
        //- /tests/test_other.py
        def test_unrelated():
            assert True
        "#,
    );
    let tests_of = |address: &str| -> Vec<String> {
        let subject = snapshot.resolve_address(address).unwrap();
        let answer = snapshot.blast_symbol(subject, BlastOptions::default()).unwrap();
        answer
            .tests_affected
            .iter()
            .map(|test| snapshot.symbol(test.index).qualified_name.clone())
            .collect()
    };
    // `@register` runs when app.routes is imported, which `import app` does in test_routes.
    assert_eq!(
        tests_of("app.registry.register"),
        ["test_routes.test_home", "test_routes.test_nothing"]
    );
    // Nothing runs `unused` at import: no test depends on it; `cli` runs only as a script.
    assert!(tests_of("app.registry.unused").is_empty());
    assert!(tests_of("app.registry.cli").is_empty());
}

#[test]
fn blast_lists_the_tests_a_macro_writes_not_the_macro() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /Cargo.toml
        [package]
        name = "globs"
        //- /src/lib.rs
        pub fn is_match(path: &str) -> bool { true }

        #[cfg(test)]
        mod tests {
            use super::is_match;

            macro_rules! matches {
                ($name:ident, $path:expr) => {
                    #[test]
                    fn $name() {
                        assert!(is_match($path));
                    }
                };
            }

            matches!(star, "a");
            matches!(question, "b");
        }
        "#,
    );
    let subject = snapshot.resolve_address("globs::is_match").unwrap();
    let answer = snapshot.blast_symbol(subject, BlastOptions::default()).unwrap();
    let tests: Vec<&str> = answer
        .tests_affected
        .iter()
        .map(|test| snapshot.symbol(test.index).qualified_name.as_str())
        .collect();
    // The module stands for tests its macro calls write that tether cannot name.
    assert_eq!(tests, ["globs::tests", "globs::tests::question", "globs::tests::star"]);
}

#[test]
fn a_script_block_is_called_from_outside() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /tool.py
        def run():
            return 1

        if __name__ == "__main__":
            run()
        "#,
    );
    let script = snapshot.resolve_address("tool.__main__").unwrap();
    let answer = snapshot.neighbours(script, NeighbourKind::Callers, PageRequest::default());
    let text = format!("{:?}", answer.completeness);
    assert!(text.contains("runs when the file is run as a script"), "{text}");
}

#[test]
fn a_member_a_base_defines_is_addressed_through_the_class_that_inherits_it() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /web/__init__.py
        //- /web/scaffold.py
        class Scaffold:
            def route(self, rule):
                return rule

            def shared(self):
                return 1
        //- /web/mixins.py
        class Mixin:
            def shared(self):
                return 2
        //- /web/app.py
        from web.scaffold import Scaffold
        from web.mixins import Mixin

        class App(Scaffold):
            def run(self):
                return self.route("/")

        class Both(Scaffold, Mixin):
            pass

        class Child(App):
            pass
        //- /src/lib.rs
        pub trait Greet {
            fn greet(&self) -> u32 { 1 }
        }
        pub struct Person;
        impl Greet for Person {}
        "#,
    );
    let route = snapshot.resolve_address("web.scaffold.Scaffold.route").unwrap();
    assert_eq!(snapshot.resolve_address("web.app.App.route").unwrap(), route);
    assert_eq!(snapshot.resolve_address("App.route").unwrap(), route, "a suffix of the class");
    assert_eq!(snapshot.resolve_address("Child.route").unwrap(), route, "two bases away");
    let greet = snapshot.resolve_address("Greet::greet").unwrap();
    assert_eq!(snapshot.resolve_address("Person::greet").unwrap(), greet, "a trait's default");
    // Two bases at the same distance define it: both are candidates, none is guessed.
    match snapshot.resolve_address("Both.shared") {
        Err(AddressError::Ambiguous { candidates, .. }) => {
            let mut names: Vec<&str> =
                candidates.iter().map(|candidate| candidate.qualified_name.as_str()).collect();
            names.sort();
            assert_eq!(names, ["web.mixins.Mixin.shared", "web.scaffold.Scaffold.shared"]);
        }
        other => panic!("expected an ambiguity, got {other:?}"),
    }
    assert!(matches!(snapshot.resolve_address("App.nothing"), Err(AddressError::NotFound { .. })));
}

#[test]
fn a_column_on_a_call_names_the_function_called_there() {
    let (directory, snapshot) = snapshot_of(SHOP);
    let source_line = |path: &str, line: u32| {
        let text = std::fs::read_to_string(directory.path().join(path)).ok()?;
        text.lines().nth(line as usize - 1).map(str::to_string)
    };
    let resolve = |address: &str| {
        snapshot
            .resolve_address_in(address, &source_line)
            .map(|index| snapshot.symbol(index).qualified_name.clone())
    };
    // `    return amount + tax(amount)`: the column of `tax` (its first, middle or last
    // character, or just after it) is the callee, not the function around the call.
    for column in [21, 22, 23, 24] {
        assert_eq!(resolve(&format!("shop/prices.py:5:{column}")).unwrap(), "shop.prices.tax");
    }
    // Elsewhere on the line (`amount`, spaces) it is the innermost symbol, as path:line is.
    assert_eq!(resolve("shop/prices.py:5:12").unwrap(), "shop.prices.total");
    assert_eq!(resolve("shop/prices.py:5:1").unwrap(), "shop.prices.total");
    // On a definition's name, that definition.
    assert_eq!(resolve("shop/prices.py:4:6").unwrap(), "shop.prices.total");
    // A method call on the line: `        return total(amount)` in Cart.checkout.
    assert_eq!(resolve("shop/cart.py:5:17").unwrap(), "shop.prices.total");
    // Without the files' text a column is ignored.
    let index = snapshot.resolve_address("shop/prices.py:5:21").unwrap();
    assert_eq!(snapshot.symbol(index).qualified_name, "shop.prices.total");
}

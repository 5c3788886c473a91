//! The overlapped cold index (`tether_daemon::index_into_fresh_database`): the database it
//! publishes equals the one written after a sequential build, and a staged load refuses a
//! graph that does not extend what it loaded first, leaving the previous database in place.

use tether_index::{build_graph, IndexOptions};
use tether_model::{Graph, IndexMeta, MemoryGraph};
use tether_store::{FreshDatabase, GraphStore, StoreConfig, StoreError};
use tether_tests::Fixture;

const MIXED: &str = r#"
//- /Cargo.toml
[package]
name = "shapes"
//- /src/lib.rs
pub mod area;
pub trait Shape { fn area(&self) -> f64; }
pub struct Square { pub side: f64 }
impl Shape for Square {
    fn area(&self) -> f64 { area::square(self.side) }
}
impl Square {
    pub fn new(side: f64) -> Square { Square { side } }
    pub fn report(&self) -> String { format!("{}", self.area()).trim().to_string() }
}
pub fn total(shapes: &[Box<dyn Shape>]) -> f64 {
    let mut sum = 0.0;
    for shape in shapes { sum += shape.area(); }
    std::cmp::max(1, 2);
    nowhere::to_be_found();
    sum
}
//- /src/area.rs
pub fn square(side: f64) -> f64 { side * side }
//- /broken/Cargo.toml
[package
//- /py/__init__.py
//- /py/shop.py
import requests
from py.util import helper

class Base:
    def greet(self, text="a \"quoted\", comma, text"):
        return len(text)

class Child(Base):
    def run(self):
        self.greet()
        helper()
        requests.get("https://example.com")
        missing_name()
//- /py/util.py
def helper():
    return print("x")
//- /py/broken.py
def fine(): pass
def broken(:
"#;

fn small_config() -> StoreConfig {
    StoreConfig { buffer_pool_bytes: 128 * 1024 * 1024, max_threads: 1 }
}

fn meta() -> IndexMeta {
    IndexMeta {
        root: "/fixture".into(),
        head_commit: Some("abc".into()),
        head_branch: Some("main".into()),
        indexed_at_unix: 7,
        tether_version: "t".into(),
    }
}

fn sorted(mut graph: Graph) -> Graph {
    graph.call_outcomes.clear();
    graph.unresolved_reasons.clear();
    graph.files.sort_by(|a, b| a.path.cmp(&b.path));
    graph.symbols.sort_by(|a, b| {
        (a.path.as_str(), a.span.start_byte, a.qualified_name.as_str()).cmp(&(
            b.path.as_str(),
            b.span.start_byte,
            b.qualified_name.as_str(),
        ))
    });
    graph.edges.sort_by(|a, b| {
        (a.kind, a.source, a.target, a.line).cmp(&(b.kind, b.source, b.target, b.line))
    });
    graph
}

fn fixture_folder() -> tempfile::TempDir {
    let directory = tempfile::tempdir().unwrap();
    Fixture::parse(MIXED).write_to(directory.path());
    std::fs::write(directory.path().join("py").join("binary.py"), b"x = 1\x00\n").unwrap();
    directory
}

#[test]
fn the_overlapped_cold_index_publishes_the_same_database_as_the_sequential_one() {
    let repository = fixture_folder();
    let databases = tempfile::tempdir().unwrap();
    let options = IndexOptions::new(repository.path());

    let sequential = build_graph(&options, &|_, _| {}).unwrap();
    let sequential_path = databases.path().join("sequential.lbug");
    tether_store::write_fresh_database(
        &sequential_path,
        &sequential.graph,
        &meta(),
        small_config(),
    )
    .unwrap();

    let overlapped_path = databases.path().join("overlapped").join("graph.lbug");
    let outcome = tether_daemon::index_into_fresh_database(
        &options,
        &overlapped_path,
        small_config(),
        &meta(),
        |_| MemoryGraph::default(),
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(outcome.built.graph, sequential.graph, "both paths build the same graph");
    let graph = &outcome.built.graph;
    assert!(
        graph.symbols.iter().any(|symbol| symbol.path.is_empty()),
        "the fixture has outside symbols (the second Symbol load)"
    );
    assert!(!graph.unresolved.is_empty() && !graph.diagnostics.is_empty());
    assert!(graph.edges.iter().any(|edge| edge.kind == tether_model::EdgeKind::Implements));
    let symbol_loads: Vec<&str> = outcome
        .load
        .rows_by_table
        .iter()
        .map(|(label, _)| label.as_str())
        .filter(|label| label.starts_with("Symbol"))
        .collect();
    assert_eq!(symbol_loads, ["Symbol", "Symbol (outside)"]);

    let sequential_store = GraphStore::open(&sequential_path, small_config()).unwrap();
    let overlapped_store = GraphStore::open(&overlapped_path, small_config()).unwrap();
    let read_back = overlapped_store.read_graph().unwrap();
    assert_eq!(sorted(read_back.clone()), sorted(sequential_store.read_graph().unwrap()));
    assert_eq!(sorted(read_back), sorted(graph.clone()));
    assert_eq!(overlapped_store.census().unwrap(), sequential_store.census().unwrap());
    assert_eq!(overlapped_store.meta().unwrap(), meta());
    let leftovers: Vec<_> = std::fs::read_dir(overlapped_path.parent().unwrap())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers,
        [std::ffi::OsString::from("graph.lbug")],
        "no sibling file or CSV folder is left behind"
    );
}

/// The fixture repository's graph, a folder for databases with the path of one in it, and the
/// graph's first stage: its files, project symbols and diagnostics, without edges.
fn staged_load_fixture() -> (tempfile::TempDir, std::path::PathBuf, tether_index::BuiltGraph, Graph)
{
    let repository = fixture_folder();
    let databases = tempfile::tempdir().unwrap();
    let path = databases.path().join("graph.lbug");
    let built = build_graph(&IndexOptions::new(repository.path()), &|_, _| {}).unwrap();
    let mut extracted = built.graph.clone();
    extracted.symbols.retain(|symbol| !symbol.path.is_empty());
    extracted.edges.clear();
    extracted.unresolved.clear();
    (databases, path, built, extracted)
}

#[test]
fn a_staged_load_refuses_a_graph_that_does_not_extend_its_first_stage_and_keeps_the_old_database() {
    let (databases, path, built, extracted) = staged_load_fixture();
    tether_store::write_fresh_database(&path, &built.graph, &meta(), small_config()).unwrap();

    let mut fresh = FreshDatabase::create(&path, small_config()).unwrap();
    fresh.load_extracted_nodes(&extracted).unwrap();
    assert!(
        matches!(
            fresh.load_extracted_nodes(&extracted),
            Err(StoreError::StagedLoadMismatch { .. })
        ),
        "the first stage runs once"
    );
    let mut other = built.graph.clone();
    other.symbols.reverse();
    let error = fresh
        .finish(&other, &MemoryGraph::default(), &meta())
        .expect_err("a graph with other symbols is refused");
    assert!(matches!(error, StoreError::StagedLoadMismatch { .. }), "{error}");

    let names: Vec<_> = std::fs::read_dir(databases.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        [std::ffi::OsString::from("graph.lbug")],
        "the unfinished build removed its sibling file"
    );
    let store = GraphStore::open(&path, small_config()).unwrap();
    assert_eq!(store.census().unwrap(), built.graph.census(), "the previous database is intact");
}

#[test]
fn a_staged_load_refuses_a_graph_without_the_edges_its_first_stage_loaded() {
    let (_databases, path, built, mut extracted) = staged_load_fixture();
    extracted.edges = tether_resolve::extracted_contains_edges(&extracted.symbols);
    assert!(
        !extracted.edges.is_empty()
            && extracted.edges.iter().all(|edge| built.graph.edges.contains(edge)),
        "resolution decides the early edges again"
    );

    let mut fresh = FreshDatabase::create(&path, small_config()).unwrap();
    fresh.load_extracted_nodes(&extracted).unwrap();
    let mut without_one = built.graph.clone();
    let dropped = extracted.edges[0].clone();
    without_one.edges.retain(|edge| *edge != dropped);
    let error = fresh
        .finish(&without_one, &MemoryGraph::default(), &meta())
        .expect_err("a graph lacking an early edge is refused");
    assert!(matches!(error, StoreError::StagedLoadMismatch { .. }), "{error}");
    assert!(!path.exists(), "nothing was published");
}

#[test]
fn a_cold_index_of_a_missing_folder_creates_nothing() {
    let databases = tempfile::tempdir().unwrap();
    let missing = databases.path().join("no-such-repository");
    let database = missing.join(".tether").join("graph.lbug");
    let error = tether_daemon::index_into_fresh_database(
        &IndexOptions::new(&missing),
        &database,
        small_config(),
        &meta(),
        |_| MemoryGraph::default(),
        &|_, _| {},
    )
    .err()
    .expect("a missing folder is an error");
    assert!(
        matches!(
            error,
            tether_daemon::ColdIndexError::Index(tether_index::IndexError::MissingRoot { .. })
        ),
        "{error}"
    );
    assert!(!missing.exists(), "nothing was created for it");
}

#[test]
fn text_with_quotes_commas_and_newlines_round_trips_through_a_staged_load() {
    let repository = fixture_folder();
    let databases = tempfile::tempdir().unwrap();
    let mut graph = build_graph(&IndexOptions::new(repository.path()), &|_, _| {}).unwrap().graph;
    let awkward = "he said \"hi\", then\nleft, \"twice\"";
    graph.diagnostics[0].message = awkward.to_string();
    graph.unresolved[0].callee_text = awkward.to_string();
    graph.symbols.iter_mut().find(|symbol| !symbol.path.is_empty()).unwrap().qualified_name =
        awkward.to_string();
    graph.symbols.iter_mut().find(|symbol| symbol.path.is_empty()).unwrap().name =
        awkward.to_string();
    let mut extracted = graph.clone();
    extracted.symbols.retain(|symbol| !symbol.path.is_empty());
    extracted.edges.clear();
    extracted.unresolved.clear();

    let path = databases.path().join("graph.lbug");
    let mut fresh = FreshDatabase::create(&path, small_config()).unwrap();
    fresh.load_extracted_nodes(&extracted).unwrap();
    fresh.finish(&graph, &MemoryGraph::default(), &meta()).unwrap();
    let store = GraphStore::open(&path, small_config()).unwrap();
    assert_eq!(sorted(store.read_graph().unwrap()), sorted(graph));
}

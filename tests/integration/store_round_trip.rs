//! The store: a graph written with COPY reads back equal; versions, errors and the one C++
//! runtime are checked.

use tether_store::{GraphStore, StoreConfig, StoreError, StoreLocation};
use tether_tests::{graph_of, Fixture};

fn small_config() -> StoreConfig {
    StoreConfig { buffer_pool_bytes: 128 * 1024 * 1024, max_threads: 1 }
}

fn fixture_graph() -> tether_model::Graph {
    let fixture = Fixture::parse(
        r#"
        //- /pkg/__init__.py
        //- /pkg/a.py
        import requests
        class Base: pass
        class Child(Base):
            def m(self, text="quote \" comma , newline"):
                return requests.get(text)
        def f():
            Child().m()
            missing_name()
        //- /pkg/broken.py
        def ok(): pass
        def broken(:
        //- /bin.py
        "\x00"
        //- /Cargo.toml
        [package]
        name = "shelf"
        //- /src/lib.rs
        pub fn public() {}
        pub(crate) fn in_crate() {}
        fn private() {}
        #[pyfunction]
        fn registered() {}
        "#,
    );
    let (_directory, mut graph) = graph_of(&fixture);
    // Every visibility is stored, so a dropped or shifted column cannot read back equal.
    let mut visibilities: Vec<&str> =
        graph.symbols.iter().map(|symbol| symbol.visibility.as_str()).collect();
    visibilities.sort_unstable();
    visibilities.dedup();
    assert_eq!(visibilities, ["", "crate", "macro", "private", "pub"]);
    graph.call_outcomes.clear();
    graph.unresolved_reasons.clear();
    graph
}

fn sorted(mut graph: tether_model::Graph) -> tether_model::Graph {
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

#[test]
fn a_graph_round_trips_through_the_database() {
    let graph = fixture_graph();
    assert!(!graph.unresolved.is_empty(), "the fixture has an unresolved call");
    let store = GraphStore::create(StoreLocation::InMemory, small_config()).unwrap();
    let meta = tether_model::IndexMeta {
        root: "/x".into(),
        head_commit: Some("abc".into()),
        head_branch: None,
        indexed_at_unix: 7,
        tether_version: "t".into(),
    };
    store.load_graph(&graph, &meta).unwrap();
    let read_back = store.read_graph().unwrap();
    assert_eq!(sorted(read_back), sorted(graph.clone()));
    assert_eq!(store.meta().unwrap(), meta);
    assert_eq!(store.census().unwrap(), graph.census());
}

#[test]
fn a_fresh_database_replaces_the_old_one_atomically_and_checks_its_version() {
    let directory = tempfile::tempdir().unwrap();
    let path = directory.path().join("tether").join("graph.lbug");
    let graph = fixture_graph();
    let meta = tether_model::IndexMeta::default();
    tether_store::write_fresh_database(&path, &graph, &meta, small_config()).unwrap();
    tether_store::write_fresh_database(&path, &graph, &meta, small_config()).unwrap();
    let store = GraphStore::open(&path, small_config()).unwrap();
    assert_eq!(store.census().unwrap(), graph.census());
    drop(store);

    let store = GraphStore::open(&path, small_config()).unwrap();
    store.query_as_text("MATCH (m:Meta) WHERE m.key = 'schema_version' SET m.value = '0'").unwrap();
    drop(store);
    let error =
        GraphStore::open(&path, small_config()).err().expect("a version mismatch is refused");
    assert!(
        matches!(error, StoreError::SchemaMismatch { ref found, .. } if found == "0"),
        "{error}"
    );
    assert!(error.to_string().contains("run `tether index` to rebuild"), "{error}");

    let missing = directory.path().join("nope.lbug");
    assert!(matches!(GraphStore::open(&missing, small_config()), Err(StoreError::Missing { .. })));
}

#[test]
fn a_runtime_query_error_is_an_error_not_a_crash() {
    // With two C++ runtimes linked, this aborted the process (see ARCHITECTURE.md, "Building").
    let store = GraphStore::create(StoreLocation::InMemory, small_config()).unwrap();
    let error = store
        .query_as_text("CREATE (:Meta {key: 'schema_version', value: 'duplicate'})")
        .unwrap_err();
    assert!(error.to_string().contains("duplicated primary key"), "{error}");
    assert!(store.query_as_text("MATCH (m:Meta) RETURN count(*)").is_ok());
}

#[test]
fn edges_stored_forward_only_still_answer_backward_patterns() {
    let graph = fixture_graph();
    let store = GraphStore::create(StoreLocation::InMemory, small_config()).unwrap();
    let meta = tether_model::IndexMeta {
        root: "/x".into(),
        head_commit: None,
        head_branch: None,
        indexed_at_unix: 7,
        tether_version: "t".into(),
    };
    store.load_graph(&graph, &meta).unwrap();
    let call = graph
        .edges
        .iter()
        .find(|edge| edge.kind == tether_model::EdgeKind::Calls)
        .expect("the fixture has a call");
    let callers_in_graph = graph
        .edges
        .iter()
        .filter(|edge| edge.kind == tether_model::EdgeKind::Calls && edge.target == call.target)
        .count();
    let count = |statement: String| -> usize {
        let (_, rows) = store.query_as_text(&statement).unwrap();
        rows[0][0].parse().unwrap()
    };
    let target = call.target.as_i64();
    assert_eq!(
        count(format!("MATCH (b:Symbol {{id: {target}}})<-[:CALLS]-(a:Symbol) RETURN count(*)")),
        callers_in_graph
    );
    assert_eq!(
        count(format!("MATCH (a:Symbol)-[:CALLS]->(b:Symbol {{id: {target}}}) RETURN count(*)")),
        callers_in_graph
    );
    assert!(
        count(format!(
            "MATCH (b:Symbol {{id: {target}}})<-[:CALLS*1..3]-(a:Symbol) RETURN count(DISTINCT a)"
        )) >= callers_in_graph
    );
    let error = store
        .query_as_text(&format!(
            "MATCH (b:Symbol {{id: {target}}})-[:CALLS]-(a:Symbol) RETURN count(*)"
        ))
        .unwrap_err();
    assert!(error.to_string().contains("Undirected rel patterns are only supported"), "{error}");
}

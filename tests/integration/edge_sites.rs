//! Every site an answer prints is a line of the file it names: each edge's line lies in its
//! source's file (checked over this repository's own graph and over fixtures where a type's
//! impl or a method's override lives in another file), and a blast item reached through an
//! override names a line of its own file.

use std::path::Path;

use tether_index::{build_graph, IndexOptions};
use tether_model::misplaced_edge_sites;
use tether_query::BlastOptions;
use tether_tests::{graph_of, snapshot_of, Fixture};

#[test]
fn every_edge_of_this_repositorys_graph_names_a_line_of_its_sources_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root");
    let built = build_graph(&IndexOptions::new(root), &|_, _| {}).expect("the repository indexes");
    assert!(built.graph.edges.len() > 10_000, "{} edges", built.graph.edges.len());
    let misplaced = misplaced_edge_sites(&built.graph);
    let shown: Vec<String> = misplaced.iter().take(5).map(ToString::to_string).collect();
    assert!(misplaced.is_empty(), "{} misplaced, e.g. {shown:#?}", misplaced.len());
}

#[test]
fn an_impl_written_in_another_file_than_its_type_names_a_line_of_the_types_file() {
    let fixture = Fixture::parse(
        r#"
        //- /Cargo.toml
        [package]
        name = "shapes"
        //- /src/lib.rs
        pub mod display;
        pub struct Square(u8);
        //- /src/display.rs
        use crate::Square;
        use std::fmt;
        pub trait Area { fn area(&self) -> u8; }
        // Padding, so that the impl's line is past the end of lib.rs.
        //
        //
        //
        impl Area for Square {
            fn area(&self) -> u8 { self.0 * self.0 }
        }
        impl fmt::Display for Square {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "{}", self.0) }
        }
        "#,
    );
    let (_directory, graph) = graph_of(&fixture);
    let implements: Vec<(u32, &str)> = graph
        .edges
        .iter()
        .filter(|edge| edge.kind == tether_model::EdgeKind::Implements)
        .map(|edge| {
            let target = graph.symbols.iter().find(|symbol| symbol.id == edge.target);
            (edge.line, target.map_or("?", |symbol| symbol.qualified_name.as_str()))
        })
        .collect();
    assert_eq!(implements.len(), 2, "{implements:?}");
    // The type's own line in lib.rs, where `Square` is defined.
    assert!(implements.iter().all(|(line, _)| *line == 2), "{implements:?}");
    assert_eq!(misplaced_edge_sites(&graph), Vec::new());
}

#[test]
fn a_base_method_reached_through_its_override_names_its_own_line() {
    let (_directory, snapshot) = snapshot_of(
        r#"
        //- /shop/__init__.py
        //- /shop/base.py
        class Store:
            def save(self):
                return 0
        //- /shop/child.py
        from shop.base import Store


        # Padding, so that the override's line is past the end of base.py.
        #
        #
        #
        class Shelf(Store):
            def save(self):
                return 1
        "#,
    );
    let shelf_save = snapshot.resolve_address("shop.child.Shelf.save").unwrap();
    let answer = snapshot.blast_symbol(shelf_save, BlastOptions::default()).unwrap();
    let base = answer
        .items
        .iter()
        .find(|item| snapshot.symbol(item.index).qualified_name == "shop.base.Store.save")
        .expect("the overridden method is reached");
    assert_eq!((snapshot.symbol(base.index).path.as_str(), base.site_line), ("shop/base.py", 2));
}

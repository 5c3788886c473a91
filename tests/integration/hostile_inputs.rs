//! Hostile files, generated here: deep nesting of every kind that once crashed the indexer
//! (a stack overflow aborts the whole process, so each of these is a regression test by
//! existing), long lines, binary, huge and non-UTF-8 files, FIFOs, symlink loops and folders
//! that cannot be read. Each gives a diagnostic and the index completes with the rest.

use std::collections::BTreeMap;
use std::path::Path;

use tether_index::{build_graph, IndexOptions};
use tether_model::{DiagnosticKind, FileStatus};

/// (path, text) of every deeply nested file.
fn deep_files() -> Vec<(&'static str, String)> {
    let rust_type = format!("type T = {}u8{};\n", "Vec<".repeat(2_000), ">".repeat(2_000));
    let rust_mods = format!("{}fn f() {{}}{}\n", "mod m { ".repeat(10_000), "}".repeat(10_000));
    let rust_fns = format!("{}{}\n", "fn f() { ".repeat(10_000), "}".repeat(10_000));
    let rust_blocks = format!("fn f() {{ {}g(){} }}\n", "{ ".repeat(20_000), " }".repeat(20_000));
    let rust_sum = format!("fn f() -> u32 {{ {} }}\n", vec!["g()"; 20_000].join(" + "));
    let rust_method_chain = format!("fn f() {{ x{}; }}\n", ".m()".repeat(10_000));
    let python_attributes = format!("x = a{}\n", ".b".repeat(10_000));
    let python_calls = format!("x = f{}\n", "()".repeat(5_000));
    let python_method_chain = format!("x = a{}\n", ".m()".repeat(5_000));
    let python_lambdas = format!("f = {}0\n", "lambda: ".repeat(5_000));
    let python_lists = format!("x = {}1{}\n", "[".repeat(10_000), "]".repeat(10_000));
    let python_classes: String = (0..300)
        .map(|depth| format!("{}class C{depth}:\n", "    ".repeat(depth)))
        .collect::<String>()
        + &"    ".repeat(300)
        + "pass\n";
    vec![
        ("deep/type.rs", rust_type),
        ("deep/mods.rs", rust_mods),
        ("deep/fns.rs", rust_fns),
        ("deep/blocks.rs", rust_blocks),
        ("deep/sum.rs", rust_sum),
        ("deep/method_chain.rs", rust_method_chain),
        ("deep/attributes.py", python_attributes),
        ("deep/calls.py", python_calls),
        ("deep/method_chain.py", python_method_chain),
        ("deep/lambdas.py", python_lambdas),
        ("deep/lists.py", python_lists),
        ("deep/classes.py", python_classes),
    ]
}

fn status_and_kinds(
    graph: &tether_model::Graph,
) -> BTreeMap<String, (FileStatus, Vec<DiagnosticKind>)> {
    let mut found: BTreeMap<String, (FileStatus, Vec<DiagnosticKind>)> = BTreeMap::new();
    for file in &graph.files {
        found.insert(file.path.clone(), (file.status, Vec::new()));
    }
    for diagnostic in &graph.diagnostics {
        found
            .entry(diagnostic.path.clone())
            .or_insert((FileStatus::Skipped, Vec::new()))
            .1
            .push(diagnostic.kind);
    }
    found
}

#[test]
fn deep_nesting_is_a_diagnostic_and_the_index_goes_on() {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path();
    for (path, text) in deep_files() {
        write(root, path, &text);
    }
    write(root, "ok.py", "def fine():\n    return 1\n\ndef caller():\n    return fine()\n");
    let graph =
        build_graph(&IndexOptions::new(root), &|_, _| {}).expect("the index completes").graph;
    let found = status_and_kinds(&graph);
    for (path, _) in deep_files() {
        let (status, kinds) = &found[path];
        let nested_within_limits = path == "deep/classes.py";
        if nested_within_limits {
            assert_eq!(*status, FileStatus::Parsed, "{path}: {kinds:?}");
        } else {
            assert_eq!(
                (*status, kinds.as_slice()),
                (FileStatus::Skipped, [DiagnosticKind::TooDeep].as_slice()),
                "{path}"
            );
        }
    }
    // 300 nested classes within the limit: names grow linearly, one segment per level.
    let deepest = graph
        .symbols
        .iter()
        .filter(|symbol| symbol.path == "deep/classes.py")
        .map(|symbol| symbol.qualified_name.len())
        .max()
        .unwrap();
    assert!(deepest < 300 * 8, "qualified names grew to {deepest} bytes");
    assert!(graph.symbols.iter().any(|symbol| symbol.qualified_name == "ok.caller"));
    assert_eq!(
        graph.edges.iter().filter(|edge| edge.kind == tether_model::EdgeKind::Calls).count(),
        1
    );
}

/// Just under the limit, every recursive walk (lowering, resolution) must fit the worker
/// threads' stacks: a chain and a type nested close to the maximum depth index fine.
#[test]
fn nesting_just_under_the_limit_indexes() {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path();
    // Each level of these adds about two levels of syntax tree.
    let levels = tether_extract::MAX_SYNTAX_DEPTH / 2 - 20;
    write(
        root,
        "near/type.rs",
        &format!("fn f(x: {}u8{}) {{ x.len(); }}\n", "Vec<".repeat(levels), ">".repeat(levels)),
    );
    write(
        root,
        "near/chain.py",
        &format!("def f(a):\n    return a{}\n", ".m()".repeat(levels / 2)),
    );
    write(root, "near/chain.rs", &format!("fn f() {{ x{}; }}\n", ".m()".repeat(levels / 2)));
    write(root, "near/attributes.py", &format!("x = a{}\n", ".b".repeat(levels)));
    write(
        root,
        "near/sum.rs",
        &format!("fn f() -> u32 {{ {} }}\n", vec!["g()"; levels].join(" + ")),
    );
    write(root, "near/lambdas.py", &format!("f = {}g()\n", "lambda: ".repeat(levels / 2)));
    write(root, "near/calls.py", &format!("x = f{}\n", "()".repeat(levels)));
    write(
        root,
        "near/mods.rs",
        &format!(
            "{}pub fn f() {{ f() }}{}\n",
            "pub mod m { ".repeat(levels / 2),
            "}".repeat(levels / 2)
        ),
    );
    let graph =
        build_graph(&IndexOptions::new(root), &|_, _| {}).expect("the index completes").graph;
    let found = status_and_kinds(&graph);
    for path in [
        "near/type.rs",
        "near/chain.py",
        "near/chain.rs",
        "near/attributes.py",
        "near/sum.rs",
        "near/lambdas.py",
        "near/calls.py",
        "near/mods.rs",
    ] {
        assert_eq!(found[path], (FileStatus::Parsed, vec![]), "{path}");
    }
}

#[test]
fn odd_files_and_folders_are_diagnostics() {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path();
    write(root, "ok.rs", "fn fine() {}\n");
    write(root, "long_line.py", &format!("x = [{}]\n", "1, ".repeat(400_000)));
    std::fs::write(root.join("binary.py"), b"def f():\0\0\0 pass\n").unwrap();
    std::fs::write(root.join("latin1.py"), b"x = '\xe9t\xe9'\n").unwrap();
    std::fs::write(
        root.join("huge.py"),
        vec![b'#'; (tether_extract::DEFAULT_MAX_FILE_BYTES + 1) as usize],
    )
    .unwrap();
    let fifo = root.join("pipe.py");
    let fifo_name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo_name.as_ptr(), 0o600) }, 0);
    std::fs::create_dir(root.join("loop")).unwrap();
    std::os::unix::fs::symlink("../loop", root.join("loop/again")).unwrap();
    std::os::unix::fs::symlink("nowhere.py", root.join("dangling.py")).unwrap();
    let graph =
        build_graph(&IndexOptions::new(root), &|_, _| {}).expect("the index completes").graph;
    let found = status_and_kinds(&graph);
    assert_eq!(found["ok.rs"], (FileStatus::Parsed, vec![]));
    assert_eq!(found["long_line.py"].0, FileStatus::Parsed);
    assert_eq!(found["binary.py"], (FileStatus::Skipped, vec![DiagnosticKind::Binary]));
    assert_eq!(found["latin1.py"], (FileStatus::Skipped, vec![DiagnosticKind::NotUtf8]));
    assert_eq!(found["huge.py"], (FileStatus::Skipped, vec![DiagnosticKind::TooLarge]));
    assert_eq!(found["pipe.py"].1, vec![DiagnosticKind::Unreadable]);
    assert!(!found.contains_key("dangling.py"), "links are not followed");
}

/// A folder that cannot be entered is reported. (Root reads every folder, so this holds only
/// for other users; as root the folder is simply read.)
#[test]
fn a_folder_that_cannot_be_read_is_reported() {
    use std::os::unix::fs::PermissionsExt;
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path();
    write(root, "closed/inside.py", "def hidden(): pass\n");
    write(root, "open.py", "def seen(): pass\n");
    std::fs::set_permissions(root.join("closed"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let readable_anyway = std::fs::read_dir(root.join("closed")).is_ok();
    let graph =
        build_graph(&IndexOptions::new(root), &|_, _| {}).expect("the index completes").graph;
    std::fs::set_permissions(root.join("closed"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let found = status_and_kinds(&graph);
    assert_eq!(found["open.py"], (FileStatus::Parsed, vec![]));
    if readable_anyway {
        assert_eq!(found["closed/inside.py"], (FileStatus::Parsed, vec![]));
    } else {
        assert_eq!(found["closed"].1, vec![DiagnosticKind::Unreadable], "{found:?}");
    }
}

fn write(root: &Path, path: &str, text: &str) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, text).unwrap();
}

/// Definitions that refer to themselves in a circle (aliases, re-exports, bases, Deref
/// targets, closures typed by each other): every resolution walk over them ends.
#[test]
fn circular_definitions_end() {
    let directory = tempfile::tempdir().unwrap();
    let root = directory.path();
    write(root, "Cargo.toml", "[package]\nname = \"circle\"\n");
    write(
        root,
        "src/lib.rs",
        "pub mod a;\npub mod b;\ntype X = Y;\ntype Y = X;\npub struct S;\nimpl std::ops::Deref for S { type Target = S; fn deref(&self) -> &S { self } }\n\
         pub trait T: U {}\npub trait U: T {}\nfn f(x: X, s: S) { x.go(); s.missing(); (*s).missing(); }\n",
    );
    write(root, "src/a.rs", "pub use crate::b::*;\npub use crate::b::Thing as Other;\n");
    write(
        root,
        "src/b.rs",
        "pub use crate::a::*;\npub use crate::a::Other as Thing;\npub fn g() { Thing::new(); }\n",
    );
    write(root, "pkg/__init__.py", "from pkg.m import *\n");
    write(root, "pkg/m.py", "from pkg import *\nclass A(B):\n    pass\nclass B(A):\n    def f(self):\n        return self.g()\nclass C(C):\n    pass\nx = y\ny = x\nx.go()\nA().f()\n");
    let graph =
        build_graph(&IndexOptions::new(root), &|_, _| {}).expect("the index completes").graph;
    assert!(graph.symbols.iter().any(|symbol| symbol.qualified_name == "pkg.m.B.f"));
    assert!(graph.symbols.iter().any(|symbol| symbol.qualified_name == "circle::f"));
}

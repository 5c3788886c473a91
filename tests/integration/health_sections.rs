//! Code health over fixture graphs: god objects, coupling between files and cycles, each
//! ranked, located and honest about what may be missing.

use expect_test::expect;
use tether_query::{HealthFindings, HealthKind, HealthOptions, PageRequest, Snapshot};
use tether_tests::{render_completeness, snapshot_of};

const APP: &str = r#"
//- /app/__init__.py
//- /app/alpha.py
from app.beta import beta

def alpha():
    return beta()
//- /app/beta.py
from app.gamma import gamma

def beta():
    return gamma()
//- /app/gamma.py
from app import alpha

def gamma():
    return 1

def late():
    from app.beta import beta
    return beta()
//- /app/hub.py
class Hub:
    def method_0(self):
        return 0

    def method_1(self):
        return 1

    def method_2(self):
        return 2

    def method_3(self):
        return 3

    def method_4(self):
        return 4

    def method_5(self):
        return 5

    def method_6(self):
        return 6

    def method_7(self):
        return 7

    def method_8(self):
        return 8

    def method_9(self):
        return 9

    def method_10(self):
        return 10

    def method_11(self):
        return 11

    def method_12(self):
        return 12

    def method_13(self):
        return 13

    def method_14(self):
        return 14

    def method_15(self):
        return 15

    def method_16(self):
        return 16

    def method_17(self):
        return 17

    def method_18(self):
        return 18

    def method_19(self):
        return 19

    def method_20(self):
        return 20

    def method_21(self):
        return 21

    def method_22(self):
        return 22

    def method_23(self):
        return 23

    def method_24(self):
        return 24

class Small:
    def small_0(self):
        return 0
    def small_1(self):
        return 1
    def small_2(self):
        return 2
    def small_3(self):
        return 3
    def small_4(self):
        return 4

//- /app/user_0.py
from app.hub import Hub

def use_0():
    return Hub().method_0()
//- /app/user_1.py
from app.hub import Hub

def use_1():
    return Hub().method_1()
//- /app/user_2.py
from app.hub import Hub

def use_2():
    return Hub().method_2()
//- /app/user_3.py
from app.hub import Hub

def use_3():
    return Hub().method_3()
//- /app/user_4.py
from app.hub import Hub

def use_4():
    return Hub().method_4()
//- /app/user_5.py
from app.hub import Hub

def use_5():
    return Hub().method_5()
//- /app/lonely.py
from app.hub import Small

def lonely():
    return Small().small_0()
"#;

fn render(snapshot: &Snapshot, kind: HealthKind, options: &HealthOptions) -> String {
    let no_history = tether_query::ChurnHistory::Unavailable { note: "no history here" };
    let section = snapshot.health(Some(kind), options, no_history).remove(0);
    let mut lines = vec![format!(
        "{} total {} next {:?} completeness {}",
        section.kind.as_str(),
        section.total,
        section.next_cursor,
        render_completeness(&section.completeness)
    )];
    lines.extend(section.note.iter().map(|note| format!("note: {note}")));
    match &section.findings {
        HealthFindings::GodObjects(found) => {
            for god in found {
                let drivers: Vec<String> = god
                    .drivers
                    .iter()
                    .map(|driver| {
                        format!("{}:{}", snapshot.symbol(driver.index).name, driver.lines)
                    })
                    .collect();
                lines.push(format!(
                    "{} members {} lines {} in {} out {} score {} drivers {}",
                    snapshot.symbol(god.index).qualified_name,
                    god.members,
                    god.lines,
                    god.fan_in,
                    god.fan_out,
                    god.score,
                    drivers.join(" ")
                ));
            }
        }
        HealthFindings::Coupling(files) => {
            for file in files {
                let partners: Vec<String> = file
                    .partners
                    .iter()
                    .map(|partner| {
                        let sites: Vec<String> = partner
                            .sites
                            .iter()
                            .map(|(path, line)| format!("{path}:{line}"))
                            .collect();
                        format!(
                            "{} out {} in {}{} at {}",
                            partner.path,
                            partner.outgoing,
                            partner.incoming,
                            if partner.mutual { " mutual" } else { "" },
                            sites.join(",")
                        )
                    })
                    .collect();
                lines.push(format!(
                    "{} ca {} ce {} instability {:.2} | {}",
                    file.path,
                    file.afferent,
                    file.efferent,
                    file.instability,
                    partners.join(" | ")
                ));
            }
        }
        HealthFindings::DeadCode(found) => {
            for dead in found {
                lines.push(format!(
                    "{} {} lines {} {}",
                    dead.verdict.as_str(),
                    snapshot.symbol(dead.index).qualified_name,
                    dead.lines,
                    render_completeness(&dead.completeness)
                ));
            }
        }
        HealthFindings::Cycles(cycles) => {
            for cycle in cycles {
                let hops: Vec<String> = cycle
                    .hops
                    .iter()
                    .map(|hop| format!("{}:{} -> {}", hop.from, hop.line, hop.to))
                    .collect();
                lines.push(format!(
                    "{} of {} files: {}",
                    cycle.graph.as_str(),
                    cycle.files,
                    hops.join(", ")
                ));
            }
        }
        // Churn is made from history: `health_churn.rs` checks it over a repository's.
        HealthFindings::Churn { hotspots, .. } => {
            lines.extend(hotspots.iter().map(|hotspot| hotspot.path.clone()));
        }
    }
    lines.join("\n")
}

#[test]
fn a_three_module_import_cycle_is_reported_once_with_its_three_hops() {
    let (_directory, snapshot) = snapshot_of(APP);
    expect![[r#"
        cycles total 2 next None completeness exact
        imports of 3 files: app/alpha.py:1 -> app/beta.py, app/beta.py:1 -> app/gamma.py, app/gamma.py:1 -> app/alpha.py
        calls of 2 files: app/beta.py:4 -> app/gamma.py, app/gamma.py:8 -> app/beta.py"#]].assert_eq(&render(&snapshot, HealthKind::Cycles, &HealthOptions::default()));
}

#[test]
fn a_large_class_many_modules_use_is_the_only_god_object() {
    let (_directory, snapshot) = snapshot_of(APP);
    expect![[r#"
        god_objects total 1 next None completeness exact
        app.hub.Hub members 25 lines 75 in 6 out 0 score 150 drivers method_0:2 method_1:2 method_2:2"#]]
        .assert_eq(&render(&snapshot, HealthKind::GodObjects, &HealthOptions::default()));
}

#[test]
fn coupling_ranks_files_by_the_files_they_are_tied_to_and_pages() {
    let (_directory, snapshot) = snapshot_of(APP);
    let first_page = HealthOptions {
        folder: Some("app".to_string()),
        page: PageRequest::new(None, Some(3)).unwrap(),
        ..HealthOptions::default()
    };
    expect![[r#"
        coupling total 11 next Some("o:3") completeness exact
        app/hub.py ca 7 ce 0 instability 0.00 | app/lonely.py out 0 in 3 at app/lonely.py:1,app/lonely.py:4 | app/user_0.py out 0 in 3 at app/user_0.py:1,app/user_0.py:4 | app/user_1.py out 0 in 3 at app/user_1.py:1,app/user_1.py:4
        app/beta.py ca 2 ce 1 instability 0.33 | app/gamma.py out 2 in 2 mutual at app/beta.py:1,app/beta.py:4,app/gamma.py:7 | app/alpha.py out 0 in 2 at app/alpha.py:1,app/alpha.py:4
        app/gamma.py ca 1 ce 2 instability 0.67 | app/beta.py out 2 in 2 mutual at app/gamma.py:7,app/gamma.py:8,app/beta.py:1 | app/alpha.py out 1 in 0 at app/gamma.py:1"#]].assert_eq(&render(&snapshot, HealthKind::Coupling, &first_page));
    // A folder nothing is in: nothing, and exact.
    let elsewhere = HealthOptions { folder: Some("lib".to_string()), ..HealthOptions::default() };
    expect!["coupling total 0 next None completeness exact"].assert_eq(&render(
        &snapshot,
        HealthKind::Coupling,
        &elsewhere,
    ));
}

#[test]
fn health_over_the_socket_refuses_bad_kinds_folders_and_cursors_and_answers_every_section() {
    let repository = tether_tests::FixtureRepository::new(APP);
    let state = tether_tests::indexed_daemon(&repository);
    let refused = |params: tether_protocol::Value| {
        let error = crate::handle_json(&state, "health", &params).unwrap_err();
        (error.code, error.message)
    };
    for params in [
        tether_protocol::json!({"kind": "spaghetti"}),
        tether_protocol::json!({"folder": "../elsewhere"}),
        tether_protocol::json!({"folder": "/etc"}),
        tether_protocol::json!({"cursor": "o:5"}),
        tether_protocol::json!({"kind": "cycles", "cursor": "nonsense"}),
        tether_protocol::json!({"kind": "cycles", "limit": 0}),
        tether_protocol::json!({"kind": 7}),
    ] {
        let (code, message) = refused(params.clone());
        assert_eq!(code, -32602, "{params}: {message}");
    }
    let answer = crate::handle_json(&state, "health", &tether_protocol::json!({})).unwrap();
    let kinds: Vec<&str> = answer["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|section| section["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["god_objects", "coupling", "cycles", "churn", "dead_code"]);
    let cycles = crate::handle_json(
        &state,
        "health",
        &tether_protocol::json!({"kind": "cycles", "folder": "app", "limit": 1}),
    )
    .unwrap();
    let section = &cycles["sections"][0];
    assert_eq!(
        (section["total"].as_u64(), section["cycles"].as_array().map(Vec::len)),
        (Some(2), Some(1))
    );
    assert_eq!(section["cycles"][0]["hops"][0]["site"], "app/alpha.py:1");
    assert_eq!(section["next_cursor"], "o:1");
}

/// A Rust module using what its parent defines is how Rust is laid out, not a cycle; two
/// sibling modules using each other are one.
#[test]
fn rust_children_using_their_parent_make_no_cycle_but_siblings_do() {
    let (_directory, snapshot) = snapshot_of(
        r#"
//- /Cargo.toml
[package]
name = "knots"
//- /src/lib.rs
mod left;
mod right;
mod alone;
pub use left::Left;
pub struct Root;
pub fn root() -> u32 { left::left() + alone::alone() }
//- /src/left.rs
use crate::right::Right;
use crate::Root;
pub struct Left;
pub fn left() -> u32 { crate::right::right() }
//- /src/right.rs
use crate::left::Left;
pub struct Right;
pub fn right() -> u32 { 1 }
//- /src/alone.rs
use crate::Root;
pub fn alone() -> u32 { crate::root() }
"#,
    );
    expect![[r#"
        cycles total 1 next None completeness exact
        imports of 2 files: src/left.rs:1 -> src/right.rs, src/right.rs:1 -> src/left.rs"#]]
    .assert_eq(&render(&snapshot, HealthKind::Cycles, &HealthOptions::default()));
}

/// Cargo's places for tests (`tests/`, a `tests.rs` file) are test code: a helper there that
/// uses the library couples nothing (`queries/rust/test_framework.txt`).
#[test]
fn rust_integration_tests_and_their_helpers_are_test_code() {
    let (_directory, snapshot) = snapshot_of(
        r#"
//- /Cargo.toml
[package]
name = "shelf"
//- /src/lib.rs
pub mod store;
pub fn shelve() -> u32 { store::keep() }
//- /src/store.rs
pub fn keep() -> u32 { 1 }
//- /tests/common/mod.rs
pub fn setup() -> u32 { shelf::shelve() + shelf::store::keep() }
"#,
    );
    expect![[r#"
        coupling total 2 next None completeness exact
        src/lib.rs ca 0 ce 1 instability 1.00 | src/store.rs out 1 in 0 at src/lib.rs:2
        src/store.rs ca 1 ce 0 instability 0.00 | src/lib.rs out 0 in 1 at src/lib.rs:2"#]]
    .assert_eq(&render(&snapshot, HealthKind::Coupling, &HealthOptions::default()));
}

/// `dead` only when nothing could call it unseen; a function handed to a thread is used; a
/// public name of a package may be used from outside; a helper only tests call is its own
/// verdict.
#[test]
fn dead_code_is_exact_only_when_no_caller_can_hide() {
    let (_directory, snapshot) = snapshot_of(
        r#"
//- /lib/__init__.py
//- /lib/work.py
import sys
import threading

def _forgotten(x):
    return x * 2

def _worker():
    return 1

def start():
    threading.Thread(target=_worker).start()

def public_but_unused():
    return 3

def _only_for_tests():
    return 4

class _Box:
    def __len__(self):
        return 0

    def _unused_method(self):
        return 5

class _Hook:
    def __init__(self, path):
        self.path = path

    def find_spec(self, name):
        return None

    @classmethod
    def register(cls):
        sys.path_hooks.append(cls)

class _SuffixHook(_Hook):
    def find_spec(self, name):
        return name

def install():
    _Hook.register()
    _SuffixHook.register()
//- /conftest.py
def pytest_configure(config):
    config.addinivalue_line("markers", "slow")
//- /tests/test_work.py
from lib.work import _only_for_tests

def test_it():
    assert _only_for_tests() == 4
"#,
    );
    expect![[r#"
        dead_code total 9 next None completeness exact
        dead lib.work._forgotten lines 2 exact
        test_only lib.work._only_for_tests lines 2 exact
        possibly_dead lib.work._Box lines 6 lower_bound: outside: lib.work._Box is a type: annotations, signatures and calls of what it inherits may use it, which the graph does not link
        possibly_dead lib.work._SuffixHook lines 3 lower_bound: outside: lib.work._SuffixHook is a type: annotations, signatures and calls of what it inherits may use it, which the graph does not link
        possibly_dead lib.work.install lines 3 lower_bound: outside: lib.work.install is a public name: code outside the repository may use it
        possibly_dead lib.work._Hook.__init__ lines 2 lower_bound: outside: neither its class lib.work._Hook nor a subclass is instantiated in the project: the code that makes its instances may call it
        possibly_dead lib.work._Hook.find_spec lines 2 lower_bound: outside: neither its class lib.work._Hook nor a subclass is instantiated in the project: the code that makes its instances may call it
        possibly_dead lib.work.public_but_unused lines 2 lower_bound: outside: lib.work.public_but_unused is a public name: code outside the repository may use it
        possibly_dead lib.work.start lines 2 lower_bound: outside: lib.work.start is a public name: code outside the repository may use it"#]].assert_eq(&render(&snapshot, HealthKind::DeadCode, &HealthOptions::default()));
    // Runtime evidence saw `_forgotten`'s body run (line 5) and `_Box.__len__`'s (line 21):
    // neither is listed, both are counted.
    let mut ran = tether_model::EvidenceFile::default();
    ran.lines.insert(5, vec![0]);
    ran.lines.insert(21, vec![0]);
    let evidence = tether_model::RuntimeEvidence {
        commit: None,
        contexts: vec!["tests/test_work.py::test_it|run".to_string()],
        files: [("lib/work.py".to_string(), ran)].into_iter().collect(),
    };
    let with_evidence =
        HealthOptions { evidence: Some(std::sync::Arc::new(evidence)), ..HealthOptions::default() };
    // `_Box` is used, so its unused private method is now listed on its own; never
    // instantiated in the project, its instances' maker may call it.
    expect![[r#"
        dead_code total 8 next None completeness exact
        note: 2 unused-looking definitions left out: runtime evidence saw them run
        test_only lib.work._only_for_tests lines 2 exact
        possibly_dead lib.work._SuffixHook lines 3 lower_bound: outside: lib.work._SuffixHook is a type: annotations, signatures and calls of what it inherits may use it, which the graph does not link
        possibly_dead lib.work.install lines 3 lower_bound: outside: lib.work.install is a public name: code outside the repository may use it
        possibly_dead lib.work._Box._unused_method lines 2 lower_bound: outside: neither its class lib.work._Box nor a subclass is instantiated in the project: the code that makes its instances may call it
        possibly_dead lib.work._Hook.__init__ lines 2 lower_bound: outside: neither its class lib.work._Hook nor a subclass is instantiated in the project: the code that makes its instances may call it
        possibly_dead lib.work._Hook.find_spec lines 2 lower_bound: outside: neither its class lib.work._Hook nor a subclass is instantiated in the project: the code that makes its instances may call it
        possibly_dead lib.work.public_but_unused lines 2 lower_bound: outside: lib.work.public_but_unused is a public name: code outside the repository may use it
        possibly_dead lib.work.start lines 2 lower_bound: outside: lib.work.start is a public name: code outside the repository may use it"#]]
    .assert_eq(&render(&snapshot, HealthKind::DeadCode, &with_evidence));
}

/// A Rust item its modifier keeps in its crate (`pub(crate)`, no modifier) can be `dead`: the
/// crate is all the code that may name it. A `pub` item, what is as visible as a `pub` trait,
/// an exported macro and a function the linker names are at most `possibly_dead`.
#[test]
fn rust_items_kept_in_their_crate_can_be_dead() {
    let (_directory, snapshot) = snapshot_of(
        r#"
//- /Cargo.toml
[package]
name = "shelf"
//- /src/lib.rs
mod store;

fn forgotten() -> u32 { 1 }

pub(crate) fn crate_only_unused() -> u32 { 2 }

pub fn api_unused() -> u32 { 3 }

fn used() -> u32 { 4 }

pub fn entry() -> u32 { used() + store::Shelf::new().size() }

#[no_mangle]
extern "C" fn linked_by_name() -> u32 { 5 }

macro_rules! local_macro {
    () => { 6 };
}

#[macro_export]
macro_rules! exported_macro {
    () => { 7 };
}

// Used only to wrap items: the call the wrapper makes is a use.
macro_rules! wrap_items {
    ($($item:item)*) => { $($item)* };
}

wrap_items! {
    fn wrapped_and_unused() -> u32 { 13 }
}

fn tested_only() -> u32 { 8 }

// Written twice under exclusive cfgs: the call binds to both, ambiguously, which is not proof.
#[cfg(unix)]
fn per_platform() -> u32 { 14 }
#[cfg(not(unix))]
fn per_platform() -> u32 { 15 }

pub fn platform() -> u32 { per_platform() }

#[cfg_attr(not(test), no_mangle)]
extern "C" fn linked_outside_tests() -> u32 { 16 }

// An attribute macro may register it (pyo3's `#[pyfunction]`).
#[pyfunction]
fn registered_by_a_macro() -> u32 { 17 }

// serde's derive calls it, named in a string.
pub struct Config {
    #[serde(default = "default_port")]
    port: u16,
}
fn default_port() -> u16 { 80 }

// A private trait's method is called through an impl (`<u32 as Spec>::spec` binds to it).
trait Spec {
    fn spec(x: u32) -> Self;
}

impl Spec for u32 {
    fn spec(x: u32) -> u32 { x }
}

pub fn specialised() -> u32 { <u32 as Spec>::spec(1) }

#[cfg(test)]
mod tests {
    #[test]
    fn it_works() { assert_eq!(super::tested_only(), 8); }
}
//- /src/store.rs
pub struct Shelf;

impl Shelf {
    pub fn new() -> Shelf { Shelf }
    pub fn size(&self) -> u32 { 0 }
    fn unused_helper(&self) -> u32 { 9 }
    pub fn unused_api(&self) -> u32 { 10 }
}

pub trait Visible {
    fn provided(&self) -> u32 { 11 }
}
//- /benches/bench.rs
#![feature(test)]
extern crate test;

#[bench]
fn shelving(b: &mut test::Bencher) { b.iter(|| 12) }
"#,
    );
    expect![[r#"
        dead_code total 20 next None completeness lower_bound: 1 unresolved sites; 3 uncertain edges
        dead shelf::local_macro lines 3 exact
        dead shelf::crate_only_unused lines 1 exact
        dead shelf::forgotten lines 1 exact
        dead shelf::store::Shelf::unused_helper lines 1 exact
        test_only shelf::tested_only lines 1 exact
        possibly_dead shelf::exported_macro lines 3 lower_bound: outside: shelf::exported_macro is a public name: code outside the repository may use it
        possibly_dead shelf::api_unused lines 1 lower_bound: outside: shelf::api_unused is a public name: code outside the repository may use it
        possibly_dead shelf::entry lines 1 lower_bound: outside: shelf::entry is a public name: code outside the repository may use it
        possibly_dead shelf::linked_by_name lines 1 lower_bound: outside: shelf::linked_by_name is a public name: code outside the repository may use it
        possibly_dead shelf::linked_outside_tests lines 1 lower_bound: outside: shelf::linked_outside_tests is a public name: code outside the repository may use it
        possibly_dead shelf::per_platform lines 1 lower_bound: 1 uncertain edges
        possibly_dead shelf::per_platform lines 1 lower_bound: 1 uncertain edges
        possibly_dead shelf::platform lines 1 lower_bound: outside: shelf::platform is a public name: code outside the repository may use it
        possibly_dead shelf::registered_by_a_macro lines 1 lower_bound: outside: shelf::registered_by_a_macro is written inside a macro call or under an attribute macro the graph does not expand: the macro may use it
        possibly_dead shelf::specialised lines 1 lower_bound: outside: shelf::specialised is a public name: code outside the repository may use it
        possibly_dead shelf::store::Shelf::unused_api lines 1 lower_bound: outside: shelf::store::Shelf::unused_api is a public name: code outside the repository may use it
        possibly_dead shelf::wrapped_and_unused lines 1 lower_bound: outside: shelf::wrapped_and_unused is written inside a macro call or under an attribute macro the graph does not expand: the macro may use it
        possibly_dead shelf::Config lines 4 lower_bound: outside: shelf::Config is a public name: code outside the repository may use it; outside: shelf::Config is a type: annotations, signatures and calls of what it inherits may use it, which the graph does not link
        possibly_dead shelf::store::Visible lines 3 lower_bound: outside: shelf::store::Visible is a public name: code outside the repository may use it; outside: shelf::store::Visible is a type: annotations, signatures and calls of what it inherits may use it, which the graph does not link
        possibly_dead shelf::default_port lines 1 lower_bound: 1 unanalysed mentions of "default_port"; 1 uncertain edges"#]]
    .assert_eq(&render(&snapshot, HealthKind::DeadCode, &HealthOptions::default()));
}

/// What the packaging declares (a console script, a plugin module's hooks) is called from
/// outside by name: left out of dead code and counted; a packaging file that cannot be read
/// is said in the note, and the rest still counts.
#[test]
fn packaging_entry_points_are_never_dead() {
    let (directory, snapshot) = snapshot_of(
        r#"
//- /pyproject.toml
[project]
name = "tool"
[project.scripts]
tool = "tool.cli:_run"
[project.entry-points.pytest11]
tool = "tool._plugin"
//- /setup.py/README
a folder named like a packaging file
//- /tool/__init__.py
//- /tool/cli.py
def _run():
    return _helper()

def _helper():
    return 1

def _forgotten():
    return 2
//- /tool/_plugin.py
def _pytest_hook_by_name(config):
    return config
"#,
    );
    let packaging = tether_features::declared_entry_points(directory.path());
    let options = HealthOptions {
        entry_points: packaging.targets,
        entry_point_problems: packaging.problems,
        ..HealthOptions::default()
    };
    expect![[r#"
        dead_code total 1 next None completeness exact
        note: 2 unused-looking definitions left out: the packaging declares them entry points; setup.py: not a regular file; not read
        possibly_dead tool.cli._forgotten lines 2 lower_bound: outside: the packaging may declare it an entry point: setup.py: not a regular file; not read"#]]
    .assert_eq(&render(&snapshot, HealthKind::DeadCode, &options));
}

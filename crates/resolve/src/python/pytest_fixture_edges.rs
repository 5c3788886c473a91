//! Pytest fixture edges: a test (or fixture) depends on each fixture pytest runs for it, so
//! each becomes a CALLS edge labelled `pytest_fixture` from the requester to the fixture
//! function. Requests are the parameters of tests and fixtures and `usefixtures` marks (a
//! class's mark applies to its test methods); `autouse=True` fixtures are requested by every
//! test of the class, module or folders under the `conftest.py` that defines them.
//!
//! Fixtures are found the way `pytest_fixture_value` finds them (`pytest_fixtures.rs`). A
//! requested name no project fixture has (`tmp_path`, `request`) makes no edge: pytest's own
//! fixtures are outside the project.

use tether_model::{Edge, EdgeKind, FileFacts, Language, ResolutionRule, SymbolKind};

use crate::project_index::Sym;
use crate::resolver::Resolver;

/// The `pytest_fixture` edges of one file's tests and fixtures.
pub(crate) fn fixture_edges_of_file(resolver: &Resolver<'_>, file: &FileFacts) -> Vec<Edge> {
    if file.language != Some(Language::Python) {
        return Vec::new();
    }
    let mut edges = Vec::new();
    let mut push = |requester: Sym, fixture: Sym, line: u32| {
        if requester != fixture {
            let rule = ResolutionRule::PytestFixture;
            edges.push(Edge {
                kind: EdgeKind::Calls,
                source: resolver.index.symbol(requester).id,
                target: resolver.index.symbol(fixture).id,
                line,
                confidence: rule.confidence(),
                rule,
            });
        }
    };
    for request in &file.fixture_requests {
        let Some(requester) = resolver.index.sym_of(request.requester) else { continue };
        let requesters = match resolver.index.symbol(requester).kind {
            SymbolKind::Class => test_methods_of(resolver, requester),
            _ => vec![requester],
        };
        for requester in requesters {
            if let Some(fixture) = resolver.pytest_fixture_for(requester, &request.name) {
                push(requester, fixture, request.line);
            }
        }
    }
    for symbol in &file.symbols {
        if !is_test_function(symbol) {
            continue;
        }
        let Some(test) = resolver.index.sym_of(symbol.id) else { continue };
        for fixture in autouse_fixtures_for(resolver, test) {
            push(test, fixture, symbol.span.start_line);
        }
    }
    edges
}

/// A test function or method pytest runs (code nested in a test counts as test code too, and
/// a test class's fixtures are methods of it).
fn is_test_function(symbol: &tether_model::Symbol) -> bool {
    symbol.is_test
        && matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
        && tether_model::TestFramework::python().is_test_function_name(&symbol.name)
}

/// The test methods of a class (its own, not its bases').
fn test_methods_of(resolver: &Resolver<'_>, class: Sym) -> Vec<Sym> {
    let class_id = resolver.index.symbol(class).id;
    let module = resolver.index.module_of[class as usize];
    // Children are not listed by parent; a class's methods follow it in its file.
    let mut methods = Vec::new();
    let mut next = class + 1;
    while (next as usize) < resolver.index.symbols.len()
        && resolver.index.module_of[next as usize] == module
    {
        let symbol = resolver.index.symbol(next);
        if symbol.parent == Some(class_id) && is_test_function(symbol) {
            methods.push(next);
        }
        next += 1;
    }
    methods
}

/// The autouse fixtures in force for a test: those of its class and the class's bases, of its
/// module, and of every `conftest.py` from the module's folder up to the root.
fn autouse_fixtures_for(resolver: &Resolver<'_>, test: Sym) -> Vec<Sym> {
    let index = &resolver.index;
    let mut owners: Vec<Sym> = Vec::new();
    if let Some(class) =
        index.parent(test).filter(|class| index.symbol(*class).kind == SymbolKind::Class)
    {
        owners.extend(resolver.linearization(class));
    }
    let module = index.module_of[test as usize];
    owners.push(module);
    let path = index.symbol(module).path.as_str();
    let mut folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
    loop {
        if let Some(conftest) =
            index.python_conftests.get(folder).copied().filter(|conftest| *conftest != module)
        {
            owners.push(conftest);
        }
        if folder.is_empty() {
            break;
        }
        folder = folder.rsplit_once('/').map_or("", |(parent, _)| parent);
    }
    owners
        .iter()
        .filter_map(|owner| index.python_autouse_fixtures.get(owner))
        .flatten()
        .copied()
        .collect()
}

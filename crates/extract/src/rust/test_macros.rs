//! Tests written by a macro: a `macro_rules!` whose expansion holds `#[test] fn $name(…)`
//! (ripgrep's `matches!(matchrec1, "a*b", "ab");`), or `#[test]` functions inside a
//! `mod $name { … }`, writes one test per call, named by the
//! call's first token. Each such call in item position becomes a test function symbol of the
//! enclosing module, spanning the call, that calls the macro; the calls written in the
//! macro's expansions (scanned as token trees) are the macro's own calls. So a change that
//! breaks what the macro's tests call reaches every test the macro wrote.
//!
//! A call whose body is items (indexmap's `quickcheck_limit! { fn contains(insert: Vec<u32>)
//! -> bool { … } … }`, each wrapped in a `#[test] fn $fn_name()` by the macro) writes one test
//! per function: the item-macro parse made each a function of the module, and each is marked a
//! test (`mark_tests_written_from_items`).
//!
//! Only macros defined in the same file are followed (`macro_rules!` is textually scoped, and
//! test macros live beside their tests); a call whose first token is neither an identifier nor
//! an item is not.

use tether_model::{
    Binding, BindingValue, CallSite, CalleeExpr, FileFacts, Symbol, SymbolId, SymbolKind,
};
use tree_sitter::Node;

use crate::outline::{line_of, span_of, text_of, ScopeStack};

/// The binding that marks a `macro_rules!` whose expansion writes a `#[test]` function.
pub(crate) const TEST_MACRO_BINDING: &str = "test_macro";

/// Marks a macro that writes tests (the calls its expansions make are recorded for every
/// macro, see `macro_arguments::record_expansion_calls`).
pub(crate) fn record_test_macro(
    definition: Node<'_>,
    symbol: &Symbol,
    source: &str,
    facts: &mut FileFacts,
) {
    let expansions: Vec<Node<'_>> = definition
        .named_children(&mut definition.walk())
        .filter(|rule| rule.kind() == "macro_rule")
        .filter_map(|rule| field_child!(rule, "right"))
        .collect();
    let writes_test = expansions.iter().any(|expansion| {
        let compact: String = text_of(*expansion, source)
            .chars()
            .filter(|character| !character.is_whitespace())
            .collect();
        // `#[test] fn $name()`, or fixed test names in `mod $name { … }` (one module per call).
        compact.contains("#[test]") && (compact.contains("fn$") || compact.contains("mod$"))
    });
    if !writes_test {
        return;
    }
    facts.bindings.push(Binding::everywhere(
        symbol.id,
        TEST_MACRO_BINDING.to_string(),
        BindingValue::Unknown,
        line_of(definition),
    ));
}

/// For a call of a test-writing macro in item position, the test it writes.
pub(crate) fn push_macro_written_test(
    invocation: Node<'_>,
    macro_name: &str,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    // At a file's top level, `name!(…);` parses as an expression statement.
    let container = invocation.parent().and_then(|parent| match parent.kind() {
        "expression_statement" => parent.parent(),
        _ => Some(parent),
    });
    if !container.is_some_and(|parent| matches!(parent.kind(), "declaration_list" | "source_file"))
    {
        return;
    }
    let is_test_macro = facts.symbols.iter().any(|symbol| {
        symbol.kind == SymbolKind::Macro
            && symbol.name == macro_name
            && facts
                .bindings
                .iter()
                .any(|binding| binding.scope == symbol.id && binding.name == TEST_MACRO_BINDING)
    });
    if !is_test_macro {
        return;
    }
    let Some(arguments) = invocation
        .named_children(&mut invocation.walk())
        .find(|child| child.kind() == "token_tree")
    else {
        return;
    };
    let Some(name) = arguments
        .named_child(0)
        .filter(|first| first.kind() == "identifier")
        .map(|first| text_of(first, source).to_string())
    else {
        return;
    };
    let module = scopes.innermost();
    let qualified_name = format!("{}::{name}", module.child_prefix);
    let occurrence =
        facts.symbols.iter().filter(|symbol| symbol.qualified_name == qualified_name).count()
            as u32;
    let id = SymbolId::for_symbol(&facts.path, &qualified_name, SymbolKind::Function, occurrence);
    let line = line_of(invocation);
    facts.symbols.push(Symbol {
        id,
        kind: SymbolKind::Function,
        name,
        qualified_name,
        path: facts.path.clone(),
        language: tether_model::Language::Rust,
        span: span_of(invocation),
        parent: Some(module.id),
        is_test: true,
        runs_as_test: true,
        content_hash: 0,
        body_start_line: 0,
        is_overload_stub: false,
        visibility: tether_model::Visibility::Private,
    });
    facts.calls.push(CallSite {
        caller: id,
        callee: CalleeExpr::Macro(vec![macro_name.to_string()]),
        line,
        byte: invocation.start_byte() as u32,
        text: format!("{macro_name}!"),
    });
    // The test's own invocation: what the macro's templates call with its identifiers.
    crate::rust::macro_arguments::record_invocation_identifiers(
        id, line, macro_name, arguments, source, facts,
    );
}

/// Marks the functions written as items in the body of a test-writing macro's call (in
/// `tree`, the file as written) as the tests the macro writes of them: libtest names each
/// test by its function (`quick::contains`), and runtime evidence and blast find it so.
pub(crate) fn mark_tests_written_from_items(
    tree: &tree_sitter::Tree,
    source: &str,
    facts: &mut FileFacts,
) {
    let test_macros: Vec<&str> = facts
        .symbols
        .iter()
        .filter(|symbol| symbol.kind == SymbolKind::Macro)
        .filter(|symbol| {
            facts
                .bindings
                .iter()
                .any(|binding| binding.scope == symbol.id && binding.name == TEST_MACRO_BINDING)
        })
        .map(|symbol| symbol.name.as_str())
        .collect();
    if test_macros.is_empty() {
        return;
    }
    let mut bodies: Vec<(u32, u32)> = Vec::new();
    let mut containers = vec![tree.root_node()];
    while let Some(container) = containers.pop() {
        for child in container.named_children(&mut container.walk()) {
            match child.kind() {
                "macro_invocation" => {
                    let named = field_child!(child, "macro")
                        .is_some_and(|name| test_macros.contains(&text_of(name, source)));
                    if let Some(body) =
                        crate::rust::item_macros::item_body(child, source).filter(|_| named)
                    {
                        bodies.push((body.start_byte() as u32, body.end_byte() as u32));
                    }
                }
                "mod_item" => containers.extend(field_child!(child, "body")),
                _ => {}
            }
        }
    }
    if bodies.is_empty() {
        return;
    }
    let modules: Vec<SymbolId> = facts
        .symbols
        .iter()
        .filter(|symbol| symbol.kind == SymbolKind::Module)
        .map(|symbol| symbol.id)
        .collect();
    for symbol in &mut facts.symbols {
        let inside = |(start, end): &(u32, u32)| {
            *start <= symbol.span.start_byte && symbol.span.end_byte <= *end
        };
        if symbol.kind == SymbolKind::Function
            && symbol.parent.is_some_and(|parent| modules.contains(&parent))
            && bodies.iter().any(inside)
        {
            symbol.is_test = true;
            symbol.runs_as_test = true;
        }
    }
}

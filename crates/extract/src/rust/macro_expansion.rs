//! Items a `macro_rules!` of the same file writes, expanded in place: for each invocation in
//! item position, the rule its arguments match is filled in with them, and the filled-in
//! right side becomes a text of its own, where everything else of the file is blanked. Parsed
//! and swept like the file, its functions, impls, test modules and calls join the file's
//! facts, at the lines of the macro's definition where they are written (the lines a reader
//! and a mutation point at), named as rustc names them (`mod $test_mod` is the module the
//! invocation passes, `impl Integer for $T` the type). So num-integer's
//! `impl_integer_for_isize!(i8, test_integer_i8)` writes `test_integer_i8::test_div_rem`,
//! a test calling `div_rem`.
//!
//! A rule with a repetition (`($name:ident for $($t:ty)*) => ($( impl $name for $t … )*)`)
//! is expanded once per iteration, each iteration's text holding the right side with its
//! `$( … )*` filled in for that iteration (`rust_macro_matching` binds them).
//!
//! It deliberately does not expand an invocation whose macro is defined in another file or
//! after it, one inside a different inline module than its definition, the rules
//! `rust_macro_matching` does not follow (nested repetitions, fragments not followed by a
//! literal separator), a right side whose repetitions nest, or invocations nested in an
//! expansion; those keep the first-token test of
//! `rust_test_macros` and the token-tree causes of the resolver. An expansion whose symbols
//! would collide with the file's own is dropped.

use tree_sitter::{Node, Tree};

use crate::rust::macro_matching::{inner_children, match_all, matchers_of, Bindings};

/// Invocations expanded per file: a generated file of thousands of invocations keeps the
/// token-tree treatment rather than multiplying its parse.
const MAX_EXPANDED_INVOCATIONS: usize = 256;

/// A filled-in expansion: the invocation's first byte, and the file's text with everything
/// blanked but the expansion (newlines kept, so lines stay the definition's lines).
pub(crate) struct ItemExpansion {
    pub(crate) invocation_byte: usize,
    pub(crate) text: String,
}

/// The expansions of the item-position invocations of the file's own `macro_rules!`.
pub(crate) fn item_macro_expansions(tree: &Tree, source: &str) -> Vec<ItemExpansion> {
    let mut expansions = Vec::new();
    collect_in_container(tree.root_node(), &[], source, &mut expansions, 0);
    expansions
}

/// Definitions and invocations among the items of `container` (the file or an inline
/// module's body); `modules` are the inline modules around it, kept unblanked.
fn collect_in_container(
    container: Node<'_>,
    modules: &[Node<'_>],
    source: &str,
    expansions: &mut Vec<ItemExpansion>,
    depth: usize,
) {
    if depth > 8 {
        return;
    }
    let mut definitions: Vec<(String, Node<'_>)> = Vec::new();
    let mut cursor = container.walk();
    for child in container.named_children(&mut cursor) {
        // At a file's top level, `name!(…);` parses as an expression statement.
        let child = match child.kind() {
            "expression_statement" => match child.named_child(0) {
                Some(inner) if inner.kind() == "macro_invocation" => inner,
                _ => continue,
            },
            _ => child,
        };
        match child.kind() {
            "macro_definition" => {
                if let Some(name) = field_child!(child, "name") {
                    definitions.push((source[name.byte_range()].to_string(), child));
                }
            }
            "macro_invocation" => {
                if expansions.len() >= MAX_EXPANDED_INVOCATIONS {
                    return;
                }
                let Some(name) = field_child!(child, "macro") else { continue };
                let name = &source[name.byte_range()];
                // The latest definition before the invocation is the one in scope.
                let Some((_, definition)) =
                    definitions.iter().rev().find(|(defined, _)| defined == name)
                else {
                    continue;
                };
                for text in expand(*definition, child, modules, source) {
                    expansions.push(ItemExpansion { invocation_byte: child.start_byte(), text });
                }
            }
            "mod_item" => {
                if let Some(body) = field_child!(child, "body") {
                    let mut inner = modules.to_vec();
                    inner.push(child);
                    collect_in_container(body, &inner, source, expansions, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// The file's text with the invocation's expansion in place of the matching rule's right
/// side and every other byte blanked, once per iteration of the rule's repetition when the
/// right side repeats (`$( impl Num for $t { … } )*`); none when no rule can be followed.
fn expand(
    definition: Node<'_>,
    invocation: Node<'_>,
    modules: &[Node<'_>],
    source: &str,
) -> Vec<String> {
    let Some(arguments) = invocation
        .named_children(&mut invocation.walk())
        .find(|child| child.kind() == "token_tree")
    else {
        return Vec::new();
    };
    let tokens = inner_children(arguments);
    let mut cursor = definition.walk();
    let rules: Vec<Node<'_>> =
        definition.named_children(&mut cursor).filter(|rule| rule.kind() == "macro_rule").collect();
    for rule in rules {
        let (Some(left), Some(right)) = (field_child!(rule, "left"), field_child!(rule, "right"))
        else {
            continue;
        };
        let Some(matchers) = matchers_of(left, source) else { continue };
        let mut bindings = Bindings::default();
        if !match_all(&matchers, &tokens, source, &mut bindings) {
            continue;
        }
        // The first rule that matches is the one rustc expands (a later rule is not tried).
        if !bindings.repeats || !has_repetition(right) {
            return fill_in(right, &bindings, None, modules, source).into_iter().collect();
        }
        return (0..bindings.iterations.len())
            .map_while(|iteration| fill_in(right, &bindings, Some(iteration), modules, source))
            .collect();
    }
    Vec::new()
}

/// Whether a rule's right side has a `$( … )*` of its own.
fn has_repetition(right: Node<'_>) -> bool {
    let mut stack = vec![right];
    while let Some(node) = stack.pop() {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "token_repetition" => return true,
                "token_tree" => stack.push(child),
                _ => {}
            }
        }
    }
    false
}

/// The file's text with everything blanked but the inline modules around the invocation and
/// the rule's right side, whose metavariables are replaced by what they are bound to.
fn fill_in(
    right: Node<'_>,
    bindings: &Bindings,
    iteration: Option<usize>,
    modules: &[Node<'_>],
    source: &str,
) -> Option<String> {
    let (start, end) = (right.start_byte() + 1, right.end_byte().checked_sub(1)?);
    let mut replacements: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    // (node, inside a repetition)
    let mut stack = vec![(right, false)];
    while let Some((node, repeated)) = stack.pop() {
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                // One iteration's text: `$(` and `) sep op` are blanked around the body.
                "token_repetition" if iteration.is_some() && !repeated => {
                    let parts: Vec<Node<'_>> = child.children(&mut child.walk()).collect();
                    let closing = parts.iter().rposition(|part| part.kind() == ")")?;
                    let opening_end = parts.get(1)?.end_byte();
                    replacements.push((
                        child.start_byte()..opening_end,
                        blanked(&source[child.start_byte()..opening_end]),
                    ));
                    let closing_start = parts[closing].start_byte();
                    replacements.push((
                        closing_start..child.end_byte(),
                        blanked(&source[closing_start..child.end_byte()]),
                    ));
                    stack.push((child, true));
                }
                "token_repetition" => return None,
                "token_tree" => stack.push((child, repeated)),
                "metavariable" => {
                    let name = source[child.byte_range()].trim_start_matches('$');
                    let value = if name == "crate" {
                        "crate".to_string()
                    } else {
                        let range = bindings.value_of(name, iteration.filter(|_| repeated))?;
                        source[range.clone()].replace(['\n', '\r'], " ")
                    };
                    replacements.push((child.byte_range(), value));
                }
                _ => {}
            }
        }
    }
    replacements.sort_by_key(|(range, _)| range.start);
    let mut text = blanked(&source[..start]);
    for module in modules {
        // `mod name {` and its `}` stay, so the items land in the module they are written in.
        let body = field_child!(*module, "body")?;
        restore(&mut text, source, module.start_byte(), body.start_byte() + 1);
    }
    let mut cursor = start;
    for (range, value) in replacements {
        text.push_str(&source[cursor..range.start]);
        text.push_str(&value);
        cursor = range.end;
    }
    text.push_str(&source[cursor..end]);
    let after = text.len();
    text.push_str(&blanked(&source[end..]));
    for module in modules {
        let body = field_child!(*module, "body")?;
        let closing = body.end_byte() - 1;
        // The closing brace's place in the shifted text: the same distance from the end.
        let shifted = after + (closing - end);
        text.replace_range(shifted..shifted + 1, "}");
    }
    Some(text)
}

/// Spaces for every byte but newlines.
fn blanked(text: &str) -> String {
    text.bytes().map(|byte| if byte == b'\n' { '\n' } else { ' ' }).collect()
}

/// Puts `source[start..end]` back over its blanked copy at the same bytes.
fn restore(text: &mut String, source: &str, start: usize, end: usize) {
    if end <= text.len() {
        text.replace_range(start..end, &source[start..end]);
    }
}

/// Adds an expansion's facts (swept from its text with the file's path and module) to the
/// file's, in place of the first-token test `rust_test_macros` wrote for the invocation.
/// Returns false, changing nothing, when a symbol it writes collides with one of the file's.
pub(crate) fn merge_expansion(
    facts: &mut tether_model::FileFacts,
    expansion: tether_model::FileFacts,
    invocation_byte: usize,
) -> bool {
    use std::collections::HashSet;
    use tether_model::SymbolKind;
    // Every field is named, so that a new kind of fact cannot be left out of expansions.
    let tether_model::FileFacts {
        path: _,
        language: _,
        symbols,
        calls,
        function_references,
        value_references,
        dynamic_reads,
        implicit_calls,
        attribute_reads,
        attribute_writes,
        fixture_requests,
        fixture_names,
        call_arguments,
        parameters,
        attribute_parameters,
        field_stores,
        element_stores,
        macro_template_calls,
        macro_invocations,
        imports,
        supertypes,
        impls,
        derives,
        bindings,
        // Syntax errors of the filled-in text are the macro's, reported at its definition.
        diagnostics: _,
    } = expansion;
    let first_token_test = facts
        .symbols
        .iter()
        .find(|symbol| {
            symbol.is_test
                && symbol.kind == SymbolKind::Function
                && symbol.span.start_byte as usize == invocation_byte
        })
        .map(|symbol| symbol.id);
    // The first-token test stands for what the expansion writes, and may share its name
    // (`parse_tests!(parses_one => "1")` writes `fn parses_one`).
    let existing: HashSet<_> = facts
        .symbols
        .iter()
        .map(|symbol| symbol.id)
        .filter(|id| Some(*id) != first_token_test)
        .collect();
    // The file's module and the inline modules kept around the expansion are the file's own.
    let written: Vec<_> = symbols
        .into_iter()
        .filter(|symbol| !(symbol.kind == SymbolKind::Module && existing.contains(&symbol.id)))
        .collect();
    if written.is_empty() || written.iter().any(|symbol| existing.contains(&symbol.id)) {
        return false;
    }
    if let Some(test) = first_token_test {
        facts.symbols.retain(|symbol| symbol.id != test);
        facts.calls.retain(|call| call.caller != test);
        facts.macro_invocations.retain(|invocation| invocation.caller != test);
        facts.function_references.retain(|reference| reference.caller != test);
        facts.value_references.retain(|reference| reference.caller != test);
        facts.call_arguments.retain(|argument| argument.caller != test);
    }
    facts.symbols.extend(written);
    facts.calls.extend(calls);
    facts.function_references.extend(function_references);
    facts.value_references.extend(value_references);
    facts.dynamic_reads.extend(dynamic_reads);
    facts.implicit_calls.extend(implicit_calls);
    facts.attribute_reads.extend(attribute_reads);
    facts.attribute_writes.extend(attribute_writes);
    facts.fixture_requests.extend(fixture_requests);
    facts.fixture_names.extend(fixture_names);
    facts.call_arguments.extend(call_arguments);
    facts.parameters.extend(parameters);
    facts.attribute_parameters.extend(attribute_parameters);
    facts.field_stores.extend(field_stores);
    facts.element_stores.extend(element_stores);
    facts.macro_template_calls.extend(macro_template_calls);
    facts.macro_invocations.extend(macro_invocations);
    facts.imports.extend(imports);
    facts.supertypes.extend(supertypes);
    facts.impls.extend(impls);
    facts.derives.extend(derives);
    facts.bindings.extend(bindings);
    true
}

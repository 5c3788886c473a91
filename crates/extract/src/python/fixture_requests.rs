//! Pytest fixture requests: the parameters of tests and fixtures, `@pytest.mark.usefixtures`
//! on a test, fixture or class, and fixtures declared `autouse=True`. They are recorded by
//! name; the resolver binds each to a fixture function the way pytest looks fixtures up.
//!
//! A fixture named through `@pytest.fixture(name="…")` is recorded under that name too. The
//! decorators, keywords and test names are the test framework model's
//! (`queries/python/test_framework.txt`), not written here.
//!
//! Not read: `pytestmark = pytest.mark.usefixtures(…)` at module level and
//! `request.getfixturevalue` (a name computed at run time).

use tether_model::{
    Binding, BindingValue, FileFacts, FixtureName, FixtureRequest, Symbol, SymbolKind,
    TestFramework,
};
use tree_sitter::Node;

use crate::outline::line_of;
use crate::python::dotted_path;
use crate::AUTOUSE_FIXTURE_BINDING;

/// Records what a definition asks pytest for. `is_fixture`: it is decorated as a fixture.
pub(crate) fn record_fixture_requests(
    definition: Node<'_>,
    symbol: &Symbol,
    is_fixture: bool,
    source: &str,
    facts: &mut FileFacts,
) {
    for decorator in decorator_calls(definition) {
        let Some(name) = field_child!(decorator, "function")
            .and_then(|function| dotted_path(function, source))
            .and_then(|path| path.last().cloned())
        else {
            continue;
        };
        let Some(arguments) = field_child!(decorator, "arguments") else { continue };
        let framework = TestFramework::python();
        if framework.is_fixture_request_decorator(&name) {
            for argument in arguments.named_children(&mut arguments.walk()) {
                if let Some(fixture) = string_literal(argument, source) {
                    facts.fixture_requests.push(FixtureRequest {
                        requester: symbol.id,
                        name: fixture,
                        line: line_of(argument),
                    });
                }
            }
        } else if framework.is_fixture_decorator(&name) {
            if is_autouse(arguments, framework, source) {
                facts.bindings.push(Binding::everywhere(
                    symbol.id,
                    AUTOUSE_FIXTURE_BINDING.to_string(),
                    BindingValue::Unknown,
                    line_of(decorator),
                ));
            }
            let given_name = framework
                .fixture_name_keywords
                .iter()
                .find_map(|keyword| keyword_string(arguments, keyword, source));
            if let Some(name) = given_name {
                facts.fixture_names.push(FixtureName {
                    fixture: symbol.id,
                    name,
                    line: line_of(decorator),
                });
            }
        }
    }
    // Pytest passes fixtures to tests and fixtures only, by the names of the parameters that
    // have no default (`self` and `cls` are the method's own).
    // (A function nested in a test counts as test code but is not one pytest runs.)
    let is_test_function =
        symbol.is_test && TestFramework::python().is_test_function_name(&symbol.name);
    if !matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
        || !(is_test_function || is_fixture)
    {
        return;
    }
    let Some(parameters) = field_child!(definition, "parameters") else { return };
    for (position, parameter) in parameters.named_children(&mut parameters.walk()).enumerate() {
        let name = match parameter.kind() {
            "identifier" => Some(parameter),
            "typed_parameter" => parameter
                .named_children(&mut parameter.walk())
                .find(|child| child.kind() == "identifier"),
            _ => None,
        };
        let Some(name) = name.and_then(|name| name.utf8_text(source.as_bytes()).ok()) else {
            continue;
        };
        if position == 0 && symbol.kind == SymbolKind::Method && matches!(name, "self" | "cls") {
            continue;
        }
        facts.fixture_requests.push(FixtureRequest {
            requester: symbol.id,
            name: name.to_string(),
            line: line_of(parameter),
        });
    }
}

/// The decorators of a definition that are calls (`@pytest.fixture(autouse=True)`).
fn decorator_calls(definition: Node<'_>) -> Vec<Node<'_>> {
    let Some(decorated) =
        definition.parent().filter(|parent| parent.kind() == "decorated_definition")
    else {
        return Vec::new();
    };
    decorated
        .named_children(&mut decorated.walk())
        .filter(|child| child.kind() == "decorator")
        .filter_map(|decorator| decorator.named_child(0))
        .filter(|expression| expression.kind() == "call")
        .collect()
}

/// `autouse=True` among a fixture decorator's arguments.
fn is_autouse(arguments: Node<'_>, framework: &TestFramework, source: &str) -> bool {
    framework.fixture_autouse_keywords.iter().any(|keyword| {
        keyword_value(arguments, keyword, source).is_some_and(|value| value.kind() == "true")
    })
}

/// The value given to keyword `keyword` in a call's arguments (`autouse=True`).
fn keyword_value<'tree>(
    arguments: Node<'tree>,
    keyword: &str,
    source: &str,
) -> Option<Node<'tree>> {
    arguments.named_children(&mut arguments.walk()).find_map(|argument| {
        let is_keyword = argument.kind() == "keyword_argument"
            && field_child!(argument, "name")
                .and_then(|name| name.utf8_text(source.as_bytes()).ok())
                == Some(keyword);
        if is_keyword {
            field_child!(argument, "value")
        } else {
            None
        }
    })
}

/// The plain string literal given to keyword `keyword` (`name="client"`).
fn keyword_string(arguments: Node<'_>, keyword: &str, source: &str) -> Option<String> {
    string_literal(keyword_value(arguments, keyword, source)?, source)
}

/// The text of a plain string literal (`"db"`), without prefixes or interpolation.
pub(crate) fn string_literal(node: Node<'_>, source: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut content = String::new();
    for child in node.named_children(&mut node.walk()) {
        match child.kind() {
            "string_start" | "string_end" => {}
            "string_content" => content.push_str(child.utf8_text(source.as_bytes()).ok()?),
            _ => return None,
        }
    }
    (!content.is_empty()).then_some(content)
}

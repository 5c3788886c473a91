//! Python classes that hold tests whatever their name: pytest and unittest collect every
//! subclass of `unittest.TestCase` in a test file (`class SampleTests(TestCase)`), not only the
//! classes named `Test…`. The base is recognised by the suffix of its last segment
//! (`test_class_base_suffix` in queries/python/test_framework.txt), directly or through a class
//! of the same file (`class Base(TestCase)`, then `class SampleTests(Base)`).
//!
//! Not done here: a base defined in another file (`from .base import BaseTests`) is not
//! followed; such a class holds tests only when its own name says so.

use tree_sitter::Node;

use crate::outline::text_of;
use crate::python::dotted_path;

/// How many same-file bases are followed (`A(B)`, `B(C)`, …) before giving up.
const MAX_BASE_DEPTH: u32 = 8;

/// Whether `class` (a `class_definition`) has a test-case base, directly or through classes
/// defined at the top level of the same file.
pub(crate) fn extends_a_test_case(class: Node<'_>, source: &str, depth: u32) -> bool {
    if depth > MAX_BASE_DEPTH {
        return false;
    }
    let framework = tether_model::TestFramework::python();
    let Some(bases) = field_child!(class, "superclasses") else { return false };
    bases.named_children(&mut bases.walk()).any(|base| {
        let Some(path) = dotted_path(base, source) else { return false };
        let Some(last) = path.last() else { return false };
        if framework.is_test_class_base_name(last) {
            return true;
        }
        path.len() == 1
            && top_level_class_named(class, last, source)
                .is_some_and(|base| extends_a_test_case(base, source, depth + 1))
    })
}

/// The class of that name defined at the top level of the file `node` is in.
fn top_level_class_named<'tree>(
    node: Node<'tree>,
    name: &str,
    source: &str,
) -> Option<Node<'tree>> {
    let mut module = node;
    while let Some(parent) = module.parent() {
        module = parent;
    }
    let mut cursor = module.walk();
    let found = module.named_children(&mut cursor).find_map(|statement| {
        let definition = match statement.kind() {
            "decorated_definition" => field_child!(statement, "definition")?,
            _ => statement,
        };
        let is_named = definition.kind() == "class_definition"
            && field_child!(definition, "name")
                .is_some_and(|class_name| text_of(class_name, source) == name);
        is_named.then_some(definition)
    });
    found
}

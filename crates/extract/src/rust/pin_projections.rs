//! Structs with a field under a projection attribute: the `field-projection` model of
//! `queries/rust/macro_models.txt` (pin-project's `#[pin_project]` and pin-project-lite's
//! `pin_project! { … }` mark fields `#[pin]` and generate `project(self: Pin<&mut Self>)` and
//! `project_ref`, whose result has the struct's fields as pinned or plain references).
//! Extraction records the methods on the struct returning the struct itself, so
//! `self.project().field.method()` reaches the field's type.

use tether_model::{Binding, BindingValue, FileFacts, Symbol};
use tree_sitter::Node;

use crate::outline::{line_of, text_of};
use crate::RETURN_BINDING;

/// Occurrence numbers of generated methods (see `rust_field_getters`): apart from written ones.
const GENERATED_OCCURRENCE_BASE: u32 = 1 << 21;

/// Pushes a projection model's methods (`project`, `project_ref`) for a struct with a field
/// under its attribute (`#[pin]`; `structure` is the struct's symbol, just pushed); each
/// spans the struct and returns it.
pub(crate) fn push_projection_methods(
    item: Node<'_>,
    structure: &Symbol,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(body) = crate::rust::field_getters::named_fields_body(item) else { return };
    let mut cursor = body.walk();
    let field_attributes: Vec<Node<'_>> =
        body.named_children(&mut cursor).filter(|child| child.kind() == "attribute_item").collect();
    let struct_name = structure.name.clone();
    let mut position = 0;
    for (attribute, methods) in &crate::rust::macro_models::shipped_macro_models().field_projections
    {
        if !field_attributes.iter().any(|item| is_bare_attribute(*item, attribute, source)) {
            continue;
        }
        for name in methods {
            let method = crate::rust::field_getters::generated_method(
                structure,
                name,
                GENERATED_OCCURRENCE_BASE + position,
                item,
            );
            position += 1;
            let id = method.id;
            facts.symbols.push(method);
            // The struct's own name, read from its module (the method's parent is the struct).
            facts.bindings.push(Binding::everywhere(
                id,
                RETURN_BINDING.to_string(),
                BindingValue::named_type(vec![struct_name.clone()]),
                line_of(item),
            ));
        }
    }
}

/// `#[name]`, without arguments (`#[pin]`).
fn is_bare_attribute(attribute_item: Node<'_>, name: &str, source: &str) -> bool {
    let text = text_of(attribute_item, source);
    text.strip_prefix("#[")
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|inner| inner.trim() == name)
}

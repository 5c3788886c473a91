//! Structs whose fields are marked `#[pin]` (pin-project's `#[pin_project]` and
//! pin-project-lite's `pin_project! { … }`): the macro generates `project(self: Pin<&mut
//! Self>)` and `project_ref`, whose result has the struct's fields (as pinned or plain
//! references). Extraction records both as methods of the struct returning the struct itself,
//! so `self.project().field.method()` reaches the field's type.

use tether_model::{Binding, BindingValue, FileFacts, Symbol};
use tree_sitter::Node;

use crate::outline::{line_of, text_of};
use crate::RETURN_BINDING;

/// The methods a pin projection generates.
const PROJECTION_METHODS: [&str; 2] = ["project", "project_ref"];

/// Occurrence numbers of generated methods (see `rust_salsa_structs`): apart from written ones.
const GENERATED_OCCURRENCE_BASE: u32 = 1 << 21;

/// Pushes `project` and `project_ref` for a struct with a `#[pin]` field (`structure` is its
/// symbol, just pushed); each spans the struct and returns it.
pub(crate) fn push_projection_methods(
    item: Node<'_>,
    structure: &Symbol,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(body) =
        field_child!(item, "body").filter(|body| body.kind() == "field_declaration_list")
    else {
        return;
    };
    let mut cursor = body.walk();
    let has_pinned_field = body
        .named_children(&mut cursor)
        .any(|child| child.kind() == "attribute_item" && is_pin_attribute(child, source));
    if !has_pinned_field {
        return;
    }
    let struct_name = structure.name.clone();
    for (position, name) in PROJECTION_METHODS.into_iter().enumerate() {
        let method = crate::rust_salsa_structs::generated_method(
            structure,
            name,
            GENERATED_OCCURRENCE_BASE + position as u32,
            item,
        );
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

/// `#[pin]`.
fn is_pin_attribute(attribute_item: Node<'_>, source: &str) -> bool {
    let text = text_of(attribute_item, source);
    text.strip_prefix("#[")
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|inner| inner.trim() == "pin")
}

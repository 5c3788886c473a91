//! Structs whose attribute macro makes each named field a getter method of the same name,
//! returning the field's type: the `field-getters` model of `queries/rust/macro_models.txt`
//! (salsa's `#[salsa::input]`, `#[salsa::interned]`, `#[salsa::tracked]` turn structs into
//! database handles: `krate.data(db)`, `id.loc(db)`). Extraction records those getters as
//! methods of the struct, spanning their field, with the field's type as their declared return
//! type; the resolver finds them like inherent methods.

use tether_model::{Binding, FileFacts, Symbol, SymbolId, SymbolKind};
use tree_sitter::Node;

use crate::outline::{line_of, span_of, text_of};
use crate::RETURN_BINDING;

/// Occurrence numbers of generated getters start here, so that their ids never meet those of
/// methods written in an `impl` of the struct (numbered from 0).
const GENERATED_OCCURRENCE_BASE: u32 = 1 << 20;

/// A struct item's `{ … }` of named fields, when it has one.
pub(crate) fn named_fields_body(item: Node<'_>) -> Option<Node<'_>> {
    field_child!(item, "body").filter(|body| body.kind() == "field_declaration_list")
}

/// Pushes a getter method per named field of a struct under a field-getters attribute
/// (`structure` is its symbol, just pushed), each with the binding `return` holding the
/// field's type.
pub(crate) fn push_field_getters(
    item: Node<'_>,
    structure: &Symbol,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(body) = named_fields_body(item) else { return };
    let mut cursor = body.walk();
    let fields: Vec<Node<'_>> = body
        .named_children(&mut cursor)
        .filter(|child| child.kind() == "field_declaration")
        .collect();
    for (position, field) in fields.into_iter().enumerate() {
        let Some(name) = field_child!(field, "name")
            .map(|name| text_of(name, source))
            .filter(|name| !name.is_empty())
        else {
            continue;
        };
        let getter =
            generated_method(structure, name, GENERATED_OCCURRENCE_BASE + position as u32, field);
        let id = getter.id;
        facts.symbols.push(getter);
        if let Some(value) = field_child!(field, "type")
            .and_then(|written| crate::rust::bindings::binding_type(written, field, source))
        {
            facts.bindings.push(Binding::everywhere(
                id,
                RETURN_BINDING.to_string(),
                value,
                line_of(field),
            ));
        }
    }
}

/// A method a macro generates on `structure` (a field getter, a pin projection), spanning
/// `node`; `occurrence` keeps its id apart from written methods of the same name.
pub(crate) fn generated_method(
    structure: &Symbol,
    name: &str,
    occurrence: u32,
    node: Node<'_>,
) -> Symbol {
    let qualified_name = format!("{}::{name}", structure.qualified_name);
    Symbol {
        id: SymbolId::for_symbol(&structure.path, &qualified_name, SymbolKind::Method, occurrence),
        kind: SymbolKind::Method,
        name: name.to_string(),
        qualified_name,
        path: structure.path.clone(),
        language: structure.language,
        span: span_of(node),
        parent: Some(structure.id),
        is_test: structure.is_test,
        runs_as_test: false,
        content_hash: 0,
        body_start_line: 0,
        is_overload_stub: false,
        // Generated getters are as visible as their struct (salsa's are `pub`).
        visibility: structure.visibility,
    }
}

//! Structs that salsa's attribute macros (`#[salsa::input]`, `#[salsa::interned]`,
//! `#[salsa::tracked]`) turn into database handles: each named field becomes a getter method
//! of the same name (`krate.data(db)`, `id.loc(db)`) returning the field's type. Extraction
//! records those getters as methods of the struct, spanning their field, with the field's
//! type as their declared return type; the resolver finds them like inherent methods.

use tether_model::{Binding, FileFacts, Symbol, SymbolId, SymbolKind};
use tree_sitter::Node;

use crate::outline::{line_of, span_of, text_of};
use crate::RETURN_BINDING;

/// The salsa attributes whose structs get a getter per field.
const SALSA_STRUCT_ATTRIBUTES: [&str; 4] =
    ["input", "interned", "tracked", "interned_sans_lifetime"];

/// Occurrence numbers of generated getters start here, so that their ids never meet those of
/// methods written in an `impl` of the struct (numbered from 0).
const GENERATED_OCCURRENCE_BASE: u32 = 1 << 20;

/// Whether a struct's attributes (paths, as `preceding_attribute_paths_and_arguments` gives
/// them) make it a salsa struct: `salsa::interned`, `salsa_macros::tracked`…
pub(crate) fn is_salsa_struct(attributes: &[(Vec<String>, String)]) -> bool {
    attributes.iter().any(|(path, _)| match path.as_slice() {
        [.., crate_name, kind] => {
            matches!(crate_name.as_str(), "salsa" | "salsa_macros")
                && SALSA_STRUCT_ATTRIBUTES.contains(&kind.as_str())
        }
        _ => false,
    })
}

/// Pushes a getter method per named field of a salsa struct (`structure` is its symbol, just
/// pushed), each with the binding `return` holding the field's type.
pub(crate) fn push_field_getters(
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
            .and_then(|written| crate::rust_bindings::binding_type(written, field, source))
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

/// A method a macro generates on `structure` (a salsa getter, a pin projection), spanning
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
    }
}

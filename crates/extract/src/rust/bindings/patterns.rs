//! Rust patterns beyond a bare name: `mut x`, `ref x` and `&x` bind `x` like `x` does, and struct
//! patterns (`let Foo { a, b: x, .. } = …`, `Expr::Field { expr, field } => …`) bind each
//! field's name (or the pattern written after `field:`) to that field of the struct or variant.

use tether_model::{Binding, BindingValue, FileFacts};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::rust::path_segments;

/// How many `ref` / `mut` wrappers are looked through (`ref mut x` has two).
const MAX_PATTERN_MODIFIERS: usize = 4;

/// The pattern a `mut x`, `ref x`, `ref mut x` or `&x` pattern wraps (`&x` binds `x` to the
/// referent, whose methods are the reference's); any other pattern itself.
pub(crate) fn without_binding_modifiers(pattern: Node<'_>) -> Node<'_> {
    let mut current = pattern;
    for _ in 0..MAX_PATTERN_MODIFIERS {
        if !matches!(current.kind(), "mut_pattern" | "ref_pattern" | "reference_pattern") {
            break;
        }
        let inner = current.named_children(&mut current.walk()).find(|child| {
            !matches!(child.kind(), "mutable_specifier" | "line_comment" | "block_comment")
        });
        match inner {
            Some(inner) => current = inner,
            None => break,
        }
    }
    current
}

/// `Owner { a, b: x, ref mut c, .. }`: `a`, `x` and `c` are fields `a`, `b` and `c` of `Owner`
/// (a struct, or an enum's struct-like variant), in force where the pattern's bindings are.
pub(crate) fn lower_struct_pattern(
    pattern: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(owner) =
        field_child!(pattern, "type").and_then(|owner| path_segments(owner, source, 0))
    else {
        return;
    };
    let (_, (visible_from, visible_to)) = super::pattern_context(pattern);
    let scope = scopes.innermost_named().id;
    let mut cursor = pattern.walk();
    for field_pattern in
        pattern.named_children(&mut cursor).filter(|child| child.kind() == "field_pattern")
    {
        let Some(field_name) = field_child!(field_pattern, "name") else { continue };
        let field = text_of(field_name, source);
        if field.is_empty() {
            continue;
        }
        // `b: x` binds `x`; the shorthand `a` (with or without `ref` / `mut`) binds `a`.
        let bound = match field_child!(field_pattern, "pattern") {
            Some(written) => without_binding_modifiers(written),
            None => field_name,
        };
        if !matches!(bound.kind(), "identifier" | "shorthand_field_identifier") {
            continue;
        }
        let value = BindingValue::NamedField { owner: owner.clone(), field: field.to_string() };
        facts.bindings.push(Binding {
            scope,
            name: text_of(bound, source).to_string(),
            value,
            line: line_of(bound),
            visible_from,
            visible_to,
            branch: tether_model::Branch::ALWAYS,
        });
    }
}

/// The named fields of an enum's struct-like variant, as `Variant.field` bindings on the enum.
pub(crate) fn variant_named_field_bindings(
    fields: Node<'_>,
    owner: tether_model::SymbolId,
    variant: &str,
    source: &str,
    facts: &mut FileFacts,
) {
    let mut cursor = fields.walk();
    for declaration in
        fields.named_children(&mut cursor).filter(|child| child.kind() == "field_declaration")
    {
        let Some(name) = field_child!(declaration, "name")
            .map(|name| text_of(name, source))
            .filter(|name| !name.is_empty())
        else {
            continue;
        };
        let Some(value) = field_child!(declaration, "type")
            .and_then(|annotation| super::binding_type(annotation, declaration, source))
        else {
            continue;
        };
        facts.bindings.push(Binding::everywhere(
            owner,
            format!("{variant}.{name}"),
            value,
            line_of(declaration),
        ));
    }
}

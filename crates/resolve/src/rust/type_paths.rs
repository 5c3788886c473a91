//! What Rust type paths a pattern or an alias names: a `type` alias's target, the field a
//! tuple-variant or tuple-struct pattern binds (`Expr::Call(x)`), the field a struct pattern
//! binds (`Foo { a, .. }`, `Expr::Field { expr, .. }`), and what indexing a value gives.
//!
//! It deliberately reads only the fields' declared types: a field whose type is a generic
//! parameter is known only where the value's type arguments are written.

use tether_model::Language;

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::rust::rules::RustPathSite;

impl Resolver<'_> {
    /// What a type alias stands for: a project type, a wrapper, or a type outside.
    pub(crate) fn alias_target(&self, alias: Sym) -> Option<Denotation> {
        let binding = self.index.bindings_named(alias, crate::TYPE_ALIAS_BINDING)?.first()?;
        // Its path resolves from the alias (whose parent is its module).
        self.binding_denotation(alias, binding, Language::Rust)
    }

    /// What a pattern's `Variant(x)` or a tuple struct's `S(x)` binds `x` to.
    pub(crate) fn variant_field_type(
        &self,
        scope: Sym,
        variant: &[String],
        position: u32,
    ) -> Option<Denotation> {
        let owner = match self.rust_path(scope, variant, RustPathSite::Code).ok()?.denotation {
            Denotation::Symbol(owner) => owner,
            _ => return None,
        };
        let field_name = match self.index.symbol(owner).kind {
            tether_model::SymbolKind::Enum => format!("{}.{position}", variant.last()?),
            tether_model::SymbolKind::Struct => format!("self.{position}"),
            _ => return None,
        };
        let binding = self.index.bindings_named(owner, &field_name)?.first()?;
        self.binding_denotation(owner, binding, Language::Rust)
    }

    /// What a struct pattern's `Owner { field }` binds `field` to: the struct's field, or the
    /// field of an enum's struct-like variant (`Expr::Field { expr, .. }`).
    pub(crate) fn named_field_type(
        &self,
        scope: Sym,
        owner_path: &[String],
        field: &str,
    ) -> Option<Denotation> {
        let owner = match self.rust_path(scope, owner_path, RustPathSite::Code).ok()?.denotation {
            Denotation::Symbol(owner) => owner,
            _ => return None,
        };
        let field_name = match self.index.symbol(owner).kind {
            tether_model::SymbolKind::Enum => format!("{}.{field}", owner_path.last()?),
            tether_model::SymbolKind::Struct | tether_model::SymbolKind::Union => {
                format!("self.{field}")
            }
            _ => return None,
        };
        let binding = self.index.bindings_named(owner, &field_name)?.first()?;
        self.binding_denotation(owner, binding, Language::Rust)
    }

    /// Rust's `xs[i]`: of a `Vec`, a slice or a map, an element (a value, for a map), through
    /// pointers; `graph[id]` of a project type, its `impl Index`'s `Output`.
    pub(crate) fn rust_subscripted(&self, value: &Denotation) -> Option<Denotation> {
        match value {
            Denotation::Wrapped { wrapper, inner } => match wrapper {
                _ if wrapper.is_pointer() => self.rust_subscripted(inner),
                crate::value_types::Wrapper::Sequence | crate::value_types::Wrapper::Map => {
                    Some((**inner).clone()).filter(|element| *element != Denotation::UntypedLocal)
                }
                _ => None,
            },
            Denotation::Instance { type_sym, is_dyn: false, arguments } => {
                self.index_output(*type_sym, arguments)
            }
            _ => None,
        }
    }
}

//! Derived impls as calls: `#[derive(PartialEq)] struct Row { key: Key, cells: Vec<Cell> }`
//! gives `Row` an `eq` no one wrote, which calls `eq` of each field: `a == b` on rows, or
//! `assert_eq!(a, b)`, runs the project's `impl PartialEq for Key` and `for Cell`. A method
//! of a derived trait called on a project type with no impl of its own is noted (in the
//! resolver's context) as calling the fields' project impls of the trait, through fields
//! whose types derive it too (a bounded number of steps); the call site gets an edge to each,
//! a dispatch when there are several (a derived `eq` stops at the first field that differs).
//! The call's own target stays the derived std method: `Row::default()` is still a `Row`.
//!
//! The traits and the method each derived method calls on the fields are std's, listed in
//! `DERIVED_METHODS`. It deliberately does not follow derive macros of other crates (serde's
//! `Serialize`), whose generated code tether does not see, nor fields of the type's own
//! generic parameters (`struct Wrapper<T> { inner: T }`: which `T` is not known here).

use tether_model::SymbolKind;

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::{DerivedTraitsOfType, Resolver};
use crate::HashMap;

/// How many derived types deep the fields are followed (`Row` → `Cell` → `Value`).
const MAX_DERIVED_DEPTH: usize = 4;

/// (the method called on a type, the derived trait that provides it, the method the derived
/// impl calls on each field): `ne` is `PartialEq`'s default over the derived `eq`; `lt`…
/// `ge` are `PartialOrd`'s over `partial_cmp`; `max`, `min`, `clamp` `Ord`'s over `cmp`.
const DERIVED_METHODS: &[(&str, &str, &str)] = &[
    ("eq", "PartialEq", "eq"),
    ("ne", "PartialEq", "eq"),
    ("partial_cmp", "PartialOrd", "partial_cmp"),
    ("lt", "PartialOrd", "partial_cmp"),
    ("le", "PartialOrd", "partial_cmp"),
    ("gt", "PartialOrd", "partial_cmp"),
    ("ge", "PartialOrd", "partial_cmp"),
    ("cmp", "Ord", "cmp"),
    ("max", "Ord", "cmp"),
    ("min", "Ord", "cmp"),
    ("clamp", "Ord", "cmp"),
    ("hash", "Hash", "hash"),
    ("clone", "Clone", "clone"),
    ("clone_from", "Clone", "clone"),
    ("fmt", "Debug", "fmt"),
    ("default", "Default", "default"),
];

impl Resolver<'_> {
    /// Each project type's derives, its fields' type paths resolved in the type's scope.
    pub(crate) fn collect_derived_traits(&self) -> HashMap<Sym, DerivedTraitsOfType> {
        let mut derived: HashMap<Sym, DerivedTraitsOfType> = HashMap::default();
        for derive in &self.index.derives {
            let Some(type_sym) = self.index.sym_of(derive.type_symbol) else { continue };
            let scope = self.index.parent(type_sym).unwrap_or(type_sym);
            let rules = crate::language_rules::rules_of(self.index.symbol(type_sym).language);
            let mut field_types: Vec<Sym> = derive
                .field_types
                .iter()
                .filter_map(|path| match rules.item_path(self, scope, path) {
                    Ok(resolved) => match resolved.denotation {
                        Denotation::Symbol(sym) if self.index.symbol(sym).kind.is_type() => {
                            Some(sym)
                        }
                        _ => None,
                    },
                    Err(_) => None,
                })
                .filter(|sym| self.index.symbol(*sym).kind != SymbolKind::TypeAlias)
                .collect();
            field_types.sort_unstable();
            field_types.dedup();
            let entry = derived.entry(type_sym).or_default();
            entry.traits.extend(derive.traits.iter().cloned());
            entry.field_types.extend(field_types);
        }
        derived
    }

    /// The project methods a derived `name` of `type_sym` calls on its fields (a method of
    /// `trait_name` when the call names the trait, as `{:?}` names `Debug`); empty when the
    /// type does not derive a trait giving `name`, or no field's type has a project impl.
    pub(crate) fn derived_method_targets(
        &self,
        type_sym: Sym,
        trait_name: Option<&str>,
        name: &str,
    ) -> Vec<Sym> {
        let Some(&(_, derived_trait, field_method)) =
            DERIVED_METHODS.iter().find(|(method, derived_trait, _)| {
                *method == name && trait_name.is_none_or(|wanted| wanted == *derived_trait)
            })
        else {
            return Vec::new();
        };
        let derives = |sym: Sym| {
            self.derived_traits
                .get(&sym)
                .is_some_and(|derived| derived.traits.iter().any(|name| name == derived_trait))
        };
        if !derives(type_sym) {
            return Vec::new();
        }
        let mut targets = Vec::new();
        let mut visited = vec![type_sym];
        let mut pending = vec![(type_sym, 0)];
        while let Some((current, depth)) = pending.pop() {
            let Some(derived) = self.derived_traits.get(&current) else { continue };
            for field_type in &derived.field_types {
                if visited.contains(field_type) {
                    continue;
                }
                visited.push(*field_type);
                let written =
                    self.outside_trait_methods_of_type(derived_trait, *field_type, field_method);
                if !written.is_empty() {
                    targets.extend(written);
                } else if derives(*field_type) && depth + 1 < MAX_DERIVED_DEPTH {
                    pending.push((*field_type, depth + 1));
                }
            }
        }
        targets.sort_unstable();
        targets.dedup();
        targets
    }
}

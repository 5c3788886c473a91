//! `impl<T> Deref for Spawn<T> { type Target = T; }`: a value of `Spawn<DelayQueue>` passes the
//! methods `Spawn` lacks to its `DelayQueue`, the instance's own argument (tokio-test's
//! `task::spawn(…)` wraps most futures and streams under test this way). The `Deref` of a
//! type's fixed target is `Resolver::deref_targets`; this is the generic one, per instance.

use tether_model::{BindingValue, SymbolKind};

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// What an instance of `type_sym` with `arguments` dereferences to, when its `impl Deref`'s
    /// `type Target` is one of the type's own parameters and the instance's argument there is
    /// known.
    pub(crate) fn deref_to_argument(&self, type_sym: Sym, arguments: &[Denotation]) -> Option<Denotation> {
        if arguments.is_empty() {
            return None;
        }
        self.impls_of_type.get(&type_sym)?.iter().find_map(|impl_sym| {
            if !self.index.symbol(*impl_sym).name.starts_with("{impl Deref for ") {
                return None;
            }
            let target = self.index.children_named(*impl_sym, "Target").iter().copied().find(|child| self.index.symbol(*child).kind == SymbolKind::TypeAlias)?;
            let binding = self.index.bindings_named(target, crate::TYPE_ALIAS_BINDING)?.first()?;
            let BindingValue::SelfTypeArgument { position, .. } = &binding.value else { return None };
            match arguments.get(*position as usize)? {
                Denotation::UntypedLocal => None,
                known => Some(known.clone()),
            }
        })
    }
}

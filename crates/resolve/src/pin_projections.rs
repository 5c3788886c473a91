//! `self.project()` on a struct declared in `pin_project! { … }` (pin-project-lite) or with
//! `#[pin_project]`: the macro generates `project()` and `project_ref()`, returning a struct
//! with the same field names, pinned fields as `Pin<&mut F>` (whose methods are `F`'s) and the
//! others as `&mut F`. The projection is typed as the struct itself, so `me.inner.poll(cx)`
//! after `let me = self.project();` reaches the field's type. The `project()` call itself
//! stays what it is: no project symbol defines it.

use tether_model::{Language, ResolutionRule, SymbolKind};

use crate::denotation::{Denotation, Resolved};
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// What `receiver.name()` gives when it is a pin projection of a project struct: the
    /// struct's own value. `None` when the name is another, the receiver is not a project
    /// struct, or the struct (or one of its traits) defines a method of that name.
    pub(crate) fn pin_projection(&self, receiver: &Denotation, name: &str, language: Language) -> Option<Denotation> {
        if language != Language::Rust || !matches!(name, "project" | "project_ref") {
            return None;
        }
        let Denotation::Instance { type_sym, is_dyn: false, .. } = receiver else { return None };
        if self.index.symbol(*type_sym).kind != SymbolKind::Struct {
            return None;
        }
        let defined = self.method_of_value(&Resolved { denotation: receiver.clone(), rule: ResolutionRule::TypedReceiver }, name, language);
        if defined.is_ok() {
            return None;
        }
        Some(receiver.clone())
    }
}

//! Which binding of a name a use sees: within the scope being resolved, the bindings in
//! force at the use's byte (a `let` after its statement and inside its block, a closure
//! parameter inside its closure), the latest of them deciding.
//!
//! The use's position travels in the resolver's context
//! ([`ResolutionContext::with_use_position`]): resolving a call site sets it to the call's
//! byte, typing a binding's value sets it to where the binding starts.

use tether_model::Binding;

use crate::project_index::Sym;
use crate::resolution_context::ResolutionContext;

impl ResolutionContext<'_> {
    /// The bindings of a name in `scope` in force at the current use, when its position
    /// decides: the earlier ones, and the latest ones (several only when they start at the
    /// same byte). `None` when the use is in another scope (a function using a module's global)
    /// or when none is in force there (a loop using a name bound further down): any may be meant.
    pub(crate) fn bindings_in_force<'b>(
        &self,
        scope: Sym,
        bindings: &[&'b Binding],
    ) -> Option<(Vec<&'b Binding>, Vec<&'b Binding>)> {
        let (use_scope, at) = self.use_position()?;
        if use_scope != scope {
            return None;
        }
        // The project index keeps each name's bindings sorted by where they start.
        let mut in_force: Vec<&'b Binding> = bindings
            .iter()
            .copied()
            .filter(|binding| binding.visible_from < at && at <= binding.visible_to)
            .collect();
        let latest_start = in_force.last()?.visible_from;
        let first_latest = in_force.partition_point(|binding| binding.visible_from < latest_start);
        let latest = in_force.split_off(first_latest);
        Some((in_force, latest))
    }

    /// The bindings of a name in `scope` that may reach the current use, latest first: the latest
    /// in force, and earlier ones for as long as those after them sit in a branch the use is not
    /// in (`if c: h = a` / `else: h = b`, then `h()`). Bindings starting at one byte (the sides of
    /// `a if c else b`) come together. `None` as for [`bindings_in_force`].
    pub(crate) fn bindings_reaching<'b>(
        &self,
        scope: Sym,
        bindings: &[&'b Binding],
    ) -> Option<Vec<&'b Binding>> {
        let (use_scope, at) = self.use_position()?;
        if use_scope != scope {
            return None;
        }
        let in_force: Vec<&'b Binding> = bindings
            .iter()
            .copied()
            .filter(|binding| binding.visible_from < at && at <= binding.visible_to)
            .collect();
        let mut reaching = Vec::new();
        let mut rest = in_force.as_slice();
        while let Some(last) = rest.last() {
            let group_start =
                rest.partition_point(|binding| binding.visible_from < last.visible_from);
            let group = &rest[group_start..];
            reaching.extend(group.iter().rev().copied());
            if group.iter().any(|binding| binding.branch.runs_before(at)) {
                break;
            }
            rest = &rest[..group_start];
        }
        (!reaching.is_empty()).then_some(reaching)
    }

    /// Whether the current use is in `scope` and every binding of the name there starts after
    /// it: a Rust name bound only further down (`let rt = rt();` calls the function `rt`) is not
    /// a local at the use, since Rust's scopes are lexical.
    pub(crate) fn all_start_after_use(&self, scope: Sym, bindings: &[&Binding]) -> bool {
        let Some((use_scope, at)) = self.use_position() else { return false };
        use_scope == scope && bindings.iter().all(|binding| binding.visible_from >= at)
    }

    /// Whether the current use is in `scope` after the range where `binding` is in force.
    pub(crate) fn ended_before_use(&self, scope: Sym, binding: &Binding) -> bool {
        self.use_position()
            .is_some_and(|(use_scope, at)| use_scope == scope && binding.visible_to < at)
    }

    /// The byte of the current use when it is in `scope`.
    pub(crate) fn use_byte_in(&self, scope: Sym) -> Option<u32> {
        self.use_position().filter(|(use_scope, _)| *use_scope == scope).map(|(_, at)| at)
    }

    /// The scope of the use being resolved in this context, when one is.
    pub(crate) fn use_scope(&self) -> Option<Sym> {
        self.use_position().map(|(scope, _)| scope)
    }
}

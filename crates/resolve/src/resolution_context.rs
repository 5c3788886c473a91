//! The mutable state of one resolution worker, held explicitly by its [`Resolver`] view: where
//! the use being resolved sits, how deeply call-result typing is nested, the bindings typed so
//! far, and the `Deref` impls the current call's method lookups went through.
//!
//! Each [`Resolver`] gets a fresh context, so nothing outlives the view that filled it and a
//! result never depends on which thread resolved what before. Not here: anything shared across
//! workers (that is the read-only [`crate::resolver::ResolverTables`]).
//!
//! [`Resolver`]: crate::resolver::Resolver

use std::cell::{Cell, RefCell};
use std::hash::{Hash, Hasher};

use rustc_hash::FxHashMap as HashMap;
use tether_model::Binding;

use crate::denotation::Denotation;
use crate::project_index::Sym;

/// Bindings typed through call results nest at most this deep in one context.
const MAX_TYPING_NESTING: u32 = 16;

/// One worker's state; see the module doc.
#[derive(Default)]
pub(crate) struct ResolutionContext<'a> {
    /// The scope and byte of the use being resolved (see `bindings_in_force.rs`).
    use_position: Cell<Option<(Sym, u32)>>,
    /// How many call-result typings are in progress (see [`NestingGuard`]).
    typing_nesting: Cell<u32>,
    /// What each binding typed so far denotes.
    binding_types: RefCell<HashMap<BindingKey<'a>, Option<Denotation>>>,
    /// The bindings being typed right now, outermost first: one met again is a cycle
    /// (`value = value.strip()` read where no other binding of `value` is in force).
    bindings_being_typed: RefCell<Vec<BindingKey<'a>>>,
    /// The project types whose `Deref` the current call's method lookups went through.
    dereferenced_types: RefCell<Vec<Sym>>,
    /// The project methods a derived impl the current call's lookups reached calls (see
    /// `rust::derived_calls`).
    derived_calls: RefCell<Vec<Sym>>,
}

/// A binding of the project index, with the scope it is typed in: equal when the bindings
/// are equal (the same binding, or one written identically at the same place).
#[derive(Clone, Copy)]
pub(crate) struct BindingKey<'a> {
    scope: Sym,
    binding: &'a Binding,
}

impl PartialEq for BindingKey<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.scope == other.scope
            && (std::ptr::eq(self.binding, other.binding) || self.binding == other.binding)
    }
}

impl Eq for BindingKey<'_> {}

impl Hash for BindingKey<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // What tells bindings apart cheaply; equality settles the rest.
        self.scope.hash(state);
        self.binding.visible_from.hash(state);
        self.binding.line.hash(state);
        self.binding.name.hash(state);
    }
}

impl<'a> ResolutionContext<'a> {
    /// Runs `work` with uses in `scope` located at byte `at`.
    pub(crate) fn with_use_position<T>(&self, scope: Sym, at: u32, work: impl FnOnce() -> T) -> T {
        let previous = self.use_position.replace(Some((scope, at)));
        let result = work();
        self.use_position.set(previous);
        result
    }

    /// The scope and byte of the use being resolved, when one is.
    pub(crate) fn use_position(&self) -> Option<(Sym, u32)> {
        self.use_position.get()
    }

    /// How deep call-result typing is nested right now.
    pub(crate) fn typing_nesting(&self) -> u32 {
        self.typing_nesting.get()
    }

    /// What `binding` typed in `scope` denoted, when it was typed already in this context.
    pub(crate) fn typed_binding(
        &self,
        scope: Sym,
        binding: &'a Binding,
    ) -> Option<Option<Denotation>> {
        self.binding_types.borrow().get(&BindingKey { scope, binding }).cloned()
    }

    /// Remembers what `binding` typed in `scope` denotes.
    pub(crate) fn remember_typed_binding(
        &self,
        scope: Sym,
        binding: &'a Binding,
        typed: Option<Denotation>,
    ) {
        self.binding_types.borrow_mut().insert(BindingKey { scope, binding }, typed);
    }

    /// Runs `work` as the typing of `binding` in `scope`; `None` without running it when that
    /// binding is being typed already (its value reads itself).
    pub(crate) fn typing_binding<T>(
        &self,
        scope: Sym,
        binding: &'a Binding,
        work: impl FnOnce() -> Option<T>,
    ) -> Option<T> {
        let key = BindingKey { scope, binding };
        if self.bindings_being_typed.borrow().contains(&key) {
            return None;
        }
        self.bindings_being_typed.borrow_mut().push(key);
        let result = work();
        self.bindings_being_typed.borrow_mut().pop();
        result
    }

    /// Notes that a method lookup on `type_sym` went through its project `impl Deref`.
    pub(crate) fn note_dereferenced(&self, type_sym: Sym) {
        let mut types = self.dereferenced_types.borrow_mut();
        if !types.contains(&type_sym) {
            types.push(type_sym);
        }
    }

    /// Notes the project methods a derived impl calls (`a == b` on a type deriving
    /// `PartialEq`: its fields' `eq`). Not while a value is typed: `b.add()` types `b` by
    /// resolving the `Builder::default()` it was made with, a call of another site.
    pub(crate) fn note_derived_calls(&self, methods: &[Sym]) {
        if self.typing_nesting.get() > 0 {
            return;
        }
        let mut noted = self.derived_calls.borrow_mut();
        for method in methods {
            if !noted.contains(method) {
                noted.push(*method);
            }
        }
    }

    /// Runs `resolve` with fresh note lists and returns its result with what was noted: the
    /// types whose `Deref` it went through, and the methods derived impls call.
    pub(crate) fn noting_implicit_calls<T>(
        &self,
        resolve: impl FnOnce() -> T,
    ) -> (T, NotedImplicitCalls) {
        let previous_types = std::mem::take(&mut *self.dereferenced_types.borrow_mut());
        let previous_derived = std::mem::take(&mut *self.derived_calls.borrow_mut());
        let result = resolve();
        let noted = NotedImplicitCalls {
            dereferenced: std::mem::replace(
                &mut *self.dereferenced_types.borrow_mut(),
                previous_types,
            ),
            derived: std::mem::replace(&mut *self.derived_calls.borrow_mut(), previous_derived),
        };
        (result, noted)
    }
}

/// What resolving one call site noted besides its targets.
pub(crate) struct NotedImplicitCalls {
    /// Project types whose `Deref` a method lookup went through.
    pub dereferenced: Vec<Sym>,
    /// Project methods derived impls call.
    pub derived: Vec<Sym>,
}

/// Counts one level of call-result typing in a context while alive.
pub(crate) struct NestingGuard<'c> {
    nesting: &'c Cell<u32>,
}

impl<'c> NestingGuard<'c> {
    /// One more level, unless the context is at the limit already.
    pub(crate) fn enter(context: &'c ResolutionContext<'_>) -> Option<NestingGuard<'c>> {
        let nesting = &context.typing_nesting;
        if nesting.get() >= MAX_TYPING_NESTING {
            return None;
        }
        nesting.set(nesting.get() + 1);
        Some(NestingGuard { nesting })
    }
}

impl Drop for NestingGuard<'_> {
    fn drop(&mut self) {
        self.nesting.set(self.nesting.get() - 1);
    }
}

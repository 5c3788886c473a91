//! Python's member lookup: a class's members through its C3 linearisation (an implementation
//! before `@overload` stubs, then what the first base outside the project has), and the
//! attributes only subclasses set, read through the base; properties read as their getter's
//! value; module variables and star imports; and what calling a value that flowed somewhere
//! runs (a class's `__init__`, an instance's `__call__` or method: value flow asks this for
//! every language's values, and only Python classes make a difference).
//!
//! It deliberately does not evaluate metaclasses, `__getattr__` or descriptors other than
//! properties: those calls stay counted unresolved.

use tether_model::{Language, ResolutionRule, SymbolId, SymbolKind, UnresolvedReason};

use crate::denotation::{found, from_candidates, Denotation, Lookup, Resolved};
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::value_flow::FlowValue;

/// Subclasses read for an attribute only they set or define; a base with more leaves the call
/// unresolved.
const MAX_SUBCLASS_ATTRIBUTES: usize = 32;

impl Resolver<'_> {
    /// A member of a Python class, through its linearization: an implementation before
    /// `@overload` stubs, then what the first base outside the project has.
    pub(crate) fn python_class_member(
        &self,
        type_sym: Sym,
        name: &str,
        rule: ResolutionRule,
    ) -> Lookup {
        let classes = self.linearization(type_sym);
        // A class with only `@overload` stubs of a method (typing-only declarations, as
        // in an `if TYPE_CHECKING:` block) runs a base's implementation when there is one.
        let mut stubs_only = None;
        for class in &classes {
            let candidates = self.index.children_named(*class, name);
            if candidates.is_empty() {
                continue;
            }
            let implementations = self.without_overload_stubs(candidates);
            if implementations.len() == candidates.len()
                && candidates.iter().all(|candidate| {
                    self.index.bindings_named(*candidate, crate::OVERLOAD_BINDING).is_some()
                })
            {
                stubs_only.get_or_insert(implementations);
                continue;
            }
            if let Some(denotation) = from_candidates(&implementations) {
                return found(denotation, rule);
            }
        }
        if let Some(denotation) = stubs_only.and_then(|stubs| from_candidates(&stubs)) {
            return found(denotation, rule);
        }
        // Not in any project class: from the first base outside the project (a
        // dependency's class such as `werkzeug.test.Client`), when there is one.
        let outside_base = classes
            .iter()
            .find_map(|class| self.outside_bases.get(class).and_then(|bases| bases.first()));
        match outside_base {
            Some(Denotation::External(base)) if !base.is_empty() => {
                found(Denotation::External(format!("{base}.{name}")), rule)
            }
            Some(Denotation::Builtin(base)) => {
                found(Denotation::Builtin(format!("{base}.{name}")), rule)
            }
            _ => Err(UnresolvedReason::UnknownMember),
        }
    }

    /// Same-named Python definitions without their `@overload` stubs, when an implementation
    /// remains (a stub file's overloads alone stay as they are).
    pub(crate) fn without_overload_stubs(&self, candidates: &[Sym]) -> Vec<Sym> {
        let implementations: Vec<Sym> = candidates
            .iter()
            .copied()
            .filter(|candidate| {
                self.index.bindings_named(*candidate, crate::OVERLOAD_BINDING).is_none()
            })
            .collect();
        if implementations.is_empty() {
            candidates.to_vec()
        } else {
            implementations
        }
    }

    /// `self.on_close()` in a base class whose subclasses set `self.on_close = close_window`:
    /// the functions (or classes) the subclasses' attributes hold, any of which may be called;
    /// `self.Wrapper(obj)` in a base whose subclasses define a nested class or method
    /// `Wrapper` in their bodies: those (none when there are more than
    /// [`MAX_SUBCLASS_ATTRIBUTES`] subclasses). `self.stream.write(…)` in a mixin whose
    /// subclasses set `self.stream = BytesStream()` (one in `setUp`, another `TextStream()`):
    /// an instance of the nearest project class every such value is an instance of (so a
    /// call of its method dispatches to the overrides, as through an annotated parameter).
    pub(crate) fn subclass_attribute_values(&self, class: Sym, name: &str) -> Option<Denotation> {
        let key = format!("self.{name}");
        let mut held = Vec::new();
        let mut instance_types = Vec::new();
        let subclasses = self.subclasses.get(&class)?;
        // More subclasses than are read: the call stays unresolved, counted by its name.
        if subclasses.len() > MAX_SUBCLASS_ATTRIBUTES {
            return None;
        }
        for subclass in subclasses {
            for member in self.without_overload_stubs(self.index.children_named(*subclass, name)) {
                let kind = self.index.symbol(member).kind;
                if kind.is_callable() || kind.is_type() {
                    held.push(member);
                }
            }
            for binding in self.index.bindings_named(*subclass, &key).into_iter().flatten() {
                match self.binding_denotation(*subclass, binding, Language::Python) {
                    Some(Denotation::Symbol(value)) => {
                        let kind = self.index.symbol(value).kind;
                        if kind.is_callable() || kind.is_type() {
                            held.push(value);
                        }
                    }
                    Some(Denotation::Instance { type_sym, is_dyn: false, .. }) => {
                        instance_types.push(type_sym)
                    }
                    _ => {}
                }
            }
        }
        held.sort_unstable();
        held.dedup();
        if held.is_empty() {
            let common = self.nearest_common_class(&instance_types)?;
            return Some(Denotation::Instance {
                type_sym: common,
                is_dyn: false,
                arguments: vec![],
            });
        }
        crate::denotation::from_candidates(&held)
    }

    /// The first class of the first type's linearisation that every type's linearisation
    /// holds: the nearest project class all of them derive (none when they share none).
    fn nearest_common_class(&self, types: &[Sym]) -> Option<Sym> {
        let (first, others) = types.split_first()?;
        let others: Vec<Vec<Sym>> = others.iter().map(|other| self.linearization(*other)).collect();
        self.linearization(*first)
            .into_iter()
            .find(|candidate| others.iter().all(|order| order.contains(candidate)))
    }

    /// Reading a Python property gives what its getter returns (untyped when that is not
    /// visible), not the getter: `request.node.warn()` calls a method of the node.
    pub(crate) fn python_property_value(&self, member: Resolved) -> Resolved {
        let candidates = match &member.denotation {
            Denotation::Symbol(sym) => std::slice::from_ref(sym),
            Denotation::Ambiguous(candidates) => candidates.as_slice(),
            _ => return member,
        };
        let Some(getter) = candidates.iter().copied().find(|candidate| {
            self.index.bindings_named(*candidate, crate::PROPERTY_BINDING).is_some()
        }) else {
            return member;
        };
        let value =
            self.declared_return_type(getter, Language::Python).unwrap_or(Denotation::UntypedLocal);
        Resolved { denotation: value, rule: member.rule }
    }

    /// What a Python module variable holds as seen from outside the module (its last typed
    /// assignment): `MARK_GEN = MarkGenerator()` an instance, `local = LocalPath` the class,
    /// `checked_call = _maker.checked_call` the method.
    pub(crate) fn python_module_variable(&self, module: Sym, name: &str) -> Option<Denotation> {
        let bindings = self.index.bindings_named(module, name)?;
        let value = bindings
            .iter()
            .rev()
            .find_map(|binding| self.binding_denotation(module, binding, Language::Python))?;
        (value != Denotation::UntypedLocal).then_some(value)
    }

    /// Whether a star import of `module` takes `name`: Python honours `__all__` when the
    /// module defines it, and otherwise takes names without a leading underscore.
    pub(crate) fn python_star_import_takes(&self, module: Sym, name: &str) -> bool {
        let declared = self.index.bindings_named(module, "__all__").and_then(|bindings| {
            bindings.iter().rev().find_map(|binding| match &binding.value {
                tether_model::BindingValue::Collection(names) => Some(names),
                _ => None,
            })
        });
        match declared {
            Some(names) => names.iter().any(|exported| exported.len() == 1 && exported[0] == name),
            None => !name.starts_with('_'),
        }
    }

    /// What a call of a held value runs: a function, a class's `__init__`, an instance's
    /// `__call__`; with `method`, the method of the instance's (or the class's) class.
    pub(crate) fn called_on_held(
        &self,
        held: &FlowValue,
        method: Option<&str>,
    ) -> Option<SymbolId> {
        let (FlowValue::Target(value) | FlowValue::Instance(value)) = held else { return None };
        let class = self.index.sym_of(*value)?;
        let is_class = self.index.symbol(class).kind == SymbolKind::Class;
        let (name, rule) = match (held, method) {
            (FlowValue::Target(target), None) => {
                return Some(self.constructor_or_function(*target))
            }
            (FlowValue::Instance(_) | FlowValue::Forwarded(_), None) => {
                ("__call__", ResolutionRule::TypedReceiver)
            }
            (_, Some(_)) if !is_class => return None,
            (FlowValue::Instance(_), Some(method)) => (method, ResolutionRule::TypedReceiver),
            (_, Some(method)) => (method, ResolutionRule::QualifiedPath),
        };
        match self.type_member(class, name, false, Language::Python, rule).ok()?.denotation {
            Denotation::Symbol(member) if self.index.symbol(member).kind.is_callable() => {
                Some(self.index.symbol(member).id)
            }
            _ => None,
        }
    }

    /// Calling a class runs its `__init__` when it has one.
    pub(crate) fn constructor_or_function(&self, target: SymbolId) -> SymbolId {
        let Some(sym) = self.index.sym_of(target) else { return target };
        if self.index.symbol(sym).kind != SymbolKind::Class {
            return target;
        }
        match self
            .type_member(sym, "__init__", false, Language::Python, ResolutionRule::Constructor)
            .map(|resolved| resolved.denotation)
        {
            Ok(Denotation::Symbol(init)) => self.index.symbol(init).id,
            _ => target,
        }
    }
}

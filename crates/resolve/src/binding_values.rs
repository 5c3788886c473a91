//! What a binding's value denotes: a written type, a call's result, an expression, an
//! iterated element, a closure's parameter, a pattern's field, a branch of an `if` or
//! `match`… Memoized in the resolver's context, since the same binding is read at every use.

use tether_model::{Binding, BindingValue, Language, Receiver};

use crate::denotation::{Denotation, Resolved};
use crate::project_index::Sym;
use crate::resolver::Resolver;

impl<'a> Resolver<'a> {
    /// The value a binding holds: an instance of a project type, when that type is visible.
    /// Memoized in the resolver's context: the same binding is typed once, not at every use.
    pub(crate) fn binding_denotation(
        &self,
        scope: Sym,
        binding: &'a Binding,
        language: Language,
    ) -> Option<Denotation> {
        if let Some(cached) = self.context.typed_binding(scope, binding) {
            return cached;
        }
        // The binding's value sees the bindings in force where the binding starts.
        // Typing a value may type other bindings (`let y = x?;`): a binding met again while
        // it is typed is a cycle (`value = value.strip()` where no other binding is in force),
        // and the shared nesting depth ends longer chains.
        let typed = self.context.with_use_position(scope, binding.visible_from, || {
            let _nesting = crate::resolution_context::NestingGuard::enter(&self.context)?;
            self.context
                .typing_binding(scope, binding, || self.value_denotation(scope, binding, language))
        });
        // A miss may come from the nesting limit deep inside; only misses seen at the top
        // level (where the limit is furthest) are remembered.
        if typed.is_some() || self.context.typing_nesting() == 0 {
            self.context.remember_typed_binding(scope, binding, typed.clone());
        }
        typed
    }

    /// The value a binding's right-hand side denotes (uncached; see [`Self::binding_denotation`]).
    fn value_denotation(
        &self,
        scope: Sym,
        binding: &Binding,
        language: Language,
    ) -> Option<Denotation> {
        self.value_of(scope, &binding.value, &binding.name, language)
    }

    /// The project functions and classes a list of paths names, as one value (ambiguous
    /// between several); `None` when they name none.
    pub(crate) fn functions_named(&self, scope: Sym, paths: &[Vec<String>]) -> Option<Denotation> {
        let rules = crate::language_rules::rules_of(self.index.symbol(scope).language);
        let mut functions: Vec<Sym> = Vec::new();
        for path in paths {
            if let Ok(Resolved { denotation: Denotation::Symbol(sym), .. }) =
                rules.item_path(self, scope, path)
            {
                let kind = self.index.symbol(sym).kind;
                if (kind.is_callable() || kind.is_type()) && !functions.contains(&sym) {
                    functions.push(sym);
                }
            }
        }
        match functions.as_slice() {
            [] => None,
            [only] => Some(Denotation::Symbol(*only)),
            _ => Some(Denotation::Ambiguous(functions)),
        }
    }

    /// What `value` denotes in `scope`; `name` is the bound name (pytest fixtures go by it).
    fn value_of(
        &self,
        scope: Sym,
        value: &BindingValue,
        name: &str,
        language: Language,
    ) -> Option<Denotation> {
        match value {
            BindingValue::Type { path, is_dyn, arguments } => {
                self.written_type(scope, path, *is_dyn, arguments, language)
            }
            BindingValue::CallResult(callee) => self.call_result_type(scope, callee, language),
            BindingValue::EnteredContext(callee) => {
                self.entered_context_value(scope, callee, language)
            }
            BindingValue::Expression(receiver) => {
                self.receiver_value(scope, receiver, language).map(|resolved| resolved.denotation)
            }
            BindingValue::ElementOf(receiver) => {
                let iterated = self.receiver_value(scope, receiver, language)?.denotation;
                // `for child in node.children()` over a project iterator.
                let iterated = self.as_std_iterator(&iterated, None).unwrap_or(iterated);
                crate::value_types::element_of(&iterated)
            }
            BindingValue::ClosureParameter { receiver, method, argument, parameter } => {
                match self.receiver_value(scope, receiver, language)?.denotation {
                    Denotation::Wrapped { wrapper, inner }
                        if wrapper.closure_parameter_is_element(method, *parameter) =>
                    {
                        Some(*inner)
                    }
                    // `acc.add(…, |builder| …)`: what the project method passes its closure.
                    instance @ Denotation::Instance { .. } => crate::language_rules::rules_of(
                        language,
                    )
                    .method_closure_parameter(self, &instance, method, *argument, *parameter),
                    _ => None,
                }
            }
            // All branches have one type: the first that is visible gives it.
            // (`None`, `Some(x)` or an untyped local say too little to decide.)
            BindingValue::BranchValues { values } => {
                let typed = values.iter().filter_map(|(value, at)| {
                    self.context
                        .with_use_position(scope, *at, || {
                            self.receiver_value(scope, value, language)
                        })
                        .map(|typed| typed.denotation)
                });
                first_informative_branch(typed)
            }
            BindingValue::PathCallClosureParameter { function, argument, parameter } => {
                crate::language_rules::rules_of(language)
                    .path_call_closure_parameter(self, scope, function, *argument, *parameter)
            }
            BindingValue::VariantField { variant, position } => {
                self.variant_field_type(scope, variant, *position)
            }
            BindingValue::NamedField { owner, field } => self.named_field_type(scope, owner, field),
            BindingValue::UntypedParameter => {
                crate::language_rules::rules_of(language).untyped_parameter_value(self, scope, name)
            }
            BindingValue::TupleElement { of, position } => {
                match self.value_of(scope, of, name, language) {
                    Some(Denotation::Tuple(elements)) => elements
                        .get(*position as usize)
                        .cloned()
                        .filter(|element| *element != Denotation::UntypedLocal),
                    // `left, right = pair` with `pair = (f, g)`: the literal's element there.
                    _ => match &**of {
                        BindingValue::Expression(Receiver::Path(path)) if path.len() == 1 => self
                            .keyed_element(scope, &path[0], &format!("[{position}]"), language)
                            .map(|element| element.denotation),
                        _ => None,
                    },
                }
            }
            // A field of type `T: Bound` read without the instance's arguments: its bound.
            BindingValue::SelfTypeArgument { bound: Some(path), .. } => {
                self.written_type(scope, path, true, &[], language)
            }
            BindingValue::Collection(elements) => crate::language_rules::rules_of(language)
                .literal_collection(
                    self,
                    scope,
                    name,
                    elements,
                    crate::language_rules::LiteralCollection::Sequence,
                ),
            BindingValue::Mapping(elements) => crate::language_rules::rules_of(language)
                .literal_collection(
                    self,
                    scope,
                    name,
                    elements,
                    crate::language_rules::LiteralCollection::Mapping,
                ),
            BindingValue::LiteralElement(elements) => self.functions_named(scope, elements),
            BindingValue::Unknown
            | BindingValue::GenericParameter { .. }
            | BindingValue::SelfTypeArgument { .. }
            | BindingValue::Closure { .. }
            | BindingValue::Callable { .. } => None,
        }
    }
}

/// The type of an `if` or `match` from its branches' types in order: the first that says
/// something (`None`, `Some(x)`, an untyped local do not); a tuple takes each element from the
/// first branch where it is known (`(if … { A } else { B }, text)` then `f(text)`).
fn first_informative_branch(branches: impl Iterator<Item = Denotation>) -> Option<Denotation> {
    let says_little = |denotation: &Denotation| match denotation {
        Denotation::UntypedLocal => true,
        Denotation::Wrapped { inner, .. } => **inner == Denotation::UntypedLocal,
        Denotation::Builtin(path) => matches!(path.as_str(), "None" | "Some" | "Ok" | "Err"),
        Denotation::Tuple(elements) => {
            elements.iter().all(|element| *element == Denotation::UntypedLocal)
        }
        _ => false,
    };
    let mut chosen: Option<Denotation> = None;
    for branch in branches {
        if says_little(&branch) {
            continue;
        }
        match (&mut chosen, branch) {
            (None, branch) => chosen = Some(branch),
            (Some(Denotation::Tuple(known)), Denotation::Tuple(more))
                if known.len() == more.len() =>
            {
                for (slot, element) in known.iter_mut().zip(more) {
                    if *slot == Denotation::UntypedLocal {
                        *slot = element;
                    }
                }
            }
            _ => {}
        }
        if !matches!(&chosen, Some(Denotation::Tuple(elements)) if elements.contains(&Denotation::UntypedLocal))
        {
            break;
        }
    }
    chosen
}

//! Python name rules: LEGB-style scope walk (class bodies hidden from nested functions),
//! `self`/`cls`, absolute and relative imports, namespace packages, builtins.

use tether_model::{Language, ResolutionRule, SymbolKind, UnresolvedReason};

use crate::builtins::is_python_builtin;
use crate::denotation::{found, from_candidates, Denotation, Lookup, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

impl<'a> Resolver<'a> {
    /// Resolves a dotted path as code in `scope` would see it.
    pub(crate) fn python_path_in(
        &self,
        scope: Sym,
        path: &[String],
        bindings: BindingUse,
    ) -> Lookup {
        let (head, mut rest) = path.split_first().ok_or(UnresolvedReason::ComplexCallee)?;
        let mut current = match self.narrowed_attribute(scope, path) {
            Some(narrowed) => {
                rest = &rest[1..];
                narrowed
            }
            None => self.python_head(scope, head, bindings).ok_or(UnresolvedReason::UnknownName)?,
        };
        current = self.decorated_value(current);
        for segment in rest {
            current = self.decorated_value(self.member(&current, segment, Language::Python)?);
        }
        Ok(current)
    }

    /// What a decorated function's name denotes: what its last decorator returns, when that
    /// is a project function or an instance of a project class (`@logged` returning its
    /// `wrapper`, `@group()` returning a `Group`); the function itself when every decorator
    /// hands it back or returns something not visible (an outside decorator).
    fn decorated_value(&self, resolved: Resolved) -> Resolved {
        let Denotation::Symbol(function) = resolved.denotation else { return resolved };
        let Some(applications) = self.index.bindings_named(function, crate::DECORATED_BINDING)
        else {
            return resolved;
        };
        let scope = self.index.parent(function).unwrap_or(function);
        // The decorators themselves (above the definition's end) are handed the function.
        let before_end = self
            .context
            .use_byte_in(scope)
            .is_some_and(|at| at < self.index.symbol(function).span.end_byte);
        if before_end {
            return resolved;
        }
        let Some(_nesting) = crate::resolution_context::NestingGuard::enter(&self.context) else {
            return resolved;
        };
        let mut decorated = None;
        for application in applications {
            let tether_model::BindingValue::CallResult(applied) = &application.value else {
                continue;
            };
            match self.call_result_type(scope, applied, Language::Python) {
                Some(Denotation::Symbol(returned))
                    if returned != function && self.index.symbol(returned).kind.is_callable() =>
                {
                    decorated = Some(Denotation::Symbol(returned));
                }
                Some(instance @ Denotation::Instance { is_dyn: false, .. }) => {
                    decorated = Some(instance);
                }
                _ => {}
            }
        }
        match decorated {
            Some(denotation) => Resolved { denotation, rule: resolved.rule },
            None => resolved,
        }
    }

    /// `self.handler` inside `if isinstance(self.handler, Greeter):`: the narrowed type, where
    /// a narrowing binding of the function is in force at the use.
    fn narrowed_attribute(&self, scope: Sym, path: &[String]) -> Option<Resolved> {
        let [receiver, attribute, ..] = path else { return None };
        if receiver != "self" || !self.index.symbol(scope).kind.is_callable() {
            return None;
        }
        let bindings = self.index.bindings_named(scope, &format!("self.{attribute}"))?;
        let at = self.context.use_byte_in(scope)?;
        let narrowing = bindings
            .iter()
            .rev()
            .find(|binding| binding.visible_from < at && at <= binding.visible_to)?;
        let denotation = self.binding_denotation(scope, narrowing, Language::Python)?;
        Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
    }

    pub(crate) fn python_path(&self, scope: Sym, path: &[String]) -> Lookup {
        self.python_path_in(scope, path, BindingUse::Forbidden)
    }

    fn python_head(&self, scope: Sym, name: &str, bindings: BindingUse) -> Option<Resolved> {
        if (name == "self" || name == "cls") && !self.python_rebinds_receiver_name(scope, name) {
            // An attribute's value (`self.config = self.make_config()`) is recorded on the class
            // but written in a method: there, too, `self` is an instance of the class.
            let class_of_attribute =
                (self.index.symbol(scope).kind == SymbolKind::Class).then_some(scope);
            if let Some(class) =
                class_of_attribute.or_else(|| self.python_enclosing_class_of_method(scope))
            {
                let denotation = if name == "self" {
                    Denotation::Instance { type_sym: class, is_dyn: false, arguments: Vec::new() }
                } else {
                    Denotation::Symbol(class)
                };
                return Some(Resolved { denotation, rule: ResolutionRule::SelfMethod });
            }
        }
        let mut current = Some(scope);
        while let Some(level) = current {
            let symbol = self.index.symbol(level);
            if symbol.kind == SymbolKind::Class && level != scope {
                current = self.index.parent(level);
                continue;
            }
            // In a class body, a name is bound once its definition has run: a decorator
            // (`@post_load(…)` over `def post_load`) is evaluated before the method it
            // decorates is bound, so it means what the enclosing scopes give that name.
            let bound_before = (symbol.kind == SymbolKind::Class)
                .then(|| self.context.use_byte_in(level))
                .flatten();
            let definitions: Vec<Sym> = self
                .index
                .children_named(level, name)
                .iter()
                .copied()
                .filter(|child| self.index.symbol(*child).kind != SymbolKind::Lambda)
                .filter(|child| {
                    bound_before.is_none_or(|at| self.index.symbol(*child).span.end_byte <= at)
                })
                .collect();
            let definitions = self.without_overload_stubs(&definitions);
            if let Some(denotation) = from_candidates(&definitions) {
                return Some(Resolved { denotation, rule: ResolutionRule::SameScope });
            }
            if let Some(imported) = self.imported_name(level, name, 0) {
                return Some(imported);
            }
            if bindings == BindingUse::Allowed {
                if let Some(found) = self.binding_in_scope(level, name, Language::Python) {
                    return Some(found);
                }
            }
            current = self.index.parent(level);
        }
        if is_python_builtin(name) {
            return Some(Resolved {
                denotation: Denotation::Builtin(name.to_string()),
                rule: ResolutionRule::SameScope,
            });
        }
        None
    }

    /// Whether the method around `scope` rebinds `self` or `cls` (`from .testing import
    /// FlaskClient as cls`, `cls = self.client_class`): there the name is that local, not the
    /// method's class.
    fn python_rebinds_receiver_name(&self, scope: Sym, name: &str) -> bool {
        let Some(method) =
            self.index.enclosing_of_kind(scope, &[SymbolKind::Method, SymbolKind::Function])
        else {
            return false;
        };
        if self.imported_name(method, name, 0).is_some() {
            return true;
        }
        self.index.bindings_named(method, name).is_some_and(|bindings| {
            bindings.iter().any(|binding| {
                !matches!(
                    binding.value,
                    tether_model::BindingValue::Type { .. }
                        | tether_model::BindingValue::UntypedParameter
                )
            })
        })
    }

    /// A typed local binding of `name` visible in exactly this scope.
    pub(crate) fn binding_in_scope(
        &self,
        scope: Sym,
        name: &str,
        language: Language,
    ) -> Option<Resolved> {
        let bindings = self.index.bindings_named(scope, name)?;
        // Bindings whose range ended before the use (an `isinstance` narrowing inside an `if`
        // the use comes after, a comprehension's variable) do not make the name a local
        // there: an outer binding (the enclosing function's typed parameter) still applies.
        // A parameter of the scope is still a local, of a type not known there. (A Rust name
        // whose `let`s ended is bound by a pattern not extracted: see below.)
        if language == Language::Python
            && bindings.iter().all(|binding| self.context.ended_before_use(scope, binding))
        {
            let is_parameter =
                self.index.parameters_by_function.get(&scope).is_some_and(|parameters| {
                    parameters.iter().any(|parameter| parameter.name == name)
                });
            return is_parameter.then_some(Resolved {
                denotation: Denotation::UntypedLocal,
                rule: ResolutionRule::TypedReceiver,
            });
        }
        if language == Language::Python {
            if let Some(joined) = self.joined_branch_values(scope, bindings, language) {
                return Some(joined);
            }
        }
        let typed = match self.context.bindings_in_force(scope, bindings) {
            // The latest binding in force at the use; bindings starting together must agree.
            Some((earlier, nearest)) => {
                let mut types =
                    nearest.iter().map(|binding| self.binding_denotation(scope, binding, language));
                let first = types.next().flatten();
                let in_force =
                    first.filter(|first| types.all(|other| other.as_ref() == Some(first)));
                match language {
                    // A Python assignment rebinds the same variable, which mostly keeps its
                    // type: an earlier visible type still describes it. A Rust `let` or
                    // closure parameter is another variable.
                    // A comprehension's variable (`for x in …` inside `[…]`) is a variable of
                    // its own, in force only there: an outer `x` says nothing of it.
                    Language::Python
                        if nearest.iter().all(|binding| is_comprehension_variable(binding)) =>
                    {
                        in_force
                    }
                    Language::Python => in_force.or_else(|| {
                        earlier
                            .iter()
                            .rev()
                            .find_map(|binding| self.binding_denotation(scope, binding, language))
                    }),
                    Language::Rust => in_force,
                }
            }
            // A Rust use in this very scope with no binding in force is bound by something not
            // extracted (`|&(ref name, _)|`, a `match_ast!` arm's pattern): a local of unknown
            // type, whatever other bindings of the name say.
            None if language == Language::Rust
                && self.context.use_scope() == Some(scope)
                && !self.context.all_start_after_use(scope, bindings) =>
            {
                None
            }
            // Any binding may be meant, but not one whose range ended before a use in its own
            // scope (a narrowing inside an `if` the use comes after).
            None => bindings
                .iter()
                .rev()
                .filter(|binding| !self.context.ended_before_use(scope, binding))
                .find_map(|binding| self.binding_denotation(scope, binding, language)),
        }
        .map(|denotation| Resolved { denotation, rule: ResolutionRule::TypedReceiver });
        // A local whose type is not visible is still a local: it hides outer names.
        typed.or(Some(Resolved {
            denotation: Denotation::UntypedLocal,
            rule: ResolutionRule::TypedReceiver,
        }))
    }

    /// The functions and classes a name may hold where it is used when bindings in different
    /// branches reach it (`if c: h = a` / `else: h = b`, `h = a if c else b`): all of them.
    /// `None` when one binding reaches the use, or when one of those reaching holds another
    /// kind of value (an instance): the latest binding decides then.
    fn joined_branch_values(
        &self,
        scope: Sym,
        bindings: &[&'a tether_model::Binding],
        language: Language,
    ) -> Option<Resolved> {
        // Most names have one binding: nothing to join, and no walk.
        if bindings.len() < 2 {
            return None;
        }
        let reaching = self.context.bindings_reaching(scope, bindings)?;
        if reaching.len() < 2 {
            return None;
        }
        let mut targets: Vec<Sym> = Vec::new();
        for binding in reaching {
            match self.binding_denotation(scope, binding, language) {
                Some(Denotation::Symbol(sym)) => {
                    let kind = self.index.symbol(sym).kind;
                    if !(kind.is_callable() || kind.is_type()) {
                        return None;
                    }
                    if !targets.contains(&sym) {
                        targets.push(sym);
                    }
                }
                None | Some(Denotation::UntypedLocal) => {}
                Some(_) => return None,
            }
        }
        if targets.len() < 2 {
            return None;
        }
        targets.sort_unstable();
        Some(Resolved {
            denotation: Denotation::Ambiguous(targets),
            rule: ResolutionRule::ValueFlow,
        })
    }

    /// The class whose method (or nested lambda of a method) `scope` is.
    pub(crate) fn python_enclosing_class_of_method(&self, scope: Sym) -> Option<Sym> {
        let method = self.index.enclosing_of_kind(scope, &[SymbolKind::Method])?;
        let class = self.index.parent(method)?;
        (self.index.symbol(class).kind == SymbolKind::Class).then_some(class)
    }

    /// What a Python import binds: `import a.b` binds `a` (to module `a`), `import a.b as c`
    /// binds `c` to `a.b`; `from m import n` binds `n` to `m`'s member, `from m import *` `m`.
    pub(crate) fn python_import_target(
        &self,
        scope: Sym,
        import: &tether_model::Import,
    ) -> Option<Resolved> {
        if import.style == tether_model::ImportStyle::PythonImport {
            let binds_head = import.alias.as_deref() == import.path.first().map(String::as_str);
            let path = if binds_head {
                &import.path[..1.min(import.path.len())]
            } else {
                &import.path[..]
            };
            return Some(self.python_absolute_path(path));
        }
        let base = self.python_from_base(
            scope,
            import.relative_level,
            &import.path[..import.path.len() - usize::from(!import.is_glob)],
        )?;
        if import.is_glob {
            return Some(base);
        }
        let name = import.path.last()?;
        self.member(&base, name, Language::Python)
            .ok()
            .map(|member| Resolved { denotation: member.denotation, rule: ResolutionRule::Import })
    }

    /// `import a.b.c`: a project module, a namespace package, or an external module path.
    pub(crate) fn python_absolute_path(&self, path: &[String]) -> Resolved {
        let Some((head, rest)) = path.split_first() else {
            return Resolved {
                denotation: Denotation::External(String::new()),
                rule: ResolutionRule::Import,
            };
        };
        let mut current = if let Some(module) =
            from_candidates(&self.index.modules_named(head, Language::Python))
        {
            Resolved { denotation: module, rule: ResolutionRule::Import }
        } else if self.index.python_module_prefixes.contains(head.as_str()) {
            Resolved {
                denotation: Denotation::Namespace(head.clone()),
                rule: ResolutionRule::Import,
            }
        } else if let Some(module) = self.python_module_file_at(&path.join(".")) {
            return Resolved {
                denotation: Denotation::Symbol(module),
                rule: ResolutionRule::Import,
            };
        } else {
            return Resolved {
                denotation: Denotation::External(path.join(".")),
                rule: ResolutionRule::Import,
            };
        };
        for segment in rest {
            match self.member(&current, segment, Language::Python) {
                Ok(next) => current = next,
                // A project package without this submodule: keep the dotted path visible.
                Err(_) => {
                    return Resolved {
                        denotation: Denotation::External(path.join(".")),
                        rule: ResolutionRule::Import,
                    }
                }
            }
        }
        current
    }

    /// The project file a dotted path names from the repository's root or its `src/` folder
    /// (`pkg.core` → `pkg/core.py` or `pkg/core/__init__.py`), when no module is named so: a
    /// folder without `__init__.py` (a namespace package) names its modules by their stems,
    /// yet tests run from the root import them by the path.
    pub(crate) fn python_module_file_at(&self, dotted: &str) -> Option<Sym> {
        let joined = dotted.replace('.', "/");
        ["", "src/"].iter().find_map(|root| {
            [format!("{root}{joined}.py"), format!("{root}{joined}/__init__.py")]
                .iter()
                .find_map(|file| self.index.file_modules_by_path.get(file.as_str()).copied())
        })
    }

    /// The module a `from … import` reads from, with leading dots counted from `scope`'s module.
    pub(crate) fn python_from_base(
        &self,
        scope: Sym,
        level: u32,
        module_path: &[String],
    ) -> Option<Resolved> {
        if level == 0 {
            return (!module_path.is_empty()).then(|| self.python_absolute_path(module_path));
        }
        let module = self.index.module_of[scope as usize];
        let module_name = &self.index.symbol(module).qualified_name;
        let mut package: Vec<&str> = module_name.split('.').collect();
        if !self.index.is_package_init.contains(&module) {
            package.pop();
        }
        for _ in 1..level {
            package.pop()?;
        }
        let mut qualified: Vec<String> =
            package.iter().map(|segment| segment.to_string()).collect();
        qualified.extend(module_path.iter().cloned());
        if qualified.is_empty() {
            return None;
        }
        let name = qualified.join(".");
        if let Some(module) = from_candidates(&self.index.modules_named(&name, Language::Python)) {
            return Some(Resolved { denotation: module, rule: ResolutionRule::Import });
        }
        if self.index.python_module_prefixes.contains(&name) {
            return Some(Resolved {
                denotation: Denotation::Namespace(name),
                rule: ResolutionRule::Import,
            });
        }
        None
    }

    /// The one method `name` of the first class after `after` in `order` that defines it.
    fn next_in_order(&self, order: &[Sym], after: Sym, name: &str) -> Option<Sym> {
        let start = order.iter().position(|class| *class == after)? + 1;
        let defining = order[start..]
            .iter()
            .find(|base| !self.index.children_named(**base, name).is_empty())?;
        match from_candidates(
            &self.without_overload_stubs(self.index.children_named(*defining, name)),
        ) {
            Some(Denotation::Symbol(method)) => Some(method),
            _ => None,
        }
    }

    /// `super().name` from inside a method: the next class in the MRO that defines it.
    pub(crate) fn python_super_member(&self, scope: Sym, name: &str) -> Lookup {
        let class = self
            .python_enclosing_class_of_method(scope)
            .ok_or(UnresolvedReason::UnknownReceiverType)?;
        let classes = self.linearization(class);
        if let Some(next) = self.next_in_order(&classes, class, name) {
            // `self` may be an instance of a subclass, whose MRO puts another class after this
            // one (a diamond: `Document(Cached, Versioned)` makes `super()` in `Cached` reach
            // `Versioned`): each such next class's method too.
            let mut targets = vec![next];
            for subclass in self.subclasses.get(&class).into_iter().flatten() {
                let order = self.linearization(*subclass);
                if let Some(other) = self.next_in_order(&order, class, name) {
                    if !targets.contains(&other) {
                        targets.push(other);
                    }
                }
            }
            return match targets.as_slice() {
                [only] => found(Denotation::Symbol(*only), ResolutionRule::SelfMethod),
                _ => found(Denotation::Ambiguous(targets), ResolutionRule::DynamicDispatch),
            };
        }
        if let Some(denotation) = classes.iter().skip(1).find_map(|base| {
            from_candidates(&self.without_overload_stubs(self.index.children_named(*base, name)))
        }) {
            return found(denotation, ResolutionRule::SelfMethod);
        }
        // Not in a project base: the first base outside the project (`list.__init__` for
        // `class Traceback(list[Entry])`, `argparse.Action.__init__`).
        match classes
            .iter()
            .find_map(|class| self.outside_bases.get(class).and_then(|bases| bases.first()))
        {
            Some(Denotation::External(base)) if !base.is_empty() => {
                found(Denotation::External(format!("{base}.{name}")), ResolutionRule::SelfMethod)
            }
            Some(Denotation::Builtin(base)) => {
                found(Denotation::Builtin(format!("{base}.{name}")), ResolutionRule::SelfMethod)
            }
            _ => Err(UnresolvedReason::UnknownMember),
        }
    }
}

/// Whether a binding is a comprehension's loop variable: an element of what it iterates, in
/// force only inside the comprehension.
fn is_comprehension_variable(binding: &tether_model::Binding) -> bool {
    matches!(binding.value, tether_model::BindingValue::ElementOf(_))
        && binding.visible_to != u32::MAX
}

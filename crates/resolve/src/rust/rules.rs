//! Rust path rules: `crate`, `self`, `super`, `Self`, items and `use` bindings of the
//! enclosing module, workspace crates, the prelude, and external crates.

use tether_model::{Language, ResolutionRule, SymbolKind, UnresolvedReason};

use crate::builtins::{is_rust_prelude, RUST_EXTERNAL_ROOTS};
use crate::denotation::{from_candidates, Denotation, Lookup, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// Where a Rust path is written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum RustPathSite {
    /// In code: an unknown lowercase first segment of a longer path names an external crate.
    Code,
    /// In a `use` declaration: any unknown first segment names an external crate.
    UseDeclaration,
}

impl Resolver<'_> {
    /// Resolves a Rust path as code (or a `use` declaration) in `scope` sees it.
    pub(crate) fn rust_path(&self, scope: Sym, path: &[String], site: RustPathSite) -> Lookup {
        self.rust_path_in(scope, path, site, BindingUse::Forbidden)
    }

    pub(crate) fn rust_path_in(
        &self,
        scope: Sym,
        path: &[String],
        site: RustPathSite,
        bindings: BindingUse,
    ) -> Lookup {
        let path: Vec<&String> = path.iter().filter(|segment| !segment.is_empty()).collect();
        let (head, rest) = path.split_first().ok_or(UnresolvedReason::ComplexCallee)?;
        let module = self.rust_module_of(scope);
        let mut current = match head.as_str() {
            "crate" => {
                let crate_name = self
                    .index
                    .symbol(module)
                    .qualified_name
                    .split("::")
                    .next()
                    .unwrap_or("")
                    .to_string();
                let root = from_candidates(&self.index.modules_named(&crate_name, Language::Rust))
                    .ok_or(UnresolvedReason::UnknownName)?;
                Resolved { denotation: root, rule: ResolutionRule::QualifiedPath }
            }
            "self" => Resolved {
                denotation: Denotation::Symbol(module),
                rule: ResolutionRule::QualifiedPath,
            },
            "super" => Resolved {
                denotation: self.rust_parent_module(module).ok_or(UnresolvedReason::UnknownName)?,
                rule: ResolutionRule::QualifiedPath,
            },
            "Self" => self.rust_self_type(scope).ok_or(UnresolvedReason::UnknownName)?,
            name => match self.rust_head(scope, module, name, bindings, !rest.is_empty()) {
                Some(resolved) => resolved,
                None if site == RustPathSite::UseDeclaration
                    || (!rest.is_empty() && name.starts_with(|c: char| c.is_lowercase())) =>
                {
                    // An external crate (`serde::Serialize`), or a module of one brought in by a glob.
                    let joined: Vec<&str> = path.iter().map(|segment| segment.as_str()).collect();
                    return Ok(Resolved {
                        denotation: Denotation::External(joined.join("::")),
                        rule: ResolutionRule::Import,
                    });
                }
                // `T::read(…)` with `T: Encodable` (a bounded type parameter of the function or
                // impl around): the trait's method, dispatched to its impls.
                None => match rest.is_empty() {
                    false => self
                        .generic_parameter_bound(scope, module, name)
                        .ok_or(UnresolvedReason::UnknownName)?,
                    true => return Err(UnresolvedReason::UnknownName),
                },
            },
        };
        for segment in rest {
            if segment.as_str() == "super" {
                let Denotation::Symbol(module) = current.denotation else {
                    return Err(UnresolvedReason::UnknownName);
                };
                current.denotation =
                    self.rust_parent_module(module).ok_or(UnresolvedReason::UnknownName)?;
                continue;
            }
            current = self.member(&current, segment, Language::Rust)?;
        }
        Ok(current)
    }

    /// What the first segment of a path names. `names_a_path`: more segments follow, so the
    /// name is a crate, module or type (never a macro or function).
    fn rust_head(
        &self,
        scope: Sym,
        module: Sym,
        name: &str,
        bindings: BindingUse,
        names_a_path: bool,
    ) -> Option<Resolved> {
        let mut current = Some(scope);
        while let Some(level) = current {
            // Items of impls and traits are not in scope by their bare names (`Self::f` is).
            let level_kind = self.index.symbol(level).kind;
            let members_are_in_scope = level_kind == SymbolKind::Module || level_kind.is_callable();
            let definitions: Vec<Sym> = if members_are_in_scope {
                self.index
                    .children_named(level, name)
                    .iter()
                    .copied()
                    .filter(|child| {
                        let kind = self.index.symbol(*child).kind;
                        // A function or macro lives in another namespace than the crate,
                        // module or type a path's head names (`fn indexmap()` beside
                        // `use indexmap::IndexMap`).
                        kind != SymbolKind::Impl
                            && !(names_a_path && (kind.is_callable() || kind == SymbolKind::Macro))
                    })
                    .collect()
            } else {
                Vec::new()
            };
            if let Some(denotation) = from_candidates(&definitions) {
                return Some(Resolved { denotation, rule: ResolutionRule::SameScope });
            }
            let imported = if names_a_path {
                self.imported_path_head(level, name)
            } else {
                self.imported_name(level, name, 0)
            };
            if let Some(imported) = imported {
                return Some(imported);
            }
            if bindings == BindingUse::Allowed {
                // A local bound only further down is not in force yet; what the use sees is
                // a local bound by a pattern the facts do not record (`let [a, b] = …`).
                if self.rust_bound_only_later(level, name) {
                    return Some(Resolved {
                        denotation: Denotation::UntypedLocal,
                        rule: ResolutionRule::TypedReceiver,
                    });
                }
                if let Some(found) = self.binding_in_scope(level, name, Language::Rust) {
                    return Some(found);
                }
            }
            if level == module {
                break;
            }
            current = self.index.parent(level);
        }
        // A type a macro defines in this module, seen through its inherent impl (`AttrFlags`).
        if let Some(impl_sym) = self.impl_only_types.get(&(module, name.to_string())) {
            return Some(Resolved {
                denotation: Denotation::Symbol(*impl_sym),
                rule: ResolutionRule::SameScope,
            });
        }
        // A file module's submodule declared with `mod name;` lives in another file.
        let qualified_name = format!("{}::{name}", self.index.symbol(module).qualified_name);
        if let Some(submodule) =
            from_candidates(&self.index.modules_named(&qualified_name, Language::Rust))
        {
            return Some(Resolved { denotation: submodule, rule: ResolutionRule::SameScope });
        }
        if self.index.rust_crates.contains(name) {
            if let Some(root) = from_candidates(&self.index.modules_named(name, Language::Rust)) {
                return Some(Resolved { denotation: root, rule: ResolutionRule::QualifiedPath });
            }
        }
        if RUST_EXTERNAL_ROOTS.contains(&name) {
            return Some(Resolved {
                denotation: Denotation::External(name.to_string()),
                rule: ResolutionRule::Import,
            });
        }
        if is_rust_prelude(name) {
            return Some(Resolved {
                denotation: Denotation::Builtin(name.to_string()),
                rule: ResolutionRule::SameScope,
            });
        }
        None
    }

    /// The bound of a type parameter `name` of the function, impl or trait around `scope`, as
    /// a `dyn` value of the trait (recorded as the binding `<name>`).
    fn generic_parameter_bound(&self, scope: Sym, module: Sym, name: &str) -> Option<Resolved> {
        let key = format!("<{name}>");
        let mut current = Some(scope);
        while let Some(level) = current.filter(|level| *level != module) {
            if let Some(binding) =
                self.index.bindings_named(level, &key).and_then(|bindings| bindings.first())
            {
                let bound = self.binding_denotation(level, binding, Language::Rust)?;
                return matches!(bound, Denotation::Instance { is_dyn: true, .. }).then_some(
                    Resolved { denotation: bound, rule: ResolutionRule::DynamicDispatch },
                );
            }
            current = self.index.parent(level);
        }
        None
    }

    /// Whether every binding of `name` in `scope` starts after the current use.
    pub(crate) fn rust_bound_only_later(&self, scope: Sym, name: &str) -> bool {
        self.index
            .bindings_named(scope, name)
            .is_some_and(|named| self.context.all_start_after_use(scope, named))
    }

    /// The innermost module (inline or file) enclosing `scope`.
    pub(crate) fn rust_module_of(&self, scope: Sym) -> Sym {
        self.index
            .enclosing_of_kind(scope, &[SymbolKind::Module])
            .unwrap_or(self.index.module_of[scope as usize])
    }

    fn rust_parent_module(&self, module: Sym) -> Option<Denotation> {
        if let Some(parent) = self.index.parent(module) {
            return Some(Denotation::Symbol(self.rust_module_of(parent)));
        }
        let qualified_name = &self.index.symbol(module).qualified_name;
        let (parent_name, _) = qualified_name.rsplit_once("::")?;
        from_candidates(&self.index.modules_named(parent_name, Language::Rust))
    }

    /// `Self` inside an impl block (its self type) or a trait (the trait).
    pub(crate) fn rust_self_type(&self, scope: Sym) -> Option<Resolved> {
        let owner = self.index.enclosing_of_kind(scope, &[SymbolKind::Impl, SymbolKind::Trait])?;
        // An impl of a type tether does not see (one a macro defines) still has its own
        // items: `Self::f` and `self.f()` find them in the impl block itself.
        let type_sym = match self.index.symbol(owner).kind {
            SymbolKind::Trait => owner,
            _ => self.impl_self_type.get(&owner).copied().unwrap_or(owner),
        };
        Some(Resolved {
            denotation: Denotation::Symbol(type_sym),
            rule: ResolutionRule::TypeMember,
        })
    }

    /// Rust's `self` in a method: an instance of the impl's type, behind the pointer its
    /// `self` parameter names (`self: Pin<&mut Self>`).
    pub(crate) fn rust_self_value(&self, caller: Sym) -> Option<Resolved> {
        if let Some(outside) = self.outside_impl_self_value(caller) {
            return Some(Resolved { denotation: outside, rule: ResolutionRule::SelfMethod });
        }
        let self_type = self.rust_self_type(caller)?;
        let Denotation::Symbol(type_sym) = self_type.denotation else { return None };
        // In an impl whose type tether does not see (a blanket `impl<S> X for &mut
        // S`), `self.f()` may reach another type's `f`: only `Self::f` is certain.
        if self.index.symbol(type_sym).kind == SymbolKind::Impl && !self.is_impl_only_type(type_sym)
        {
            return None;
        }
        let instance = Denotation::Instance { type_sym, is_dyn: false, arguments: Vec::new() };
        // `self: Pin<&mut Self>` (or `Box<Self>`, `Arc<Self>`): the pointer's own
        // methods are std's, the others `Self`'s.
        let denotation = match self.self_parameter_pointer(caller) {
            Some(wrapper) => Denotation::Wrapped { wrapper, inner: Box::new(instance) },
            None => instance,
        };
        Some(Resolved { denotation, rule: ResolutionRule::SelfMethod })
    }

    /// The pointer `self` is written as in the function `caller` (`self: Pin<&mut Self>`,
    /// `self: Box<Self>`), when it is one; what it points to is `Self` as usual.
    fn self_parameter_pointer(&self, caller: Sym) -> Option<crate::value_types::Wrapper> {
        let binding = self.index.bindings_named(caller, "self")?.first()?;
        match self.binding_denotation(caller, binding, Language::Rust)? {
            Denotation::Wrapped { wrapper, .. } if wrapper.is_pointer() => Some(wrapper),
            _ => None,
        }
    }

    /// `Type::from(x)` and `Type::try_from(x)` whose `From` impl tether does not see (one a
    /// macro writes, such as rust-analyzer's `impl_from!`): `From::from` returns `Self`, so
    /// the value is a `Type` (in a `Result` for `try_from`), though the call stays unresolved.
    pub(crate) fn conversion_result(&self, scope: Sym, path: &[String]) -> Option<Denotation> {
        let (last, prefix) = path.split_last()?;
        if prefix.is_empty() || !matches!(last.as_str(), "from" | "try_from") {
            return None;
        }
        let Ok(Resolved { denotation: Denotation::Symbol(type_sym), .. }) =
            self.rust_path(scope, prefix, RustPathSite::Code)
        else {
            return None;
        };
        if !matches!(
            self.index.symbol(type_sym).kind,
            SymbolKind::Struct | SymbolKind::Enum | SymbolKind::Union
        ) {
            return None;
        }
        let instance = Denotation::Instance { type_sym, is_dyn: false, arguments: Vec::new() };
        Some(match last.as_str() {
            "from" => instance,
            _ => Denotation::Wrapped {
                wrapper: crate::value_types::Wrapper::Result,
                inner: Box::new(instance),
            },
        })
    }
}

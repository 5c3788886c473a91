//! Rust's namespaces for called paths: a module and a function may share a name
//! (`mod sleep;` beside `pub use sleep::sleep;`, tokio's style), and a call names the
//! function. Path resolution walks the type namespace (modules first); when a called path
//! ends on a module, the value of the same name is looked up instead: an item that is not
//! a module, or a `use` whose path also reaches one. Macros are a namespace too:
//! `#[macro_export]` puts a macro at its crate's root (`tokio::select!`), and a module named
//! like a std macro (`mod panic;`) does not hide it.

use tether_model::{ResolutionRule, SymbolKind, UnresolvedReason};

use crate::builtins::is_rust_std_macro;
use crate::denotation::{found, from_candidates, member_rule, Denotation, Lookup, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::rust::rules::RustPathSite;

/// How many `use` hops a value lookup follows (re-exports of re-exports; cycles end here).
const MAX_VALUE_IMPORT_HOPS: u32 = 8;

impl Resolver<'_> {
    /// A macro invocation `name!(…)`: one the caller's file defines, one imported, std's,
    /// then the crate's and the workspace's.
    pub(crate) fn rust_macro(&self, caller: Sym, path: &[String]) -> Lookup {
        if path.len() > 1 {
            return self.rust_qualified_macro(caller, path);
        }
        let name = path.first().ok_or(UnresolvedReason::ComplexCallee)?;
        let macros = self.index.macros_by_name.get(name.as_str()).map(Vec::as_slice).unwrap_or(&[]);
        let caller_file = self.index.module_of[caller as usize];
        // `macro_rules!` is textually scoped: a definition in the caller's own file wins.
        let same_file: Vec<Sym> = macros
            .iter()
            .copied()
            .filter(|sym| self.index.module_of[*sym as usize] == caller_file)
            .collect();
        if let Some(denotation) = crate::denotation::from_candidates(&same_file) {
            return found(denotation, ResolutionRule::Macro);
        }
        // Macros have a namespace of their own: a module or function of the same name
        // (`mod panic;`) is not what `panic!` calls.
        if let Some(imported) = self
            .rust_path(caller, path, RustPathSite::Code)
            .ok()
            .filter(|imported| self.may_name_macro(&imported.denotation))
        {
            return Ok(Resolved { denotation: imported.denotation, rule: ResolutionRule::Macro });
        }
        // A std macro's name means the std macro unless the file defines its own: a private
        // `macro_rules! writeln` elsewhere in the crate is not visible here.
        if is_rust_std_macro(name) {
            return found(Denotation::Builtin(format!("{name}!")), ResolutionRule::Macro);
        }
        // Then macros of the same crate (exported or `#[macro_use]`), then of the workspace.
        let crate_name = self
            .index
            .symbol(caller_file)
            .qualified_name
            .split("::")
            .next()
            .unwrap_or("")
            .to_string();
        let same_crate: Vec<Sym> = macros
            .iter()
            .copied()
            .filter(|sym| {
                self.index.symbol(*sym).qualified_name.split("::").next()
                    == Some(crate_name.as_str())
            })
            .collect();
        if let Some(denotation) = crate::denotation::from_candidates(&same_crate) {
            return found(denotation, ResolutionRule::Macro);
        }
        match crate::denotation::from_candidates(macros) {
            Some(denotation) => found(denotation, ResolutionRule::Macro),
            None => Err(UnresolvedReason::UnknownName),
        }
    }

    /// A called path as code in `scope` sees it: the path, or, when it names a module, the
    /// function (or type) of the same name in the value namespace.
    pub(crate) fn rust_called_path(
        &self,
        scope: Sym,
        path: &[String],
        bindings: BindingUse,
    ) -> Lookup {
        let resolved = self.rust_path_in(scope, path, RustPathSite::Code, bindings)?;
        match resolved.denotation {
            Denotation::Symbol(sym) if self.index.symbol(sym).kind == SymbolKind::Module => {
                Ok(self.rust_value_path(scope, path, RustPathSite::Code, 0).unwrap_or(resolved))
            }
            _ => Ok(resolved),
        }
    }

    /// The value (not module) a path names, when there is one.
    fn rust_value_path(
        &self,
        scope: Sym,
        path: &[String],
        site: RustPathSite,
        depth: u32,
    ) -> Option<Resolved> {
        if depth > MAX_VALUE_IMPORT_HOPS {
            return None;
        }
        let (last, prefix) = path.split_last()?;
        if prefix.is_empty() {
            return self.rust_value_name(scope, last, depth);
        }
        let base = self.rust_path_in(scope, prefix, site, BindingUse::Forbidden).ok()?;
        let Denotation::Symbol(module) = base.denotation else { return None };
        if self.index.symbol(module).kind != SymbolKind::Module {
            return None;
        }
        let value = self.module_value_member(module, last, depth)?;
        Some(Resolved {
            denotation: value.denotation,
            rule: member_rule(base.rule, ResolutionRule::QualifiedPath),
        })
    }

    /// A bare name's value: items and `use`s of the enclosing functions up to the module.
    fn rust_value_name(&self, scope: Sym, name: &str, depth: u32) -> Option<Resolved> {
        let module = self.rust_module_of(scope);
        let mut current = Some(scope);
        while let Some(level) = current {
            let level_kind = self.index.symbol(level).kind;
            if level_kind == SymbolKind::Module || level_kind.is_callable() {
                if let Some(value) = self.module_value_member(level, name, depth) {
                    return Some(value);
                }
            }
            if level == module {
                break;
            }
            current = self.index.parent(level);
        }
        None
    }

    /// The member `name` of a module (or function body) that is not a module: an item, or an
    /// explicit `use` of that name whose path reaches a value.
    fn module_value_member(&self, module: Sym, name: &str, depth: u32) -> Option<Resolved> {
        let items: Vec<Sym> = self
            .index
            .children_named(module, name)
            .iter()
            .copied()
            .filter(|child| {
                !matches!(self.index.symbol(*child).kind, SymbolKind::Impl | SymbolKind::Module)
            })
            .collect();
        if let Some(denotation) = from_candidates(&items) {
            return Some(Resolved { denotation, rule: ResolutionRule::SameScope });
        }
        let imports = self.index.imports_by_scope.get(&module)?;
        for position in imports {
            let import = self.index.imports[*position as usize];
            if import.is_glob || import.alias.as_deref() != Some(name) {
                continue;
            }
            let denotation = match &self.import_results[*position as usize] {
                Some(Resolved { denotation: Denotation::Symbol(target), .. })
                    if self.index.symbol(*target).kind == SymbolKind::Module =>
                {
                    let import_scope = self.index.sym_of(import.scope)?;
                    self.rust_value_path(
                        import_scope,
                        &import.path,
                        RustPathSite::UseDeclaration,
                        depth + 1,
                    )?
                    .denotation
                }
                Some(resolved) => resolved.denotation.clone(),
                None => continue,
            };
            return Some(Resolved { denotation, rule: ResolutionRule::Import });
        }
        None
    }
}

impl Resolver<'_> {
    /// A macro called by a path (`tokio::select!`, `crate::pin!`, `stdx::never!`): what the
    /// path names when it is a macro, else a macro of that name defined anywhere in the crate
    /// the path's prefix names (`#[macro_export]` macros live at the crate root).
    pub(crate) fn rust_qualified_macro(&self, caller: Sym, path: &[String]) -> Lookup {
        let (name, prefix) = path.split_last().ok_or(UnresolvedReason::ComplexCallee)?;
        let direct = self.rust_path(caller, path, RustPathSite::Code);
        if let Ok(resolved) = &direct {
            if self.may_name_macro(&resolved.denotation) {
                return direct;
            }
        }
        let crate_root = match self.rust_path(caller, prefix, RustPathSite::Code) {
            Ok(Resolved { denotation: Denotation::Symbol(module), .. })
                if self.index.symbol(module).kind == SymbolKind::Module =>
            {
                module
            }
            _ => return direct.and(Err(UnresolvedReason::UnknownMember)),
        };
        let crate_name = self.index.symbol(crate_root).qualified_name.as_str();
        if crate_name.contains("::") {
            return Err(UnresolvedReason::UnknownMember);
        }
        let macros = self.index.macros_by_name.get(name.as_str()).map(Vec::as_slice).unwrap_or(&[]);
        let in_crate: Vec<Sym> = macros
            .iter()
            .copied()
            .filter(|sym| {
                self.index.symbol(*sym).qualified_name.split("::").next() == Some(crate_name)
            })
            .collect();
        match from_candidates(&in_crate) {
            Some(denotation) => Ok(Resolved { denotation, rule: ResolutionRule::Macro }),
            None => Err(UnresolvedReason::UnknownMember),
        }
    }

    /// Whether a path's denotation may be a macro: a project macro, or a path outside.
    pub(crate) fn may_name_macro(&self, denotation: &Denotation) -> bool {
        match denotation {
            Denotation::Symbol(sym) => self.index.symbol(*sym).kind == SymbolKind::Macro,
            Denotation::Ambiguous(candidates) => {
                candidates.iter().all(|sym| self.index.symbol(*sym).kind == SymbolKind::Macro)
            }
            Denotation::External(_) | Denotation::Builtin(_) => true,
            _ => false,
        }
    }
}

//! Rust's [`LanguageRules`]: `::` paths, Rust's namespaces (`rules`, `namespaces`),
//! and members through inherent impls, trait impls and supertraits.

use tether_model::{
    CallSite, CalleeExpr, Edge, FileFacts, ImplBlock, Import, Language, Receiver, ResolutionRule,
    Symbol, SymbolKind,
};

use crate::CallTargets;

use crate::call_results::CalleeOutcome;
use crate::denotation::{Denotation, Lookup, Resolved};
use crate::language_rules::BindingUse;
use crate::language_rules::{LanguageRules, LiteralCollection};
use crate::project_index::{NameTables, Sym};
use crate::resolver::Resolver;
use crate::rust::rules::RustPathSite;
use crate::value_types::Wrapper;

pub(crate) struct RustRules;

impl LanguageRules for RustRules {
    fn separator(&self) -> &'static str {
        "::"
    }

    fn item_path(&self, resolver: &Resolver<'_>, scope: Sym, path: &[String]) -> Lookup {
        resolver.rust_path(scope, path, RustPathSite::Code)
    }

    fn path_in(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
        bindings: BindingUse,
    ) -> Lookup {
        resolver.rust_path_in(scope, path, RustPathSite::Code, bindings)
    }

    fn called_path(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
        bindings: BindingUse,
    ) -> Lookup {
        resolver.rust_called_path(scope, path, bindings)
    }

    /// A Rust local is not a function item: only items and associated functions.
    fn value_path(&self, resolver: &Resolver<'_>, scope: Sym, path: &[String]) -> Lookup {
        resolver.rust_called_path(scope, path, BindingUse::Forbidden)
    }

    fn type_member(
        &self,
        resolver: &Resolver<'_>,
        type_sym: Sym,
        name: &str,
        is_dyn: bool,
        rule: ResolutionRule,
    ) -> Lookup {
        resolver.rust_member(type_sym, name, is_dyn, rule)
    }

    /// A local may be called (`f()`), but never named as a path's head (`m::f()`); `let rt =
    /// rt();` calls the function `rt`: a local bound only after the call is not the callee.
    fn called_name(&self, resolver: &Resolver<'_>, caller: Sym, path: &[String]) -> Lookup {
        let is_local = path.len() == 1 && !resolver.rust_bound_only_later(caller, &path[0]);
        let bindings = if is_local { BindingUse::Allowed } else { BindingUse::Forbidden };
        resolver.rust_called_path(caller, path, bindings)
    }

    /// `(*x).m()`: a method of what `x` points to.
    fn special_method_callee(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        receiver: &Receiver,
        name: &str,
    ) -> Option<Lookup> {
        match receiver {
            Receiver::Deref(inner) => Some(resolver.method_of_dereferenced(caller, inner, name)),
            _ => None,
        }
    }

    /// `m(…)` where `m` is a local closure whose value is visible gives what it returns; a
    /// path that names no function may be a conversion (`String::from`).
    fn path_call_outcome(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
    ) -> Option<CalleeOutcome> {
        if let [name] = path {
            if let Some(returned) = resolver.local_closure_result(scope, name, Language::Rust) {
                return Some(CalleeOutcome::Result(returned));
            }
        }
        Some(match resolver.rust_called_path(scope, path, BindingUse::Forbidden) {
            Ok(resolved) => CalleeOutcome::Target { resolved, receiver_with_arguments: None },
            Err(_) => CalleeOutcome::Result(resolver.conversion_result(scope, path)),
        })
    }

    fn macro_callee(&self, resolver: &Resolver<'_>, caller: Sym, path: &[String]) -> Lookup {
        resolver.rust_macro(caller, path)
    }

    /// Rust writes type arguments as generics, never by subscript.
    fn indexed_type(
        &self,
        _resolver: &Resolver<'_>,
        _caller: Sym,
        _path: &[String],
    ) -> Option<Resolved> {
        None
    }

    fn callable_items(&self, _resolver: &Resolver<'_>, items: Vec<Sym>) -> Vec<Sym> {
        items
    }

    /// `mod name;` in its own file.
    fn unlisted_submodule(
        &self,
        resolver: &Resolver<'_>,
        module: Sym,
        name: &str,
        _qualified_name: String,
    ) -> Option<Denotation> {
        resolver.out_of_line_submodule(module, name).map(Denotation::Symbol)
    }

    /// A Rust module holds items only.
    fn module_variable(
        &self,
        _resolver: &Resolver<'_>,
        _module: Sym,
        _name: &str,
    ) -> Option<Denotation> {
        None
    }

    /// `Ready::ALL`: an associated const's value.
    fn type_value_member(
        &self,
        resolver: &Resolver<'_>,
        type_sym: Sym,
        name: &str,
    ) -> Option<Resolved> {
        resolver.associated_const(type_sym, name)
    }

    /// Fields are declared on the struct itself.
    fn subclass_attribute(
        &self,
        _resolver: &Resolver<'_>,
        _type_sym: Sym,
        _name: &str,
    ) -> Option<Denotation> {
        None
    }

    fn sets_own_attribute(&self, _resolver: &Resolver<'_>, _type_sym: Sym, _name: &str) -> bool {
        false
    }

    /// `self` in a method is an instance of the impl's type.
    fn receiver_head(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        head: &[String],
    ) -> Option<Resolved> {
        if head == ["self"] {
            return resolver.rust_self_value(caller);
        }
        resolver.rust_path_in(caller, head, RustPathSite::Code, BindingUse::Allowed).ok()
    }

    /// `WrapperKind::Result` names a variant (a constructor of its enum): the value of a unit
    /// variant is an instance of the enum. A value outside named by a path
    /// (`io::ErrorKind::Other.into()`): its methods are known only as names on that value,
    /// not as the path's own items.
    fn path_as_value(&self, resolver: &Resolver<'_>, mut named: Resolved) -> Resolved {
        match (&named.denotation, named.rule) {
            (Denotation::Symbol(enum_sym), ResolutionRule::Constructor)
                if resolver.index.symbol(*enum_sym).kind == SymbolKind::Enum =>
            {
                Resolved {
                    denotation: Denotation::Instance {
                        type_sym: *enum_sym,
                        is_dyn: false,
                        arguments: Vec::new(),
                    },
                    rule: ResolutionRule::TypedReceiver,
                }
            }
            (Denotation::External(_) | Denotation::Builtin(_), _) => {
                named.rule = crate::denotation::instance_member_rule(named.rule);
                named
            }
            _ => named,
        }
    }

    /// A struct literal or a tuple struct's call builds the type itself.
    fn constructor(&self, _resolver: &Resolver<'_>, _type_sym: Sym) -> Option<Sym> {
        None
    }

    /// `Type::default()` through a derived `Default` gives a `Type`.
    fn derived_call_result(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        callee: &CalleeExpr,
        resolved: &Resolved,
    ) -> Option<Option<Denotation>> {
        let (CalleeExpr::Path(path), Denotation::Builtin(target)) = (callee, &resolved.denotation)
        else {
            return None;
        };
        if target != "Default::default" || path.len() < 2 {
            return None;
        }
        let Ok(Resolved { denotation: Denotation::Symbol(type_sym), .. }) =
            resolver.rust_path(scope, &path[..path.len() - 1], RustPathSite::Code)
        else {
            return None;
        };
        Some(resolver.index.symbol(type_sym).kind.is_type().then_some(Denotation::Instance {
            type_sym,
            is_dyn: false,
            arguments: Vec::new(),
        }))
    }

    fn conventional_constructor_result(
        &self,
        resolver: &Resolver<'_>,
        method: Sym,
    ) -> Option<Denotation> {
        let symbol = resolver.index.symbol(method);
        let looks_like_constructor = symbol.name == "new"
            || symbol.name == "default"
            || symbol.name.starts_with("new_")
            || symbol.name.starts_with("with_")
            || symbol.name.starts_with("from_");
        if symbol.kind != SymbolKind::Method || !looks_like_constructor {
            return None;
        }
        let impl_sym = resolver.index.parent(method)?;
        let type_sym = *resolver.impl_self_type.get(&impl_sym)?;
        Some(Denotation::Instance { type_sym, is_dyn: false, arguments: Vec::new() })
    }

    /// A Rust function without a declared return type returns `()`.
    fn generator_result(&self, _resolver: &Resolver<'_>, _function: Sym) -> Option<Denotation> {
        None
    }

    fn substitutes_type_arguments(&self) -> bool {
        true
    }

    fn std_adapter_result(
        &self,
        resolver: &Resolver<'_>,
        receiver: &Denotation,
        name: &str,
    ) -> Option<Option<Denotation>> {
        match resolver.as_std_iterator(receiver, Some(name))? {
            Denotation::Wrapped { wrapper, inner } if wrapper.has_std_method(name) => {
                Some(wrapper.method_result(&inner, name))
            }
            _ => None,
        }
    }

    /// Only std's `Poll` (mio has a `Poll` of its own).
    fn outside_container(&self, name: &str, outside: &Denotation) -> Option<(Wrapper, bool)> {
        match Wrapper::named(name)? {
            Wrapper::Poll if !crate::value_types::is_std_poll(outside) => None,
            wrapper => Some((wrapper, true)),
        }
    }

    fn subscripted(&self, resolver: &Resolver<'_>, value: &Denotation) -> Option<Denotation> {
        resolver.rust_subscripted(value)
    }

    fn file_edges(&self, _resolver: &Resolver<'_>, _file: &FileFacts) -> Vec<Edge> {
        Vec::new()
    }

    /// A value of a type with `impl Drop` that a call returns is dropped by the caller.
    fn call_edges(
        &self,
        resolver: &Resolver<'_>,
        _caller: Sym,
        call: &CallSite,
        targets: &CallTargets,
    ) -> Vec<Edge> {
        crate::rust::drop_calls::drop_edges(resolver, call, targets)
    }

    /// `queries/rust/std_wrappers.rs`.
    fn container_has_method(&self, wrapper: Wrapper, name: &str) -> bool {
        crate::rust::std_wrappers::rust_std_wrappers().has_method(wrapper, name)
    }

    fn container_method_result(
        &self,
        wrapper: Wrapper,
        inner: &Denotation,
        name: &str,
    ) -> Option<Denotation> {
        crate::rust::std_wrappers::rust_std_wrappers().method_result(wrapper, inner, name)
    }

    fn container_closure_parameter_is_element(
        &self,
        wrapper: Wrapper,
        method: &str,
        parameter: u32,
    ) -> bool {
        let std_wrappers = crate::rust::std_wrappers::rust_std_wrappers();
        std_wrappers.closure_parameter_is_element(wrapper, method, parameter)
    }

    fn dereference_edges(
        &self,
        resolver: &Resolver<'_>,
        call: &CallSite,
        dereferenced: &[Sym],
    ) -> Vec<Edge> {
        crate::rust::deref_calls::deref_edges(resolver, call, dereferenced)
    }

    /// Rust has no fixtures.
    fn defines_plugin_fixtures(&self, _file: &FileFacts) -> bool {
        false
    }

    fn outside_impl_self_type(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        block: &ImplBlock,
    ) -> Option<Denotation> {
        crate::rust::outside_type_impls::outside_self_type(resolver, scope, block, self)
    }

    fn method_closure_parameter(
        &self,
        resolver: &Resolver<'_>,
        instance: &Denotation,
        method: &str,
        argument: u32,
        parameter: u32,
    ) -> Option<Denotation> {
        resolver.method_closure_parameter(instance, method, argument, parameter).or_else(|| {
            // `children.map(|it| …)` on a project iterator: the closure gets its item.
            match resolver.as_std_iterator(instance, Some(method))? {
                Denotation::Wrapped { wrapper, inner }
                    if wrapper.closure_parameter_is_element(method, parameter) =>
                {
                    Some(*inner).filter(|item| *item != Denotation::UntypedLocal)
                }
                _ => None,
            }
        })
    }

    fn path_call_closure_parameter(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        function: &[String],
        argument: u32,
        parameter: u32,
    ) -> Option<Denotation> {
        resolver.path_call_closure_parameter(scope, function, argument, parameter)
    }

    /// A `const` table of fns is called through its element (`OPS[i](x)`), not typed.
    fn literal_collection(
        &self,
        _resolver: &Resolver<'_>,
        _scope: Sym,
        _name: &str,
        _elements: &[Vec<String>],
        _kind: LiteralCollection,
    ) -> Option<Denotation> {
        None
    }

    fn member_value(&self, _resolver: &Resolver<'_>, member: Resolved) -> Resolved {
        member
    }

    /// A glob takes every item its visibility lets through (checked where imports resolve).
    fn star_import_takes(&self, _resolver: &Resolver<'_>, _module: Sym, _name: &str) -> bool {
        true
    }

    fn is_opaque_callable_type(&self, _qualified_name: &str) -> bool {
        false
    }

    fn forwards_members(&self, _qualified_type: &str) -> bool {
        false
    }

    fn call_operator(&self) -> Option<&'static str> {
        None
    }

    fn wrapper_constructor(&self, builtin: &str) -> Option<Wrapper> {
        match builtin {
            "Some" => Some(Wrapper::Option),
            "Ok" | "Err" => Some(Wrapper::Result),
            _ => None,
        }
    }

    /// (Rust's std is typed by `value_types`, not by a stub yet.)
    fn builtin_call_result(&self, _path: &str) -> Option<&'static str> {
        None
    }

    fn instance_method(
        &self,
        resolver: &Resolver<'_>,
        receiver: &Resolved,
        name: &str,
    ) -> Option<Lookup> {
        resolver.rust_instance_method(receiver, name)
    }

    fn paths_read_attributes(&self) -> bool {
        false
    }

    fn namespace_member(
        &self,
        _resolver: &Resolver<'_>,
        _prefix: &str,
        _name: &str,
    ) -> Option<Denotation> {
        None
    }

    /// `use a::b::c;`, `use a::*;`: a path from the use's scope (the crate root, `self`,
    /// `super`, an extern crate).
    fn import_target(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        import: &Import,
    ) -> Option<Resolved> {
        resolver.rust_path(scope, &import.path, RustPathSite::UseDeclaration).ok()
    }

    fn has_module_variables(&self) -> bool {
        false
    }

    /// The crate a file's module belongs to (the first segment of its path).
    fn index_module_file<'a>(
        &self,
        tables: &mut NameTables<'a>,
        _file: &'a FileFacts,
        symbol: &'a Symbol,
        _sym: Sym,
    ) {
        let crate_name = symbol.qualified_name.split("::").next().unwrap_or("");
        tables.rust_crates.insert(crate_name);
    }

    fn untyped_parameter_value(
        &self,
        _resolver: &Resolver<'_>,
        _function: Sym,
        _name: &str,
    ) -> Option<Denotation> {
        None
    }
}

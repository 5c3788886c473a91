//! Python's [`LanguageRules`]: dotted names, Python's scoping (`rules`), members through
//! the C3 linearisation, and the outside types that say only "callable"
//! (`queries/python/opaque_callable_types.txt`).

use tether_model::{
    CallSite, CalleeExpr, Edge, FileFacts, ImplBlock, Import, Language, Receiver, ResolutionRule,
    Symbol, UnresolvedReason,
};

use crate::CallTargets;

use crate::call_results::CalleeOutcome;
use crate::denotation::{Denotation, Lookup, Resolved};
use crate::language_rules::BindingUse;
use crate::language_rules::{LanguageRules, LiteralCollection};
use crate::project_index::{NameTables, Sym};
use crate::resolver::Resolver;
use crate::value_types::Wrapper;

const FORWARDING_TYPES: &str = include_str!("../../../../queries/python/forwarding_types.txt");

const OPAQUE_CALLABLE_TYPES: &str =
    include_str!("../../../../queries/python/opaque_callable_types.txt");

pub(crate) struct PythonRules;

impl LanguageRules for PythonRules {
    fn separator(&self) -> &'static str {
        "."
    }

    fn item_path(&self, resolver: &Resolver<'_>, scope: Sym, path: &[String]) -> Lookup {
        resolver.python_path(scope, path)
    }

    fn path_in(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
        bindings: BindingUse,
    ) -> Lookup {
        resolver.python_path_in(scope, path, bindings)
    }

    fn called_path(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
        bindings: BindingUse,
    ) -> Lookup {
        resolver.python_path_in(scope, path, bindings)
    }

    fn value_path(&self, resolver: &Resolver<'_>, scope: Sym, path: &[String]) -> Lookup {
        resolver.python_path_in(scope, path, BindingUse::Allowed)
    }

    fn type_member(
        &self,
        resolver: &Resolver<'_>,
        type_sym: Sym,
        name: &str,
        _is_dyn: bool,
        rule: ResolutionRule,
    ) -> Lookup {
        resolver.python_class_member(type_sym, name, rule)
    }

    /// `x.m()` is a dotted path whose head may be a local (`result = pytester.runpytest()`).
    fn called_name(&self, resolver: &Resolver<'_>, caller: Sym, path: &[String]) -> Lookup {
        resolver.python_path_in(caller, path, BindingUse::Allowed)
    }

    fn special_method_callee(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        receiver: &Receiver,
        name: &str,
    ) -> Option<Lookup> {
        match receiver {
            Receiver::Call(inner) if **inner == CalleeExpr::Path(vec!["super".to_string()]) => {
                Some(resolver.python_super_member(caller, name))
            }
            _ => None,
        }
    }

    /// A bare `f()` calls a function, not a local's value; a bare name may be a local or
    /// parameter holding a callable object (`run_and_parse()`, a fixture), which hides a
    /// function of the same name. `items.pop()`, `table.values()`: a builtin container's
    /// method may give its element.
    fn path_call_outcome(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
    ) -> Option<CalleeOutcome> {
        let target = |resolved| CalleeOutcome::Target { resolved, receiver_with_arguments: None };
        if let Some((name, receiver)) =
            path.split_last().filter(|(_, receiver)| !receiver.is_empty())
        {
            if let Some(Denotation::Wrapped { wrapper, inner }) = resolver
                .receiver_value(scope, &Receiver::Path(receiver.to_vec()), Language::Python)
                .map(|resolved| resolved.denotation)
            {
                if wrapper.is_python() {
                    return Some(CalleeOutcome::Result(wrapper.method_result(&inner, name)));
                }
            }
        }
        Some(target(resolver.python_path_in(scope, path, BindingUse::Allowed).ok()?))
    }

    /// Python has no macros.
    fn macro_callee(&self, _resolver: &Resolver<'_>, _caller: Sym, _path: &[String]) -> Lookup {
        Err(UnresolvedReason::ComplexCallee)
    }

    /// `StashKey[int]()`: a generic class called with its type arguments is constructed.
    fn indexed_type(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        path: &[String],
    ) -> Option<Resolved> {
        resolver.python_generic_class(caller, path)
    }

    fn callable_items(&self, resolver: &Resolver<'_>, items: Vec<Sym>) -> Vec<Sym> {
        resolver.without_overload_stubs(&items)
    }

    /// A namespace package (a folder of modules without `__init__.py`).
    fn unlisted_submodule(
        &self,
        resolver: &Resolver<'_>,
        _module: Sym,
        _name: &str,
        qualified_name: String,
    ) -> Option<Denotation> {
        resolver
            .index
            .python_module_prefixes
            .contains(&qualified_name)
            .then_some(Denotation::Namespace(qualified_name))
    }

    fn module_variable(
        &self,
        resolver: &Resolver<'_>,
        module: Sym,
        name: &str,
    ) -> Option<Denotation> {
        resolver.python_module_variable(module, name)
    }

    fn type_value_member(
        &self,
        _resolver: &Resolver<'_>,
        _type_sym: Sym,
        _name: &str,
    ) -> Option<Resolved> {
        None
    }

    fn subclass_attribute(
        &self,
        resolver: &Resolver<'_>,
        type_sym: Sym,
        name: &str,
    ) -> Option<Denotation> {
        resolver.subclass_attribute_values(type_sym, name)
    }

    fn sets_own_attribute(&self, resolver: &Resolver<'_>, type_sym: Sym, name: &str) -> bool {
        resolver.sets_own_attribute(type_sym, name)
    }

    fn receiver_head(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        head: &[String],
    ) -> Option<Resolved> {
        resolver.python_path_in(caller, head, BindingUse::Allowed).ok()
    }

    fn path_as_value(&self, _resolver: &Resolver<'_>, named: Resolved) -> Resolved {
        named
    }

    fn constructor(&self, resolver: &Resolver<'_>, type_sym: Sym) -> Option<Sym> {
        match resolver
            .python_class_member(type_sym, "__init__", ResolutionRule::Constructor)
            .ok()?
            .denotation
        {
            Denotation::Symbol(init) => Some(init),
            _ => None,
        }
    }

    fn derived_call_result(
        &self,
        _resolver: &Resolver<'_>,
        _scope: Sym,
        _callee: &CalleeExpr,
        _resolved: &Resolved,
    ) -> Option<Option<Denotation>> {
        None
    }

    fn conventional_constructor_result(
        &self,
        _resolver: &Resolver<'_>,
        _method: Sym,
    ) -> Option<Denotation> {
        None
    }

    fn generator_result(&self, resolver: &Resolver<'_>, function: Sym) -> Option<Denotation> {
        resolver.generator_value(function)
    }

    /// Type arguments of Python generics are not substituted into return types.
    fn substitutes_type_arguments(&self) -> bool {
        false
    }

    fn std_adapter_result(
        &self,
        _resolver: &Resolver<'_>,
        _receiver: &Denotation,
        _name: &str,
    ) -> Option<Option<Denotation>> {
        None
    }

    fn outside_container(&self, name: &str, _outside: &Denotation) -> Option<(Wrapper, bool)> {
        crate::python::containers::python_container(name).map(|wrapper| (wrapper, false))
    }

    fn subscripted(&self, resolver: &Resolver<'_>, value: &Denotation) -> Option<Denotation> {
        resolver.python_subscripted(value)
    }

    fn file_edges(&self, resolver: &Resolver<'_>, file: &FileFacts) -> Vec<Edge> {
        let mut edges = crate::python::pytest_fixture_edges::fixture_edges_of_file(resolver, file);
        edges.extend(crate::python::callback_edges::escaping_instance_callbacks(resolver, file));
        edges.extend(crate::python::property_reads::property_read_edges(resolver, file));
        edges.extend(crate::python::dynamic_reads::dynamic_read_edges(resolver, file));
        edges
    }

    fn call_edges(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        call: &CallSite,
        targets: &CallTargets,
    ) -> Vec<Edge> {
        crate::python::callback_edges::outside_base_callbacks(resolver, caller, call, targets)
    }

    /// A builtin container's methods are all the builtin's (a subclass is a class).
    fn container_has_method(&self, _wrapper: Wrapper, _name: &str) -> bool {
        true
    }

    fn container_method_result(
        &self,
        wrapper: Wrapper,
        inner: &Denotation,
        name: &str,
    ) -> Option<Denotation> {
        crate::python::containers::python_method_result(wrapper, inner, name)
    }

    /// Python's callables passed to a container's methods are values (value flow).
    fn container_closure_parameter_is_element(
        &self,
        _wrapper: Wrapper,
        _method: &str,
        _parameter: u32,
    ) -> bool {
        false
    }

    /// Python calls go through no `Deref`.
    fn dereference_edges(
        &self,
        _resolver: &Resolver<'_>,
        _call: &CallSite,
        _dereferenced: &[Sym],
    ) -> Vec<Edge> {
        Vec::new()
    }

    /// A file other than a test file or conftest: the fixtures it defines are a plugin's (a
    /// project's own `pytest11` plugin, or a module tests import).
    fn defines_plugin_fixtures(&self, file: &FileFacts) -> bool {
        !crate::python::pytest_fixtures::is_pytest_file(&file.path)
    }

    /// Python has no impl blocks.
    fn outside_impl_self_type(
        &self,
        _resolver: &Resolver<'_>,
        _scope: Sym,
        _block: &ImplBlock,
    ) -> Option<Denotation> {
        None
    }

    /// Python closures are lambdas, whose parameters callers pass (value flow).
    fn method_closure_parameter(
        &self,
        _resolver: &Resolver<'_>,
        _instance: &Denotation,
        _method: &str,
        _argument: u32,
        _parameter: u32,
    ) -> Option<Denotation> {
        None
    }

    fn path_call_closure_parameter(
        &self,
        _resolver: &Resolver<'_>,
        _scope: Sym,
        _function: &[String],
        _argument: u32,
        _parameter: u32,
    ) -> Option<Denotation> {
        None
    }

    /// A list or dict of functions is a builtin container of them all, so that iterating it,
    /// `.values()` and its methods are seen; with what later writes by a literal key put
    /// there (`ops["mul"] = f`).
    fn literal_collection(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        name: &str,
        elements: &[Vec<String>],
        kind: LiteralCollection,
    ) -> Option<Denotation> {
        let wrapper = match kind {
            LiteralCollection::Mapping => Wrapper::PythonDict,
            LiteralCollection::Sequence => Wrapper::PythonList,
        };
        let mut paths = elements.to_vec();
        paths.extend(resolver.keyed_writes(scope, name));
        let inner = resolver.functions_named(scope, &paths)?;
        Some(Denotation::Wrapped { wrapper, inner: Box::new(inner) })
    }

    fn member_value(&self, resolver: &Resolver<'_>, member: Resolved) -> Resolved {
        resolver.python_property_value(member)
    }

    /// `__all__` when the module defines it, else the names without a leading underscore.
    fn star_import_takes(&self, resolver: &Resolver<'_>, module: Sym, name: &str) -> bool {
        resolver.python_star_import_takes(module, name)
    }

    fn is_opaque_callable_type(&self, qualified_name: &str) -> bool {
        static TYPES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        TYPES
            .get_or_init(|| {
                crate::python::callback_edges::data_lines(OPAQUE_CALLABLE_TYPES).collect()
            })
            .contains(&qualified_name)
    }

    fn forwards_members(&self, qualified_type: &str) -> bool {
        static TYPES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        let types = TYPES
            .get_or_init(|| crate::python::callback_edges::data_lines(FORWARDING_TYPES).collect());
        types.contains(&qualified_type.strip_suffix("()").unwrap_or(qualified_type))
    }

    fn call_operator(&self) -> Option<&'static str> {
        Some("__call__")
    }

    fn wrapper_constructor(&self, _builtin: &str) -> Option<Wrapper> {
        None
    }

    fn builtin_call_result(&self, path: &str) -> Option<&'static str> {
        crate::python::builtin_stubs::python_builtin_stubs().call_result(path)
    }

    fn instance_method(
        &self,
        _resolver: &Resolver<'_>,
        _receiver: &Resolved,
        _name: &str,
    ) -> Option<Lookup> {
        None
    }

    fn paths_read_attributes(&self) -> bool {
        true
    }

    fn namespace_member(
        &self,
        resolver: &Resolver<'_>,
        prefix: &str,
        name: &str,
    ) -> Option<Denotation> {
        let qualified_name = format!("{prefix}.{name}");
        if let Some(module) = crate::denotation::from_candidates(
            &resolver.index.modules_named(&qualified_name, Language::Python),
        ) {
            return Some(module);
        }
        // `pkg.core` of a folder without `__init__.py`: the file at that path.
        if let Some(module) = resolver.python_module_file_at(&qualified_name) {
            return Some(Denotation::Symbol(module));
        }
        resolver
            .index
            .python_module_prefixes
            .contains(&qualified_name)
            .then_some(Denotation::Namespace(qualified_name))
    }

    fn import_target(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        import: &Import,
    ) -> Option<Resolved> {
        resolver.python_import_target(scope, import)
    }

    fn has_module_variables(&self) -> bool {
        true
    }

    /// A package's `__init__.py`, a folder's `conftest.py`, and every prefix of the module's
    /// dotted name (a namespace package has no file of its own); for a module named by its
    /// stem below folders without `__init__.py` (`pkg/core.py` is `core`), also the folders of
    /// its path (`pkg`), which code run from the root imports it through.
    fn index_module_file<'a>(
        &self,
        tables: &mut NameTables<'a>,
        file: &'a FileFacts,
        symbol: &'a Symbol,
        sym: Sym,
    ) {
        if file.path.ends_with("__init__.py") {
            tables.is_package_init.insert(sym);
        }
        if let Some(folder) =
            tether_model::TestFramework::python().shared_fixture_folder(&file.path)
        {
            tables.python_conftests.insert(folder, sym);
        }
        let mut prefix = String::new();
        for segment in symbol.qualified_name.split('.') {
            if !prefix.is_empty() {
                prefix.push('.');
            }
            prefix.push_str(segment);
            tables.python_module_prefixes.insert(prefix.clone());
        }
        let within_root = file.path.strip_prefix("src/").unwrap_or(&file.path);
        let Some((folders, _)) = within_root.rsplit_once('/') else { return };
        if symbol.qualified_name.contains('.') {
            return;
        }
        let mut prefix = String::new();
        for folder in folders.split('/') {
            if !prefix.is_empty() {
                prefix.push('.');
            }
            prefix.push_str(folder);
            tables.python_module_prefixes.insert(prefix.clone());
        }
    }

    fn untyped_parameter_value(
        &self,
        resolver: &Resolver<'_>,
        function: Sym,
        name: &str,
    ) -> Option<Denotation> {
        resolver.pytest_fixture_value(function, name)
    }
}

//! The seam between the language-neutral resolver and each language's rules: one
//! [`LanguageRules`] implementation per language, chosen by [`rules_of`], which holds the one
//! `match` on the language here. Shared code asks it what differs between languages: how a
//! qualified name is written, how a path resolves in a scope, a type's members, and which
//! outside values say only that they are callable.
//!
//! It deliberately holds dispatch only: each language's rules stay in its own folder
//! (`python/`, `rust/`), and its library knowledge in data files under `queries/`.

use tether_model::{
    CallSite, CalleeExpr, Edge, FileFacts, ImplBlock, Import, Language, Receiver, ResolutionRule,
    Symbol,
};

use crate::CallTargets;

use crate::call_results::CalleeOutcome;
use crate::denotation::{Denotation, Lookup, Resolved};
use crate::project_index::{NameTables, Sym};
use crate::resolver::Resolver;
use crate::value_types::Wrapper;

/// Whether a path lookup may use typed local bindings (`x = C()`), which is off while a
/// binding's own value is being typed, so that `x = x.next()` cannot recurse.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum BindingUse {
    Allowed,
    Forbidden,
}

/// What the resolver's shared code needs to know of one language.
pub(crate) trait LanguageRules: Sync {
    /// How segments of a qualified name are joined (`a.b`, `a::b`).
    fn separator(&self) -> &'static str;

    /// A path as the items (not the locals) of `scope` see it: a class base, a written type.
    fn item_path(&self, resolver: &Resolver<'_>, scope: Sym, path: &[String]) -> Lookup;

    /// A path as code at the current use in `scope` sees it, its locals allowed or not.
    fn path_in(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
        bindings: BindingUse,
    ) -> Lookup;

    /// A called path: as [`Self::path_in`], where a Rust module's name calls the function of
    /// that name it holds beside it.
    fn called_path(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
        bindings: BindingUse,
    ) -> Lookup;

    /// A path passed or stored as a value (value flow): a Python local may hold a function;
    /// a Rust local is never a function item.
    fn value_path(&self, resolver: &Resolver<'_>, scope: Sym, path: &[String]) -> Lookup;

    /// A member of a project type: a method through the language's lookup order.
    fn type_member(
        &self,
        resolver: &Resolver<'_>,
        type_sym: Sym,
        name: &str,
        is_dyn: bool,
        rule: ResolutionRule,
    ) -> Lookup;

    /// A called path (`f()`, `m.f()`, `m::f()`), its locals allowed as the language allows.
    fn called_name(&self, resolver: &Resolver<'_>, caller: Sym, path: &[String]) -> Lookup;

    /// A method call the language resolves by a rule of its own (Python's `super().m()`, Rust's
    /// `(*x).m()`), or `None` for the receiver's type to decide.
    fn special_method_callee(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        receiver: &Receiver,
        name: &str,
    ) -> Option<Lookup>;

    /// What calling a path gives: its target, or (`CalleeOutcome::Result`) a result known
    /// without one (a builtin container's method, a local closure, a conversion).
    fn path_call_outcome(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        path: &[String],
    ) -> Option<CalleeOutcome>;

    /// A macro invocation (`name!(…)`).
    fn macro_callee(&self, resolver: &Resolver<'_>, caller: Sym, path: &[String]) -> Lookup;

    /// A type called with its type arguments (`StashKey[int]()`), when the language has them.
    fn indexed_type(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        path: &[String],
    ) -> Option<Resolved>;

    /// The items of a module or type that a member lookup may name (Python drops
    /// `@overload` stubs beside an implementation).
    fn callable_items(&self, resolver: &Resolver<'_>, items: Vec<Sym>) -> Vec<Sym>;

    /// A submodule no symbol lists: a Python namespace package's prefix, a Rust `mod m;` in
    /// its own file.
    fn unlisted_submodule(
        &self,
        resolver: &Resolver<'_>,
        module: Sym,
        name: &str,
        qualified_name: String,
    ) -> Option<Denotation>;

    /// What a module variable holds as seen from outside the module, when the language has
    /// values other than items there (Python's `MARK_GEN = MarkGenerator()`).
    fn module_variable(
        &self,
        resolver: &Resolver<'_>,
        module: Sym,
        name: &str,
    ) -> Option<Denotation>;

    /// A member of a type that is a value rather than a method (Rust's associated consts).
    fn type_value_member(
        &self,
        resolver: &Resolver<'_>,
        type_sym: Sym,
        name: &str,
    ) -> Option<Resolved>;

    /// What an attribute only subclasses set holds, read through the base (Python).
    fn subclass_attribute(
        &self,
        resolver: &Resolver<'_>,
        type_sym: Sym,
        name: &str,
    ) -> Option<Denotation>;

    /// Whether instances set the attribute themselves, so that an outside base's member of
    /// that name is not what it holds (Python's `self.cb = cb`).
    fn sets_own_attribute(&self, resolver: &Resolver<'_>, type_sym: Sym, name: &str) -> bool;

    /// The value the first name of a receiver's path (a one-segment path) denotes: `self`, a
    /// local, an item.
    fn receiver_head(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        head: &[String],
    ) -> Option<Resolved>;

    /// A longer path's value as a receiver: what the language makes of an item named as a
    /// value (Rust: a unit variant is an instance of its enum).
    fn path_as_value(&self, resolver: &Resolver<'_>, named: Resolved) -> Resolved;

    /// The method that calling a project type runs, when the language has one (Python's
    /// `__init__` through the MRO); `None` calls the type itself.
    fn constructor(&self, resolver: &Resolver<'_>, type_sym: Sym) -> Option<Sym>;

    /// A call's result a derive gives where the call binds to std (`Type::default()` through
    /// a derived `Default` is a `Type`); the outer `None` when the rule does not apply.
    fn derived_call_result(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        callee: &CalleeExpr,
        resolved: &Resolved,
    ) -> Option<Option<Denotation>>;

    /// What a method named like a constructor returns when its signature does not say
    /// (Rust's `new`, `default`, `with_*`, `from_*`: an instance of the impl's type).
    fn conventional_constructor_result(
        &self,
        resolver: &Resolver<'_>,
        method: Sym,
    ) -> Option<Denotation>;

    /// What calling a function without a declared or visible return gives (a Python
    /// generator's `yield`s).
    fn generator_result(&self, resolver: &Resolver<'_>, function: Sym) -> Option<Denotation>;

    /// Whether an instance's written type arguments fill in its methods' return types
    /// (`InFile<ast::Fn>::as_ref()`).
    fn substitutes_type_arguments(&self) -> bool;

    /// What a std adapter method gives on a project value that is an iterator
    /// (`children.map(…)` on a type implementing `Iterator`).
    fn std_adapter_result(
        &self,
        resolver: &Resolver<'_>,
        receiver: &Denotation,
        name: &str,
    ) -> Option<Option<Denotation>>;

    /// The container an outside type named `name` is (`list`, `Vec`, `Option`…), and whether
    /// its std methods are known when its element is not (a Rust std wrapper's are; a Python
    /// builtin container without a visible element stays the outside value).
    fn outside_container(&self, name: &str, outside: &Denotation) -> Option<(Wrapper, bool)>;

    /// What `value[key]` gives: an element of a container, or what the project type's
    /// indexing (`__getitem__`, `impl Index`) returns.
    fn subscripted(&self, resolver: &Resolver<'_>, value: &Denotation) -> Option<Denotation>;

    /// Edges of a file that no call site makes, the language's own (Python: callbacks of
    /// project objects handed to outside code, property reads).
    fn file_edges(&self, resolver: &Resolver<'_>, file: &FileFacts) -> Vec<Edge>;

    /// Edges a bound call adds beside its targets (Python: an outside base's method calling
    /// the project's overrides of its hooks).
    fn call_edges(
        &self,
        resolver: &Resolver<'_>,
        caller: Sym,
        call: &CallSite,
        targets: &CallTargets,
    ) -> Vec<Edge>;

    /// The edges from a call site to the methods its resolution dereferenced through (Rust:
    /// `deref`/`deref_mut`); a language without dereferences makes none.
    fn dereference_edges(
        &self,
        resolver: &Resolver<'_>,
        call: &CallSite,
        dereferenced: &[Sym],
    ) -> Vec<Edge>;

    /// Whether the fixtures a file defines are a plugin's, visible to every test (Python: a
    /// file other than a test file or conftest); false for a language without fixtures.
    fn defines_plugin_fixtures(&self, file: &FileFacts) -> bool;

    /// The outside type a trait impl is written for, when it is one (Rust: `i8`,
    /// `std::string::String`); none for a language without impl blocks.
    fn outside_impl_self_type(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        block: &ImplBlock,
    ) -> Option<Denotation>;

    /// Whether the language's std or builtins define method `name` on a container of it
    /// (`Wrapper::has_std_method`).
    fn container_has_method(&self, wrapper: Wrapper, name: &str) -> bool;

    /// What `wrapper<inner>.name()` gives, when the method alone says (`unwrap`, `pop`).
    fn container_method_result(
        &self,
        wrapper: Wrapper,
        inner: &Denotation,
        name: &str,
    ) -> Option<Denotation>;

    /// Whether parameter `parameter` of a closure passed to `wrapper.method(…)` gets an
    /// element.
    fn container_closure_parameter_is_element(
        &self,
        wrapper: Wrapper,
        method: &str,
        parameter: u32,
    ) -> bool;

    /// What a closure passed to a project method receives as its parameter (Rust:
    /// `acc.add(…, |builder| …)`, or a project iterator's item for `children.map(|it| …)`).
    fn method_closure_parameter(
        &self,
        resolver: &Resolver<'_>,
        instance: &Denotation,
        method: &str,
        argument: u32,
        parameter: u32,
    ) -> Option<Denotation>;

    /// What a closure passed to a called path receives (Rust: `with_builder(x, |b| …)`).
    fn path_call_closure_parameter(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        function: &[String],
        argument: u32,
        parameter: u32,
    ) -> Option<Denotation>;

    /// The value of a literal list (or dict) whose elements are names, bound to `name` in
    /// `scope` (Python: a builtin container of those functions, with what later writes by a
    /// literal key add).
    fn literal_collection(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        name: &str,
        elements: &[Vec<String>],
        kind: LiteralCollection,
    ) -> Option<Denotation>;

    /// What reading a member gives (a Python property's getter runs, giving what it returns).
    fn member_value(&self, resolver: &Resolver<'_>, member: Resolved) -> Resolved;

    /// Whether a glob or star import of `module` takes `name`.
    fn star_import_takes(&self, resolver: &Resolver<'_>, module: Sym, name: &str) -> bool;

    /// Whether an outside value of this qualified type says only that it is callable (a call
    /// of it is a value call, which value flow may bind).
    fn is_opaque_callable_type(&self, qualified_name: &str) -> bool;

    /// Whether an outside value of this qualified type forwards attribute access to an object
    /// not visible (a proxy) or says nothing of what it is (`Any`): a method called on it may
    /// be any project method of that name.
    fn forwards_members(&self, qualified_type: &str) -> bool;

    /// The method that calling an instance of a project type runs (Python's `__call__`),
    /// when the language has one.
    fn call_operator(&self) -> Option<&'static str>;

    /// The std wrapper a builtin constructor builds (Rust's `Some`, `Ok`, `Err`).
    fn wrapper_constructor(&self, builtin: &str) -> Option<Wrapper>;

    /// The builtin type a call of the builtin `path` gives (`str.strip` → `str`), when the
    /// language's builtin stub says.
    fn builtin_call_result(&self, path: &str) -> Option<&'static str>;

    /// A method called on a value by the language's own lookup (Rust: an instance's through
    /// its impls, its `Deref` target or a std adapter, never a field), or `None` for the
    /// shared member lookup (a method, or an attribute holding a function).
    fn instance_method(
        &self,
        resolver: &Resolver<'_>,
        receiver: &Resolved,
        name: &str,
    ) -> Option<Lookup>;

    /// Whether a path's later segments read attributes of a value (Python's `a.b`), rather
    /// than name items of a namespace (Rust's `a::b`).
    fn paths_read_attributes(&self) -> bool;

    /// A member of a namespace package's prefix: a module, or a longer prefix (Python).
    fn namespace_member(
        &self,
        resolver: &Resolver<'_>,
        prefix: &str,
        name: &str,
    ) -> Option<Denotation>;

    /// What an import written in `scope` binds, in each of the language's import styles.
    fn import_target(
        &self,
        resolver: &Resolver<'_>,
        scope: Sym,
        import: &Import,
    ) -> Option<Resolved>;

    /// What a parameter without a written type holds when a framework supplies it (a pytest
    /// fixture of that name).
    fn untyped_parameter_value(
        &self,
        resolver: &Resolver<'_>,
        function: Sym,
        name: &str,
    ) -> Option<Denotation>;

    /// Whether the language's modules hold variables that imports name (Python's
    /// `MARK_GEN`): those imports are bound again once the variables can be typed.
    fn has_module_variables(&self) -> bool;

    /// What a file's module symbol adds to the language's own name tables (Python: packages,
    /// conftests, module prefixes; Rust: crate names).
    fn index_module_file<'a>(
        &self,
        tables: &mut NameTables<'a>,
        file: &'a FileFacts,
        symbol: &'a Symbol,
        sym: Sym,
    );
}

/// Which literal a collection of names is written as.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LiteralCollection {
    /// `[f, g]`, `(f, g)`, `{f, g}`.
    Sequence,
    /// `{"a": f, "b": g}`.
    Mapping,
}

/// The rules of `language`.
pub(crate) fn rules_of(language: Language) -> &'static dyn LanguageRules {
    match language {
        Language::Python => &crate::python::language::PythonRules,
        Language::Rust => &crate::rust::language::RustRules,
    }
}

impl Wrapper {
    /// The rules of the language whose container this is.
    pub(crate) fn rules(self) -> &'static dyn LanguageRules {
        match self.is_python() {
            true => rules_of(Language::Python),
            false => rules_of(Language::Rust),
        }
    }
}

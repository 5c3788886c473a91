//! Values beyond one project type: `Option`, `Result`, sequences, maps and iterators whose
//! element type is known, and the std methods that unwrap them, iterate them or pass their
//! elements to closures. Enough to type `x?.m()`, `for x in xs`, `xs.iter().map(|x| x.m())`.
//!
//! A method is called on a wrapper only when std defines it there; any other name stays
//! unresolved (an extension trait of the project or a dependency may define it).

use tether_model::{BindingValue, Language};

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// A std type holding values of one known element type.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Wrapper {
    Option,
    Result,
    /// `Vec`, slices, arrays, sets, `VecDeque`, `SmallVec`…: iterating yields the element.
    Sequence,
    /// `HashMap`, `BTreeMap`…: the element is the value type.
    Map,
    /// `impl Iterator<Item = T>` and the std iterator adapters over it.
    Iterator,
    /// Smart pointers: their own methods (`clone`, `as_ref`, `downgrade`…) are std's, every
    /// other method and field is the pointee's.
    Box,
    Rc,
    Arc,
    /// `Pin<P>` (`self: Pin<&mut Self>`): its own methods (`as_mut`, `get_mut`…) are std's,
    /// every other method and field is the pointee's.
    Pin,
    /// `impl Future<Output = T>` and what an `async fn` returns: `.await` gives the element.
    Future,
    /// `std::task::Poll<T>`: `ready!(…)` gives the element.
    Poll,
    /// Python's `list` (and `Sequence[T]`, `Iterable[T]`…): iterating yields the element.
    PythonList,
    /// Python's `set` and `frozenset`.
    PythonSet,
    /// Python's `dict` (and `Mapping[K, V]`…): the element is the value type.
    PythonDict,
}

impl Wrapper {
    /// The wrapper a std (or well-known dependency) type name stands for.
    /// (`queries/rust/container_types.txt`.)
    pub(crate) fn named(name: &str) -> Option<Wrapper> {
        crate::container_types::rust_container(name)
    }

    /// The position of the element among the type's generic arguments.
    pub(crate) fn element_argument(self) -> usize {
        match self {
            Wrapper::Map | Wrapper::PythonDict => 1,
            _ => 0,
        }
    }

    /// The std type whose method a call on this wrapper is (for the call's target name).
    pub(crate) fn std_name(self) -> &'static str {
        match self {
            Wrapper::Option => "Option",
            Wrapper::Result => "Result",
            Wrapper::Sequence => "Vec",
            Wrapper::Map => "HashMap",
            Wrapper::Iterator => "Iterator",
            Wrapper::Box => "Box",
            Wrapper::Rc => "Rc",
            Wrapper::Arc => "Arc",
            Wrapper::Pin => "Pin",
            Wrapper::Future => "Future",
            Wrapper::Poll => "Poll",
            Wrapper::PythonList => "list",
            Wrapper::PythonSet => "set",
            Wrapper::PythonDict => "dict",
        }
    }

    /// The builtin member `name` of this wrapper's std type, named as its language names it
    /// (`list.append`, `Option::map`).
    pub(crate) fn std_member(self, name: &str) -> Denotation {
        let separator = if self.is_python() { "." } else { "::" };
        Denotation::Builtin(format!("{}{separator}{name}", self.std_name()))
    }

    /// Whether this is one of Python's builtin containers.
    pub(crate) fn is_python(self) -> bool {
        matches!(self, Wrapper::PythonList | Wrapper::PythonSet | Wrapper::PythonDict)
    }

    /// Whether this is a smart pointer (see [`Wrapper::Box`]).
    pub(crate) fn is_pointer(self) -> bool {
        matches!(self, Wrapper::Box | Wrapper::Rc | Wrapper::Arc | Wrapper::Pin)
    }

    /// Whether std defines method `name` on this wrapper.
    pub(crate) fn has_std_method(self, name: &str) -> bool {
        COMMON_METHODS.contains(&name)
            || match self {
                Wrapper::Option => OPTION_METHODS.contains(&name),
                Wrapper::Result => RESULT_METHODS.contains(&name),
                Wrapper::Sequence => {
                    SEQUENCE_METHODS.contains(&name) || ITERATOR_SOURCES.contains(&name)
                }
                Wrapper::Map => MAP_METHODS.contains(&name) || ITERATOR_SOURCES.contains(&name),
                Wrapper::Iterator => ITERATOR_METHODS.contains(&name),
                Wrapper::Box | Wrapper::Rc | Wrapper::Arc => POINTER_METHODS.contains(&name),
                Wrapper::Pin => PIN_METHODS.contains(&name),
                Wrapper::Future => matches!(name, "poll" | "into_future"),
                Wrapper::Poll => {
                    matches!(name, "is_ready" | "is_pending" | "map" | "map_ok" | "map_err")
                }
                // A builtin container's methods are all the builtin's (a subclass is a class).
                Wrapper::PythonList | Wrapper::PythonSet | Wrapper::PythonDict => true,
            }
    }

    /// What `wrapper<inner>.name()` returns, when it is visible from the method alone.
    pub(crate) fn method_result(self, inner: &Denotation, name: &str) -> Option<Denotation> {
        let wrapped = |wrapper: Wrapper| {
            Some(Denotation::Wrapped { wrapper, inner: Box::new(inner.clone()) })
        };
        if self.is_python() {
            return crate::python_containers::python_method_result(self, inner, name);
        }
        match (self, name) {
            (
                Wrapper::Option | Wrapper::Result,
                "unwrap" | "expect" | "unwrap_or" | "unwrap_or_else" | "unwrap_or_default"
                | "unwrap_unchecked",
            ) => Some(inner.clone()),
            (
                Wrapper::Option,
                "insert" | "get_or_insert" | "get_or_insert_with" | "get_or_insert_default",
            ) => Some(inner.clone()),
            (
                Wrapper::Option,
                "as_ref" | "as_mut" | "as_deref" | "as_deref_mut" | "clone" | "cloned" | "copied"
                | "take" | "filter" | "or" | "or_else" | "xor" | "inspect" | "replace",
            ) => wrapped(Wrapper::Option),
            (Wrapper::Option, "ok_or" | "ok_or_else") => wrapped(Wrapper::Result),
            (Wrapper::Result, "ok") => wrapped(Wrapper::Option),
            (
                Wrapper::Result,
                "as_ref" | "as_mut" | "as_deref" | "clone" | "cloned" | "copied" | "map_err"
                | "inspect" | "inspect_err" | "or_else",
            ) => wrapped(Wrapper::Result),
            (Wrapper::Option | Wrapper::Result, "iter" | "iter_mut" | "into_iter") => {
                wrapped(Wrapper::Iterator)
            }
            // A map's `iter()` yields (key, value) pairs; the key's type is not kept.
            (Wrapper::Map, "iter" | "iter_mut" | "into_iter" | "drain") => {
                Some(Denotation::Wrapped {
                    wrapper: Wrapper::Iterator,
                    inner: Box::new(Denotation::Tuple(vec![
                        Denotation::UntypedLocal,
                        inner.clone(),
                    ])),
                })
            }
            (Wrapper::Sequence | Wrapper::Map, name) if ITERATOR_SOURCES.contains(&name) => {
                wrapped(Wrapper::Iterator)
            }
            (Wrapper::Iterator, "enumerate") => Some(Denotation::Wrapped {
                wrapper: Wrapper::Iterator,
                inner: Box::new(Denotation::Tuple(vec![
                    Denotation::Builtin("usize".to_string()),
                    inner.clone(),
                ])),
            }),
            (
                Wrapper::Sequence,
                "first" | "last" | "get" | "get_mut" | "first_mut" | "last_mut" | "pop"
                | "pop_back" | "pop_front" | "front" | "back" | "front_mut" | "back_mut",
            ) => wrapped(Wrapper::Option),
            (Wrapper::Sequence, "clone" | "to_vec" | "to_owned") => wrapped(Wrapper::Sequence),
            (Wrapper::Map, "get" | "get_mut" | "remove") => wrapped(Wrapper::Option),
            (Wrapper::Map, "clone") => wrapped(Wrapper::Map),
            (Wrapper::Box | Wrapper::Rc | Wrapper::Arc, "clone") => wrapped(self),
            (Wrapper::Box | Wrapper::Rc | Wrapper::Arc, "as_ref" | "borrow" | "deref") => {
                Some(inner.clone())
            }
            // `self.as_mut()` is a `Pin` again; `get_mut()` is the pointee.
            (Wrapper::Pin, "as_mut" | "as_ref" | "into_ref" | "as_deref_mut") => {
                wrapped(Wrapper::Pin)
            }
            (
                Wrapper::Pin,
                "get_mut" | "get_ref" | "get_unchecked_mut" | "into_inner" | "into_inner_unchecked",
            ) => Some(inner.clone()),
            (
                Wrapper::Iterator,
                "filter" | "skip" | "take" | "skip_while" | "take_while" | "step_by" | "chain"
                | "peekable" | "fuse" | "inspect" | "by_ref" | "rev" | "cloned" | "copied"
                | "cycle",
            ) => wrapped(Wrapper::Iterator),
            (
                Wrapper::Iterator,
                "next" | "last" | "nth" | "find" | "max" | "min" | "max_by" | "max_by_key"
                | "min_by" | "min_by_key" | "next_back" | "nth_back" | "rfind" | "reduce" | "peek",
            ) => wrapped(Wrapper::Option),
            // Collected elements of a project type go into a sequence (or a set) of them.
            (Wrapper::Iterator, "collect") if matches!(inner, Denotation::Instance { .. }) => {
                wrapped(Wrapper::Sequence)
            }
            _ => None,
        }
    }

    /// Whether parameter `parameter` of a closure passed to `wrapper.method(…)` is an element.
    pub(crate) fn closure_parameter_is_element(self, method: &str, parameter: u32) -> bool {
        match (self, parameter) {
            (Wrapper::Option, 0) => matches!(
                method,
                "map"
                    | "and_then"
                    | "filter"
                    | "is_some_and"
                    | "is_none_or"
                    | "inspect"
                    | "map_or"
                    | "map_or_else"
                    | "take_if"
            ),
            (Wrapper::Result, 0) => {
                matches!(method, "map" | "and_then" | "is_ok_and" | "inspect" | "map_or")
            }
            (Wrapper::Sequence, 0) => {
                matches!(
                    method,
                    "retain"
                        | "retain_mut"
                        | "sort_by_key"
                        | "sort_unstable_by_key"
                        | "sort_by_cached_key"
                        | "dedup_by_key"
                        | "binary_search_by"
                        | "binary_search_by_key"
                        | "sort_by"
                        | "sort_unstable_by"
                        | "dedup_by"
                )
            }
            (Wrapper::Sequence, 1) => matches!(method, "sort_by" | "sort_unstable_by" | "dedup_by"),
            (Wrapper::Map, 1) => method == "retain",
            (Wrapper::Iterator, 0) => matches!(
                method,
                "map"
                    | "filter"
                    | "filter_map"
                    | "flat_map"
                    | "for_each"
                    | "any"
                    | "all"
                    | "find"
                    | "find_map"
                    | "position"
                    | "rposition"
                    | "inspect"
                    | "take_while"
                    | "skip_while"
                    | "map_while"
                    | "max_by_key"
                    | "min_by_key"
                    | "partition"
                    | "try_for_each"
                    | "rfind"
                    | "max_by"
                    | "min_by"
                    | "reduce"
                    | "is_sorted_by_key"
                    | "sorted_by_key"
                    | "sorted_by"
                    | "unique_by"
                    | "dedup_by"
                    | "positions"
                    | "sorted_unstable_by_key"
                    | "sorted_by_cached_key"
            ),
            (Wrapper::Iterator, 1) => matches!(
                method,
                "fold"
                    | "try_fold"
                    | "rfold"
                    | "scan"
                    | "max_by"
                    | "min_by"
                    | "reduce"
                    | "sorted_by"
                    | "dedup_by"
            ),
            _ => false,
        }
    }
}

/// Methods every std wrapper has (through `Clone`, `Debug`, `PartialEq`…).
const COMMON_METHODS: &[&str] = &[
    "clone",
    "clone_from",
    "to_owned",
    "eq",
    "ne",
    "cmp",
    "partial_cmp",
    "hash",
    "fmt",
    "into",
    "try_into",
    "borrow",
    "borrow_mut",
    "as_ref",
    "as_mut",
    "default",
];

const OPTION_METHODS: &[&str] = &[
    "is_some",
    "is_some_and",
    "is_none",
    "is_none_or",
    "as_deref",
    "as_deref_mut",
    "as_slice",
    "expect",
    "unwrap",
    "unwrap_or",
    "unwrap_or_else",
    "unwrap_or_default",
    "unwrap_unchecked",
    "map",
    "inspect",
    "map_or",
    "map_or_else",
    "ok_or",
    "ok_or_else",
    "iter",
    "iter_mut",
    "into_iter",
    "and",
    "and_then",
    "filter",
    "or",
    "or_else",
    "xor",
    "insert",
    "get_or_insert",
    "get_or_insert_with",
    "get_or_insert_default",
    "take",
    "take_if",
    "replace",
    "zip",
    "unzip",
    "copied",
    "cloned",
    "transpose",
    "flatten",
];

const RESULT_METHODS: &[&str] = &[
    "is_ok",
    "is_ok_and",
    "is_err",
    "is_err_and",
    "ok",
    "err",
    "map",
    "map_or",
    "map_or_else",
    "map_err",
    "inspect",
    "inspect_err",
    "as_deref",
    "as_deref_mut",
    "iter",
    "iter_mut",
    "into_iter",
    "expect",
    "unwrap",
    "unwrap_or_default",
    "expect_err",
    "unwrap_err",
    "and",
    "and_then",
    "or",
    "or_else",
    "unwrap_or",
    "unwrap_or_else",
    "unwrap_unchecked",
    "copied",
    "cloned",
    "transpose",
    "flatten",
];

/// Methods a smart pointer has itself (through `Clone`, `Deref`, `Debug`… and its own API),
/// whatever its pointee: `arc.clone()` clones the `Arc`, not the value.
/// `Pin`'s own methods.
const PIN_METHODS: &[&str] = &[
    "as_mut",
    "as_ref",
    "into_ref",
    "as_deref_mut",
    "get_mut",
    "get_ref",
    "get_unchecked_mut",
    "into_inner",
    "into_inner_unchecked",
    "set",
    "map_unchecked",
    "map_unchecked_mut",
    "static_ref",
    "static_mut",
];

const POINTER_METHODS: &[&str] = &[
    "clone",
    "clone_from",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "deref",
    "deref_mut",
    "fmt",
    "eq",
    "ne",
    "cmp",
    "partial_cmp",
    "lt",
    "le",
    "gt",
    "ge",
    "hash",
    "into_inner",
    "downgrade",
    "strong_count",
    "weak_count",
    "ptr_eq",
    "as_ptr",
    "get_mut",
    "make_mut",
    "try_unwrap",
    "unwrap_or_clone",
    "leak",
    "into_raw",
    "pin",
    "into_pin",
    "as_raw_fd",
    "as_fd",
    "as_raw_handle",
    "as_raw_socket",
    "type_id",
    "to_string",
    "to_owned",
    "into",
];

/// Methods that start an iteration over a sequence's or map's elements (or a map's values).
const ITERATOR_SOURCES: &[&str] =
    &["iter", "iter_mut", "into_iter", "drain", "values", "values_mut", "into_values"];

const SEQUENCE_METHODS: &[&str] = &[
    "len",
    "is_empty",
    "push",
    "pop",
    "insert",
    "remove",
    "swap_remove",
    "truncate",
    "clear",
    "extend",
    "extend_from_slice",
    "append",
    "retain",
    "retain_mut",
    "dedup",
    "dedup_by",
    "dedup_by_key",
    "sort",
    "sort_by",
    "sort_by_key",
    "sort_by_cached_key",
    "sort_unstable",
    "sort_unstable_by",
    "sort_unstable_by_key",
    "reverse",
    "first",
    "last",
    "first_mut",
    "last_mut",
    "get",
    "get_mut",
    "contains",
    "starts_with",
    "ends_with",
    "split_first",
    "split_last",
    "split_at",
    "split_off",
    "chunks",
    "chunks_exact",
    "windows",
    "join",
    "concat",
    "to_vec",
    "into_boxed_slice",
    "capacity",
    "reserve",
    "reserve_exact",
    "shrink_to_fit",
    "as_slice",
    "as_mut_slice",
    "binary_search",
    "binary_search_by",
    "binary_search_by_key",
    "push_back",
    "push_front",
    "pop_back",
    "pop_front",
    "front",
    "back",
    "front_mut",
    "back_mut",
    "union",
    "intersection",
    "difference",
    "symmetric_difference",
    "is_subset",
    "is_superset",
    "is_disjoint",
    "resize",
    "resize_with",
    "fill",
    "swap",
    "rotate_left",
    "rotate_right",
    "splice",
    "as_ptr",
    "iter",
    "partition_point",
    "contains_key",
    "make_contiguous",
    "is_sorted",
    "replace",
    "take",
    "peek",
    "into_sorted_vec",
];

const MAP_METHODS: &[&str] = &[
    "len",
    "is_empty",
    "insert",
    "remove",
    "remove_entry",
    "get",
    "get_mut",
    "get_key_value",
    "contains_key",
    "entry",
    "keys",
    "into_keys",
    "clear",
    "extend",
    "retain",
    "reserve",
    "shrink_to_fit",
    "capacity",
    "first_key_value",
    "last_key_value",
    "range",
    "swap_remove",
    "shift_remove",
    "get_index",
    "get_index_of",
    "get_or_insert_with",
    "try_insert",
];

const ITERATOR_METHODS: &[&str] = &[
    "next",
    "map",
    "filter",
    "filter_map",
    "flat_map",
    "flatten",
    "for_each",
    "any",
    "all",
    "find",
    "find_map",
    "position",
    "rposition",
    "count",
    "last",
    "nth",
    "skip",
    "take",
    "skip_while",
    "take_while",
    "map_while",
    "step_by",
    "chain",
    "zip",
    "unzip",
    "enumerate",
    "peekable",
    "fuse",
    "inspect",
    "by_ref",
    "collect",
    "partition",
    "fold",
    "try_fold",
    "try_for_each",
    "reduce",
    "max",
    "min",
    "max_by",
    "max_by_key",
    "min_by",
    "min_by_key",
    "rev",
    "cloned",
    "copied",
    "cycle",
    "sum",
    "product",
    "lt",
    "le",
    "gt",
    "ge",
    "next_back",
    "nth_back",
    "rfind",
    "rfold",
    "len",
    "size_hint",
    "scan",
    "is_sorted",
    "is_sorted_by",
    "is_sorted_by_key",
    "peek",
    "next_if",
    "next_if_eq",
    "into_iter",
    "array_chunks",
    "map_windows",
];

impl Resolver<'_> {
    /// A written type (annotation, parameter, field, return type): a project type, a std
    /// wrapper of a known element, or a type outside the project.
    pub(crate) fn written_type(
        &self,
        scope: Sym,
        path: &[String],
        is_dyn: bool,
        arguments: &[BindingValue],
        language: Language,
    ) -> Option<Denotation> {
        if let [only] = path {
            if only == "()" {
                let elements = arguments.iter().map(|element| match element {
                    BindingValue::Type { path, is_dyn, arguments } => self
                        .written_type(scope, path, *is_dyn, arguments, language)
                        .unwrap_or(Denotation::UntypedLocal),
                    _ => Denotation::UntypedLocal,
                });
                return Some(Denotation::Tuple(elements.collect()));
            }
            // A written array or slice (`[T; 4]`, `&[T]`).
            if only == "[]" {
                return Some(
                    self.wrapped_element(scope, Wrapper::Sequence, "[]", arguments, language)
                        .unwrap_or_else(|| unknown_element(Wrapper::Sequence)),
                );
            }
        }
        let resolved = crate::language_rules::rules_of(language).item_path(self, scope, path);
        match resolved.ok()?.denotation {
            Denotation::Symbol(alias)
                if self.index.symbol(alias).kind == tether_model::SymbolKind::TypeAlias =>
            {
                // `InFile<ast::Fn>` through `type InFile<T> = InFileWrapper<HirFileId, T>`.
                let written = self.written_instance_arguments(scope, arguments, language);
                self.generic_alias_target(alias, &written).or_else(|| self.alias_target(alias))
            }
            // A type a macro defines, standing as its inherent impl: values of it have its methods.
            Denotation::Symbol(impl_sym)
                if self.index.symbol(impl_sym).kind == tether_model::SymbolKind::Impl
                    && self.is_impl_only_type(impl_sym) =>
            {
                Some(Denotation::Instance {
                    type_sym: impl_sym,
                    is_dyn: false,
                    arguments: Vec::new(),
                })
            }
            Denotation::Symbol(type_sym) if self.index.symbol(type_sym).kind.is_type() => {
                let is_dyn =
                    is_dyn || self.index.symbol(type_sym).kind == tether_model::SymbolKind::Trait;
                Some(Denotation::Instance {
                    type_sym,
                    is_dyn,
                    arguments: self.written_instance_arguments(scope, arguments, language),
                })
            }
            // A type named by alternative imports (`#[cfg(feature = "x")] use a::Mutex;` beside
            // `#[cfg(not(…))] use b::Mutex;`): a value of one of them, so its methods are the
            // alternatives' methods, kept as ambiguous.
            Denotation::Ambiguous(candidates)
                if candidates
                    .iter()
                    .all(|candidate| self.index.symbol(*candidate).kind.is_type()) =>
            {
                Some(Denotation::Ambiguous(candidates))
            }
            // A value of a dependency's or the language's type; a std wrapper keeps its element.
            outside @ (Denotation::External(_) | Denotation::Builtin(_)) => {
                let name = path.last().map(String::as_str).unwrap_or("");
                let rules = crate::language_rules::rules_of(language);
                Some(match rules.outside_container(name, &outside) {
                    Some((wrapper, element_known)) => self
                        .wrapped_element(scope, wrapper, name, arguments, language)
                        .unwrap_or_else(|| match element_known {
                            true => unknown_element(wrapper),
                            false => outside,
                        }),
                    None => outside,
                })
            }
            _ => None,
        }
    }

    /// What `value[key]` gives: a container's element, or what the project type's indexing
    /// returns (`LanguageRules::subscripted`).
    pub(crate) fn subscripted_value(
        &self,
        value: &Denotation,
        language: Language,
    ) -> Option<Denotation> {
        crate::language_rules::rules_of(language).subscripted(self, value)
    }

    /// `wrapper<element>` when the element's type is visible.
    fn wrapped_element(
        &self,
        scope: Sym,
        wrapper: Wrapper,
        name: &str,
        arguments: &[BindingValue],
        language: Language,
    ) -> Option<Denotation> {
        let mut element = arguments.get(wrapper.element_argument())?;
        // `SmallVec<[T; 4]>` and `ArrayVec<[T; 4]>` hold `T`.
        if let (Wrapper::Sequence, BindingValue::Type { path, arguments, .. }) = (wrapper, element)
        {
            if crate::container_types::is_array_sequence(name) && path.len() == 1 && path[0] == "[]"
            {
                element = arguments.first()?;
            }
        }
        let inner = match element {
            BindingValue::Type { path, is_dyn, arguments } => {
                self.written_type(scope, path, *is_dyn, arguments, language)?
            }
            // A struct's field `Option<T>` with `T: Bound`, read without the instance's arguments.
            BindingValue::SelfTypeArgument { bound: Some(path), .. } => {
                self.written_type(scope, path, true, &[], language)?
            }
            _ => return None,
        };
        Some(Denotation::Wrapped { wrapper, inner: Box::new(inner) })
    }
}

/// A std wrapper whose element type is not visible: its std methods are still known, but
/// what they unwrap is an untyped value (never a value "of the std world").
fn unknown_element(wrapper: Wrapper) -> Denotation {
    Denotation::Wrapped { wrapper, inner: Box::new(Denotation::UntypedLocal) }
}

/// Who receives method `name` called on `value`: a smart pointer passes the methods it does
/// not have itself on to its pointee (through any number of pointers).
pub(crate) fn method_receiver<'v>(value: &'v Denotation, name: &str) -> &'v Denotation {
    match value {
        Denotation::Wrapped { wrapper, inner }
            if wrapper.is_pointer() && !wrapper.has_std_method(name) =>
        {
            method_receiver(inner, name)
        }
        _ => value,
    }
}

/// The element a value yields when iterated (`for x in value`).
pub(crate) fn element_of(value: &Denotation) -> Option<Denotation> {
    match value {
        Denotation::Wrapped { wrapper, inner } if wrapper.is_pointer() => element_of(inner),
        Denotation::Wrapped {
            wrapper:
                Wrapper::Sequence
                | Wrapper::Iterator
                | Wrapper::Option
                | Wrapper::PythonList
                | Wrapper::PythonSet,
            inner,
        } => Some((**inner).clone()),
        _ => None,
    }
}

/// What `value.await` gives: a future's output.
pub(crate) fn awaited(value: &Denotation) -> Option<Denotation> {
    match value {
        Denotation::Wrapped { wrapper: Wrapper::Future, inner } => Some((**inner).clone()),
        _ => None,
    }
}

/// Whether an outside type is std's `task::Poll` (`std::task::Poll`, `core::task::Poll`).
pub(crate) fn is_std_poll(outside: &Denotation) -> bool {
    match outside {
        Denotation::External(path) => {
            matches!(path.as_str(), "std::task::Poll" | "core::task::Poll")
        }
        Denotation::Builtin(path) => path == "Poll",
        _ => false,
    }
}

/// What `ready!(value)` gives: the value inside a `Poll::Ready`.
pub(crate) fn ready_value(value: &Denotation) -> Option<Denotation> {
    match value {
        Denotation::Wrapped { wrapper: Wrapper::Poll, inner } => Some((**inner).clone()),
        _ => None,
    }
}

/// What `value?` (or `Some(x)` / `Ok(x)` matched against it) holds.
pub(crate) fn unwrapped(value: &Denotation) -> Option<Denotation> {
    match value {
        Denotation::Wrapped { wrapper, inner } if wrapper.is_pointer() => unwrapped(inner),
        Denotation::Wrapped { wrapper: Wrapper::Option | Wrapper::Result, inner } => {
            Some((**inner).clone())
        }
        _ => None,
    }
}

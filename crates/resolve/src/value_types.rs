//! Values beyond one project type: `Option`, `Result`, sequences, maps and iterators whose
//! element type is known, and the std methods that unwrap them, iterate them or pass their
//! elements to closures. Enough to type `x?.m()`, `for x in xs`, `xs.iter().map(|x| x.m())`.
//!
//! A method is called on a wrapper only when std defines it there (Rust's std methods are data:
//! `queries/rust/std_wrappers.rs`); any other name stays unresolved (an extension trait of the
//! project or a dependency may define it).

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

    /// Whether the language's std (or builtins) defines method `name` on this wrapper.
    pub(crate) fn has_std_method(self, name: &str) -> bool {
        self.rules().container_has_method(self, name)
    }

    /// What `wrapper<inner>.name()` returns, when it is visible from the method alone.
    pub(crate) fn method_result(self, inner: &Denotation, name: &str) -> Option<Denotation> {
        self.rules().container_method_result(self, inner, name)
    }

    /// Whether parameter `parameter` of a closure passed to `wrapper.method(…)` is an element.
    pub(crate) fn closure_parameter_is_element(self, method: &str, parameter: u32) -> bool {
        self.rules().container_closure_parameter_is_element(self, method, parameter)
    }
}

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
pub(crate) fn unknown_element(wrapper: Wrapper) -> Denotation {
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

//! Rust's std containers as data: `queries/rust/std_wrappers.rs` declares, as Rust signatures,
//! the methods of `Option`, `Result`, sequences, maps, iterators, smart pointers, `Pin`,
//! futures and `Poll`, what each gives in terms of the element, and which closure parameters
//! get the element. The file is read once; a line of a shape the reader does not know is
//! rejected, naming the line (a test reads the shipped file).
//!
//! Not read: parameter types other than closures (calls are not checked against them), method
//! generics, bounds other than `where T: ProjectType`, and any result that does not hold the
//! element (a `bool`, a `usize`, an `Option<U>` of the closure's result): those are not followed.

use std::sync::OnceLock;

use rustc_hash::FxHashMap as HashMap;

use crate::denotation::Denotation;
use crate::value_types::Wrapper;

const RUST_STD_WRAPPERS: &str = include_str!("../../../../queries/rust/std_wrappers.rs");

/// The Rust containers the data file may declare, each by its `Wrapper::std_name`.
pub(crate) const RUST_WRAPPERS: [Wrapper; 11] = [
    Wrapper::Option,
    Wrapper::Result,
    Wrapper::Sequence,
    Wrapper::Map,
    Wrapper::Iterator,
    Wrapper::Box,
    Wrapper::Rc,
    Wrapper::Arc,
    Wrapper::Pin,
    Wrapper::Future,
    Wrapper::Poll,
];

/// The primitive types a result's tuple may hold beside the element (`(usize, T)`).
pub(crate) const PRIMITIVES: &[&str] = &[
    "usize", "isize", "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "f32",
    "f64", "bool", "char", "str",
];

/// One part of what a method's result holds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum HeldPart {
    /// The receiver's element.
    Element,
    /// A primitive (`usize` of `enumerate`).
    Primitive(String),
    /// A value whose type is not kept (a map's key).
    Untyped,
}

/// What a followed result holds: the element, or a tuple of parts.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Held {
    Element,
    Tuple(Vec<HeldPart>),
}

/// What a std method gives, in terms of the receiver's element.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Given {
    /// The element itself (`unwrap`, `deref`).
    Element,
    /// The receiver's own container again (`Self`: `filter`, `clone`).
    SameContainer,
    /// Another container of what `held` says (`Option<&T>`, `impl Iterator<Item = (usize, T)>`).
    Container { wrapper: Wrapper, held: Held },
}

/// One method as the data file declares it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct StdMethod {
    /// What a call gives, when it is followed.
    pub(crate) given: Option<Given>,
    /// `where T: ProjectType`: followed only when the element is a project type.
    pub(crate) only_for_project_elements: bool,
    /// Bit `i`: parameter `i` of a closure argument gets the element.
    pub(crate) element_closure_parameters: u64,
}

/// The read data file: each container's std methods, and the closures of extension traits'
/// methods (known, but not std's).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct RustStdWrappers {
    pub(crate) methods: HashMap<Wrapper, HashMap<String, StdMethod>>,
    pub(crate) extension_closures: HashMap<Wrapper, HashMap<String, u64>>,
}

impl RustStdWrappers {
    /// Whether std defines method `name` on `wrapper`.
    pub(crate) fn has_method(&self, wrapper: Wrapper, name: &str) -> bool {
        self.method(wrapper, name).is_some()
    }

    /// What `wrapper<inner>.name()` gives, when the data file follows it.
    pub(crate) fn method_result(
        &self,
        wrapper: Wrapper,
        inner: &Denotation,
        name: &str,
    ) -> Option<Denotation> {
        let method = self.method(wrapper, name)?;
        if method.only_for_project_elements && !matches!(inner, Denotation::Instance { .. }) {
            return None;
        }
        let contained = |wrapper: Wrapper, inner: Denotation| Denotation::Wrapped {
            wrapper,
            inner: Box::new(inner),
        };
        Some(match method.given.as_ref()? {
            Given::Element => inner.clone(),
            Given::SameContainer => contained(wrapper, inner.clone()),
            Given::Container { wrapper, held: Held::Element } => contained(*wrapper, inner.clone()),
            Given::Container { wrapper, held: Held::Tuple(parts) } => {
                let parts = parts.iter().map(|part| match part {
                    HeldPart::Element => inner.clone(),
                    HeldPart::Primitive(name) => Denotation::Builtin(name.clone()),
                    HeldPart::Untyped => Denotation::UntypedLocal,
                });
                contained(*wrapper, Denotation::Tuple(parts.collect()))
            }
        })
    }

    /// Whether parameter `parameter` of a closure passed to `wrapper.method(…)` is an element
    /// (std's methods, then extension traits').
    pub(crate) fn closure_parameter_is_element(
        &self,
        wrapper: Wrapper,
        method: &str,
        parameter: u32,
    ) -> bool {
        let Some(bit) = 1u64.checked_shl(parameter) else { return false };
        let std_closures = self.method(wrapper, method).map(|m| m.element_closure_parameters);
        let extension_closures = || {
            let extension = self.extension_closures.get(&wrapper)?;
            extension.get(method).copied()
        };
        std_closures.or_else(extension_closures).is_some_and(|mask| mask & bit != 0)
    }

    fn method(&self, wrapper: Wrapper, name: &str) -> Option<&StdMethod> {
        self.methods.get(&wrapper)?.get(name)
    }
}

/// The shipped data file.
pub(crate) fn rust_std_wrappers() -> &'static RustStdWrappers {
    static SHIPPED: OnceLock<RustStdWrappers> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        // The shipped file is checked by a test; a broken one must not pass silently.
        crate::rust::std_signatures::parse_rust_std_wrappers(RUST_STD_WRAPPERS)
            .expect("queries/rust/std_wrappers.rs parses")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rust::std_signatures::parse_rust_std_wrappers;

    fn project_value() -> Denotation {
        Denotation::Instance { type_sym: 7, is_dyn: false, arguments: Vec::new() }
    }

    fn contained(wrapper: Wrapper, inner: Denotation) -> Option<Denotation> {
        Some(Denotation::Wrapped { wrapper, inner: Box::new(inner) })
    }

    #[test]
    fn the_shipped_file_parses_and_follows_what_holds_the_element() {
        let std = parse_rust_std_wrappers(RUST_STD_WRAPPERS).expect("the shipped file parses");
        let value = project_value();
        assert_eq!(std.method_result(Wrapper::Option, &value, "unwrap"), Some(value.clone()));
        assert_eq!(
            std.method_result(Wrapper::Option, &value, "ok_or"),
            contained(Wrapper::Result, value.clone())
        );
        assert_eq!(
            std.method_result(Wrapper::Sequence, &value, "first"),
            contained(Wrapper::Option, value.clone())
        );
        // A trait's `Self` is the receiving container.
        assert_eq!(
            std.method_result(Wrapper::Arc, &value, "clone"),
            contained(Wrapper::Arc, value.clone())
        );
        let pair = Denotation::Tuple(vec![Denotation::Builtin("usize".into()), value.clone()]);
        assert_eq!(
            std.method_result(Wrapper::Iterator, &value, "enumerate"),
            contained(Wrapper::Iterator, pair)
        );
        // A map's own iteration gives (key, value); the key is not kept.
        let entry = Denotation::Tuple(vec![Denotation::UntypedLocal, value.clone()]);
        assert_eq!(
            std.method_result(Wrapper::Map, &value, "iter"),
            contained(Wrapper::Iterator, entry)
        );
        assert_eq!(
            std.method_result(Wrapper::Map, &value, "values"),
            contained(Wrapper::Iterator, value.clone())
        );
        // `where T: ProjectType`.
        assert_eq!(
            std.method_result(Wrapper::Iterator, &value, "collect"),
            contained(Wrapper::Sequence, value.clone())
        );
        assert_eq!(
            std.method_result(Wrapper::Iterator, &Denotation::UntypedLocal, "collect"),
            None
        );
        // Listed, but what it gives does not hold the element.
        assert!(std.has_method(Wrapper::Option, "is_some"));
        assert_eq!(std.method_result(Wrapper::Option, &value, "map"), None);
        // Not std's: an extension trait of the project may define it.
        assert!(!std.has_method(Wrapper::Option, "frobnicate"));
        assert!(!std.has_method(Wrapper::Iterator, "sorted_by"));
    }

    #[test]
    fn closures_get_the_element_where_the_signature_says() {
        let std = parse_rust_std_wrappers(RUST_STD_WRAPPERS).expect("the shipped file parses");
        let element = |wrapper, method, parameter| {
            std.closure_parameter_is_element(wrapper, method, parameter)
        };
        assert!(element(Wrapper::Option, "map", 0));
        assert!(!element(Wrapper::Option, "map", 1));
        assert!(element(Wrapper::Iterator, "fold", 1) && !element(Wrapper::Iterator, "fold", 0));
        assert!(element(Wrapper::Map, "retain", 1) && !element(Wrapper::Map, "retain", 0));
        assert!(
            element(Wrapper::Sequence, "sort_by", 0) && element(Wrapper::Sequence, "sort_by", 1)
        );
        // An error's closure gets the error, not the element.
        assert!(!element(Wrapper::Result, "map_err", 0));
        // itertools' closures are known without its methods being std's.
        assert!(element(Wrapper::Iterator, "sorted_by_key", 0));
        assert!(!element(Wrapper::Iterator, "map", 64));
    }

    #[test]
    fn lines_of_an_unknown_shape_are_rejected_naming_the_line() {
        let rejected = |text: &str| parse_rust_std_wrappers(text).unwrap_err();
        let own = |line: &str| format!("impl<T> Option<T> {{\n    {line}\n}}\n");
        assert!(rejected("struct Option<T>;").starts_with("line 1: only `trait`"));
        assert!(rejected(&own("fn as_slice(&self) -> &[T];")).starts_with("line 2: the result"));
        assert!(rejected(&own("fn f(self, f: impl Fn(Option<T>));")).contains("unknown shape"));
        assert!(rejected(&own("fn f(self) -> (T, U) where T: Copy;")).contains("line 2"));
        assert!(rejected(&own("fn f(self) where T: ProjectType;")).contains("bounds a result"));
        assert!(rejected(&own("const X: u8;")).contains("only `fn …;` lines"));
        assert!(rejected(&own("fn unwrap(self) -> T")).contains("`fn …;`"));
        assert!(rejected("impl<T> Vec<T> {\n").contains("ends inside a block"));
        assert!(rejected("impl<T> Cell<T> {\n}\n").contains("not a std container"));
        assert!(rejected("impl<K, T> HashMap<T, K> {\n}\n").contains("element stands"));
        assert!(rejected("#[extension]\nimpl<T> Vec<T> {\n}\n").contains("before a `trait`"));
        let two_traits = "trait A<T> {\n    fn f(self);\n}\ntrait B<T> {\n    fn f(self);\n}\n\
                          impl<T> A<T> for Vec<T> {}\nimpl<T> B<T> for Vec<T> {}\n";
        assert!(rejected(two_traits).starts_with("line 8: `f` is listed by both `A` and `B`"));
        assert!(rejected("impl<T> C<T> for Vec<T> {}\n").contains("a trait declared above"));
    }

    #[test]
    fn a_containers_own_method_comes_before_its_traits() {
        let text = "trait Common<T> {\n    fn clone(&self);\n    fn fmt(&self);\n}\n\
                    impl<T> Common<T> for Vec<T> {}\n\
                    impl<T> Vec<T> {\n    fn clone(&self) -> Self;\n}\n";
        let std = parse_rust_std_wrappers(text).expect("parses");
        let value = project_value();
        assert_eq!(
            std.method_result(Wrapper::Sequence, &value, "clone"),
            contained(Wrapper::Sequence, value.clone())
        );
        assert!(std.has_method(Wrapper::Sequence, "fmt"));
        assert!(!std.has_method(Wrapper::Option, "fmt"));
    }
}

//! Which symbols get a code lens. By kind, as the editor's settings say
//! (`initializationOptions: {"lenses": {"class": false}}`: every kind is on unless turned off);
//! and a method the language or a library calls by protocol (a Python dunder such as
//! `__eq__`, a method of a Rust trait impl such as `{impl Display for T}::fmt`) only when
//! something in the project calls it, since a lens saying "0 callers" there is noise.
//!
//! It deliberately reads the settings once, at `initialize`: `workspace/didChangeConfiguration`
//! is not followed (restart the server to change them).

use serde_json::Value;
use tether_protocol::wire::SymbolRef;

/// The kinds a lens can be on, in the order the settings' error lists them.
pub const LENS_KINDS: &[&str] = &["function", "method", "class", "struct", "enum", "trait"];

/// The kinds turned off.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LensSettings {
    off: Vec<String>,
}

impl LensSettings {
    /// The settings in `initializationOptions` (`lenses`: a kind to `true` or `false`), and
    /// what is wrong with them (an unknown kind, a value that is not a boolean): each said to
    /// the person, the rest applied.
    pub fn from_initialization_options(options: Option<&Value>) -> (LensSettings, Vec<String>) {
        let mut settings = LensSettings::default();
        let mut problems = Vec::new();
        let Some(lenses) = options.and_then(|options| options.get("lenses")) else {
            return (settings, problems);
        };
        let Some(lenses) = lenses.as_object() else {
            problems.push(
                "tether: initializationOptions.lenses must be an object of kinds to true or false"
                    .to_string(),
            );
            return (settings, problems);
        };
        for (kind, shown) in lenses {
            if !LENS_KINDS.contains(&kind.as_str()) {
                problems.push(format!(
                    "tether: initializationOptions.lenses: unknown kind {kind:?} (the kinds are {})",
                    LENS_KINDS.join(", ")
                ));
                continue;
            }
            match shown.as_bool() {
                Some(true) => {}
                Some(false) => settings.off.push(kind.clone()),
                None => problems.push(format!(
                    "tether: initializationOptions.lenses.{kind} must be true or false, not {shown}"
                )),
            }
        }
        (settings, problems)
    }

    /// Whether a symbol of this kind gets a lens at all.
    pub fn shows(&self, symbol: &SymbolRef) -> bool {
        LENS_KINDS.contains(&symbol.kind.as_str()) && !self.off.contains(&symbol.kind)
    }
}

/// A method the language or a library calls without a call naming it in the project: a
/// Python dunder, or a method written in a Rust trait impl.
pub fn is_protocol_method(symbol: &SymbolRef) -> bool {
    if !matches!(symbol.kind.as_str(), "function" | "method") {
        return false;
    }
    let name = crate::editor_answers::short_name(&symbol.qualified_name);
    let dunder = name.len() > 4 && name.starts_with("__") && name.ends_with("__");
    let in_trait_impl = symbol
        .qualified_name
        .split("::")
        .any(|segment| segment.starts_with("{impl ") && segment.contains(" for "));
    dunder || in_trait_impl
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kinds_turned_off_and_mistakes_are_reported_not_fatal() {
        let options =
            json!({ "lenses": { "class": false, "method": true, "module": false, "trait": "no" } });
        let (settings, problems) = LensSettings::from_initialization_options(Some(&options));
        assert_eq!(settings.off, ["class"]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("unknown kind \"module\""), "{problems:?}");
        assert!(problems[1].contains("lenses.trait must be true or false"), "{problems:?}");
        assert_eq!(
            LensSettings::from_initialization_options(None),
            (LensSettings::default(), vec![])
        );
    }

    #[test]
    fn dunders_and_trait_impl_methods_are_protocol_methods() {
        let symbol = |qualified_name: &str, kind: &str| SymbolRef {
            id: "0".into(),
            qualified_name: qualified_name.into(),
            kind: kind.into(),
            path: "x".into(),
            line: 1,
            end_line: 2,
            is_test: false,
        };
        assert!(is_protocol_method(&symbol("app.Point.__eq__", "method")));
        assert!(is_protocol_method(&symbol("m::{impl Display for Point}::fmt", "method")));
        assert!(!is_protocol_method(&symbol("m::Point::new", "method")));
        assert!(!is_protocol_method(&symbol("app.__init__", "module")));
        assert!(!is_protocol_method(&symbol("app.run", "function")));
    }
}

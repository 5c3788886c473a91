//! Which symbols get a code lens. By kind, as the editor's settings say
//! (`initializationOptions: {"lenses": {"class": false}}`, read by `editor_messages`: every
//! kind is on unless turned off);
//! and a method the language or a library calls by protocol (a Python dunder such as
//! `__eq__`, a method of a Rust trait impl such as `{impl Display for T}::fmt`) only when
//! something in the project calls it, since a lens saying "0 callers" there is noise.
//!
//! It deliberately reads the settings once, at `initialize`: `workspace/didChangeConfiguration`
//! is not followed (restart the server to change them).

use tether_protocol::wire::SymbolRef;

use crate::editor_messages::WrittenLensSettings;

/// The kinds a lens can be on, in the order the settings' error lists them.
pub const LENS_KINDS: &[&str] = &["function", "method", "class", "struct", "enum", "trait"];

/// The kinds turned off.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LensSettings {
    off: Vec<String>,
}

impl LensSettings {
    /// The settings as `editor_messages::lens_settings_written` read them (each kind with
    /// `true`/`false` or the text of a value that is not one; `Err` when `lenses` is not an
    /// object), and what is wrong with them (an unknown kind, a value that is not a boolean):
    /// each said to the person, the rest applied.
    /// `configured`: the configuration files' kinds (checked when they were read), which the
    /// editor's settings override kind by kind.
    pub fn from_written(
        configured: &[(String, bool)],
        written: WrittenLensSettings,
    ) -> (LensSettings, Vec<String>) {
        let mut settings = LensSettings {
            off: configured
                .iter()
                .filter(|(kind, shown)| !shown && LENS_KINDS.contains(&kind.as_str()))
                .map(|(kind, _)| kind.clone())
                .collect(),
        };
        let mut problems = Vec::new();
        let written = match written {
            Ok(written) => written,
            Err(value) => {
                problems.push(format!("tether: initializationOptions.lenses must be an object of kinds to true or false, not {value}"));
                return (settings, problems);
            }
        };
        for (kind, shown) in written {
            if !LENS_KINDS.contains(&kind.as_str()) {
                problems.push(format!(
                    "tether: initializationOptions.lenses: unknown kind {kind:?} (the kinds are {})",
                    LENS_KINDS.join(", ")
                ));
                continue;
            }
            match shown {
                Ok(true) => settings.off.retain(|off| *off != kind),
                Ok(false) if settings.off.contains(&kind) => {}
                Ok(false) => settings.off.push(kind),
                Err(value) => problems.push(format!(
                    "tether: initializationOptions.lenses.{kind} must be true or false, not {value}"
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

    #[test]
    fn kinds_turned_off_and_mistakes_are_reported_not_fatal() {
        let written = vec![
            ("class".to_string(), Ok(false)),
            ("method".to_string(), Ok(true)),
            ("module".to_string(), Ok(false)),
            ("trait".to_string(), Err("\"no\"".to_string())),
        ];
        let (settings, problems) = LensSettings::from_written(&[], Ok(written));
        assert_eq!(settings.off, ["class"]);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems[0].contains("unknown kind \"module\""), "{problems:?}");
        assert!(problems[1].contains("lenses.trait must be true or false"), "{problems:?}");
        assert_eq!(LensSettings::from_written(&[], Ok(vec![])), (LensSettings::default(), vec![]));
        let (_, problems) = LensSettings::from_written(&[], Err("[]".to_string()));
        assert!(problems[0].contains("must be an object"), "{problems:?}");
    }

    /// `lsp.lenses` in the configuration files turns kinds off (or on); the editor's settings
    /// win, kind by kind.
    #[test]
    fn the_editor_overrides_the_configuration_kind_by_kind() {
        let configured = [
            ("class".to_string(), false),
            ("trait".to_string(), false),
            ("method".to_string(), true),
        ];
        let written = vec![("trait".to_string(), Ok(true)), ("struct".to_string(), Ok(false))];
        let (settings, problems) = LensSettings::from_written(&configured, Ok(written));
        assert_eq!(settings.off, ["class", "struct"]);
        assert!(problems.is_empty(), "{problems:?}");
        let (settings, _) = LensSettings::from_written(&configured, Ok(vec![]));
        assert_eq!(settings.off, ["class", "trait"]);
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

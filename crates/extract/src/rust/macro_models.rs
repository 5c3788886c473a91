//! What common Rust macros generate or give, as data: `queries/rust/macro_models.txt` names,
//! per model, the attribute or macro paths of the libraries that follow it (salsa's field
//! getters, pin projections, `ready!`, `assert_eq!`). The table is parsed once; a line naming
//! an unknown model is rejected when it loads.
//!
//! It deliberately models shapes, not macros: a macro whose output fits none of the models is
//! not expanded (see `rust_item_macros` for the items `macro_rules!` bodies define).

use std::sync::OnceLock;

const MACRO_MODELS: &str = include_str!("../../../../queries/rust/macro_models.txt");

/// The models' rules, as the data file lists them.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct MacroModels {
    /// Struct attributes (paths) that give a getter per named field (salsa).
    pub(crate) field_getters: Vec<Vec<String>>,
    /// Field attributes that give the struct projection methods, and those methods' names.
    pub(crate) field_projections: Vec<(String, Vec<String>)>,
    /// Macros (paths) whose value is what their `Poll` argument holds when ready.
    pub(crate) ready_values: Vec<Vec<String>>,
    /// Macros (paths) that compare their first two arguments with `==`.
    pub(crate) comparing: Vec<Vec<String>>,
    /// Macros (paths) whose argument at the position (from 0) is a format string.
    pub(crate) formatting: Vec<(usize, Vec<String>)>,
}

/// Parses a models table: lines `model word…`; blank lines and `#` comments say nothing. An
/// unknown model, or a line without its words, is an error naming the line.
pub(crate) fn parse_macro_models(text: &str) -> Result<MacroModels, String> {
    let mut models = MacroModels::default();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let model = words.next().unwrap_or_default();
        let words: Vec<&str> = words.collect();
        let paths = || words.iter().map(|path| split_path(path)).collect::<Vec<_>>();
        let minimum = if matches!(model, "field-projection" | "formats-arguments") { 2 } else { 1 };
        if words.len() < minimum {
            return Err(format!("line {}: `{model}` names too few words", number + 1));
        }
        match model {
            "field-getters" => models.field_getters.extend(paths()),
            "field-projection" => models.field_projections.push((
                words[0].to_string(),
                words[1..].iter().map(|method| method.to_string()).collect(),
            )),
            "ready-value" => models.ready_values.extend(paths()),
            "compares-arguments" => models.comparing.extend(paths()),
            "formats-arguments" => {
                let Ok(position) = words[0].parse::<usize>() else {
                    return Err(format!(
                        "line {}: `formats-arguments` needs a position, not `{}`",
                        number + 1,
                        words[0]
                    ));
                };
                let paths = words[1..].iter().map(|path| (position, split_path(path)));
                models.formatting.extend(paths);
            }
            _ => return Err(format!("line {}: unknown macro model `{model}`", number + 1)),
        }
    }
    Ok(models)
}

/// The shipped table.
pub(crate) fn shipped_macro_models() -> &'static MacroModels {
    static MODELS: OnceLock<MacroModels> = OnceLock::new();
    // The shipped file is checked by a test; a broken one must not pass silently.
    MODELS.get_or_init(|| parse_macro_models(MACRO_MODELS).expect("macro_models.txt parses"))
}

fn split_path(path: &str) -> Vec<String> {
    path.split("::").filter(|segment| !segment.is_empty()).map(str::to_string).collect()
}

/// Whether `written` (an attribute's or macro's path) ends with one of `paths`' segments:
/// `salsa::input` matches `salsa::input` and `::salsa::input`.
pub(crate) fn path_matches<S: AsRef<str>>(paths: &[Vec<String>], written: &[S]) -> bool {
    paths.iter().any(|path| {
        written.len() >= path.len()
            && written[written.len() - path.len()..]
                .iter()
                .zip(path)
                .all(|(written, listed)| written.as_ref() == listed)
    })
}

impl MacroModels {
    /// Whether a struct's attributes (paths, with their arguments) give it field getters.
    pub(crate) fn gives_field_getters(&self, attributes: &[(Vec<String>, String)]) -> bool {
        attributes.iter().any(|(path, _)| path_matches(&self.field_getters, path))
    }

    /// Whether a macro written `name` (`ready`, `futures::ready`) gives its argument's ready
    /// value.
    pub(crate) fn gives_ready_value(&self, name: &str) -> bool {
        path_matches(&self.ready_values, &split_path(name))
    }

    /// Where the format string of a macro written `name` is among its arguments (`format` 0,
    /// `write` 1), if it formats.
    pub(crate) fn format_string_position(&self, name: &str) -> Option<usize> {
        let written = split_path(name);
        self.formatting
            .iter()
            .find(|(_, path)| path_matches(std::slice::from_ref(path), &written))
            .map(|(position, _)| *position)
    }

    /// Whether a macro written `name` (`assert_eq`, `pretty_assertions::assert_eq`) compares
    /// its first two arguments with `==`.
    pub(crate) fn compares_arguments(&self, name: &str) -> bool {
        path_matches(&self.comparing, &split_path(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_models_parse_and_name_salsa_pin_projections_and_ready() {
        let models = parse_macro_models(MACRO_MODELS).expect("the shipped models parse");
        let salsa = vec![(vec!["salsa".to_string(), "input".to_string()], String::new())];
        assert!(models.gives_field_getters(&salsa));
        let bare = vec![(vec!["input".to_string()], String::new())];
        assert!(!models.gives_field_getters(&bare));
        assert_eq!(
            models.field_projections,
            vec![("pin".to_string(), vec!["project".to_string(), "project_ref".to_string()])]
        );
        assert!(models.gives_ready_value("ready"));
        assert!(models.gives_ready_value("futures::ready"));
        assert!(!models.gives_ready_value("ready_chunks"));
        assert!(models.compares_arguments("assert_eq"));
        assert!(models.compares_arguments("debug_assert_ne"));
        assert!(!models.compares_arguments("assert"));
        assert_eq!(models.format_string_position("println"), Some(0));
        assert_eq!(models.format_string_position("writeln"), Some(1));
        assert_eq!(models.format_string_position("log::info"), Some(0));
        assert_eq!(models.format_string_position("matches"), None);
    }

    #[test]
    fn a_line_added_makes_a_new_library_follow_a_model_and_unknown_models_are_rejected() {
        let entity = vec![(vec!["ormlite".to_string(), "entity".to_string()], String::new())];
        assert!(!shipped_macro_models().gives_field_getters(&entity));
        let extended = format!("{MACRO_MODELS}\nfield-getters ormlite::entity\n");
        let models = parse_macro_models(&extended).expect("the extended models parse");
        assert!(models.gives_field_getters(&entity));
        assert_eq!(
            parse_macro_models("# a comment\nexpand-all foo\n"),
            Err("line 2: unknown macro model `expand-all`".to_string())
        );
        assert_eq!(
            parse_macro_models("field-projection pin\n"),
            Err("line 1: `field-projection` names too few words".to_string())
        );
        assert_eq!(
            parse_macro_models("formats-arguments println\n"),
            Err("line 1: `formats-arguments` names too few words".to_string())
        );
        assert_eq!(
            parse_macro_models("formats-arguments first println\n"),
            Err("line 1: `formats-arguments` needs a position, not `first`".to_string())
        );
    }
}

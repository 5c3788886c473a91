//! Checking a tool call's arguments against the tool's parameters, and splitting them into
//! the daemon's params and the presentation options (`format`, `budget_tokens`).

use tether_protocol::Value;

use crate::render::OutputFormat;
use crate::tools::{
    ParameterKind, ParameterSpecification, ToolSpecification, DEFAULT_BUDGET_TOKENS,
    PRESENTATION_PARAMETERS,
};

/// A tool call's arguments, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedToolArguments {
    /// What is forwarded to the daemon: every argument but the presentation ones.
    pub daemon_params: Value,
    pub format: OutputFormat,
    pub budget_tokens: u64,
    /// The offset the request's `cursor` (`o:<n>`) starts at; 0 without one.
    pub cursor_offset: u64,
}

/// The JSON type name of a value, for error messages.
fn json_type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(number) if number.is_i64() || number.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Why `value` is not acceptable for `parameter`, or `None` when it is.
fn parameter_value_problem(parameter: &ParameterSpecification, value: &Value) -> Option<String> {
    let name = parameter.name;
    match parameter.kind {
        ParameterKind::Text => (!value.is_string())
            .then(|| format!("\"{name}\" must be a string, not {}", json_type_name(value))),
        ParameterKind::Boolean => (!value.is_boolean())
            .then(|| format!("\"{name}\" must be true or false, not {}", json_type_name(value))),
        ParameterKind::Integer { minimum, maximum } => match value.as_i64() {
            None => Some(format!(
                "\"{name}\" must be an integer from {minimum} to {maximum}, not {}",
                json_type_name(value)
            )),
            Some(number) if number < minimum || number > maximum => Some(format!(
                "\"{name}\" must be from {minimum} to {maximum}; {number} is out of range"
            )),
            Some(_) => None,
        },
        ParameterKind::TextList => match value.as_array() {
            Some(items) if items.iter().all(Value::is_string) => None,
            Some(_) => {
                Some(format!("\"{name}\" must be an array of strings; one element is not a string"))
            }
            None => Some(format!(
                "\"{name}\" must be an array of strings, not {}",
                json_type_name(value)
            )),
        },
        ParameterKind::OneOf(choices) => match value.as_str() {
            Some(text) if choices.contains(&text) => None,
            Some(text) => {
                Some(format!("\"{name}\" must be one of {}; {text:?} is not", quoted_list(choices)))
            }
            None => Some(format!(
                "\"{name}\" must be one of {}, not {}",
                quoted_list(choices),
                json_type_name(value)
            )),
        },
    }
}

fn quoted_list(names: &[&str]) -> String {
    names.iter().map(|name| format!("\"{name}\"")).collect::<Vec<_>>().join(", ")
}

/// The offset a cursor of the form `o:<n>` names; 0 for none or another form.
pub fn cursor_offset_of(cursor: Option<&str>) -> u64 {
    cursor
        .and_then(|cursor| cursor.strip_prefix("o:"))
        .and_then(|offset| offset.trim().parse().ok())
        .unwrap_or(0)
}

/// Checks `arguments` (absent means `{}`) against `tool`; the error is a message for the model.
pub fn check_tool_arguments(
    tool: &ToolSpecification,
    arguments: Option<&Value>,
) -> Result<CheckedToolArguments, String> {
    let empty = serde_json::Map::new();
    let object = match arguments {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(object)) => object,
        Some(other) => {
            return Err(format!("the arguments of {} must be a JSON object of named fields (like {{\"symbol\": \"pkg.module.function\"}}), not {}", tool.name, json_type_name(other)));
        }
    };
    let mut problems = Vec::new();
    for (name, value) in object {
        match tool.all_parameters().find(|parameter| parameter.name == name) {
            // An explicit null is treated as the argument left out.
            Some(_) if value.is_null() => {}
            Some(parameter) => problems.extend(parameter_value_problem(parameter, value)),
            None => problems.push(format!(
                "unknown argument \"{name}\"; {} accepts {}",
                tool.name,
                quoted_list(
                    &tool.all_parameters().map(|parameter| parameter.name).collect::<Vec<_>>()
                )
            )),
        }
    }
    let given = |name: &str| object.get(name).is_some_and(|value| !value.is_null());
    for parameter in tool.all_parameters().filter(|parameter| parameter.required) {
        if !given(parameter.name) {
            problems.push(format!("missing \"{}\": {}", parameter.name, parameter.description));
        }
    }
    if !tool.requires_one_of.is_empty() && !tool.requires_one_of.iter().any(|name| given(name)) {
        problems.push(format!("pass one of {}", quoted_list(tool.requires_one_of)));
    }
    if !problems.is_empty() {
        return Err(format!("invalid arguments for {}: {}", tool.name, problems.join("; ")));
    }

    let format = match object.get("format").and_then(Value::as_str) {
        Some("json") => OutputFormat::Json,
        _ => OutputFormat::Text,
    };
    let budget_tokens =
        object.get("budget_tokens").and_then(Value::as_u64).unwrap_or(DEFAULT_BUDGET_TOKENS);
    let daemon_params: serde_json::Map<String, Value> = object
        .iter()
        .filter(|(name, value)| {
            !value.is_null()
                && !PRESENTATION_PARAMETERS.iter().any(|parameter| parameter.name == name.as_str())
        })
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    let cursor_offset = cursor_offset_of(object.get("cursor").and_then(Value::as_str));
    Ok(CheckedToolArguments {
        daemon_params: Value::Object(daemon_params),
        format,
        budget_tokens,
        cursor_offset,
    })
}

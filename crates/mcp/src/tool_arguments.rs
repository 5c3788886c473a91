//! Tool arguments (MCP's `tools/call`): a tool's parameters declared once, from which both
//! its JSON input schema and the check of a call's arguments are made; checked arguments
//! become the daemon's typed [`Request`] plus the presentation options, which are never
//! forwarded. Messages are written for a model to act on: every problem at once, each naming
//! the argument and what it must be.
//!
//! It deliberately knows no particular tool: the catalogue (names, descriptions, which
//! method) is the MCP crate's.

use serde_json::{json, Map, Value};

use tether_protocol::rpc::RpcError;
use tether_protocol::{Method, Request};

pub use tether_protocol::{Parameter, ParameterKind};

/// One argument a tool accepts: a parameter of its daemon method (or a presentation one),
/// and whether a call must give it.
#[derive(Clone, Copy, Debug)]
pub struct ParameterSpecification {
    pub parameter: Parameter,
    pub required: bool,
}

impl ParameterSpecification {
    pub fn name(&self) -> &'static str {
        self.parameter.name
    }
}

/// A tool's arguments: the method's parameters it exposes, the presentation parameters
/// (read here, never forwarded), and the names of which at least one must be given.
#[derive(Clone, Debug)]
pub struct ToolArguments<'tool> {
    pub tool_name: &'tool str,
    pub method: Method,
    pub parameters: Vec<ParameterSpecification>,
    pub presentation: &'tool [ParameterSpecification],
    pub requires_one_of: &'tool [&'static str],
}

/// A call's arguments, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedArguments {
    /// What is asked of the daemon: every argument but the presentation ones, parsed.
    pub request: Request,
    /// The presentation arguments given: text ones and integer ones, by name.
    pub presentation_texts: Vec<(String, String)>,
    pub presentation_integers: Vec<(String, u64)>,
    /// The offset the call's `cursor` (`o:<n>`) starts at; 0 without one.
    pub cursor_offset: u64,
}

/// Why a call's arguments were refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgumentsError {
    /// They do not fit the tool's schema (a message for the model).
    Invalid(String),
    /// They fit the schema but the method refuses them (the daemon's own error).
    Refused(RpcError),
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

fn quoted_list(names: &[&str]) -> String {
    names.iter().map(|name| format!("\"{name}\"")).collect::<Vec<_>>().join(", ")
}

/// Why `value` is not acceptable for `parameter`, or `None` when it is.
fn parameter_value_problem(parameter: &ParameterSpecification, value: &Value) -> Option<String> {
    let name = parameter.name();
    let kind = json_type_name(value);
    match parameter.parameter.kind {
        ParameterKind::Text => {
            (!value.is_string()).then(|| format!("\"{name}\" must be a string, not {kind}"))
        }
        ParameterKind::Boolean => {
            (!value.is_boolean()).then(|| format!("\"{name}\" must be true or false, not {kind}"))
        }
        ParameterKind::Integer { minimum, maximum } => match value.as_i64() {
            None => Some(format!(
                "\"{name}\" must be an integer from {minimum} to {maximum}, not {kind}"
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
            None => Some(format!("\"{name}\" must be an array of strings, not {kind}")),
        },
        ParameterKind::ObjectList(_) => match value.as_array() {
            Some(items) if items.iter().all(Value::is_object) => None,
            Some(_) => Some(format!("\"{name}\" must be an array of objects; one element is not")),
            None => Some(format!("\"{name}\" must be an array of objects, not {kind}")),
        },
        ParameterKind::OneOf(choices) => match value.as_str() {
            Some(text) if choices.contains(&text) => None,
            Some(text) => {
                Some(format!("\"{name}\" must be one of {}; {text:?} is not", quoted_list(choices)))
            }
            None => Some(format!("\"{name}\" must be one of {}, not {kind}", quoted_list(choices))),
        },
    }
}

/// The offset a cursor of the form `o:<n>` names; 0 for none or another form.
pub fn cursor_offset_of(cursor: Option<&str>) -> u64 {
    cursor
        .and_then(|cursor| cursor.strip_prefix("o:"))
        .and_then(|offset| offset.trim().parse().ok())
        .unwrap_or(0)
}

/// The JSON schema of one parameter.
fn parameter_schema(parameter: &ParameterSpecification) -> Value {
    kind_schema(&parameter.parameter)
}

/// The JSON schema of a parameter's kind, with its description; a list of objects nests
/// its fields' schemas.
fn kind_schema(parameter: &Parameter) -> Value {
    let mut schema = match parameter.kind {
        ParameterKind::ObjectList(object) => {
            let properties: Map<String, Value> = object
                .fields
                .iter()
                .map(|field| (field.name.to_string(), kind_schema(field)))
                .collect();
            json!({
                "type": "array",
                "maxItems": object.most,
                "items": {
                    "type": "object",
                    "properties": properties,
                    "required": object.required,
                    "additionalProperties": false,
                },
            })
        }
        ParameterKind::Text => json!({ "type": "string" }),
        ParameterKind::Integer { minimum, maximum } => {
            json!({ "type": "integer", "minimum": minimum, "maximum": maximum })
        }
        ParameterKind::Boolean => json!({ "type": "boolean" }),
        ParameterKind::TextList => json!({ "type": "array", "items": { "type": "string" } }),
        ParameterKind::OneOf(choices) => json!({ "type": "string", "enum": choices }),
    };
    schema["description"] = json!(parameter.description);
    schema
}

impl ToolArguments<'_> {
    /// Its parameters followed by the presentation ones.
    pub fn all_parameters(&self) -> impl Iterator<Item = &ParameterSpecification> {
        self.parameters.iter().chain(self.presentation.iter())
    }

    /// The JSON schema of the arguments (an object; unknown names refused).
    pub fn input_schema(&self) -> Map<String, Value> {
        let properties: Map<String, Value> = self
            .all_parameters()
            .map(|parameter| (parameter.name().to_string(), parameter_schema(parameter)))
            .collect();
        let required: Vec<&str> = self
            .all_parameters()
            .filter(|parameter| parameter.required)
            .map(ParameterSpecification::name)
            .collect();
        let mut schema = Map::new();
        schema.insert("type".to_string(), json!("object"));
        schema.insert("properties".to_string(), Value::Object(properties));
        if !required.is_empty() {
            schema.insert("required".to_string(), json!(required));
        }
        schema.insert("additionalProperties".to_string(), json!(false));
        schema
    }

    /// Checks `arguments` (absent or null means `{}`) against the parameters.
    pub fn check(&self, arguments: Option<&Value>) -> Result<CheckedArguments, ArgumentsError> {
        let empty = Map::new();
        let object = match arguments {
            None | Some(Value::Null) => &empty,
            Some(Value::Object(object)) => object,
            Some(other) => {
                return Err(ArgumentsError::Invalid(format!("the arguments of {} must be a JSON object of named fields (like {{\"symbol\": \"pkg.module.function\"}}), not {}", self.tool_name, json_type_name(other))));
            }
        };
        let problems = self.problems(object);
        if !problems.is_empty() {
            return Err(ArgumentsError::Invalid(format!(
                "invalid arguments for {}: {}",
                self.tool_name,
                problems.join("; ")
            )));
        }
        let is_presentation =
            |name: &str| self.presentation.iter().any(|parameter| parameter.name() == name);
        let given = object.iter().filter(|(_, value)| !value.is_null());
        let forwarded: Map<String, Value> = given
            .clone()
            .filter(|(name, _)| !is_presentation(name))
            .map(|(name, value)| (name.clone(), value.clone()))
            .collect();
        let presentation: Vec<(&String, &Value)> =
            given.filter(|(name, _)| is_presentation(name)).collect();
        let request = Request::parse(self.method.as_str(), &Value::Object(forwarded))
            .map_err(ArgumentsError::Refused)?;
        Ok(CheckedArguments {
            request,
            presentation_texts: presentation
                .iter()
                .filter_map(|(name, value)| Some((name.to_string(), value.as_str()?.to_string())))
                .collect(),
            presentation_integers: presentation
                .iter()
                .filter_map(|(name, value)| Some((name.to_string(), value.as_u64()?)))
                .collect(),
            cursor_offset: cursor_offset_of(object.get("cursor").and_then(Value::as_str)),
        })
    }

    /// Every problem of the arguments: wrong values, unknown names, missing ones.
    fn problems(&self, object: &Map<String, Value>) -> Vec<String> {
        let mut problems = Vec::new();
        for (name, value) in object {
            match self.all_parameters().find(|parameter| parameter.name() == name) {
                // An explicit null is treated as the argument left out.
                Some(_) if value.is_null() => {}
                Some(parameter) => problems.extend(parameter_value_problem(parameter, value)),
                None => {
                    let names: Vec<&str> =
                        self.all_parameters().map(ParameterSpecification::name).collect();
                    problems.push(format!(
                        "unknown argument \"{name}\"; {} accepts {}",
                        self.tool_name,
                        quoted_list(&names)
                    ))
                }
            }
        }
        let given = |name: &str| object.get(name).is_some_and(|value| !value.is_null());
        for parameter in self.all_parameters().filter(|parameter| parameter.required) {
            if !given(parameter.name()) {
                problems.push(format!(
                    "missing \"{}\": {}",
                    parameter.name(),
                    parameter.parameter.description
                ));
            }
        }
        if !self.requires_one_of.is_empty() && !self.requires_one_of.iter().any(|name| given(name))
        {
            problems.push(format!("pass one of {}", quoted_list(self.requires_one_of)));
        }
        problems
    }
}

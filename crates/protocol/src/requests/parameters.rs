//! A method's parameters declared once: each request module's table of names, kinds, bounds
//! and descriptions, from which the daemon's strict reader, the MCP tools' input schemas and
//! the CLI's bounds are all made; and the reader and writer of a call's named parameters.
//!
//! It deliberately knows no method: the tables are the request modules'.

use serde_json::{Map, Value};
use tether_query::{BlastOptions, PageRequest};

use crate::rpc::RpcError;

/// What a parameter's value must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParameterKind {
    Text,
    /// A whole number in these bounds. The wire reads any non-negative integer and leaves
    /// the bounds to the method (a `limit` above the maximum is that maximum); the MCP
    /// schema and the CLI refuse a value outside them.
    Integer {
        minimum: i64,
        maximum: i64,
    },
    Boolean,
    TextList,
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// A list of objects, each with these fields (a batch of traces, a trace's evidence).
    ObjectList(&'static ObjectFields),
}

/// The fields of each object of an [`ParameterKind::ObjectList`], and those each must have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjectFields {
    pub fields: &'static [Parameter],
    pub required: &'static [&'static str],
    /// At most this many objects in the list.
    pub most: usize,
}

/// One named parameter of a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameter {
    pub name: &'static str,
    pub kind: ParameterKind,
    /// What to pass, written for a person or a model choosing the value.
    pub description: &'static str,
}

impl Parameter {
    /// An integer parameter's bounds, for a command line's range (`None` for other kinds).
    pub fn integer_bounds(&self) -> Option<(i64, i64)> {
        match self.kind {
            ParameterKind::Integer { minimum, maximum } => Some((minimum, maximum)),
            _ => None,
        }
    }
}

/// A parameter, for the `const` tables of the request modules.
pub const fn parameter(
    name: &'static str,
    kind: ParameterKind,
    description: &'static str,
) -> Parameter {
    Parameter { name, kind, description }
}

/// How a symbol is addressed, in every method that takes one.
pub const SYMBOL_ADDRESS: &str = "A qualified name or a unique suffix of one (Class.method, Type::method), path:line[:column], or an id from an answer.";

pub const SYMBOL: Parameter = parameter("symbol", ParameterKind::Text, SYMBOL_ADDRESS);

pub const LIMIT: Parameter = parameter(
    "limit",
    ParameterKind::Integer { minimum: 1, maximum: PageRequest::MAX_LIMIT as i64 },
    "Items per page (default 20).",
);

pub const CURSOR: Parameter =
    parameter("cursor", ParameterKind::Text, "From the previous page's answer.");

pub const DEPTH: Parameter = parameter(
    "depth",
    ParameterKind::Integer { minimum: 1, maximum: BlastOptions::MAX_DEPTH as i64 },
    "How many dependency hops to walk (1-8, default 3).",
);

pub const TESTS_LIMIT: Parameter = parameter(
    "tests_limit",
    ParameterKind::Integer { minimum: 1, maximum: BlastOptions::MAX_TESTS_LIMIT as i64 },
    "How many affected tests to list (default 100, at most 10,000).",
);

/// A file a method is about, relative to the repository root or absolute.
pub const PATH: Parameter =
    parameter("path", ParameterKind::Text, "A repository-relative file path (instead of symbol).");

/// The kinds of memory entry, as `record` and `search_memory` name them.
pub const ENTRY_TYPES: &[&str] =
    &["plan", "checkpoint", "experiment", "decision", "todo", "note", "annotation"];

/// A call's named parameters, read by type. Names the method does not take are refused
/// when the reader is made.
pub struct ParamsReader<'a> {
    params: Option<&'a Map<String, Value>>,
}

impl<'a> ParamsReader<'a> {
    /// `method` names the method in messages; `accepted` is its table.
    pub fn new(
        method: &str,
        accepted: &[Parameter],
        params: &'a Value,
    ) -> Result<ParamsReader<'a>, RpcError> {
        let params = match params {
            Value::Null => None,
            Value::Object(map) => Some(map),
            _ => {
                return Err(RpcError::invalid_params(
                    "\"params\" must be an object of named parameters",
                ))
            }
        };
        let unknown: Vec<&str> = params
            .into_iter()
            .flat_map(|map| map.keys())
            .map(String::as_str)
            .filter(|name| !accepted.iter().any(|parameter| parameter.name == *name))
            .collect();
        if !unknown.is_empty() {
            let names: Vec<&str> = accepted.iter().map(|parameter| parameter.name).collect();
            let takes =
                if names.is_empty() { "no parameters".to_string() } else { names.join(", ") };
            return Err(RpcError::invalid_params(format!(
                "{method} does not take {}; it takes {takes}",
                unknown.iter().map(|name| format!("{name:?}")).collect::<Vec<_>>().join(", ")
            )));
        }
        Ok(ParamsReader { params })
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.params.and_then(|map| map.get(name)).filter(|value| !value.is_null())
    }

    pub fn text(&self, name: &str) -> Result<Option<&'a str>, RpcError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.as_str())),
            Some(_) => Err(RpcError::invalid_params(format!("\"{name}\" must be a string"))),
        }
    }

    /// A text parameter, owned.
    pub fn owned_text(&self, name: &str) -> Result<Option<String>, RpcError> {
        Ok(self.text(name)?.map(str::to_string))
    }

    /// A text parameter trimmed; an empty one is absent.
    pub fn trimmed_text(&self, name: &str) -> Result<Option<String>, RpcError> {
        Ok(self.text(name)?.map(str::trim).filter(|text| !text.is_empty()).map(str::to_string))
    }

    /// A text parameter the method cannot do without; `missing` says what to pass.
    pub fn required_text(&self, name: &str, missing: &str) -> Result<String, RpcError> {
        self.owned_text(name)?.ok_or_else(|| RpcError::invalid_params(missing))
    }

    pub fn count(&self, name: &str) -> Result<Option<usize>, RpcError> {
        match self.get(name) {
            None => Ok(None),
            Some(value) => value
                .as_u64()
                .map(|number| Some(usize::try_from(number).unwrap_or(usize::MAX)))
                .ok_or_else(|| {
                    RpcError::invalid_params(format!("\"{name}\" must be a non-negative integer"))
                }),
        }
    }

    /// A non-negative integer that fits an `i64` (an editor's document version); larger
    /// values are refused, never wrapped.
    pub fn version(&self, name: &str) -> Result<Option<i64>, RpcError> {
        match self.get(name) {
            None => Ok(None),
            Some(value) => {
                value.as_u64().and_then(|number| i64::try_from(number).ok()).map(Some).ok_or_else(
                    || {
                        RpcError::invalid_params(format!(
                            "\"{name}\" must be an integer from 0 to {}",
                            i64::MAX
                        ))
                    },
                )
            }
        }
    }

    pub fn flag(&self, name: &str) -> Result<Option<bool>, RpcError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(value)) => Ok(Some(*value)),
            Some(_) => Err(RpcError::invalid_params(format!("\"{name}\" must be true or false"))),
        }
    }

    /// A list of strings; any other element is refused, not dropped.
    pub fn texts(&self, name: &str) -> Result<Vec<String>, RpcError> {
        let refuse = || RpcError::invalid_params(format!("\"{name}\" must be a list of strings"));
        match self.get(name) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| item.as_str().map(str::to_string).ok_or_else(refuse))
                .collect(),
            Some(_) => Err(refuse()),
        }
    }

    /// A list of objects, each read strictly against `fields` (unknown names refused); the
    /// errors of an element name it (`traces[1].subject`).
    pub fn objects(
        &self,
        name: &str,
        fields: &ObjectFields,
    ) -> Result<Vec<ParamsReader<'a>>, RpcError> {
        let items = match self.get(name) {
            None => return Ok(Vec::new()),
            Some(Value::Array(items)) => items,
            Some(_) => {
                return Err(RpcError::invalid_params(format!(
                    "\"{name}\" must be a list of objects"
                )))
            }
        };
        if items.len() > fields.most {
            return Err(RpcError::invalid_params(format!(
                "\"{name}\" holds {} objects; at most {} are taken at once",
                items.len(),
                fields.most
            )));
        }
        items
            .iter()
            .enumerate()
            .map(|(index, item)| {
                let element = format!("{name}[{index}]");
                if !item.is_object() {
                    return Err(RpcError::invalid_params(format!(
                        "\"{element}\" must be an object"
                    )));
                }
                let reader = ParamsReader::new(&element, fields.fields, item)?;
                for required in fields.required {
                    if reader.get(required).is_none() {
                        return Err(RpcError::invalid_params(format!(
                            "\"{element}.{required}\" is missing"
                        )));
                    }
                }
                Ok(reader)
            })
            .collect()
    }

    /// `cursor` and `limit` as a page.
    pub fn page(&self) -> Result<PageRequest, RpcError> {
        PageRequest::new(self.text("cursor")?, self.count("limit")?)
            .map_err(RpcError::invalid_params)
    }
}

/// An element's error, naming the element (`traces[1]: "subject" must be a string`).
pub fn prefixed(element: &str, error: RpcError) -> RpcError {
    RpcError { message: format!("{element}: {}", error.message), ..error }
}

/// A call's named parameters as a client writes them: absent values are left out.
#[derive(Default)]
pub struct ParamsWriter {
    params: Map<String, Value>,
}

impl ParamsWriter {
    pub fn put(&mut self, name: &str, value: impl Into<Value>) {
        let value = value.into();
        if !value.is_null() {
            self.params.insert(name.to_string(), value);
        }
    }

    pub fn put_text(&mut self, name: &str, value: &Option<String>) {
        if let Some(value) = value {
            self.put(name, value.as_str());
        }
    }

    pub fn put_count(&mut self, name: &str, value: Option<usize>) {
        if let Some(value) = value {
            self.put(name, value);
        }
    }

    /// A list, left out when empty.
    pub fn put_texts(&mut self, name: &str, values: &[String]) {
        if !values.is_empty() {
            self.put(name, values.to_vec());
        }
    }

    /// `limit`, and `cursor` past the first page.
    pub fn put_page(&mut self, page: &PageRequest) {
        self.put("limit", page.limit);
        if page.offset > 0 {
            self.put("cursor", format!("o:{}", page.offset));
        }
    }

    pub fn into_value(self) -> Value {
        Value::Object(self.params)
    }
}

//! Requests parsed once: a JSON-RPC call's method and named parameters become one typed
//! [`Request`], which the daemon then applies (mini-redis's `Command::from_frame`, then
//! `apply`). Parameters are read strictly: a value of the wrong JSON type, or a name the
//! method does not take, is refused with `-32602` and the names it takes.
//!
//! It deliberately checks only the shape of a request: whether a path lies inside the
//! repository, a revision exists or a symbol resolves is the daemon's to decide.

use serde_json::{Map, Value};
use tether_query::PageRequest;

use crate::rpc::RpcError;

/// The methods, by the names the wire spells (`Method::as_str`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Method {
    Status,
    Lookup,
    Callers,
    Callees,
    Imports,
    Blast,
    Ownership,
    Changes,
    Context,
    SearchMemory,
    Record,
    Reindex,
    CoverageImport,
    Subscribe,
    Outline,
    BufferUpdate,
    BufferClose,
    Export,
    Cypher,
    Shutdown,
}

impl Method {
    pub const ALL: [Method; 20] = [
        Method::Status,
        Method::Lookup,
        Method::Callers,
        Method::Callees,
        Method::Imports,
        Method::Blast,
        Method::Ownership,
        Method::Changes,
        Method::Context,
        Method::SearchMemory,
        Method::Record,
        Method::Reindex,
        Method::CoverageImport,
        Method::Subscribe,
        Method::Outline,
        Method::BufferUpdate,
        Method::BufferClose,
        Method::Export,
        Method::Cypher,
        Method::Shutdown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Method::Status => "status",
            Method::Lookup => "lookup",
            Method::Callers => "callers",
            Method::Callees => "callees",
            Method::Imports => "imports",
            Method::Blast => "blast",
            Method::Ownership => "ownership",
            Method::Changes => "changes",
            Method::Context => "context",
            Method::SearchMemory => "search_memory",
            Method::Record => "record",
            Method::Reindex => "reindex",
            Method::CoverageImport => "coverage_import",
            Method::Subscribe => "subscribe",
            Method::Outline => "outline",
            Method::BufferUpdate => "buffer_update",
            Method::BufferClose => "buffer_close",
            Method::Export => "export",
            Method::Cypher => "cypher",
            Method::Shutdown => "shutdown",
        }
    }

    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|method| method.as_str() == name)
    }

    /// The parameters the method takes, in the order docs/protocol.md lists them.
    pub fn parameter_names(self) -> &'static [&'static str] {
        match self {
            Method::Status
            | Method::Reindex
            | Method::Subscribe
            | Method::Export
            | Method::Shutdown => &[],
            Method::Lookup => &["query", "folder", "limit", "cursor"],
            Method::Callers | Method::Callees | Method::Imports => &["symbol", "limit", "cursor"],
            Method::Blast => &["symbol", "file", "depth", "tests_limit", "limit", "cursor"],
            Method::Ownership => {
                &["symbol", "path", "exclude_authors", "follow_moves", "ignore_revs_file"]
            }
            Method::Changes => &[
                "scope",
                "base",
                "range",
                "include_whitespace",
                "depth",
                "tests_limit",
                "limit",
                "cursor",
            ],
            Method::Context => &["symbol", "path"],
            Method::SearchMemory => {
                &["query", "type", "status", "symbol", "path", "limit", "cursor"]
            }
            Method::Record => &[
                "type",
                "title",
                "body",
                "parent",
                "files",
                "commit",
                "tags",
                "supersedes",
                "depends_on",
                "related",
                "id",
                "dry_run",
            ],
            Method::CoverageImport => &["file"],
            Method::Outline | Method::BufferClose => &["path"],
            Method::Cypher => &["statement"],
            Method::BufferUpdate => &["path", "text", "version"],
        }
    }
}

/// What a symbol-or-file request is about, as the client named it (not yet resolved).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Subject {
    /// An address: id, `path:line`, qualified name or a unique suffix.
    Symbol(String),
    /// A repository path, as given.
    Path(String),
}

/// How `ownership` runs git blame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlameParams {
    /// Credit moved and copied lines to who wrote them, not who moved them (`-w -M -C`).
    pub follow_moves: bool,
    /// Skip the commits `.git-blame-ignore-revs` lists (mass reformats), when it exists.
    pub ignore_revs_file: bool,
}

impl Default for BlameParams {
    fn default() -> BlameParams {
        BlameParams { follow_moves: true, ignore_revs_file: true }
    }
}

/// `blast`'s and `changes`' walk: depth, how many tests to list, the page of items.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct WalkParams {
    pub depth: Option<usize>,
    pub tests_limit: Option<usize>,
    pub page: PageRequest,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChangesParams {
    pub scope: Option<String>,
    pub base: Option<String>,
    pub range: Option<String>,
    pub include_whitespace: bool,
    pub walk: WalkParams,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchMemoryParams {
    pub query: String,
    pub entry_type: Option<String>,
    pub status: Option<String>,
    /// Only entries tethered to this symbol or file.
    pub tethered_to: Option<Subject>,
    pub page: PageRequest,
}

/// `record`'s fields as sent: text fields trimmed, empty ones absent. Their meaning (a known
/// type, a one-line title, existing ids) is checked by the memory feature.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RecordParams {
    pub entry_type: Option<String>,
    pub title: Option<String>,
    pub body: String,
    pub files: Vec<String>,
    pub commit: Option<String>,
    pub tags: Vec<String>,
    pub parent: Option<String>,
    pub id: Option<String>,
    pub supersedes: Vec<String>,
    pub depends_on: Vec<String>,
    pub related: Vec<String>,
    /// Check the entry and say what would be committed, writing nothing.
    pub dry_run: bool,
}

/// One request, parsed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Request {
    Status,
    Reindex,
    /// Notifications of published graphs on this connection (`graph_published`).
    Subscribe,
    /// The published graph as `tether export` writes it (`protocol::write_export_json`).
    Export,
    /// One read-only Cypher statement against the daemon's database.
    Cypher {
        statement: String,
    },
    Shutdown,
    /// Without a query: the census.
    Lookup {
        query: Option<String>,
        folder: Option<String>,
        page: PageRequest,
    },
    Callers {
        symbol: String,
        page: PageRequest,
    },
    Callees {
        symbol: String,
        page: PageRequest,
    },
    Imports {
        symbol: String,
        page: PageRequest,
    },
    /// A symbol's or a file's blast (`file` wins when both are given).
    Blast {
        subject: Subject,
        walk: WalkParams,
    },
    /// A symbol's lines, or a whole file.
    Ownership {
        subject: Subject,
        exclude_authors: Vec<String>,
        blame: BlameParams,
    },
    Changes(ChangesParams),
    Context {
        subject: Subject,
    },
    SearchMemory(SearchMemoryParams),
    Record(RecordParams),
    CoverageImport {
        file: String,
    },
    /// The symbols of one file, in line order (an editor's code lenses).
    Outline {
        path: String,
    },
    /// An unsaved editor buffer: until closed, this connection's answers come from a graph
    /// built with `text` in place of the file on disk.
    BufferUpdate {
        path: String,
        text: String,
        version: i64,
    },
    /// The buffer is closed: the file on disk is what counts again for this connection.
    BufferClose {
        path: String,
    },
}

const MISSING_SYMBOL: &str =
    "missing \"symbol\": a qualified name, a unique suffix, path:line, or an id";

impl Request {
    /// `lookup` without a query: the census of the graph.
    pub fn census() -> Request {
        Request::Lookup {
            query: None,
            folder: None,
            page: PageRequest { offset: 0, limit: PageRequest::DEFAULT_LIMIT },
        }
    }

    /// Parses a call: an unknown method is `-32601`, bad parameters `-32602`.
    pub fn parse(method: &str, params: &Value) -> Result<Request, RpcError> {
        let method = Method::from_name(method).ok_or_else(|| {
            let names: Vec<&str> = Method::ALL.iter().map(|method| method.as_str()).collect();
            RpcError::new(
                RpcError::METHOD_NOT_FOUND,
                format!("unknown method {method:?}; methods: {}", names.join(", ")),
            )
        })?;
        let reader = ParamsReader::new(method, params)?;
        let request = Request::read(method, &reader)?;
        Ok(request)
    }

    fn read(method: Method, params: &ParamsReader) -> Result<Request, RpcError> {
        let page = || {
            PageRequest::new(params.text("cursor")?, params.count("limit")?)
                .map_err(RpcError::invalid_params)
        };
        let symbol = || {
            params
                .text("symbol")?
                .map(str::to_string)
                .ok_or_else(|| RpcError::invalid_params(MISSING_SYMBOL))
        };
        let symbol_or_path = || -> Result<Option<Subject>, RpcError> {
            Ok(match (params.text("symbol")?, params.text("path")?) {
                (Some(symbol), _) => Some(Subject::Symbol(symbol.into())),
                (None, Some(path)) => Some(Subject::Path(path.into())),
                (None, None) => None,
            })
        };
        let either = || {
            symbol_or_path()?
                .ok_or_else(|| RpcError::invalid_params("name a \"symbol\" or a \"path\""))
        };
        let required_path = || -> Result<String, RpcError> {
            params.text("path")?.map(str::to_string).ok_or_else(|| {
                RpcError::invalid_params(
                    "missing \"path\": a file, relative to the repository root or absolute",
                )
            })
        };
        let walk = || -> Result<WalkParams, RpcError> {
            Ok(WalkParams {
                depth: params.count("depth")?,
                tests_limit: params.count("tests_limit")?,
                page: page()?,
            })
        };
        let trimmed = |name: &str| -> Result<Option<String>, RpcError> {
            Ok(params
                .text(name)?
                .map(str::trim)
                .filter(|text| !text.is_empty())
                .map(str::to_string))
        };
        Ok(match method {
            Method::Status => Request::Status,
            Method::Reindex => Request::Reindex,
            Method::Subscribe => Request::Subscribe,
            Method::Export => Request::Export,
            Method::Cypher => match params.text("statement")?.map(str::trim) {
                Some(statement) if !statement.is_empty() => {
                    Request::Cypher { statement: statement.to_string() }
                }
                _ => return Err(RpcError::invalid_params("missing \"statement\" (one Cypher statement)")),
            },
            Method::Shutdown => Request::Shutdown,
            Method::Lookup => Request::Lookup { page: page()?, query: params.text("query")?.map(str::to_string), folder: params.text("folder")?.map(str::to_string) },
            Method::Callers => Request::Callers { page: page()?, symbol: symbol()? },
            Method::Callees => Request::Callees { page: page()?, symbol: symbol()? },
            Method::Imports => Request::Imports { page: page()?, symbol: symbol()? },
            Method::Blast => {
                let walk = walk()?;
                let subject = match params.text("file")? {
                    Some(file) => Subject::Path(file.into()),
                    None => Subject::Symbol(symbol()?),
                };
                Request::Blast { subject, walk }
            }
            Method::Ownership => {
                let exclude_authors = params.texts("exclude_authors")?;
                let blame = BlameParams {
                    follow_moves: params.flag("follow_moves")?.unwrap_or(true),
                    ignore_revs_file: params.flag("ignore_revs_file")?.unwrap_or(true),
                };
                Request::Ownership { subject: either()?, exclude_authors, blame }
            }
            Method::Changes => Request::Changes(ChangesParams {
                walk: walk()?,
                include_whitespace: params.flag("include_whitespace")?.unwrap_or(false),
                scope: params.text("scope")?.map(str::to_string),
                base: params.text("base")?.map(str::to_string),
                range: params.text("range")?.map(str::to_string),
            }),
            Method::Context => Request::Context { subject: either()? },
            Method::SearchMemory => Request::SearchMemory(SearchMemoryParams {
                page: page()?,
                query: params.text("query")?.unwrap_or("").to_string(),
                entry_type: params.text("type")?.map(str::to_string),
                status: params.text("status")?.map(str::to_string),
                tethered_to: symbol_or_path()?,
            }),
            Method::Record => Request::Record(RecordParams {
                entry_type: trimmed("type")?,
                title: trimmed("title")?,
                body: params.text("body")?.unwrap_or("").to_string(),
                files: params.texts("files")?,
                commit: trimmed("commit")?,
                tags: params.texts("tags")?,
                parent: trimmed("parent")?,
                id: trimmed("id")?,
                supersedes: params.texts("supersedes")?,
                depends_on: params.texts("depends_on")?,
                related: params.texts("related")?,
                dry_run: params.flag("dry_run")?.unwrap_or(false),
            }),
            Method::Outline => Request::Outline { path: required_path()? },
            Method::BufferClose => Request::BufferClose { path: required_path()? },
            Method::BufferUpdate => Request::BufferUpdate {
                path: required_path()?,
                text: params.text("text")?.map(str::to_string).ok_or_else(|| {
                    RpcError::invalid_params("missing \"text\": the buffer's whole text")
                })?,
                version: params.version("version")?.unwrap_or(0),
            },
            Method::CoverageImport => Request::CoverageImport {
                file: params.text("file")?.map(str::to_string).ok_or_else(|| {
                    RpcError::invalid_params("missing \"file\": a coverage.py JSON report (`coverage json --show-contexts`) or an LCOV tracefile with `TN:` test names")
                })?,
            },
        })
    }

    /// The request's named parameters as the wire carries them (a client's side): what
    /// [`Request::parse`] reads back into the same request.
    pub fn to_params(&self) -> Value {
        let mut params = Map::new();
        let mut put = |name: &str, value: Value| {
            if !value.is_null() {
                params.insert(name.to_string(), value);
            }
        };
        let page = |put: &mut dyn FnMut(&str, Value), page: &PageRequest| {
            put("limit", Value::from(page.limit));
            if page.offset > 0 {
                put("cursor", Value::from(format!("o:{}", page.offset)));
            }
        };
        let subject =
            |put: &mut dyn FnMut(&str, Value), subject: &Subject, path_name: &str| match subject {
                Subject::Symbol(symbol) => put("symbol", Value::from(symbol.as_str())),
                Subject::Path(path) => put(path_name, Value::from(path.as_str())),
            };
        let walk = |put: &mut dyn FnMut(&str, Value), walk: &WalkParams| {
            put("depth", walk.depth.map(Value::from).unwrap_or(Value::Null));
            put("tests_limit", walk.tests_limit.map(Value::from).unwrap_or(Value::Null));
            page(put, &walk.page);
        };
        let text =
            |value: &Option<String>| value.as_deref().map(Value::from).unwrap_or(Value::Null);
        let texts = |values: &[String]| {
            if values.is_empty() {
                Value::Null
            } else {
                Value::from(values.to_vec())
            }
        };
        match self {
            Request::Status
            | Request::Reindex
            | Request::Subscribe
            | Request::Export
            | Request::Shutdown => {}
            Request::Lookup { query, folder, page: lookup_page } => {
                put("query", text(query));
                put("folder", text(folder));
                page(&mut put, lookup_page);
            }
            Request::Callers { symbol, page: neighbours_page }
            | Request::Callees { symbol, page: neighbours_page }
            | Request::Imports { symbol, page: neighbours_page } => {
                put("symbol", Value::from(symbol.as_str()));
                page(&mut put, neighbours_page);
            }
            Request::Blast { subject: blast_subject, walk: blast_walk } => {
                subject(&mut put, blast_subject, "file");
                walk(&mut put, blast_walk);
            }
            Request::Ownership { subject: owned, exclude_authors, blame } => {
                subject(&mut put, owned, "path");
                put("exclude_authors", texts(exclude_authors));
                put("follow_moves", Value::from(blame.follow_moves));
                put("ignore_revs_file", Value::from(blame.ignore_revs_file));
            }
            Request::Changes(changes) => {
                put("scope", text(&changes.scope));
                put("base", text(&changes.base));
                put("range", text(&changes.range));
                put("include_whitespace", Value::from(changes.include_whitespace));
                walk(&mut put, &changes.walk);
            }
            Request::Context { subject: context_subject } => {
                subject(&mut put, context_subject, "path")
            }
            Request::SearchMemory(search) => {
                put("query", Value::from(search.query.as_str()));
                put("type", text(&search.entry_type));
                put("status", text(&search.status));
                if let Some(tethered_to) = &search.tethered_to {
                    subject(&mut put, tethered_to, "path");
                }
                page(&mut put, &search.page);
            }
            Request::Record(record) => {
                put("type", text(&record.entry_type));
                put("title", text(&record.title));
                put("body", Value::from(record.body.as_str()));
                put("files", texts(&record.files));
                put("commit", text(&record.commit));
                put("tags", texts(&record.tags));
                put("parent", text(&record.parent));
                put("id", text(&record.id));
                put("supersedes", texts(&record.supersedes));
                put("depends_on", texts(&record.depends_on));
                put("related", texts(&record.related));
                put("dry_run", Value::from(record.dry_run));
            }
            Request::CoverageImport { file } => put("file", Value::from(file.as_str())),
            Request::Outline { path } | Request::BufferClose { path } => {
                put("path", Value::from(path.as_str()))
            }
            Request::Cypher { statement } => put("statement", Value::from(statement.as_str())),
            Request::BufferUpdate { path, text, version } => {
                put("path", Value::from(path.as_str()));
                put("text", Value::from(text.as_str()));
                put("version", Value::from(*version));
            }
        }
        Value::Object(params)
    }

    pub fn method(&self) -> Method {
        match self {
            Request::Status => Method::Status,
            Request::Reindex => Method::Reindex,
            Request::Subscribe => Method::Subscribe,
            Request::Export => Method::Export,
            Request::Cypher { .. } => Method::Cypher,
            Request::Shutdown => Method::Shutdown,
            Request::Lookup { .. } => Method::Lookup,
            Request::Callers { .. } => Method::Callers,
            Request::Callees { .. } => Method::Callees,
            Request::Imports { .. } => Method::Imports,
            Request::Blast { .. } => Method::Blast,
            Request::Ownership { .. } => Method::Ownership,
            Request::Changes(_) => Method::Changes,
            Request::Context { .. } => Method::Context,
            Request::SearchMemory(_) => Method::SearchMemory,
            Request::Record(_) => Method::Record,
            Request::CoverageImport { .. } => Method::CoverageImport,
            Request::Outline { .. } => Method::Outline,
            Request::BufferUpdate { .. } => Method::BufferUpdate,
            Request::BufferClose { .. } => Method::BufferClose,
        }
    }
}

/// A method's named parameters, read by type; names the method does not take are refused
/// when the reader is made.
struct ParamsReader<'a> {
    params: Option<&'a Map<String, Value>>,
}

impl<'a> ParamsReader<'a> {
    fn new(method: Method, params: &'a Value) -> Result<ParamsReader<'a>, RpcError> {
        let params = match params {
            Value::Null => None,
            Value::Object(map) => Some(map),
            _ => {
                return Err(RpcError::invalid_params(
                    "\"params\" must be an object of named parameters",
                ))
            }
        };
        let accepted = method.parameter_names();
        let unknown: Vec<&str> = params
            .into_iter()
            .flat_map(|map| map.keys())
            .map(String::as_str)
            .filter(|name| !accepted.contains(name))
            .collect();
        if !unknown.is_empty() {
            let takes =
                if accepted.is_empty() { "no parameters".to_string() } else { accepted.join(", ") };
            return Err(RpcError::invalid_params(format!(
                "{} does not take {}; it takes {takes}",
                method.as_str(),
                unknown.iter().map(|name| format!("{name:?}")).collect::<Vec<_>>().join(", ")
            )));
        }
        Ok(ParamsReader { params })
    }

    fn get(&self, name: &str) -> Option<&'a Value> {
        self.params.and_then(|map| map.get(name)).filter(|value| !value.is_null())
    }

    fn text(&self, name: &str) -> Result<Option<&'a str>, RpcError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text.as_str())),
            Some(_) => Err(RpcError::invalid_params(format!("\"{name}\" must be a string"))),
        }
    }

    fn count(&self, name: &str) -> Result<Option<usize>, RpcError> {
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
    fn version(&self, name: &str) -> Result<Option<i64>, RpcError> {
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

    fn flag(&self, name: &str) -> Result<Option<bool>, RpcError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(value)) => Ok(Some(*value)),
            Some(_) => Err(RpcError::invalid_params(format!("\"{name}\" must be true or false"))),
        }
    }

    /// A list of strings; any other element is refused, not dropped.
    fn texts(&self, name: &str) -> Result<Vec<String>, RpcError> {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(method: &str, params: Value) -> String {
        let error = Request::parse(method, &params).unwrap_err();
        format!("{} {}", error.code, error.message)
    }

    #[test]
    fn a_call_is_parsed_once_into_its_typed_request() {
        let blast = Request::parse("blast", &json!({"file": "a.py", "symbol": "x", "depth": 2}));
        let Ok(Request::Blast { subject, walk }) = blast else { panic!("{blast:?}") };
        assert_eq!(
            (subject, walk.depth, walk.page.limit),
            (Subject::Path("a.py".into()), Some(2), 20)
        );
        assert_eq!(Request::parse("status", &Value::Null), Ok(Request::Status));
        let record =
            Request::parse("record", &json!({"type": " decision ", "title": "", "files": ["a"]}));
        let Ok(Request::Record(record)) = record else { panic!("{record:?}") };
        assert_eq!(
            (record.entry_type.as_deref(), record.title, record.files),
            (Some("decision"), None, vec!["a".to_string()])
        );
        for method in Method::ALL {
            assert_eq!(Method::from_name(method.as_str()), Some(method));
        }
    }

    #[test]
    fn every_request_written_as_params_parses_back_to_itself() {
        let page = PageRequest::new(Some("o:40"), Some(5)).unwrap();
        let walk = WalkParams { depth: Some(2), tests_limit: None, page };
        let requests = [
            Request::Status,
            Request::Lookup { query: Some("parse".into()), folder: None, page },
            Request::Callers { symbol: "a.b".into(), page },
            Request::Blast { subject: Subject::Path("a.py".into()), walk },
            Request::Blast { subject: Subject::Symbol("a.b".into()), walk },
            Request::Ownership {
                subject: Subject::Path("a.py".into()),
                exclude_authors: vec!["bot".into()],
                blame: BlameParams { follow_moves: false, ignore_revs_file: true },
            },
            Request::Changes(ChangesParams {
                scope: Some("staged".into()),
                base: None,
                range: None,
                include_whitespace: true,
                walk,
            }),
            Request::Context { subject: Subject::Symbol("a.b".into()) },
            Request::SearchMemory(SearchMemoryParams {
                query: "x".into(),
                entry_type: Some("note".into()),
                status: None,
                tethered_to: Some(Subject::Path("a.py".into())),
                page,
            }),
            Request::Record(RecordParams {
                entry_type: Some("note".into()),
                title: Some("T".into()),
                files: vec!["a.py".into()],
                ..RecordParams::default()
            }),
            Request::CoverageImport { file: "c.json".into() },
        ];
        for request in requests {
            let params = request.to_params();
            assert_eq!(
                Request::parse(request.method().as_str(), &params),
                Ok(request.clone()),
                "{params}"
            );
        }
    }

    #[test]
    fn unknown_names_wrong_types_and_missing_subjects_are_refused() {
        assert_eq!(
            refused("callers", json!({"symbol": "x", "depht": 2})),
            "-32602 callers does not take \"depht\"; it takes symbol, limit, cursor"
        );
        assert_eq!(
            refused("status", json!({"verbose": true})),
            "-32602 status does not take \"verbose\"; it takes no parameters"
        );
        assert_eq!(
            refused("blast", json!({"symbol": "x", "depth": "3"})),
            "-32602 \"depth\" must be a non-negative integer"
        );
        assert_eq!(
            refused("record", json!({"files": [1]})),
            "-32602 \"files\" must be a list of strings"
        );
        assert_eq!(
            refused(
                "buffer_update",
                json!({"path": "a.py", "text": "", "version": 9223372036854775808u64})
            ),
            "-32602 \"version\" must be an integer from 0 to 9223372036854775807"
        );
        assert!(Request::parse(
            "buffer_update",
            &json!({"path": "a.py", "text": "", "version": 9223372036854775807u64})
        )
        .is_ok());
        assert_eq!(refused("callers", json!({})), format!("-32602 {MISSING_SYMBOL}"));
        assert_eq!(refused("context", json!({})), "-32602 name a \"symbol\" or a \"path\"");
        assert_eq!(
            refused("lookup", json!(["x"])),
            "-32602 \"params\" must be an object of named parameters"
        );
        assert!(refused("lookup", json!({"cursor": "zz"})).contains("invalid cursor"));
        assert!(refused("frobnicate", json!({}))
            .starts_with("-32601 unknown method \"frobnicate\"; methods: status, lookup"));
    }
}

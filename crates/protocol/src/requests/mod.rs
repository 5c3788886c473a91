//! Requests parsed once: a JSON-RPC call's method and named parameters become one typed
//! [`WireRequest`], which the daemon then applies (mini-redis's `Command::from_frame`, then
//! `apply`). Each method is one module here holding its parameter table (names, kinds,
//! bounds, descriptions), its params struct, its reader and its writer; the table below
//! joins them. Parameters are read strictly: a value of the wrong JSON type, or a name the
//! method does not take, is refused with `-32602` and the names it takes.
//!
//! A request is either a [`Request`], which a handler answers from the graph and the memory,
//! or a [`ConnectionRequest`] (`subscribe`, `shutdown`, the buffers), which only the server
//! holding the connection can carry out; the types keep them apart, so no handler refuses
//! one at run time.
//!
//! It deliberately checks only the shape of a request: whether a path lies inside the
//! repository, a revision exists or a symbol resolves is the daemon's to decide.

mod blast;
mod buffers;
mod changes;
mod context;
mod coverage_import;
mod cypher;
mod health;
mod index_report;
mod lookup;
mod neighbours;
mod outline;
mod ownership;
mod parameters;
mod recall;
mod record;
mod record_trace;
mod research_tree;
mod search_memory;
#[cfg(test)]
mod tests;

use serde_json::Value;
use tether_query::PageRequest;

use crate::rpc::RpcError;
pub use blast::WalkParams;
pub use changes::ChangesParams;
pub use health::{HealthParams, DEFAULT_HEALTH_COMMITS, HEALTH_SUMMARY_LIMIT, MAX_HEALTH_COMMITS};
pub use ownership::BlameParams;
pub use parameters::{ObjectFields, Parameter, ParameterKind, ENTRY_TYPES, SYMBOL_ADDRESS};
pub use recall::{RecallParams, MAX_RECALL_DEPTH, MAX_RECALL_NODES, MAX_RECALL_TOKENS};
pub use record::RecordParams;
pub use record_trace::{
    EvidenceRefParams, RecordTraceParams, TraceParams, MAX_EVIDENCE_REFS, MAX_TRACES_PER_BATCH,
};
pub use research_tree::TreeParams;
pub use search_memory::SearchMemoryParams;

use parameters::{ParamsReader, ParamsWriter};

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
    IndexReport,
    Health,
    RecordTrace,
    Recall,
    Tree,
    OpenPhases,
    Brief,
}

/// One method: its wire name, its parameter table and its reader.
struct MethodSpecification {
    method: Method,
    name: &'static str,
    parameters: &'static [Parameter],
    read: fn(&ParamsReader) -> Result<WireRequest, RpcError>,
}

/// Every method, in [`Method::ALL`]'s order (a test checks it).
const METHODS: [MethodSpecification; 27] = [
    MethodSpecification {
        method: Method::Status,
        name: "status",
        parameters: &[],
        read: |_| Ok(Request::Status.into()),
    },
    MethodSpecification {
        method: Method::Lookup,
        name: "lookup",
        parameters: lookup::PARAMETERS,
        read: |params| lookup::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Callers,
        name: "callers",
        parameters: neighbours::PARAMETERS,
        read: |params| neighbours::read_callers(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Callees,
        name: "callees",
        parameters: neighbours::PARAMETERS,
        read: |params| neighbours::read_callees(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Imports,
        name: "imports",
        parameters: neighbours::IMPORTS_PARAMETERS,
        read: |params| neighbours::read_imports(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Blast,
        name: "blast",
        parameters: blast::PARAMETERS,
        read: |params| blast::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Ownership,
        name: "ownership",
        parameters: ownership::PARAMETERS,
        read: |params| ownership::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Changes,
        name: "changes",
        parameters: changes::PARAMETERS,
        read: |params| changes::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Context,
        name: "context",
        parameters: context::PARAMETERS,
        read: |params| context::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::SearchMemory,
        name: "search_memory",
        parameters: search_memory::PARAMETERS,
        read: |params| search_memory::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Record,
        name: "record",
        parameters: record::PARAMETERS,
        read: |params| record::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Reindex,
        name: "reindex",
        parameters: &[],
        read: |_| Ok(Request::Reindex.into()),
    },
    MethodSpecification {
        method: Method::CoverageImport,
        name: "coverage_import",
        parameters: coverage_import::PARAMETERS,
        read: |params| coverage_import::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Subscribe,
        name: "subscribe",
        parameters: &[],
        read: |_| Ok(ConnectionRequest::Subscribe.into()),
    },
    MethodSpecification {
        method: Method::Outline,
        name: "outline",
        parameters: outline::PARAMETERS,
        read: |params| outline::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::BufferUpdate,
        name: "buffer_update",
        parameters: buffers::UPDATE_PARAMETERS,
        read: |params| buffers::read_update(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::BufferClose,
        name: "buffer_close",
        parameters: buffers::CLOSE_PARAMETERS,
        read: |params| buffers::read_close(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Export,
        name: "export",
        parameters: &[],
        read: |_| Ok(Request::Export.into()),
    },
    MethodSpecification {
        method: Method::Cypher,
        name: "cypher",
        parameters: cypher::PARAMETERS,
        read: |params| cypher::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Shutdown,
        name: "shutdown",
        parameters: &[],
        read: |_| Ok(ConnectionRequest::Shutdown.into()),
    },
    MethodSpecification {
        method: Method::IndexReport,
        name: "index_report",
        parameters: index_report::PARAMETERS,
        read: |params| index_report::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Health,
        name: "health",
        parameters: health::PARAMETERS,
        read: |params| health::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::RecordTrace,
        name: "record_trace",
        parameters: record_trace::PARAMETERS,
        read: |params| record_trace::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Recall,
        name: "recall",
        parameters: recall::PARAMETERS,
        read: |params| recall::read(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Tree,
        name: "tree",
        parameters: research_tree::TREE_PARAMETERS,
        read: |params| research_tree::read_tree(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::OpenPhases,
        name: "open_phases",
        parameters: research_tree::OPEN_PHASES_PARAMETERS,
        read: |params| research_tree::read_open_phases(params).map(WireRequest::from),
    },
    MethodSpecification {
        method: Method::Brief,
        name: "brief",
        parameters: research_tree::BRIEF_PARAMETERS,
        read: |params| research_tree::read_brief(params).map(WireRequest::from),
    },
];

impl Method {
    pub const ALL: [Method; 27] = [
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
        Method::IndexReport,
        Method::Health,
        Method::RecordTrace,
        Method::Recall,
        Method::Tree,
        Method::OpenPhases,
        Method::Brief,
    ];

    fn specification(self) -> &'static MethodSpecification {
        &METHODS[self as usize]
    }

    pub fn as_str(self) -> &'static str {
        self.specification().name
    }

    pub fn from_name(name: &str) -> Option<Method> {
        METHODS.iter().find(|specification| specification.name == name).map(|found| found.method)
    }

    /// The parameters the method takes, in the order docs/protocol.md lists them: the one
    /// table the daemon reads calls by, and the MCP schemas and CLI bounds are made from.
    pub fn parameters(self) -> &'static [Parameter] {
        self.specification().parameters
    }

    /// The parameter named `name`, if the method takes one.
    pub fn parameter(self, name: &str) -> Option<&'static Parameter> {
        self.parameters().iter().find(|parameter| parameter.name == name)
    }

    /// The names of [`Method::parameters`].
    pub fn parameter_names(self) -> Vec<&'static str> {
        self.parameters().iter().map(|parameter| parameter.name).collect()
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

impl Subject {
    /// `symbol`, else `path`, else none.
    fn read(params: &ParamsReader) -> Result<Option<Subject>, RpcError> {
        Ok(match (params.text("symbol")?, params.text("path")?) {
            (Some(symbol), _) => Some(Subject::Symbol(symbol.into())),
            (None, Some(path)) => Some(Subject::Path(path.into())),
            (None, None) => None,
        })
    }

    /// `symbol` or `path`, one of which must be given.
    fn read_required(params: &ParamsReader) -> Result<Subject, RpcError> {
        Subject::read(params)?
            .ok_or_else(|| RpcError::invalid_params("name a \"symbol\" or a \"path\""))
    }

    /// As `symbol`, or as the path parameter the method names `path_name`.
    fn write(&self, path_name: &str, params: &mut ParamsWriter) {
        match self {
            Subject::Symbol(symbol) => params.put("symbol", symbol.as_str()),
            Subject::Path(path) => params.put(path_name, path.as_str()),
        }
    }
}

/// A request a handler answers from the graph and the memory.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Request {
    Status,
    Reindex,
    /// The published graph as `tether export` writes it (`protocol::write_export_json`).
    Export,
    /// One read-only Cypher statement against the daemon's database.
    Cypher {
        statement: String,
    },
    /// The published graph's census; with `report`, the unresolved names and diagnostics.
    IndexReport {
        report: bool,
    },
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
        /// Merge into the evidence kept (the report re-recorded some tests).
        merge: bool,
    },
    /// The symbols of one file, in line order (an editor's code lenses).
    Outline {
        path: String,
    },
    Health(HealthParams),
    /// A batch of traces, written and committed as one commit.
    RecordTrace(RecordTraceParams),
    /// The traces that bear on a question.
    Recall(RecallParams),
    /// The research tree, paged.
    Tree(TreeParams),
    /// The active phases not complete, least complete first.
    OpenPhases {
        page: PageRequest,
    },
    /// A subtree's summary.
    Brief {
        id: String,
    },
}

/// A request about the connection it arrives on, carried out by the server holding it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ConnectionRequest {
    /// Notifications of published graphs on this connection (`graph_published`).
    Subscribe,
    /// The daemon stops.
    Shutdown,
    Buffer(BufferRequest),
}

/// An editor buffer of the connection.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BufferRequest {
    /// An unsaved editor buffer: until closed, this connection's answers come from a graph
    /// built with `text` in place of the file on disk.
    Update { path: String, text: String, version: i64 },
    /// The buffer is closed: the file on disk is what counts again for this connection.
    Close { path: String },
}

impl From<BufferRequest> for WireRequest {
    fn from(request: BufferRequest) -> WireRequest {
        WireRequest::Connection(ConnectionRequest::Buffer(request))
    }
}

/// Any request, as the wire carries it.
// One value per call, parsed and moved once: the size of the larger variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum WireRequest {
    Answered(Request),
    Connection(ConnectionRequest),
}

impl From<Request> for WireRequest {
    fn from(request: Request) -> WireRequest {
        WireRequest::Answered(request)
    }
}

impl From<ConnectionRequest> for WireRequest {
    fn from(request: ConnectionRequest) -> WireRequest {
        WireRequest::Connection(request)
    }
}

impl WireRequest {
    /// Parses a call: an unknown method is `-32601`, bad parameters `-32602`.
    pub fn parse(method: &str, params: &Value) -> Result<WireRequest, RpcError> {
        let method = Method::from_name(method).ok_or_else(|| {
            let names: Vec<&str> = Method::ALL.iter().map(|method| method.as_str()).collect();
            RpcError::new(
                RpcError::METHOD_NOT_FOUND,
                format!("unknown method {method:?}; methods: {}", names.join(", ")),
            )
        })?;
        let specification = method.specification();
        let reader = ParamsReader::new(specification.name, specification.parameters, params)?;
        (specification.read)(&reader)
    }

    /// The request's named parameters as the wire carries them (a client's side): what
    /// [`WireRequest::parse`] reads back into the same request.
    pub fn to_params(&self) -> Value {
        match self {
            WireRequest::Answered(request) => request.to_params(),
            WireRequest::Connection(request) => request.to_params(),
        }
    }

    pub fn method(&self) -> Method {
        match self {
            WireRequest::Answered(request) => request.method(),
            WireRequest::Connection(request) => request.method(),
        }
    }
}

impl Request {
    /// `lookup` without a query: the census of the graph.
    pub fn census() -> Request {
        Request::Lookup {
            query: None,
            folder: None,
            page: PageRequest { offset: 0, limit: PageRequest::DEFAULT_LIMIT },
        }
    }

    /// Parses a call of a method a handler answers; a connection's method is refused as
    /// invalid here (an MCP tool or a test asks only for answered methods).
    pub fn parse(method: &str, params: &Value) -> Result<Request, RpcError> {
        match WireRequest::parse(method, params)? {
            WireRequest::Answered(request) => Ok(request),
            WireRequest::Connection(_) => Err(RpcError::new(
                RpcError::INVALID_REQUEST,
                format!("{method} belongs to a connection to the daemon, not to a question"),
            )),
        }
    }

    /// See [`WireRequest::to_params`].
    pub fn to_params(&self) -> Value {
        let mut params = ParamsWriter::default();
        match self {
            Request::Status | Request::Reindex | Request::Export => {}
            Request::Lookup { query, folder, page } => {
                lookup::write(query, folder, page, &mut params)
            }
            Request::Callers { symbol, page }
            | Request::Callees { symbol, page }
            | Request::Imports { symbol, page } => neighbours::write(symbol, page, &mut params),
            Request::Blast { subject, walk } => blast::write(subject, walk, &mut params),
            Request::Ownership { subject, exclude_authors, blame } => {
                ownership::write(subject, exclude_authors, blame, &mut params)
            }
            Request::Changes(changes) => changes::write(changes, &mut params),
            Request::Context { subject } => subject.write("path", &mut params),
            Request::SearchMemory(search) => search_memory::write(search, &mut params),
            Request::Record(record) => record::write(record, &mut params),
            Request::CoverageImport { file, merge } => {
                params.put("file", file.as_str());
                if *merge {
                    params.put("merge", true);
                }
            }
            Request::Outline { path } => params.put("path", path.as_str()),
            Request::Cypher { statement } => params.put("statement", statement.as_str()),
            Request::IndexReport { report } => index_report::write(*report, &mut params),
            Request::Health(health) => health::write(health, &mut params),
            Request::RecordTrace(record) => record_trace::write(record, &mut params),
            Request::Recall(recall) => recall::write(recall, &mut params),
            Request::Tree(tree) => research_tree::write_tree(tree, &mut params),
            Request::OpenPhases { page } => params.put_page(page),
            Request::Brief { id } => params.put("id", id.as_str()),
        }
        params.into_value()
    }

    pub fn method(&self) -> Method {
        match self {
            Request::Status => Method::Status,
            Request::Reindex => Method::Reindex,
            Request::Export => Method::Export,
            Request::Cypher { .. } => Method::Cypher,
            Request::IndexReport { .. } => Method::IndexReport,
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
            Request::Health(_) => Method::Health,
            Request::RecordTrace(_) => Method::RecordTrace,
            Request::Recall(_) => Method::Recall,
            Request::Tree(_) => Method::Tree,
            Request::OpenPhases { .. } => Method::OpenPhases,
            Request::Brief { .. } => Method::Brief,
        }
    }
}

impl ConnectionRequest {
    /// See [`WireRequest::to_params`].
    pub fn to_params(&self) -> Value {
        let mut params = ParamsWriter::default();
        match self {
            ConnectionRequest::Subscribe | ConnectionRequest::Shutdown => {}
            ConnectionRequest::Buffer(BufferRequest::Update { path, text, version }) => {
                params.put("path", path.as_str());
                params.put("text", text.as_str());
                params.put("version", *version);
            }
            ConnectionRequest::Buffer(BufferRequest::Close { path }) => {
                params.put("path", path.as_str())
            }
        }
        params.into_value()
    }

    pub fn method(&self) -> Method {
        match self {
            ConnectionRequest::Subscribe => Method::Subscribe,
            ConnectionRequest::Shutdown => Method::Shutdown,
            ConnectionRequest::Buffer(BufferRequest::Update { .. }) => Method::BufferUpdate,
            ConnectionRequest::Buffer(BufferRequest::Close { .. }) => Method::BufferClose,
        }
    }
}

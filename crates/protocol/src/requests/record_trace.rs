//! `record_trace`: a batch of traces (what an agent saw, why, what it did, what came of it),
//! written under `.memory/traces/` and committed as one commit. Only the shape is read here;
//! the rules (one-line steps, timestamps, known ids, supersession) are the memory crate's.

use super::parameters::{
    parameter, prefixed, ObjectFields, ParameterKind, ParamsReader, ParamsWriter,
};
use super::{Parameter, Request};
use crate::rpc::RpcError;

/// The most traces one call records.
pub const MAX_TRACES_PER_BATCH: usize = 100;
/// The most evidence references one trace cites.
pub const MAX_EVIDENCE_REFS: usize = 100;

const EVIDENCE_REF: ObjectFields = ObjectFields {
    fields: &[
        parameter("source_id", ParameterKind::Text, "Names the source; one id, one source."),
        parameter("locator", ParameterKind::Text, "A repository path, URL or test id."),
        parameter("revision", ParameterKind::Text, "The commit or version observed."),
        parameter("observed_at", ParameterKind::Text, "RFC 3339."),
        parameter("summary", ParameterKind::Text, "What this trace takes from it."),
    ],
    required: &["source_id", "locator", "observed_at", "summary"],
    most: MAX_EVIDENCE_REFS,
};

const TRACE: ObjectFields = ObjectFields {
    fields: &[
        parameter(
            "subject",
            ParameterKind::Text,
            "A narrow key: entity, aspect, environment (tests/test_x.py::test_y@linux).",
        ),
        parameter(
            "finding_type",
            ParameterKind::OneOf(&["state", "explanation"]),
            "Default state.",
        ),
        parameter("situation", ParameterKind::Text, "What was seen (one line)."),
        parameter("rationale", ParameterKind::Text, "Why it was acted on so (one line)."),
        parameter("action", ParameterKind::Text, "What was done (one line)."),
        parameter("outcome", ParameterKind::Text, "What came of it (one line)."),
        parameter("observed_at", ParameterKind::Text, "When it was observed, RFC 3339."),
        parameter(
            "artifacts",
            ParameterKind::TextList,
            "Repository paths and symbols it is about.",
        ),
        parameter("evidence", ParameterKind::TextList, "Free-text evidence."),
        parameter("evidence_refs", ParameterKind::ObjectList(&EVIDENCE_REF), "Cited sources."),
        parameter(
            "supersedes",
            ParameterKind::TextList,
            "Older state traces of the subject it replaces.",
        ),
        parameter(
            "resolves",
            ParameterKind::TextList,
            "Two or more disagreeing traces it settles.",
        ),
        parameter("depends_on", ParameterKind::TextList, "Traces or entries it rests on."),
        parameter("operation_id", ParameterKind::Text, "Makes a retry return the first ids."),
        parameter("id", ParameterKind::Text, "The trace's id (not with operation_id)."),
        parameter("run_id", ParameterKind::Text, "The run it belongs to."),
        parameter("agent_id", ParameterKind::Text, "The agent that recorded it."),
        parameter("subagent_id", ParameterKind::Text, "The subagent, if any."),
    ],
    required: &["situation", "rationale", "action", "outcome", "observed_at"],
    most: MAX_TRACES_PER_BATCH,
};

pub(super) const PARAMETERS: &[Parameter] = &[
    parameter("traces", ParameterKind::ObjectList(&TRACE), "The traces: one commit, all or none."),
    parameter(
        "session_subject",
        ParameterKind::Text,
        "A subject bound to the session: traces without one take it; another is refused.",
    ),
    parameter("dry_run", ParameterKind::Boolean, "Check and say what would be written."),
];

/// One cited source, as sent.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct EvidenceRefParams {
    pub source_id: String,
    pub locator: String,
    pub revision: Option<String>,
    pub observed_at: String,
    pub summary: String,
}

/// One trace, as sent: text trimmed, empty text absent.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TraceParams {
    pub id: Option<String>,
    pub subject: Option<String>,
    pub finding_type: Option<String>,
    pub situation: Option<String>,
    pub rationale: Option<String>,
    pub action: Option<String>,
    pub outcome: Option<String>,
    pub observed_at: Option<String>,
    pub artifacts: Vec<String>,
    pub run_id: Option<String>,
    pub agent_id: Option<String>,
    pub subagent_id: Option<String>,
    pub evidence: Vec<String>,
    pub evidence_refs: Vec<EvidenceRefParams>,
    pub supersedes: Vec<String>,
    pub resolves: Vec<String>,
    pub depends_on: Vec<String>,
    pub operation_id: Option<String>,
}

/// `record_trace`'s parameters.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RecordTraceParams {
    pub traces: Vec<TraceParams>,
    /// The subject the session is bound to (`tether mcp --subject`).
    pub session_subject: Option<String>,
    pub dry_run: bool,
}

fn read_evidence_ref(params: &ParamsReader) -> Result<EvidenceRefParams, RpcError> {
    Ok(EvidenceRefParams {
        source_id: params.trimmed_text("source_id")?.unwrap_or_default(),
        locator: params.trimmed_text("locator")?.unwrap_or_default(),
        revision: params.trimmed_text("revision")?,
        observed_at: params.trimmed_text("observed_at")?.unwrap_or_default(),
        summary: params.trimmed_text("summary")?.unwrap_or_default(),
    })
}

fn read_trace(params: &ParamsReader, position: usize) -> Result<TraceParams, RpcError> {
    let element = format!("traces[{position}]");
    let evidence_refs = params
        .objects("evidence_refs", &EVIDENCE_REF)
        .map_err(|error| prefixed(&element, error))?
        .iter()
        .enumerate()
        .map(|(index, reference)| {
            read_evidence_ref(reference)
                .map_err(|error| prefixed(&format!("{element}.evidence_refs[{index}]"), error))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let read = || -> Result<TraceParams, RpcError> {
        Ok(TraceParams {
            id: params.trimmed_text("id")?,
            subject: params.trimmed_text("subject")?,
            finding_type: params.trimmed_text("finding_type")?,
            situation: params.trimmed_text("situation")?,
            rationale: params.trimmed_text("rationale")?,
            action: params.trimmed_text("action")?,
            outcome: params.trimmed_text("outcome")?,
            observed_at: params.trimmed_text("observed_at")?,
            artifacts: params.texts("artifacts")?,
            run_id: params.trimmed_text("run_id")?,
            agent_id: params.trimmed_text("agent_id")?,
            subagent_id: params.trimmed_text("subagent_id")?,
            evidence: params.texts("evidence")?,
            evidence_refs: Vec::new(),
            supersedes: params.texts("supersedes")?,
            resolves: params.texts("resolves")?,
            depends_on: params.texts("depends_on")?,
            operation_id: params.trimmed_text("operation_id")?,
        })
    };
    let trace = read().map_err(|error| prefixed(&element, error))?;
    Ok(TraceParams { evidence_refs, ..trace })
}

impl RecordTraceParams {
    /// The parameters from JSON text: an object as the wire carries it (`{"traces": [...]}`),
    /// or a bare list of traces (a CLI's `--json-file`).
    pub fn from_json_text(text: &str) -> Result<RecordTraceParams, RpcError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|error| RpcError::invalid_params(format!("not JSON: {error}")))?;
        let value = match value {
            serde_json::Value::Array(traces) => serde_json::json!({ "traces": traces }),
            other => other,
        };
        match Request::parse("record_trace", &value)? {
            Request::RecordTrace(params) => Ok(params),
            _ => Err(RpcError::invalid_params("not a record_trace request")),
        }
    }
}

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    let traces = params
        .objects("traces", &TRACE)?
        .iter()
        .enumerate()
        .map(|(position, trace)| read_trace(trace, position))
        .collect::<Result<Vec<_>, _>>()?;
    if traces.is_empty() {
        return Err(RpcError::invalid_params("\"traces\" is empty: give one trace or more"));
    }
    Ok(Request::RecordTrace(RecordTraceParams {
        traces,
        session_subject: params.trimmed_text("session_subject")?,
        dry_run: params.flag("dry_run")?.unwrap_or(false),
    }))
}

fn evidence_ref_value(reference: &EvidenceRefParams) -> serde_json::Value {
    let mut params = ParamsWriter::default();
    params.put("source_id", reference.source_id.as_str());
    params.put("locator", reference.locator.as_str());
    params.put_text("revision", &reference.revision);
    params.put("observed_at", reference.observed_at.as_str());
    params.put("summary", reference.summary.as_str());
    params.into_value()
}

fn trace_value(trace: &TraceParams) -> serde_json::Value {
    let mut params = ParamsWriter::default();
    for (name, value) in [
        ("id", &trace.id),
        ("subject", &trace.subject),
        ("finding_type", &trace.finding_type),
        ("situation", &trace.situation),
        ("rationale", &trace.rationale),
        ("action", &trace.action),
        ("outcome", &trace.outcome),
        ("observed_at", &trace.observed_at),
        ("run_id", &trace.run_id),
        ("agent_id", &trace.agent_id),
        ("subagent_id", &trace.subagent_id),
        ("operation_id", &trace.operation_id),
    ] {
        params.put_text(name, value);
    }
    for (name, values) in [
        ("artifacts", &trace.artifacts),
        ("evidence", &trace.evidence),
        ("supersedes", &trace.supersedes),
        ("resolves", &trace.resolves),
        ("depends_on", &trace.depends_on),
    ] {
        params.put_texts(name, values);
    }
    if !trace.evidence_refs.is_empty() {
        let references: Vec<serde_json::Value> =
            trace.evidence_refs.iter().map(evidence_ref_value).collect();
        params.put("evidence_refs", references);
    }
    params.into_value()
}

pub(super) fn write(record: &RecordTraceParams, params: &mut ParamsWriter) {
    let traces: Vec<serde_json::Value> = record.traces.iter().map(trace_value).collect();
    params.put("traces", traces);
    params.put_text("session_subject", &record.session_subject);
    params.put("dry_run", record.dry_run);
}

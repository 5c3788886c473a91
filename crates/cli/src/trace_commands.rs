//! `tether record-trace` (one trace from flags, or a batch from a JSON file) and
//! `tether recall` (the traces bearing on words or anchors), and how their answers print.

use std::path::PathBuf;

use clap::Args;
use tether_protocol::{
    Method, RecallParams, RecordTraceParams, Request, TraceParams, MAX_RECALL_DEPTH,
    MAX_RECALL_NODES, MAX_RECALL_TOKENS,
};

use crate::exit_codes::usage;
use crate::query_commands::QueryOptions;

#[derive(Args)]
pub struct RecordTraceArgs {
    /// A narrow key: entity, aspect and environment (`tests/test_x.py::test_y@linux`).
    #[arg(long)]
    pub subject: Option<String>,
    /// What was seen, one line.
    #[arg(long, required_unless_present = "json_file")]
    pub situation: Option<String>,
    /// Why it was acted on so, one line.
    #[arg(long, required_unless_present = "json_file")]
    pub rationale: Option<String>,
    /// What was done, one line.
    #[arg(long, required_unless_present = "json_file")]
    pub action: Option<String>,
    /// What came of it, one line.
    #[arg(long, required_unless_present = "json_file")]
    pub outcome: Option<String>,
    /// `state` (a newer observation with evidence may supersede it) or `explanation`.
    #[arg(long, default_value = "state", value_parser = ["state", "explanation"])]
    pub finding_type: String,
    /// When it was observed, RFC 3339 (default: now; required with --operation-id, so that a
    /// retry is the same request).
    #[arg(long)]
    pub observed_at: Option<String>,
    /// A repository path or symbol the trace is about (repeatable).
    #[arg(long = "artifact")]
    pub artifacts: Vec<String>,
    /// Free-text evidence (repeatable).
    #[arg(long)]
    pub evidence: Vec<String>,
    /// Ids of older `state` traces of the subject this one replaces.
    #[arg(long, num_args = 1..)]
    pub supersedes: Vec<String>,
    /// Ids of two or more disagreeing traces of the subject this one settles.
    #[arg(long, num_args = 1..)]
    pub resolves: Vec<String>,
    /// Ids of traces or entries this conclusion rests on.
    #[arg(long = "depends-on", num_args = 1..)]
    pub depends_on: Vec<String>,
    /// Makes a retry safe: the same request again answers the first ids, writing nothing.
    #[arg(long)]
    pub operation_id: Option<String>,
    /// The run the trace belongs to (`recall --anchor RUN` finds its traces).
    #[arg(long)]
    pub run_id: Option<String>,
    /// The agent that recorded it.
    #[arg(long)]
    pub agent_id: Option<String>,
    /// A batch instead of flags: the JSON of `record_trace`'s parameters, or a list of
    /// traces (`-` reads standard input). Evidence references are given this way.
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "situation", "rationale", "action", "outcome", "finding_type", "observed_at", "artifacts", "evidence",
        "supersedes", "resolves", "depends_on", "operation_id", "run_id", "agent_id",
    ])]
    pub json_file: Option<PathBuf>,
    /// Check the traces and print what would be written, writing nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub options: QueryOptions,
}

/// The most bytes `--json-file` reads.
const MAX_JSON_FILE_BYTES: u64 = 8 * 1024 * 1024;

fn read_json_file(path: &PathBuf) -> anyhow::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().take(MAX_JSON_FILE_BYTES + 1).read_to_string(&mut text)
    } else {
        std::fs::File::open(path)
            .and_then(|file| file.take(MAX_JSON_FILE_BYTES + 1).read_to_string(&mut text))
    };
    read.map_err(|error| usage(format!("cannot read {}: {error}", path.display())))?;
    if text.len() as u64 > MAX_JSON_FILE_BYTES {
        return Err(usage(format!(
            "{} is larger than {MAX_JSON_FILE_BYTES} bytes",
            path.display()
        )));
    }
    Ok(text)
}

/// Now, RFC 3339 UTC to the second.
fn now() -> String {
    let now = jiff::Timestamp::now();
    jiff::Timestamp::from_second(now.as_second()).unwrap_or(now).to_string()
}

pub fn run_record_trace(args: RecordTraceArgs) -> anyhow::Result<()> {
    let params = match &args.json_file {
        Some(path) => {
            let mut params = RecordTraceParams::from_json_text(&read_json_file(path)?)
                .map_err(|error| usage(format!("{}: {}", path.display(), error.message)))?;
            params.session_subject = args.subject.clone();
            params.dry_run |= args.dry_run;
            params
        }
        None if args.operation_id.is_some() && args.observed_at.is_none() => {
            return Err(usage(
                "--operation-id needs --observed-at: a retry is the same request only with the same time",
            ))
        }
        None => RecordTraceParams {
            traces: vec![TraceParams {
                subject: args.subject.clone(),
                finding_type: Some(args.finding_type.clone()),
                situation: args.situation.clone(),
                rationale: args.rationale.clone(),
                action: args.action.clone(),
                outcome: args.outcome.clone(),
                observed_at: Some(args.observed_at.clone().unwrap_or_else(now)),
                artifacts: args.artifacts.clone(),
                evidence: args.evidence.clone(),
                supersedes: args.supersedes.clone(),
                resolves: args.resolves.clone(),
                depends_on: args.depends_on.clone(),
                operation_id: args.operation_id.clone(),
                run_id: args.run_id.clone(),
                agent_id: args.agent_id.clone(),
                ..TraceParams::default()
            }],
            session_subject: None,
            dry_run: args.dry_run,
        },
    };
    crate::query_answers::run_query(Request::RecordTrace(params), &args.options)
}

#[derive(Args)]
pub struct RecallArgs {
    /// Words every seed trace holds (in its subject, steps, artifacts or id).
    pub query: Option<String>,
    /// Start from these: trace ids, subjects, paths, symbols or run ids (repeatable).
    #[arg(long = "anchor")]
    pub anchors: Vec<String>,
    /// At most this many traces.
    #[arg(long, default_value_t = 20,
          value_parser = clap::value_parser!(u64).range(1..=MAX_RECALL_NODES as u64))]
    pub max_nodes: u64,
    /// Links followed from a seed.
    #[arg(long, default_value_t = 2,
          value_parser = clap::value_parser!(u64).range(0..=MAX_RECALL_DEPTH as u64))]
    pub max_depth: u64,
    /// At most about this many tokens of traces.
    #[arg(long, default_value_t = 4000,
          value_parser = clap::value_parser!(u64).range(1..=MAX_RECALL_TOKENS as u64))]
    pub token_budget: u64,
    #[command(flatten)]
    pub options: QueryOptions,
}

pub fn run_recall(args: RecallArgs) -> anyhow::Result<()> {
    if args.query.is_none() && args.anchors.is_empty() {
        return Err(usage(
            "give words to recall, or --anchor (a trace id, subject, path or run id)",
        ));
    }
    let request = Request::Recall(RecallParams {
        query: args.query.clone(),
        anchors: args.anchors.clone(),
        max_nodes: args.max_nodes as usize,
        max_depth: args.max_depth as usize,
        token_budget: args.token_budget as usize,
    });
    debug_assert_eq!(request.method(), Method::Recall);
    crate::query_answers::run_query(request, &args.options)
}

//! The trace model (issue 44): what an agent saw, why, what it did and what came of it —
//! `situation → rationale → action → outcome`, each one line — about a narrow `subject`, with
//! the evidence it cites, tied to the code by `artifacts`, and linked to earlier traces by
//! supersession, resolution and dependency. A trace is one file,
//! `.memory/traces/<id>.md`; [`crate::parse_trace`] reads it, [`crate::render_trace`] writes
//! it, [`crate::check_new_traces`] holds the rules a new trace must keep.

/// What a finding says: a `state` of the world, which a newer observation with evidence may
/// supersede, or an `explanation`, which is never superseded that way.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum FindingType {
    State,
    Explanation,
}

impl FindingType {
    pub const ALL: [FindingType; 2] = [FindingType::State, FindingType::Explanation];

    pub fn as_str(self) -> &'static str {
        match self {
            FindingType::State => "state",
            FindingType::Explanation => "explanation",
        }
    }

    pub fn parse(text: &str) -> Option<FindingType> {
        FindingType::ALL.into_iter().find(|finding| finding.as_str() == text)
    }
}

/// A citation of a source: one Evidence node per `source_id`, shared by every trace citing
/// it; the `summary` is the citing trace's own. tether never claims to have verified it.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct EvidenceRef {
    /// Names the source (`ci-run-8812`, `log:build.txt`); the same id always means the same
    /// locator, revision and observation time.
    pub source_id: String,
    /// Where it is: a repository path, a URL, a test id.
    pub locator: String,
    /// The commit or version it was observed at, when it has one.
    pub revision: Option<String>,
    /// RFC 3339, when the source was observed.
    pub observed_at: String,
    /// What this trace takes from it.
    pub summary: String,
}

/// The four components, each one non-empty line.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TraceSteps {
    pub situation: String,
    pub rationale: String,
    pub action: String,
    pub outcome: String,
}

impl TraceSteps {
    /// The components with their field names, in the trace's order.
    pub fn named(&self) -> [(&'static str, &str); 4] {
        [
            ("situation", self.situation.as_str()),
            ("rationale", self.rationale.as_str()),
            ("action", self.action.as_str()),
            ("outcome", self.outcome.as_str()),
        ]
    }
}

/// One trace: a `.memory/traces/<id>.md` file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Trace {
    /// Unique among the repository's entries and traces (an entry id's syntax).
    pub id: String,
    /// A narrow key built from entity, aspect and environment
    /// (`tests/test_parser.py::test_empty@linux`); one line.
    pub subject: String,
    pub finding_type: FindingType,
    pub steps: TraceSteps,
    /// RFC 3339: when it was observed (the caller says).
    pub observed_at: String,
    /// RFC 3339: when tether recorded it.
    pub recorded_at: String,
    /// Repository paths and symbols it is about (`src/parser.py`, `pkg.parser.parse`): they
    /// tie it to the code graph as pins do.
    pub artifacts: Vec<String>,
    pub run_id: Option<String>,
    pub agent_id: Option<String>,
    pub subagent_id: Option<String>,
    /// Free-text evidence.
    pub evidence: Vec<String>,
    pub evidence_refs: Vec<EvidenceRef>,
    /// Earlier `state` traces of the same subject this newer observation replaces; they stay.
    pub supersedes: Vec<String>,
    /// Two or more disagreeing traces of the same subject this one settles.
    pub resolves: Vec<String>,
    /// Traces (or entries) this conclusion rests on.
    pub depends_on: Vec<String>,
    /// Makes the write that created it idempotent: the same request under the same id
    /// returns this trace again.
    pub operation_id: Option<String>,
    /// The file's repository-relative path (`.memory/traces/<id>.md`).
    pub path: String,
}

impl Trace {
    /// Whether it cites any evidence (free text or references).
    pub fn has_evidence(&self) -> bool {
        !self.evidence.is_empty() || !self.evidence_refs.is_empty()
    }

    /// The ids it refers to, with the field naming each, in field order.
    pub fn references(&self) -> Vec<(&'static str, &str)> {
        let mut references = Vec::new();
        for (field, ids) in [
            ("supersedes", &self.supersedes),
            ("resolves", &self.resolves),
            ("depends_on", &self.depends_on),
        ] {
            references.extend(ids.iter().map(|id| (field, id.as_str())));
        }
        references
    }
}

/// The folder under `.memory/` holding traces.
pub const TRACE_FOLDER: &str = "traces";

/// The repository-relative path of trace `id`.
pub fn trace_file_path(id: &str) -> String {
    format!(".memory/{TRACE_FOLDER}/{id}.md")
}

//! The typed answers on the wire: one serde struct per answer shape, shared by the daemon
//! (which builds them), the CLI and MCP (which read them back), and MCP's output schemas
//! (generated from them with schemars). Field names are the wire's; objects are written with
//! their keys sorted (through `serde_json::Value`), as every answer always was.
//!
//! It deliberately has no constructors from the query layer: `answers` builds the graph's.

mod answer_lists;
mod daemon_answers;
mod editor_answers;
mod git_answers;
mod graph_answers;
mod health_answers;
mod memory_answers;
mod research_answers;
mod trace_answers;
mod trace_text;

pub use answer_lists::{JsonCut, HEALTH_LIST_KEYS, SECONDARY_LIST_KEYS};
pub use daemon_answers::{
    AddressCandidate, AddressErrorData, CensusAnswer, CensusCounts, CoverageImportAnswer,
    CoverageMerge, CypherAnswer, ExportAnswer, FreshnessDocument, GraphPublished, StatusAnswer,
    StoppingAnswer, SubscribedAnswer,
};
pub use editor_answers::{BuffersAnswer, OpenBuffer, OutlineAnswer};
pub use git_answers::{ChangedSymbol, ChangesAnswer, Owner, OwnerLatest, OwnershipAnswer};
pub use graph_answers::*;
pub use health_answers::{
    ChangeCoupling, ChurnHotspot, CouplingPartner, Cycle, CycleHop, DeadSymbol, FileCoupling,
    GodObject, HealthAnswer, HealthSection, HeavyMember, SymbolChurn,
};
pub use memory_answers::{
    ContextAnswer, ContextEntry, ContextTrace, EntryStaleness, MemoryHit, Recheck, RecordAnswer,
    RecordCommit, SearchMemoryAnswer,
};
pub use research_answers::{BriefAnswer, BriefEntry, OpenPhasesAnswer, TreeAnswer, TreeNode};
pub use trace_answers::{
    EvidenceCitation, RecallAnswer, RecalledTraceItem, RecordTraceAnswer, RecordedTrace,
};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What an answer is about when it can be a symbol or a whole file.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum SymbolOrFile {
    Symbol(SymbolRef),
    File { path: String },
}

/// One method's answer, typed; written as the bare answer object (no tag).
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(untagged)]
pub enum Answer {
    Status(StatusAnswer),
    Census(CensusAnswer),
    Lookup(LookupAnswer),
    Neighbours(NeighboursAnswer),
    Blast(BlastAnswer),
    Ownership(OwnershipAnswer),
    Changes(ChangesAnswer),
    Context(ContextAnswer),
    SearchMemory(SearchMemoryAnswer),
    Record(RecordAnswer),
    CoverageImport(CoverageImportAnswer),
    Subscribed(SubscribedAnswer),
    Outline(OutlineAnswer),
    Buffers(BuffersAnswer),
    Export(ExportAnswer),
    Cypher(CypherAnswer),
    IndexReport(crate::IndexReportAnswer),
    Health(HealthAnswer),
    RecordTrace(RecordTraceAnswer),
    Recall(RecallAnswer),
    Tree(TreeAnswer),
    OpenPhases(OpenPhasesAnswer),
    Brief(BriefAnswer),
    Stopping(StoppingAnswer),
}

impl Answer {
    /// The JSON the wire carries (keys sorted).
    pub fn to_json(&self) -> serde_json::Value {
        to_json_value(self)
    }

    /// The answer as pretty JSON text, keys sorted (a CLI's `--json` output).
    pub fn to_pretty_json(&self) -> String {
        crate::rpc::pretty(&self.to_json())
    }

    /// The answer as compact JSON text, keys sorted.
    pub fn to_json_text(&self) -> String {
        self.to_json().to_string()
    }

    /// A method's answer read back from its JSON (a client's side of the wire).
    pub fn from_json(method: crate::Method, value: serde_json::Value) -> Result<Answer, String> {
        use crate::Method;
        use serde_json::from_value;
        let answer = match method {
            Method::Status | Method::Reindex => from_value(value).map(Answer::Status),
            Method::Lookup if value.get("census").is_some() => {
                from_value(value).map(Answer::Census)
            }
            Method::Lookup => from_value(value).map(Answer::Lookup),
            Method::Callers | Method::Callees | Method::Imports => {
                from_value(value).map(Answer::Neighbours)
            }
            Method::Blast => from_value(value).map(Answer::Blast),
            Method::Ownership => from_value(value).map(Answer::Ownership),
            Method::Changes => from_value(value).map(Answer::Changes),
            Method::Context => from_value(value).map(Answer::Context),
            Method::SearchMemory => from_value(value).map(Answer::SearchMemory),
            Method::Record => from_value(value).map(Answer::Record),
            Method::CoverageImport => from_value(value).map(Answer::CoverageImport),
            Method::Subscribe => from_value(value).map(Answer::Subscribed),
            Method::Outline => from_value(value).map(Answer::Outline),
            Method::BufferUpdate | Method::BufferClose => from_value(value).map(Answer::Buffers),
            Method::Export => from_value(value).map(Answer::Export),
            Method::Cypher => from_value(value).map(Answer::Cypher),
            Method::IndexReport => from_value(value).map(Answer::IndexReport),
            Method::Health => from_value(value).map(Answer::Health),
            Method::RecordTrace => from_value(value).map(Answer::RecordTrace),
            Method::Recall => from_value(value).map(Answer::Recall),
            Method::Tree => from_value(value).map(Answer::Tree),
            Method::OpenPhases => from_value(value).map(Answer::OpenPhases),
            Method::Brief => from_value(value).map(Answer::Brief),
            Method::Shutdown => from_value(value).map(Answer::Stopping),
        };
        answer.map_err(|error| {
            format!("a {} answer of an unexpected shape: {error}", method.as_str())
        })
    }
}

/// `lookup`'s two shapes (for its schema): symbols matching a query, or the census.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum LookupOrCensus {
    Lookup(LookupAnswer),
    Census(CensusAnswer),
}

/// A typed answer as the JSON value it is written from (keys sorted).
pub fn to_json_value(answer: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(answer).expect("wire types serialize to JSON")
}

/// A JSON Schema document, an object.
pub type AnswerSchema = serde_json::Map<String, serde_json::Value>;

/// The JSON Schema (draft 2020-12, from schemars) of a method's answer, for the methods whose
/// answers are typed here; MCP declares it as the tool's `outputSchema`.
pub fn answer_schema(method: crate::Method) -> Option<AnswerSchema> {
    use crate::Method;
    let schema = match method {
        Method::Blast => schemars::schema_for!(BlastAnswer),
        Method::Callers | Method::Callees | Method::Imports => {
            schemars::schema_for!(NeighboursAnswer)
        }
        Method::Ownership => schemars::schema_for!(OwnershipAnswer),
        Method::Context => schemars::schema_for!(ContextAnswer),
        Method::SearchMemory => schemars::schema_for!(SearchMemoryAnswer),
        Method::Lookup => schemars::schema_for!(LookupOrCensus),
        Method::Changes => schemars::schema_for!(ChangesAnswer),
        Method::Health => schemars::schema_for!(HealthAnswer),
        // `record` writes, and the daemon's own methods are not tools.
        _ => return None,
    };
    let Ok(serde_json::Value::Object(mut map)) = serde_json::to_value(schema) else { return None };
    // An answer of two shapes is an `anyOf` of objects: MCP wants the root to say `object`.
    map.entry("type").or_insert_with(|| serde_json::Value::from("object"));
    Some(map)
}

#[cfg(test)]
mod tests {
    use super::answer_schema;

    #[test]
    fn typed_answers_have_object_schemas_naming_their_fields() {
        let schema = answer_schema(crate::Method::Blast).unwrap();
        assert_eq!(schema["type"], "object");
        let required: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|name| name.as_str())
            .collect();
        for field in ["subject", "items", "tests_affected", "completeness", "freshness", "next"] {
            assert!(required.contains(&field), "{field} in {required:?}");
        }
        assert!(answer_schema(crate::Method::Callers).is_some());
        assert!(answer_schema(crate::Method::Record).is_none());
        for method in [crate::Method::Lookup, crate::Method::Changes] {
            let schema = answer_schema(method).unwrap();
            assert_eq!(
                (schema["type"].as_str(), schema["anyOf"].as_array().map(Vec::len)),
                (Some("object"), Some(2))
            );
        }
    }
}

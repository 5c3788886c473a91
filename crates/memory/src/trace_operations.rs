//! [`operation_replay`]: `operation_id` makes writing traces idempotent (issue 44). The same
//! request sent again under the same ids gets the traces recorded the first time back, and
//! nothing is written; a different request under a used id is refused. What was recorded is
//! read from the trace files themselves (each keeps its `operation_id`), so a replay is
//! recognised after a restart, and after a crash between the commit and the answer.
//!
//! "The same request" is every field the caller gave: all but the id tether chose, when it
//! recorded the trace, and the file's path.

use std::collections::HashMap;

use crate::trace::Trace;
use crate::trace_rules::TraceRefusal;

/// What to do with a batch of new traces, given the traces already recorded.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OperationReplay {
    /// No trace of the batch names a recorded operation: record it.
    New,
    /// Every trace of the batch was recorded before, as asked: answer these ids (in the
    /// batch's order) and write nothing.
    Replay { trace_ids: Vec<String> },
}

/// Whether `batch` is new or a replay; a refusal when it reuses an operation id for
/// another request, mixes replayed and new traces, or names one id twice.
pub fn operation_replay(
    batch: &[Trace],
    existing: &[Trace],
) -> Result<OperationReplay, TraceRefusal> {
    let recorded: HashMap<&str, &Trace> = existing
        .iter()
        .filter_map(|trace| trace.operation_id.as_deref().map(|operation| (operation, trace)))
        .collect();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut replayed = Vec::new();
    for (position, trace) in batch.iter().enumerate() {
        let refuse = |message: String| TraceRefusal {
            field: format!("traces[{position}].operation_id"),
            message,
        };
        let Some(operation) = trace.operation_id.as_deref() else { continue };
        if let Some(first) = seen.insert(operation, position) {
            return Err(refuse(format!(
                "`{operation}` is also the operation id of traces[{first}]"
            )));
        }
        if let Some(earlier) = recorded.get(operation) {
            if !same_request(trace, earlier) {
                return Err(refuse(format!(
                    "`{operation}` already recorded trace `{}` from another request: an operation id names one request",
                    earlier.id
                )));
            }
            replayed.push(earlier.id.clone());
        }
    }
    match replayed.len() {
        0 => Ok(OperationReplay::New),
        count if count == batch.len() => Ok(OperationReplay::Replay { trace_ids: replayed }),
        _ => Err(TraceRefusal {
            field: "traces".to_string(),
            message: format!(
                "{} of the {} traces were recorded before under their operation ids: send the batch as first sent, or new operation ids",
                replayed.len(),
                batch.len()
            ),
        }),
    }
}

/// Every field the caller gives, compared; the id, `recorded_at` and the path are tether's.
fn same_request(new: &Trace, earlier: &Trace) -> bool {
    let as_asked = |trace: &Trace| Trace {
        id: String::new(),
        recorded_at: String::new(),
        path: String::new(),
        ..trace.clone()
    };
    as_asked(new) == as_asked(earlier)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::sample_trace;

    fn with_operation(id: &str, operation: &str) -> Trace {
        Trace {
            operation_id: Some(operation.to_string()),
            ..sample_trace(id, "ci/build@linux", "2026-12-07T10:00:00Z")
        }
    }

    #[test]
    fn the_same_request_again_gets_the_first_ids_and_writes_nothing() {
        let recorded = with_operation("build-red", "op-1");
        // Sent again: tether would pick another id and another recording time.
        let mut again = with_operation("build-red-2", "op-1");
        again.recorded_at = "2026-12-07T13:00:00Z".to_string();
        assert_eq!(
            operation_replay(&[again], std::slice::from_ref(&recorded)),
            Ok(OperationReplay::Replay { trace_ids: vec!["build-red".to_string()] })
        );
        assert_eq!(
            operation_replay(&[with_operation("x", "op-2")], &[recorded]),
            Ok(OperationReplay::New)
        );
        assert_eq!(
            operation_replay(&[sample_trace("y", "s", "2026-12-07T10:00:00Z")], &[]),
            Ok(OperationReplay::New)
        );
    }

    #[test]
    fn another_request_under_a_used_operation_id_is_refused() {
        let recorded = with_operation("build-red", "op-1");
        let mut other = with_operation("build-red-2", "op-1");
        other.steps.outcome = "still red".to_string();
        assert_eq!(
            operation_replay(&[other], std::slice::from_ref(&recorded)).unwrap_err().to_string(),
            "traces[0].operation_id: `op-1` already recorded trace `build-red` from another request: an operation id names one request"
        );
        let mixed = [with_operation("a", "op-1"), with_operation("b", "op-9")];
        let mut mixed = mixed.to_vec();
        mixed[0] = Trace { id: "a".to_string(), ..recorded.clone() };
        assert_eq!(
            operation_replay(&mixed, std::slice::from_ref(&recorded)).unwrap_err().to_string(),
            "traces: 1 of the 2 traces were recorded before under their operation ids: send the batch as first sent, or new operation ids"
        );
        let twice = [with_operation("a", "op-5"), with_operation("b", "op-5")];
        assert_eq!(
            operation_replay(&twice, &[]).unwrap_err().to_string(),
            "traces[1].operation_id: `op-5` is also the operation id of traces[0]"
        );
    }
}

//! What a session's pages said of completeness and freshness. An agent paging a long answer
//! at a small budget would otherwise read the same completeness causes and freshness on every
//! page: a later page of a call (the same tool and arguments, another cursor) whose first
//! page said them says one line instead, unless they changed since (a rebuild between pages,
//! a new cause), when they are said again in full.
//!
//! It deliberately remembers only a hash per call, and at most [`CALLS_REMEMBERED`] calls:
//! past that, the memory starts over and pages say everything again.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use tether_protocol::wire::Answer;
use tether_protocol::{Request, Value};

/// Calls whose context is remembered before the memory starts over.
pub const CALLS_REMEMBERED: usize = 256;

/// A call's tool and its daemon parameters without the cursor: the same for every page.
pub fn call_without_cursor(tool_name: &str, request: &Request) -> String {
    let mut params = request.to_params();
    if let Value::Object(object) = &mut params {
        object.remove("cursor");
    }
    format!("{tool_name} {params}")
}

/// The calls of this session and the hash of the completeness and freshness they answered.
#[derive(Default, Debug)]
pub struct PageContexts {
    said: Mutex<HashMap<String, u64>>,
}

impl PageContexts {
    /// Remembers what `answer` says of completeness and freshness for `call`; whether this
    /// is a later page (`cursor_offset` > 0) and the call said the same before.
    pub fn said_before(&self, call: String, answer: &Answer, cursor_offset: u64) -> bool {
        let Some(context) = context_hash(answer) else { return false };
        let mut said = self.said.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if said.len() >= CALLS_REMEMBERED && !said.contains_key(&call) {
            said.clear();
        }
        let before = said.insert(call, context);
        cursor_offset > 0 && before == Some(context)
    }
}

/// The hash of the answer's `completeness` and `freshness`; `None` when it has neither.
fn context_hash(answer: &Answer) -> Option<u64> {
    let json = answer.to_json();
    let (completeness, freshness) = (json.get("completeness"), json.get("freshness"));
    if completeness.is_none() && freshness.is_none() {
        return None;
    }
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    completeness.map(Value::to_string).hash(&mut hasher);
    freshness.map(Value::to_string).hash(&mut hasher);
    Some(hasher.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_completeness_is_said_again_and_a_first_page_always() {
        let blast = |status: &str| {
            let mut answer = crate::test_support::sample_blast_answer(2, 4, Some("o:2"));
            answer["completeness"]["status"] = Value::from(status);
            Answer::from_json(tether_protocol::Method::Blast, answer).unwrap()
        };
        let contexts = PageContexts::default();
        let call = || "blast {\"symbol\":\"compute\"}".to_string();
        assert!(!contexts.said_before(call(), &blast("lower_bound"), 0));
        assert!(contexts.said_before(call(), &blast("lower_bound"), 2));
        assert!(!contexts.said_before(call(), &blast("exact"), 4), "changed since");
        assert!(contexts.said_before(call(), &blast("exact"), 4));
        assert!(!contexts.said_before(call(), &blast("exact"), 0), "a first page says it all");
    }
}

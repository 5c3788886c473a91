//! Scoring a call-graph corpus: small programs whose every call line carries its exact
//! expected targets (`calls:` markers, see the crate doc), compared with the CALLS edges the
//! real pipeline builds. A target both in the truth and in the graph is correct; one only in
//! the graph is wrong (also on a line without a marker); one only in the truth is missed. A
//! line is exact when its targets are exactly the truth.
//!
//! It deliberately scores CALLS edges only: references, imports and completeness causes are
//! other tests' business.

use std::collections::{BTreeMap, BTreeSet};

use tether_model::{EdgeKind, SymbolId};

use crate::{graph_of, Fixture};

/// The score of one program (or of several, added up).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CorpusScore {
    /// Lines with a `calls:` marker.
    pub sites: usize,
    /// Of those, lines whose targets are exactly the truth.
    pub exact_sites: usize,
    /// Targets the truth names.
    pub expected: usize,
    /// Targets in both the truth and the graph.
    pub correct: usize,
    /// Targets in the graph but not in the truth (on any line of the program).
    pub wrong: usize,
    /// `path:line expected {…} got {…}` for each line that is not exact.
    pub mismatches: Vec<String>,
}

impl CorpusScore {
    /// Correct targets among those the graph has (1 when it has none).
    pub fn precision(&self) -> f64 {
        ratio(self.correct, self.correct + self.wrong)
    }

    /// Correct targets among those the truth names (1 when it names none).
    pub fn recall(&self) -> f64 {
        ratio(self.correct, self.expected)
    }

    /// Exact lines among the marked ones.
    pub fn exact_share(&self) -> f64 {
        ratio(self.exact_sites, self.sites)
    }

    pub fn add(&mut self, other: &CorpusScore) {
        self.sites += other.sites;
        self.exact_sites += other.exact_sites;
        self.expected += other.expected;
        self.correct += other.correct;
        self.wrong += other.wrong;
        self.mismatches.extend(other.mismatches.iter().cloned());
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        1.0
    } else {
        part as f64 / whole as f64
    }
}

/// A corpus file: `// ` description lines, then a fixture.
pub fn corpus_fixture(text: &str) -> Fixture {
    let body: Vec<&str> = text.lines().skip_while(|line| !line.starts_with("//- /")).collect();
    Fixture::parse(&(body.join("\n") + "\n"))
}

/// Builds the program's graph and scores its CALLS edges against its markers.
pub fn score_corpus_program(fixture: &Fixture) -> CorpusScore {
    let (_directory, graph) = graph_of(fixture);
    let names: BTreeMap<SymbolId, &str> =
        graph.symbols.iter().map(|symbol| (symbol.id, symbol.qualified_name.as_str())).collect();
    let paths: BTreeMap<SymbolId, &str> =
        graph.symbols.iter().map(|symbol| (symbol.id, symbol.path.as_str())).collect();
    let mut found: BTreeMap<(String, u32), BTreeSet<String>> = BTreeMap::new();
    for edge in graph.edges.iter().filter(|edge| edge.kind == EdgeKind::Calls) {
        let Some(path) = paths.get(&edge.source) else { continue };
        let target = names.get(&edge.target).copied().unwrap_or("?").to_string();
        found.entry((path.to_string(), edge.line)).or_default().insert(target);
    }
    let mut score = CorpusScore::default();
    let expected_calls = fixture.expected_calls();
    for ((path, line), marked) in &expected_calls {
        let truth: BTreeSet<String> = marked
            .iter()
            .filter(|target| !matches!(target.as_str(), "none" | "unresolved"))
            .cloned()
            .collect();
        let actual = found.get(&(path.clone(), *line)).cloned().unwrap_or_default();
        score.sites += 1;
        score.expected += truth.len();
        score.correct += actual.intersection(&truth).count();
        score.wrong += actual.difference(&truth).count();
        if actual == truth {
            score.exact_sites += 1;
        } else {
            score.mismatches.push(format!("{path}:{line} expected {truth:?} got {actual:?}"));
        }
    }
    for ((path, line), actual) in &found {
        if !expected_calls.contains_key(&(path.clone(), *line)) {
            score.wrong += actual.len();
            score.mismatches.push(format!("{path}:{line} unmarked line got {actual:?}"));
        }
    }
    score
}

//! Paging and completeness: every answer is capped, says how to get the rest, and says
//! whether it is the whole truth.

/// Which slice of a ranked answer to return.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PageRequest {
    pub offset: usize,
    pub limit: usize,
}

impl PageRequest {
    pub const DEFAULT_LIMIT: usize = 20;
    pub const MAX_LIMIT: usize = 200;

    /// A page from an optional cursor (as returned in `next_cursor`) and an optional limit
    /// (1 or more; above [`PageRequest::MAX_LIMIT`] it is that maximum).
    pub fn new(cursor: Option<&str>, limit: Option<usize>) -> Result<PageRequest, String> {
        let offset = match cursor {
            None | Some("") => 0,
            Some(cursor) => cursor
                .strip_prefix("o:")
                .and_then(|offset| offset.parse().ok())
                .ok_or_else(|| {
                    let shown: String = cursor.chars().take(40).collect();
                    let cut = if shown.len() < cursor.len() { "…" } else { "" };
                    format!(
                        "invalid cursor {shown:?}{cut}; pass the next_cursor of a previous answer"
                    )
                })?,
        };
        if limit == Some(0) {
            return Err(format!(
                "limit must be 1 to {} (omit it for {})",
                PageRequest::MAX_LIMIT,
                PageRequest::DEFAULT_LIMIT
            ));
        }
        let limit = limit.unwrap_or(PageRequest::DEFAULT_LIMIT).clamp(1, PageRequest::MAX_LIMIT);
        Ok(PageRequest { offset, limit })
    }

    /// This page of `items`, and the cursor of the next page if there is one. A cursor past
    /// the end gives an empty page with no next cursor.
    pub fn apply<T>(&self, items: Vec<T>) -> (Vec<T>, Option<String>) {
        let total = items.len();
        let end = self.offset.saturating_add(self.limit);
        let page: Vec<T> = items.into_iter().skip(self.offset).take(self.limit).collect();
        let next = (end < total).then(|| format!("o:{end}"));
        (page, next)
    }
}

impl Default for PageRequest {
    fn default() -> PageRequest {
        PageRequest { offset: 0, limit: PageRequest::DEFAULT_LIMIT }
    }
}

/// Whether an answer is known to be whole.
#[derive(Clone, PartialEq, Debug)]
pub enum Completeness {
    /// Nothing unresolved, dynamic or unparsed could add to it.
    Exact,
    /// The answer is a lower bound; the causes say why and how much might be missing.
    LowerBound(Vec<CompletenessCause>),
}

impl Completeness {
    pub fn from_causes(causes: Vec<CompletenessCause>) -> Completeness {
        if causes.is_empty() {
            Completeness::Exact
        } else {
            Completeness::LowerBound(causes)
        }
    }

    pub fn is_exact(&self) -> bool {
        matches!(self, Completeness::Exact)
    }

    /// Adds a cause (an exact answer becomes a lower bound).
    pub fn add_cause(&mut self, cause: CompletenessCause) {
        match self {
            Completeness::Exact => *self = Completeness::LowerBound(vec![cause]),
            Completeness::LowerBound(causes) => causes.push(cause),
        }
    }

    /// Files on disk that differ from the graph (`dirty`) make an answer about one of
    /// `languages` a lower bound: callers may hide in them until the graph reflects them.
    pub fn add_dirty_files(&mut self, dirty: &[String], languages: &[tether_model::Language]) {
        const MAX_EXAMPLES: usize = 3;
        let relevant: Vec<&String> = dirty
            .iter()
            .filter(|path| {
                tether_model::Language::from_path(path)
                    .is_some_and(|language| languages.contains(&language))
            })
            .collect();
        if relevant.is_empty() {
            return;
        }
        self.add_cause(CompletenessCause::DirtyFiles {
            count: relevant.len(),
            examples: relevant.into_iter().take(MAX_EXAMPLES).cloned().collect(),
        });
    }
}

/// Why an answer may be missing items.
#[derive(Clone, PartialEq, Debug)]
pub enum CompletenessCause {
    /// Call sites whose target could not be bound but which call this name.
    UnresolvedCallSites { name: String, count: usize, examples: Vec<(String, u32, String)> },
    /// Code the extraction does not analyse (a macro's tokens whose expansion is not
    /// followed) mentions this name `count` times: it may call the subject there.
    UnanalysedCode { name: String, count: usize, examples: Vec<(String, u32, String)> },
    /// Call sites anywhere in the answer's scope whose target is unknown but may be project
    /// code (`health`, which looks at every edge and not at one name's).
    UnresolvedSites { count: usize, examples: Vec<(String, u32, String)> },
    /// Paths through dynamic dispatch, ambiguous or name-only edges (included, as `maybe`).
    UncertainEdges { count: usize },
    /// Files of this language that were not parsed at all (binary, too large, unreadable).
    UnparsedFiles { count: usize, examples: Vec<String> },
    /// The subject (or `escaped` of the subjects) was used as a value (passed, stored,
    /// returned, decorated; `escapes` says where), and `count` unresolved calls through values
    /// (`callback()`, `handlers[k]()`) may call it (`examples`).
    EscapedValue {
        count: usize,
        escaped: usize,
        escapes: Vec<(String, u32, String)>,
        examples: Vec<(String, u32, String)>,
    },
    /// The language calls it without a call expression (`__eq__` on `==`, `Display::fmt` in
    /// `format!`): `count` subjects, each example saying how.
    ImplicitInvocation { count: usize, examples: Vec<String> },
    /// Code outside the project may call it: an outside base class or trait, an outside
    /// decorator or call it was handed to, the test runner, the program's start.
    CalledFromOutside { count: usize, examples: Vec<String> },
    /// `count` calls of a base method it overrides may dispatch to it.
    Overrides { count: usize, examples: Vec<(String, u32, String)> },
    /// The walk stopped at `depth`; `count` of the symbols it reached last have dependents of
    /// their own (raise `depth` to see them; `tests_affected` counts all of them already).
    DepthLimit { depth: u32, count: usize },
    /// Source files whose content on disk is not what the graph holds (edited, added or
    /// deleted since it was built): callers may hide there until the graph reflects them.
    DirtyFiles { count: usize, examples: Vec<String> },
    /// Churn read only the newest `read` of the `asked` commits before its time ran out (the
    /// rest is being read for the next answer).
    PartialHistory { read: usize, asked: usize },
}

impl CompletenessCause {
    /// The protocol's name of the cause's kind.
    pub fn name(&self) -> &'static str {
        match self {
            CompletenessCause::UnresolvedCallSites { .. } => "unresolved_call_sites",
            CompletenessCause::UnanalysedCode { .. } => "unanalysed_code",
            CompletenessCause::UnresolvedSites { .. } => "unresolved_sites",
            CompletenessCause::UncertainEdges { .. } => "uncertain_edges",
            CompletenessCause::UnparsedFiles { .. } => "unparsed_files",
            CompletenessCause::EscapedValue { .. } => "escaped_value",
            CompletenessCause::ImplicitInvocation { .. } => "implicit_invocation",
            CompletenessCause::CalledFromOutside { .. } => "called_from_outside",
            CompletenessCause::Overrides { .. } => "overrides",
            CompletenessCause::DepthLimit { .. } => "depth_limit",
            CompletenessCause::DirtyFiles { .. } => "dirty_files",
            CompletenessCause::PartialHistory { .. } => "partial_history",
        }
    }

    /// How much the cause may hide, for ranking causes (the largest first).
    pub fn weight(&self) -> usize {
        match self {
            CompletenessCause::UnresolvedCallSites { count, .. }
            | CompletenessCause::UnanalysedCode { count, .. }
            | CompletenessCause::UnresolvedSites { count, .. }
            | CompletenessCause::UncertainEdges { count }
            | CompletenessCause::UnparsedFiles { count, .. }
            | CompletenessCause::EscapedValue { count, .. }
            | CompletenessCause::ImplicitInvocation { count, .. }
            | CompletenessCause::CalledFromOutside { count, .. }
            | CompletenessCause::Overrides { count, .. }
            | CompletenessCause::DepthLimit { count, .. }
            | CompletenessCause::DirtyFiles { count, .. } => *count,
            CompletenessCause::PartialHistory { read, asked } => asked.saturating_sub(*read),
        }
    }
}

/// At most this many examples are given for a cause.
pub(crate) const MAX_CAUSE_EXAMPLES: usize = 3;

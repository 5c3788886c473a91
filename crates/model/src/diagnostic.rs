//! Diagnostics: what went wrong with one file, reported instead of aborting the index.

use std::fmt;

/// Why a file was skipped or only partly understood.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum DiagnosticKind {
    /// Larger than the size limit; not parsed.
    TooLarge,
    /// Contains NUL bytes; not parsed.
    Binary,
    /// Not valid UTF-8; not parsed.
    NotUtf8,
    /// Could not be read from disk.
    Unreadable,
    /// tree-sitter recovered from syntax errors; the facts outside the error regions stand.
    SyntaxError,
    /// A construct the extractor understood only partly (for example an odd `use` tree).
    Unsupported,
    /// Nested deeper than extraction follows (a type, expression or item nesting limit);
    /// not parsed, so that no walk over it can exhaust the stack or memory.
    TooDeep,
    /// A fact the index repaired because it broke an invariant (a bug in tether, reported
    /// rather than served).
    Internal,
}

impl DiagnosticKind {
    pub fn as_str(self) -> &'static str {
        match self {
            DiagnosticKind::TooLarge => "too_large",
            DiagnosticKind::Binary => "binary",
            DiagnosticKind::NotUtf8 => "not_utf8",
            DiagnosticKind::Unreadable => "unreadable",
            DiagnosticKind::SyntaxError => "syntax_error",
            DiagnosticKind::Unsupported => "unsupported",
            DiagnosticKind::TooDeep => "too_deep",
            DiagnosticKind::Internal => "internal",
        }
    }

    pub fn parse(text: &str) -> Option<DiagnosticKind> {
        [
            DiagnosticKind::TooLarge,
            DiagnosticKind::Binary,
            DiagnosticKind::NotUtf8,
            DiagnosticKind::Unreadable,
            DiagnosticKind::SyntaxError,
            DiagnosticKind::Unsupported,
            DiagnosticKind::TooDeep,
            DiagnosticKind::Internal,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == text)
    }

    /// Whether the file was left out of the graph entirely.
    pub fn skips_file(self) -> bool {
        matches!(
            self,
            DiagnosticKind::TooLarge
                | DiagnosticKind::Binary
                | DiagnosticKind::NotUtf8
                | DiagnosticKind::Unreadable
                | DiagnosticKind::TooDeep
        )
    }
}

/// One problem with one file, at a line when there is one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    pub path: String,
    pub line: Option<u32>,
    pub kind: DiagnosticKind,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => {
                write!(f, "{}:{}: {}: {}", self.path, line, self.kind.as_str(), self.message)
            }
            None => write!(f, "{}: {}: {}", self.path, self.kind.as_str(), self.message),
        }
    }
}

//! [`EntryProblem`]: an error or warning about one memory file, pointing at a line.

/// How bad a problem is. An error means the entry (or the one field) could not be used.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Severity {
    Error,
    Warning,
}

/// A problem in one entry file. Displays as `path:line: message`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{path}:{line}: {message}")]
pub struct EntryProblem {
    /// The entry file's repository-relative path.
    pub path: String,
    /// 1-based line of the file (line 1 is the opening `---`).
    pub line: u32,
    pub message: String,
    pub severity: Severity,
}

impl EntryProblem {
    pub fn error(path: &str, line: u32, message: impl Into<String>) -> EntryProblem {
        EntryProblem {
            path: path.to_string(),
            line,
            message: message.into(),
            severity: Severity::Error,
        }
    }

    pub fn warning(path: &str, line: u32, message: impl Into<String>) -> EntryProblem {
        EntryProblem {
            path: path.to_string(),
            line,
            message: message.into(),
            severity: Severity::Warning,
        }
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_as_path_line_message() {
        let problem = EntryProblem::error(".memory/notes/a.md", 3, "bad id");
        assert_eq!(problem.to_string(), ".memory/notes/a.md:3: bad id");
        assert!(problem.is_error());
        assert!(!EntryProblem::warning("p", 1, "m").is_error());
    }
}

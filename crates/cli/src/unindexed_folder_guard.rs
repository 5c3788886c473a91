//! A query never silently indexes a folder that is neither a git repository nor indexed yet
//! (`tether lookup -C /tmp` once started indexing all of /tmp): it refuses, saying to run
//! `tether index DIR` first, unless a person at a terminal answers yes to a prompt.

use std::io::{BufRead, IsTerminal, Write};

use crate::exit_codes::usage;
use crate::RepositoryArgs;

/// Refuses (a usage error) to query a folder outside git that has no graph database yet,
/// unless standard input and standard error are a terminal and the person says yes.
pub fn refuse_to_index_by_surprise(repository: &RepositoryArgs) -> anyhow::Result<()> {
    let root = repository.root();
    if tether_git::discover(&root).is_some() || repository.database_path().exists() {
        return Ok(());
    }
    let folder = repository.folder();
    let question = format!(
        "{} is not a git repository and has not been indexed; index it now?",
        root.display()
    );
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() && ask_yes(&question) {
        return Ok(());
    }
    Err(usage(format!(
        "{} is not a git repository and has not been indexed; run `tether index {}` first \
         (a query does not index a folder by surprise)",
        root.display(),
        folder.display()
    )))
}

/// Asks `question` on stderr; true for an answer starting with `y`.
fn ask_yes(question: &str) -> bool {
    eprint!("{question} [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    if std::io::stdin().lock().read_line(&mut answer).is_err() {
        return false;
    }
    answer.trim().to_ascii_lowercase().starts_with('y')
}

//! How `tether` ends: the typed failures of a command and the one place that maps them to the
//! process's exit code (0 success, 1 nothing matched, 2 usage, 3 daemon, 4 internal), as
//! ripgrep and cargo do. Commands return `anyhow::Result`; a [`CliFailure`] anywhere in the
//! error's chain decides the code, and any other error is an internal one.

use std::process::ExitCode;

/// The exit codes, documented in `--help` ([`EXIT_CODES_HELP`]) and the README.
pub const EXIT_SUCCESS: u8 = 0;
pub const EXIT_NOTHING_MATCHED: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
pub const EXIT_DAEMON: u8 = 3;
pub const EXIT_INTERNAL: u8 = 4;

/// The exit-code table of `tether --help`.
pub const EXIT_CODES_HELP: &str = "\
Exit codes:
  0  success (also when a reader such as `head` closes the output early)
  1  nothing matched: no symbol at that address, no lookup or search-memory match
  2  usage error: a bad option or value, a missing folder, a symbol address that matches
     several symbols, a request the daemon refused as invalid
  3  the daemon could not be reached, did not start, or failed while answering
  4  internal error";

/// Why a command failed, typed so that [`exit_code_of`] can map it.
#[derive(Debug)]
pub enum CliFailure {
    /// Nothing matched: an answer, not a fault. The message (if any) goes to stderr; the
    /// answer itself was printed already.
    NothingMatched(Option<String>),
    /// The command line asks for something that cannot be done as asked.
    Usage(String),
    /// The daemon could not be reached, or failed while answering.
    Daemon(String),
    /// A fault of tether itself.
    Internal(String),
    /// Standard output was closed by its reader (`tether … | head`): stop quietly.
    StdoutClosed,
}

impl CliFailure {
    pub fn exit_code(&self) -> u8 {
        match self {
            CliFailure::NothingMatched(_) => EXIT_NOTHING_MATCHED,
            CliFailure::Usage(_) => EXIT_USAGE,
            CliFailure::Daemon(_) => EXIT_DAEMON,
            CliFailure::Internal(_) => EXIT_INTERNAL,
            CliFailure::StdoutClosed => EXIT_SUCCESS,
        }
    }
}

impl std::fmt::Display for CliFailure {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliFailure::NothingMatched(message) => {
                formatter.write_str(message.as_deref().unwrap_or("nothing matched"))
            }
            CliFailure::Usage(message)
            | CliFailure::Daemon(message)
            | CliFailure::Internal(message) => formatter.write_str(message),
            CliFailure::StdoutClosed => formatter.write_str("standard output was closed"),
        }
    }
}

impl std::error::Error for CliFailure {}

/// A usage failure, as an `anyhow::Error` for `?`.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    CliFailure::Usage(message.into()).into()
}

/// A daemon failure, as an `anyhow::Error` for `?`.
pub fn daemon_failure(message: impl Into<String>) -> anyhow::Error {
    CliFailure::Daemon(message.into()).into()
}

/// The exit code of a failed command, and what to print on stderr (nothing for a closed
/// standard output or a quiet "nothing matched").
pub fn exit_code_of(error: &anyhow::Error) -> (u8, Option<String>) {
    let failure = error.chain().find_map(|cause| cause.downcast_ref::<CliFailure>());
    match failure {
        Some(CliFailure::StdoutClosed) => (EXIT_SUCCESS, None),
        Some(CliFailure::NothingMatched(None)) => (EXIT_NOTHING_MATCHED, None),
        Some(failure) => (failure.exit_code(), Some(format!("{error:#}"))),
        None => (EXIT_INTERNAL, Some(format!("{error:#}"))),
    }
}

/// Ends a command: its exit code, after printing what the failure says.
pub fn finish(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let (code, message) = exit_code_of(&error);
            if let Some(message) = message {
                eprintln!("error: {message}");
            }
            ExitCode::from(code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn every_failure_maps_to_its_code_through_any_context() {
        let wrapped = |failure: CliFailure| {
            Err::<(), _>(anyhow::Error::from(failure)).context("while asking").unwrap_err()
        };
        assert_eq!(exit_code_of(&wrapped(CliFailure::NothingMatched(None))), (1, None));
        assert_eq!(exit_code_of(&wrapped(CliFailure::Usage("bad".into()))).0, 2);
        assert_eq!(exit_code_of(&wrapped(CliFailure::Daemon("gone".into()))).0, 3);
        assert_eq!(exit_code_of(&wrapped(CliFailure::Internal("bug".into()))).0, 4);
        assert_eq!(exit_code_of(&wrapped(CliFailure::StdoutClosed)), (0, None));
        let (code, message) = exit_code_of(&anyhow::anyhow!("untyped"));
        assert_eq!((code, message.as_deref()), (4, Some("untyped")));
        let (_, message) = exit_code_of(&wrapped(CliFailure::Daemon("gone".into())));
        assert_eq!(message.as_deref(), Some("while asking: gone"));
    }
}

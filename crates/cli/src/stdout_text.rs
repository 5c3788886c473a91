//! Every write to standard output goes through here, so that a reader closing the pipe early
//! (`tether export | head`) ends the command quietly with success instead of a panic
//! (`println!` panics on EPIPE) or an error. Rust ignores SIGPIPE, so the write returns
//! `BrokenPipe`, which becomes [`CliFailure::StdoutClosed`].

use std::io::Write;

use crate::exit_codes::CliFailure;

/// A failed write to standard output as a typed failure: a closed pipe is a quiet stop.
pub fn stdout_failure(error: std::io::Error) -> anyhow::Error {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        CliFailure::StdoutClosed.into()
    } else {
        CliFailure::Internal(format!("writing to standard output: {error}")).into()
    }
}

/// Writes `text` to standard output as it is, and flushes it.
pub fn print_text(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(stdout_failure)
}

/// Writes `line` and a newline to standard output.
pub fn print_line(line: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(line.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(stdout_failure)
}

/// Lets `write` stream to standard output (buffered, then flushed); a closed pipe is a
/// quiet stop.
pub fn write_through(
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    write(&mut out).and_then(|()| out.flush()).map_err(stdout_failure)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_a_quiet_stop_and_other_errors_are_internal() {
        let closed = stdout_failure(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
        assert_eq!(crate::exit_codes::exit_code_of(&closed), (0, None));
        let full = stdout_failure(std::io::Error::other("disk full"));
        assert_eq!(crate::exit_codes::exit_code_of(&full).0, 4);
    }

    /// `println!` panics when the reader is gone: standard output is written here only.
    #[test]
    fn no_other_file_of_the_cli_prints_to_standard_output() {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut printing = Vec::new();
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.find("#[cfg(test)]").map_or(text.as_str(), |at| &text[..at]);
            let prints = ["println!(", "print!("]
                .iter()
                .any(|call| code.match_indices(call).any(|(at, _)| !code[..at].ends_with('e')));
            if prints && path.file_name().unwrap() != "stdout_text.rs" {
                printing.push(path.display().to_string());
            }
        }
        assert!(printing.is_empty(), "print through stdout_text instead: {printing:?}");
    }
}

//! The LSP base protocol's framing over stdio, read with bounds: a header line is at most
//! [`MAX_HEADER_LINE_BYTES`], a header at most [`MAX_HEADER_LINES`] lines, a body at most
//! [`MAX_MESSAGE_BYTES`], and nothing is allocated before the length is checked (lsp-server's
//! own reader trusts `Content-Length`: `9223372036854775807` aborts on allocation,
//! `18446744073709551615` panics, a header without CRLF is buffered without end). A body that
//! is not a message is answered `-32700` (id `null`) and the session goes on; a header that
//! breaks a bound is answered `-32700` too, and then the session ends, since the stream can
//! no longer be split into messages.
//!
//! It deliberately does not parse or write JSON: `editor_messages` does.

use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use tether_model::IgnoringPoison;

use crate::editor_messages::{error_frame_body, parse_editor_frame};
use crossbeam_channel::bounded;
use lsp_server::{Connection, Message};
use tether_protocol::rpc::RpcError;

/// The largest message body accepted, in bytes.
pub const MAX_MESSAGE_BYTES: u64 = 64 << 20;
/// The longest header line accepted, in bytes (with its CRLF).
pub const MAX_HEADER_LINE_BYTES: usize = 8 << 10;
/// The most header lines a message may have.
pub const MAX_HEADER_LINES: usize = 32;

/// Why a frame could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FramingError {
    #[error("a header line is longer than {MAX_HEADER_LINE_BYTES} bytes or does not end in CRLF")]
    HeaderLine,
    #[error("a message has more than {MAX_HEADER_LINES} header lines")]
    TooManyHeaders,
    #[error("a message has no Content-Length header")]
    NoContentLength,
    #[error("Content-Length {0:?} is not a length")]
    BadLength(String),
    #[error("Content-Length {0} is over the limit of {MAX_MESSAGE_BYTES} bytes")]
    TooLarge(u64),
    #[error("reading stdin: {0}")]
    Io(#[from] io::Error),
}

/// Reads one frame's body; `None` at the end of the input (before a frame starts).
pub fn read_frame(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, FramingError> {
    let mut length = None;
    let mut lines = 0;
    loop {
        let mut line = Vec::new();
        let read =
            input.by_ref().take(MAX_HEADER_LINE_BYTES as u64).read_until(b'\n', &mut line)?;
        if read == 0 && lines == 0 {
            return Ok(None);
        }
        let Some(line) = line.strip_suffix(b"\r\n") else { return Err(FramingError::HeaderLine) };
        if line.is_empty() {
            break;
        }
        lines += 1;
        if lines > MAX_HEADER_LINES {
            return Err(FramingError::TooManyHeaders);
        }
        let line = String::from_utf8_lossy(line);
        let Some((name, value)) = line.split_once(':') else { continue };
        if name.trim().eq_ignore_ascii_case("Content-Length") {
            let value = value.trim();
            let bytes: u64 = value
                .parse()
                .map_err(|_| FramingError::BadLength(value.chars().take(40).collect()))?;
            if bytes > MAX_MESSAGE_BYTES {
                return Err(FramingError::TooLarge(bytes));
            }
            length = Some(bytes as usize);
        }
    }
    let length = length.ok_or(FramingError::NoContentLength)?;
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(body))
}

/// The reader and writer threads of a stdio connection.
pub struct StdioThreads {
    reader: thread::JoinHandle<Result<(), FramingError>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl StdioThreads {
    /// Waits for both threads; the reader's framing error, if the input broke a bound.
    pub fn join(self) -> Result<(), FramingError> {
        let read =
            self.reader.join().unwrap_or_else(|_| Err(io::Error::other("reader panicked").into()));
        let written =
            self.writer.join().unwrap_or_else(|_| Err(io::Error::other("writer panicked")));
        read?;
        written.map_err(FramingError::Io)
    }
}

/// A connection over this process's stdin and stdout, read with [`read_frame`].
pub fn stdio_connection() -> (Connection, StdioThreads) {
    connection_over(io::BufReader::new(io::stdin()), io::stdout())
}

/// A connection over any input and output (the tests' pipes), read with [`read_frame`].
pub fn connection_over(
    mut input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
) -> (Connection, StdioThreads) {
    let output = Arc::new(Mutex::new(output));
    let (to_editor, from_server) = bounded::<Message>(0);
    let (to_server, from_editor) = bounded::<Message>(0);
    let writer_output = Arc::clone(&output);
    let writer = thread::spawn(move || {
        for message in from_server {
            let mut output = writer_output.lock().ignoring_poison();
            message.write(&mut *output)?;
        }
        Ok(())
    });
    let reader = thread::spawn(move || {
        let refuse = |error: &RpcError| {
            let body = error_frame_body(error);
            let mut output = output.lock().ignoring_poison();
            let _ = write!(output, "Content-Length: {}\r\n\r\n{body}", body.len());
            let _ = output.flush();
        };
        loop {
            let body = match read_frame(&mut input) {
                Ok(Some(body)) => body,
                Ok(None) => return Ok(()),
                Err(FramingError::Io(error)) => return Err(FramingError::Io(error)),
                Err(error) => {
                    refuse(&RpcError::new(RpcError::PARSE_ERROR, error.to_string()));
                    return Err(error);
                }
            };
            match parse_editor_frame(&body) {
                Ok(message) => {
                    let is_exit =
                        matches!(&message, Message::Notification(n) if n.method == "exit");
                    if to_server.send(message).is_err() || is_exit {
                        return Ok(());
                    }
                }
                Err(error) => refuse(&error),
            }
        }
    });
    (Connection { sender: to_editor, receiver: from_editor }, StdioThreads { reader, writer })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(input: &[u8]) -> String {
        match read_frame(&mut io::Cursor::new(input.to_vec())) {
            Ok(Some(body)) => String::from_utf8_lossy(&body).into_owned(),
            Ok(None) => "end".to_string(),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn lengths_and_headers_past_the_bounds_are_refused_before_anything_is_allocated() {
        assert_eq!(frame(b"Content-Length: 2\r\n\r\n{}"), "{}");
        assert_eq!(frame(b"content-length:2\r\nContent-Type: x\r\n\r\n[]"), "[]");
        assert_eq!(frame(b""), "end");
        for length in ["9223372036854775807", "18446744073709551615", "10737418240"] {
            let input = format!("Content-Length: {length}\r\n\r\n{{}}");
            assert!(frame(input.as_bytes()).contains("over the limit"), "{length}");
        }
        assert!(frame(b"Content-Length: 99999999999999999999999\r\n\r\n").contains("not a length"));
        assert!(frame(b"Content-Length: -1\r\n\r\n").contains("not a length"));
        let endless = vec![b'x'; 10 * MAX_HEADER_LINE_BYTES];
        assert!(frame(&endless).contains("CRLF"));
        let many = "X-Header: 1\r\n".repeat(MAX_HEADER_LINES + 1);
        assert!(frame(many.as_bytes()).contains("header lines"));
        assert!(frame(b"X-Header: 1\r\n\r\n{}").contains("no Content-Length"));
        assert!(frame(b"Content-Length: 10\r\n\r\n{}").contains("reading stdin"));
    }

    #[test]
    fn a_body_that_is_not_a_message_is_answered_and_the_session_goes_on() {
        let shared = Arc::new(Mutex::new(Vec::new()));
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().write(bytes)
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let null_id = r#"{"jsonrpc":"2.0","id":null,"method":"shutdown"}"#;
        let input = format!(
            "Content-Length: 9\r\n\r\nnot json!Content-Length: {}\r\n\r\n{null_id}Content-Length: {}\r\n\r\n{good}Content-Length: 99999999999\r\n\r\n",
            null_id.len(),
            good.len()
        );
        let (connection, threads) =
            connection_over(io::Cursor::new(input.into_bytes()), Shared(Arc::clone(&shared)));
        let message = connection.receiver.recv().expect("the good message after the bad one");
        assert!(matches!(message, Message::Notification(n) if n.method == "initialized"));
        assert!(connection.receiver.recv().is_err(), "the session ends at the oversized frame");
        drop(connection);
        assert!(matches!(threads.join(), Err(FramingError::TooLarge(99999999999))));
        let written = String::from_utf8(shared.lock().unwrap().clone()).unwrap();
        assert_eq!(written.matches("\"code\":-32700").count(), 2, "{written}");
        assert_eq!(written.matches("\"code\":-32600").count(), 1, "{written}");
        assert!(written.contains("\"id\":null"), "{written}");
    }
}

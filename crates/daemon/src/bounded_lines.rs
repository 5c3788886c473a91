//! Reading a client's newline-delimited requests without ever holding more than
//! `MAX_REQUEST_BYTES` of one: past the limit, bytes are consumed and dropped until the
//! newline. The reader is cancel-safe (its only await is the buffer's fill, and what it has
//! read so far lives in the reader), so a subscribed connection can wait for a request and for
//! an announcement at once.

use tether_protocol::rpc::MAX_REQUEST_BYTES;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::net::unix::OwnedReadHalf;

/// One line read from a client, within the size limit.
pub(crate) enum ReadLine {
    /// The client closed the connection.
    Closed,
    /// A complete line (without its newline), in [`BoundedLines::line`].
    Line,
    /// A line over the limit; it was discarded up to and including its newline.
    TooLong,
}

/// A connection's reading half, and the line being read.
pub(crate) struct BoundedLines {
    reader: BufReader<OwnedReadHalf>,
    line: Vec<u8>,
    /// The line being read is over the limit: the rest of it is dropped.
    discarding: bool,
    /// The last call returned a line: the next one starts a new one.
    returned: bool,
}

impl BoundedLines {
    pub(crate) fn new(reader: OwnedReadHalf) -> BoundedLines {
        BoundedLines {
            reader: BufReader::new(reader),
            line: Vec::new(),
            discarding: false,
            returned: false,
        }
    }

    /// The line the last [`Self::next_line`] returned as [`ReadLine::Line`].
    pub(crate) fn line(&self) -> &[u8] {
        &self.line
    }

    /// Reads up to the next newline (or the end of the stream). Cancelling it loses nothing:
    /// the next call goes on with the same line.
    pub(crate) async fn next_line(&mut self) -> std::io::Result<ReadLine> {
        if self.returned {
            self.line.clear();
            self.discarding = false;
            self.returned = false;
        }
        loop {
            let buffer = self.reader.fill_buf().await?;
            if buffer.is_empty() {
                // End of stream: a last line without a newline still counts.
                self.returned = true;
                return Ok(if self.discarding {
                    ReadLine::TooLong
                } else if self.line.is_empty() {
                    ReadLine::Closed
                } else {
                    ReadLine::Line
                });
            }
            let newline = buffer.iter().position(|byte| *byte == b'\n');
            let take = newline.map_or(buffer.len(), |position| position + 1);
            if !self.discarding {
                let content = newline.unwrap_or(buffer.len());
                if self.line.len() + content > MAX_REQUEST_BYTES {
                    self.discarding = true;
                    self.line.clear();
                } else {
                    self.line.extend_from_slice(&buffer[..content]);
                }
            }
            self.reader.consume(take);
            if newline.is_some() {
                self.returned = true;
                return Ok(if self.discarding { ReadLine::TooLong } else { ReadLine::Line });
            }
        }
    }
}

//! What the daemon benchmarks share: a socket client speaking one JSON-RPC line at a time,
//! the process's resident memory, and running git in a fixture folder.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use anyhow::{bail, Context};
use tether_protocol::Value;

/// This process's resident set, in MiB.
pub(crate) fn rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kilobytes| kilobytes / 1024.0)
        .unwrap_or(0.0)
}

pub(crate) fn git(directory: &Path, arguments: &[&str]) -> anyhow::Result<()> {
    let status = Command::new("git")
        .arg("-C")
        .arg(directory)
        .args(arguments)
        .status()
        .context("running git")?;
    if !status.success() {
        bail!("git {arguments:?} failed");
    }
    Ok(())
}

/// One connection to the daemon's socket; each call waits at most 90 s for its answer.
pub(crate) struct Client {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
}

impl Client {
    pub(crate) fn connect(socket: &Path) -> anyhow::Result<Client> {
        let stream = UnixStream::connect(socket)?;
        stream.set_read_timeout(Some(Duration::from_secs(90)))?;
        Ok(Client { reader: BufReader::new(stream.try_clone()?), writer: stream })
    }

    pub(crate) fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        self.send_raw(tether_protocol::rpc::request_line(1, method, params).as_bytes())
    }

    /// Sends a line as it is (a garbage frame, a request written by hand).
    pub(crate) fn send_raw(&mut self, line: &[u8]) -> anyhow::Result<Value> {
        self.writer.write_all(line)?;
        let mut answer = String::new();
        if self.reader.read_line(&mut answer)? == 0 {
            bail!("the daemon closed the connection");
        }
        Ok(serde_json::from_str(&answer)?)
    }
}

/// A call given as JSON, answered by the daemon's handler in this process, as JSON.
pub fn handle_json(
    state: &tether_daemon::DaemonState,
    method: &str,
    params: &tether_protocol::Value,
) -> Result<tether_protocol::Value, tether_protocol::rpc::RpcError> {
    tether_protocol::rpc::apply_json(method, params, |request| {
        tether_daemon::handle(state, request)
    })
}

//! Talking to the repository's daemon: connect, start it when it is not running, call a method.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tether_daemon::{DaemonLock, DaemonPaths};
use tether_protocol::rpc::{parse_response, request_line, RpcError};
use tether_protocol::Value;

/// How long a started daemon may take to open its socket.
const START_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a query waits for the first index of a freshly started daemon.
const READY_TIMEOUT: Duration = Duration::from_secs(600);

pub struct DaemonClient {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
    next_id: u64,
}

impl DaemonClient {
    pub fn connect(socket: &Path) -> std::io::Result<DaemonClient> {
        let stream = UnixStream::connect(socket)?;
        let writer = stream.try_clone()?;
        Ok(DaemonClient { reader: BufReader::new(stream), writer, next_id: 1 })
    }

    /// Calls one method; the outer error is a transport failure, the inner one the daemon's.
    pub fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Result<Value, RpcError>> {
        let id = self.next_id;
        self.next_id += 1;
        self.writer.write_all(request_line(id, method, params).as_bytes()).context("sending the request to the daemon")?;
        let mut line = Vec::new();
        self.reader.read_until(b'\n', &mut line).context("reading the daemon's answer")?;
        if line.is_empty() {
            bail!("the daemon closed the connection");
        }
        Ok(parse_response(&line))
    }

    /// Calls a method, waiting while the daemon's first index is still being built.
    pub fn call_when_ready(&mut self, method: &str, params: Value) -> anyhow::Result<Result<Value, RpcError>> {
        let started = Instant::now();
        loop {
            match self.call(method, params.clone())? {
                Err(error) if error.code == RpcError::NOT_READY && started.elapsed() < READY_TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(200));
                }
                other => return Ok(other),
            }
        }
    }
}

/// Connects to the daemon, starting it in the background first when none is running.
pub fn connect_or_start(paths: &DaemonPaths, serve_arguments: &[String]) -> anyhow::Result<DaemonClient> {
    if let Ok(client) = DaemonClient::connect(&paths.socket) {
        return Ok(client);
    }
    if !DaemonLock::is_held(&paths.lock) {
        start_in_background(paths, serve_arguments)?;
    }
    let started = Instant::now();
    loop {
        match DaemonClient::connect(&paths.socket) {
            Ok(client) => return Ok(client),
            Err(_) if started.elapsed() < START_TIMEOUT => std::thread::sleep(Duration::from_millis(50)),
            Err(error) => bail!("the daemon did not open {} within {} s ({error}); see {}", paths.socket.display(), START_TIMEOUT.as_secs(), paths.log.display()),
        }
    }
}

/// Runs `tether serve …` detached, its output appended to the daemon log.
pub fn start_in_background(paths: &DaemonPaths, serve_arguments: &[String]) -> anyhow::Result<u32> {
    if let Some(parent) = paths.log.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    }
    let log = std::fs::OpenOptions::new().create(true).append(true).open(&paths.log).with_context(|| format!("opening {}", paths.log.display()))?;
    let executable = std::env::current_exe().context("finding the tether executable")?;
    let mut command = Command::new(executable);
    command.arg("serve").args(serve_arguments).stdin(Stdio::null()).stdout(log.try_clone()?).stderr(log);
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = command.spawn().context("starting the daemon")?;
    Ok(child.id())
}

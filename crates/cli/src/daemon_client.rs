//! Talking to the repository's daemon: connect, start it when it is not running, call a method.
//! A daemon that cannot be reached, or that breaks the connection, is a daemon failure (exit
//! code 3) whose message names the daemon's log.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use tether_daemon::{DaemonLock, DaemonPaths};
use tether_protocol::rpc::{call_line, parse_answer, parse_graph_published, RpcError};
use tether_protocol::wire::{Answer, GraphPublished, StatusAnswer};
use tether_protocol::{Request, WireRequest};

use crate::exit_codes::daemon_failure;

/// How long a started daemon may take to open its socket.
const START_TIMEOUT: Duration = Duration::from_secs(20);
/// How long a query waits for the first index of a freshly started daemon.
const READY_TIMEOUT: Duration = Duration::from_secs(600);

pub struct DaemonClient {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
    next_id: u64,
    /// The daemon's log, named when the connection breaks.
    log: Option<PathBuf>,
}

impl DaemonClient {
    /// Connects, and checks before sending anything that the daemon at the other end runs as
    /// this user (`SO_PEERCRED`): a socket someone else created first gets no query.
    pub fn connect(socket: &Path) -> std::io::Result<DaemonClient> {
        let stream = UnixStream::connect(socket)?;
        let peer = tether_daemon::peer_uid(&stream)?;
        if peer != tether_daemon::current_uid() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                format!(
                    "{} is served by uid {peer}, not by you (uid {}); refusing to talk to it",
                    socket.display(),
                    tether_daemon::current_uid()
                ),
            ));
        }
        let writer = stream.try_clone()?;
        Ok(DaemonClient { reader: BufReader::new(stream), writer, next_id: 1, log: None })
    }

    /// Connects to the daemon of `paths`, whose log a broken connection then names.
    pub fn connect_to(paths: &DaemonPaths) -> std::io::Result<DaemonClient> {
        let mut client = DaemonClient::connect(&paths.socket)?;
        client.log = Some(paths.log.clone());
        Ok(client)
    }

    /// A broken connection as a daemon failure: the daemon probably died; its log says why.
    fn broken(&self, what: &str, error: Option<std::io::Error>) -> anyhow::Error {
        let cause = error.map(|error| format!(" ({error})")).unwrap_or_default();
        let log = match &self.log {
            Some(log) => format!("; its log is {}", log.display()),
            None => "; its log (daemon.log) is beside the database".to_string(),
        };
        daemon_failure(format!(
            "the tether daemon {what}{cause}: it may have crashed or been stopped{log}"
        ))
    }

    /// Asks one request; the outer error is a transport failure, the inner one the daemon's.
    pub fn call(&mut self, request: &WireRequest) -> anyhow::Result<Result<Answer, RpcError>> {
        let id = self.next_id;
        self.next_id += 1;
        if let Err(error) = self.writer.write_all(call_line(id, request).as_bytes()) {
            return Err(self.broken("did not take the request", Some(error)));
        }
        let mut line = Vec::new();
        if let Err(error) = self.reader.read_until(b'\n', &mut line) {
            return Err(self.broken("broke the connection before answering", Some(error)));
        }
        if line.is_empty() {
            return Err(self.broken("closed the connection before answering", None));
        }
        Ok(parse_answer(request.method(), &line))
    }

    /// Reads the next `graph_published` notification of a subscribed connection (other lines
    /// are skipped); `None` when the daemon closed the connection.
    pub fn next_graph_published(&mut self) -> anyhow::Result<Option<GraphPublished>> {
        loop {
            let mut line = Vec::new();
            self.reader
                .read_until(b'\n', &mut line)
                .context("reading the daemon's notification")?;
            if line.is_empty() {
                return Ok(None);
            }
            if let Some(published) = parse_graph_published(&line) {
                return Ok(Some(published));
            }
        }
    }

    /// Asks `status` or `reindex`, whose answer is the daemon's status.
    pub fn status(&mut self, request: &Request) -> anyhow::Result<StatusAnswer> {
        match self.call(&request.clone().into())?.map_err(|error| daemon_failure(error.message))? {
            Answer::Status(status) => Ok(status),
            other => Err(daemon_failure(format!(
                "the daemon answered {} with {other:?}",
                request.method().as_str()
            ))),
        }
    }

    /// Asks a request, waiting while the daemon's first index is still being built.
    pub fn call_when_ready(
        &mut self,
        request: &Request,
    ) -> anyhow::Result<Result<Answer, RpcError>> {
        let started = Instant::now();
        let request = WireRequest::from(request.clone());
        loop {
            match self.call(&request)? {
                Err(error)
                    if error.code == RpcError::NOT_READY && started.elapsed() < READY_TIMEOUT =>
                {
                    std::thread::sleep(Duration::from_millis(200));
                }
                other => return Ok(other),
            }
        }
    }
}

/// Connects to the daemon, starting it in the background first when none is running.
/// Starters take `start.lock` in turn, so two clients (or `tether start` right after a
/// crash) never spawn two daemons: the second finds the first's lock held.
pub fn connect_or_start(
    paths: &DaemonPaths,
    serve_arguments: &[String],
) -> anyhow::Result<DaemonClient> {
    match DaemonClient::connect_to(paths) {
        Ok(client) => return Ok(client),
        Err(error) if error.kind() == std::io::ErrorKind::PermissionDenied => {
            return Err(daemon_failure(error.to_string()))
        }
        Err(_) => {}
    }
    {
        let _starting = StartLock::acquire(paths).map_err(|error| {
            daemon_failure(format!("cannot start the tether daemon: {error:#}"))
        })?;
        if !DaemonLock::is_held(&paths.lock) {
            start_in_background(paths, serve_arguments).map_err(|error| {
                daemon_failure(format!("cannot start the tether daemon: {error:#}"))
            })?;
            wait_until_locked(paths);
        }
    }
    let started = Instant::now();
    loop {
        match DaemonClient::connect_to(paths) {
            Ok(client) => return Ok(client),
            Err(_) if started.elapsed() < START_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(50))
            }
            Err(error) => {
                return Err(daemon_failure(format!(
                    "the tether daemon did not open {} within {} s ({error}); its log is {}",
                    paths.socket.display(),
                    START_TIMEOUT.as_secs(),
                    paths.log.display()
                )))
            }
        }
    }
}

/// Held while one client starts the daemon.
struct StartLock {
    _file: std::fs::File,
}

impl StartLock {
    fn acquire(paths: &DaemonPaths) -> anyhow::Result<StartLock> {
        paths.prepare().with_context(|| format!("preparing {}", paths.folder.display()))?;
        let path = paths.lock.with_file_name("start.lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        file.lock().with_context(|| format!("locking {}", path.display()))?;
        Ok(StartLock { _file: file })
    }
}

/// Waits (briefly) until a just-started daemon holds its lock, so the next starter sees it.
fn wait_until_locked(paths: &DaemonPaths) {
    let started = Instant::now();
    while !DaemonLock::is_held(&paths.lock) && started.elapsed() < START_TIMEOUT {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `tether serve …` detached, its output appended to the daemon log (mode 0600).
pub fn start_in_background(paths: &DaemonPaths, serve_arguments: &[String]) -> anyhow::Result<u32> {
    paths.prepare().with_context(|| format!("preparing {}", paths.folder.display()))?;
    let log = tether_daemon::open_private_append(&paths.log)
        .with_context(|| format!("opening {}", paths.log.display()))?;
    let executable = std::env::current_exe().context("finding the tether executable")?;
    let mut command = Command::new(executable);
    command
        .arg("serve")
        .args(serve_arguments)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log);
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let child = command.spawn().context("starting the daemon")?;
    Ok(child.id())
}

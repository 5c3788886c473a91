//! `cypher` on the daemon: one statement that only reads the graph (file-touching clauses,
//! writes and second statements are refused before the engine sees them), run in a worker
//! process of its own (`tether cypher-worker`) that the daemon watches: killed past a memory
//! bound, past its time, or past an output cap, at most two at a time.
//!
//! Why a process: the engine builds every row of a result before the first can be read, so
//! a cross product grows without bound inside it, and its own timeout does not stop every
//! plan. A process can be killed, and its memory goes back with it.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tether_model::IgnoringPoison;

use tether_model::Deadline;
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::CypherAnswer;
use tether_protocol::{CypherWorkerOutcome, CYPHER_WORKER_OPENED_LINE};

use crate::state::DaemonState;

/// A statement runs at most this long (less when the request's own deadline is nearer).
pub const MAX_AD_HOC_STATEMENT_TIME: Duration = Duration::from_secs(20);
/// A worker whose resident memory passes this is killed.
pub const MAX_AD_HOC_STATEMENT_MEMORY_BYTES: u64 = 512 << 20;
/// A worker that writes more than this (its rows as text) is killed.
pub const MAX_AD_HOC_STATEMENT_OUTPUT_BYTES: u64 = 32 << 20;
/// Statements that run at once; another is refused as busy, not queued.
pub const MAX_RUNNING_AD_HOC_STATEMENTS: usize = 2;
/// The most rows an answer carries; the rest are counted.
const MAX_CYPHER_ROWS: usize = 100_000;
/// How often the worker's memory and time are looked at.
const WATCH_EVERY: Duration = Duration::from_millis(20);

/// The program that runs statements and how many run now.
pub(crate) struct AdHocStatements {
    worker_program: PathBuf,
    running: Mutex<usize>,
}

impl AdHocStatements {
    pub(crate) fn new(worker_program: PathBuf) -> AdHocStatements {
        AdHocStatements { worker_program, running: Mutex::new(0) }
    }

    /// A running slot, or `None` when all are taken.
    fn take_slot(&self) -> Option<RunningSlot<'_>> {
        let mut running = self.running.lock().ignoring_poison();
        if *running >= MAX_RUNNING_AD_HOC_STATEMENTS {
            return None;
        }
        *running += 1;
        Some(RunningSlot { running: &self.running })
    }
}

/// Gives its slot back when the statement ends, however it ends.
struct RunningSlot<'a> {
    running: &'a Mutex<usize>,
}

impl Drop for RunningSlot<'_> {
    fn drop(&mut self) {
        *self.running.lock().ignoring_poison() -= 1;
    }
}

/// What the thread reading the worker's output reports.
enum WorkerOutput {
    /// The worker has the database open.
    Opened,
    /// Everything after the opened line, up to end of file.
    Finished(String),
    /// The worker wrote more than its cap.
    TooLong,
}

impl DaemonState {
    /// Runs one read-only statement in a watched worker. A statement the engine refuses (a
    /// write, a syntax error) or one stopped at a bound is `-32602`, saying which.
    pub(crate) fn cypher(
        &self,
        statement: &str,
        deadline: Deadline,
    ) -> Result<CypherAnswer, RpcError> {
        // Refused before any process starts: a statement that would touch files, write, or
        // run a second statement never reaches the engine.
        tether_store::check_ad_hoc_statement(statement).map_err(|refused| {
            RpcError::invalid_params(format!("statement refused: {}", refused.reason))
        })?;
        let Some(_slot) = self.ad_hoc.take_slot() else {
            return Err(RpcError::new(
                RpcError::SERVER_BUSY,
                format!(
                    "{MAX_RUNNING_AD_HOC_STATEMENTS} cypher statements already run (the most at once); retry when one ends"
                ),
            ));
        };
        // (The engine reads a timeout of 0 as none.)
        let time = deadline
            .remaining()
            .map_or(MAX_AD_HOC_STATEMENT_TIME, |left| left.min(MAX_AD_HOC_STATEMENT_TIME))
            .max(Duration::from_millis(100));
        // No graph is written while the worker opens the database (a read-only open racing a
        // writer's commit fails); a new graph is written beside it and renamed over it, so
        // once open, the worker keeps reading the one it opened.
        let no_writer = self.persist_lock.lock().ignoring_poison();
        let mut worker = self.start_worker(time)?;
        feed_the_statement(&mut worker, statement);
        let output = read_the_output(worker.stdout.take().expect("stdout is piped"));
        let watched = watch(&worker, &output, time, no_writer);
        // Whatever happened, the worker is gone before the answer.
        let _ = worker.kill();
        let _ = worker.wait();
        let text = watched?;
        match CypherWorkerOutcome::from_line(&text) {
            Ok(CypherWorkerOutcome::Rows { answer }) => Ok(answer),
            Ok(CypherWorkerOutcome::Refused { message }) => Err(RpcError::invalid_params(message)),
            Ok(CypherWorkerOutcome::Failed { message }) => {
                Err(RpcError::new(RpcError::INTERNAL_ERROR, message))
            }
            Err(_) if text.is_empty() => Err(RpcError::new(
                RpcError::INTERNAL_ERROR,
                "the cypher worker ended without an answer (it crashed or was killed)",
            )),
            Err(message) => Err(RpcError::new(RpcError::INTERNAL_ERROR, message)),
        }
    }

    fn start_worker(&self, time: Duration) -> Result<Child, RpcError> {
        let mut command = Command::new(&self.ad_hoc.worker_program);
        command
            .arg("cypher-worker")
            .arg("--database")
            .arg(&self.paths.database)
            .arg("--timeout-ms")
            .arg(time.as_millis().to_string())
            .arg("--max-rows")
            .arg(MAX_CYPHER_ROWS.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
        unsafe {
            command.pre_exec(|| {
                // The worker dies with the thread that watches it (a daemon killed mid-statement
                // leaves no statement running).
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        command.spawn().map_err(|error| {
            RpcError::new(
                RpcError::INTERNAL_ERROR,
                format!(
                    "cannot start the cypher worker ({}): {error}",
                    self.ad_hoc.worker_program.display()
                ),
            )
        })
    }
}

/// Writes the statement to the worker's input on a thread of its own (a worker that does not
/// read cannot block the daemon) and closes it.
fn feed_the_statement(worker: &mut Child, statement: &str) {
    let mut input = worker.stdin.take().expect("stdin is piped");
    let statement = statement.to_owned();
    std::thread::spawn(move || {
        let _ = input.write_all(statement.as_bytes());
    });
}

/// Reads the worker's output on a thread of its own: the opened line, then the rest, capped.
fn read_the_output(stdout: ChildStdout) -> Receiver<WorkerOutput> {
    let (sender, receiver) = channel();
    std::thread::spawn(move || read_worker_output(stdout, &sender));
    receiver
}

fn read_worker_output(stdout: ChildStdout, sender: &Sender<WorkerOutput>) {
    let mut reader = BufReader::new(stdout.take(MAX_AD_HOC_STATEMENT_OUTPUT_BYTES + 1));
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        let _ = sender.send(WorkerOutput::Finished(String::new()));
        return;
    }
    let mut rest = if first.trim_end() == CYPHER_WORKER_OPENED_LINE {
        let _ = sender.send(WorkerOutput::Opened);
        String::new()
    } else {
        // The worker failed before opening: its outcome is this line.
        first
    };
    let complete = reader.read_to_string(&mut rest).is_ok();
    let too_long = reader.into_inner().limit() == 0;
    let _ = sender.send(if too_long {
        WorkerOutput::TooLong
    } else if complete {
        WorkerOutput::Finished(rest)
    } else {
        WorkerOutput::Finished(String::new())
    });
}

/// Waits for the worker's outcome, looking at its memory and its time; the persist lock is
/// let go once the database is open. `Err` when a bound stopped it.
fn watch(
    worker: &Child,
    output: &Receiver<WorkerOutput>,
    time: Duration,
    no_writer: MutexGuard<'_, ()>,
) -> Result<String, RpcError> {
    let started = Instant::now();
    let mut no_writer = Some(no_writer);
    loop {
        match output.recv_timeout(WATCH_EVERY) {
            Ok(WorkerOutput::Opened) => drop(no_writer.take()),
            Ok(WorkerOutput::Finished(text)) => return Ok(text),
            Ok(WorkerOutput::TooLong) => {
                return Err(stopped(format!(
                    "its rows passed {} MiB of text; add a LIMIT or return fewer columns",
                    MAX_AD_HOC_STATEMENT_OUTPUT_BYTES >> 20
                )))
            }
            Err(RecvTimeoutError::Disconnected) => return Ok(String::new()),
            Err(RecvTimeoutError::Timeout) => {}
        }
        if resident_bytes(worker.id())
            .is_some_and(|bytes| bytes > MAX_AD_HOC_STATEMENT_MEMORY_BYTES)
        {
            return Err(stopped(format!(
                "it needed more than {} MiB; add a LIMIT, narrow the MATCH, or aggregate (count(*)) instead of returning every row",
                MAX_AD_HOC_STATEMENT_MEMORY_BYTES >> 20
            )));
        }
        // A grace second past the engine's own timeout, which answers more clearly.
        if started.elapsed() > time + Duration::from_secs(1) {
            return Err(RpcError::new(
                RpcError::TIMEOUT,
                format!("the statement was stopped after {} s", time.as_secs()),
            ));
        }
    }
}

fn stopped(why: String) -> RpcError {
    RpcError::invalid_params(format!("the statement was stopped: {why}"))
}

/// The resident memory of process `pid` (Linux's `/proc/PID/statm`), if it can be read.
fn resident_bytes(pid: u32) -> Option<u64> {
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf only reads a constant of the system.
    let page_size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * u64::try_from(page_size).ok()?)
}

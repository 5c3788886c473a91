//! The socket server: takes a bound listener and a shutdown future; each connection is a
//! task reading newline-delimited JSON-RPC requests. A malformed request gets an error and
//! the connection stays usable; a panic or timeout in one request harms nothing else. A
//! connection that calls `subscribe` also receives a `graph_published` notification per
//! graph published from then on; a connection's unsaved editor buffers (`buffer_update`) are
//! kept with it, and its answers come from a graph built with them (`editor_buffers`).
//!
//! Limits, so that no client can take the daemon down: only the daemon's own user may
//! connect (`SO_PEERCRED`); at most [`MAX_CONNECTIONS`] connections are open at once (the
//! next one is told so and closed); a connection with no request for [`IDLE_TIMEOUT`] is
//! closed (unless subscribed); a request line over `MAX_REQUEST_BYTES` is answered `-32600` and the rest of it is
//! discarded without being buffered; at most [`MAX_REQUESTS_IN_FLIGHT`] requests run at once
//! (the others queue); a request's work stops at its deadline, not only its answer.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tether_model::IgnoringPoison;

use tether_model::Deadline;
use tether_protocol::rpc::{
    answer_line, error_line, graph_published_line, parse_call, RequestId, RpcError,
    MAX_REQUEST_BYTES,
};
use tether_protocol::wire::{
    Answer, BuffersAnswer, GraphPublished, StoppingAnswer, SubscribedAnswer,
};
use tether_protocol::{BufferRequest, ConnectionRequest, Request, WireRequest};
use tokio::io::AsyncWriteExt;
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{broadcast, Notify, Semaphore};

use crate::bounded_lines::{BoundedLines, ReadLine};
use crate::editor_buffers::EditorBuffers;
use crate::handlers::apply_with_buffers;
use crate::state::DaemonState;

/// A request running longer than this is answered with a timeout error, and its work stops.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// Connections open at once; one more is answered an error and closed.
pub const MAX_CONNECTIONS: usize = 256;
/// Requests whose work runs at once; the others wait their turn.
pub const MAX_REQUESTS_IN_FLIGHT: usize = 8;
/// A connection that sends no request for this long is closed.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30 * 60);

/// The async runtime the server runs on: `worker_threads` for connections, and blocking
/// threads (where requests run) with the stack extraction needs, since `changes` and
/// `context` extract files on them.
pub fn server_runtime(worker_threads: usize) -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(worker_threads)
        .max_blocking_threads(MAX_REQUESTS_IN_FLIGHT * 2)
        .thread_stack_size(tether_extract::EXTRACTION_STACK_BYTES)
        .enable_all()
        .build()
}

/// Serves until `shutdown` completes or a client calls `shutdown`.
pub async fn serve(
    listener: UnixListener,
    state: Arc<DaemonState>,
    shutdown: impl Future<Output = ()>,
) {
    serve_until_idle(listener, state, shutdown, None).await;
}

/// As [`serve`], and when `idle_exit` is given, also until no connection has been open for
/// that long (a daemon a query started, which nobody stops).
pub async fn serve_until_idle(
    listener: UnixListener,
    state: Arc<DaemonState>,
    shutdown: impl Future<Output = ()>,
    idle_exit: Option<Duration>,
) {
    let stop = Arc::new(Notify::new());
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let in_flight = Arc::new(Semaphore::new(MAX_REQUESTS_IN_FLIGHT));
    tokio::pin!(shutdown);
    let check_every = idle_exit.map_or(Duration::from_secs(3600), |idle| {
        (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30))
    });
    let mut idle_check = tokio::time::interval(check_every);
    let mut last_busy = tokio::time::Instant::now();
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            _ = stop.notified() => break,
            _ = idle_check.tick() => {
                if connections.available_permits() < MAX_CONNECTIONS {
                    last_busy = tokio::time::Instant::now();
                } else if idle_exit.is_some_and(|idle| last_busy.elapsed() >= idle) {
                    tracing::info!(?idle_exit, "no connection for the idle time; stopping");
                    break;
                }
            }
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    last_busy = tokio::time::Instant::now();
                    let state = Arc::clone(&state);
                    let stop = Arc::clone(&stop);
                    let in_flight = Arc::clone(&in_flight);
                    let permit = Arc::clone(&connections).try_acquire_owned();
                    tokio::spawn(async move {
                        let Ok(_permit) = permit else {
                            refuse(stream, &format!("the daemon already serves {MAX_CONNECTIONS} connections; retry later")).await;
                            return;
                        };
                        if !peer_is_this_user(&stream) {
                            tracing::warn!("refused a connection from another user");
                            return;
                        }
                        if let Err(error) = connection(stream, state, stop, in_flight).await {
                            tracing::debug!(%error, "connection ended with an error");
                        }
                    });
                }
                Err(error) => {
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
        }
    }
    tracing::info!("shutting down");
}

/// Whether the connecting process runs as this daemon's user. The socket is already 0600 in
/// a 0700 folder; this holds even where a file system ignores those modes.
fn peer_is_this_user(stream: &UnixStream) -> bool {
    stream
        .peer_cred()
        .is_ok_and(|credentials| credentials.uid() == crate::private_paths::current_uid())
}

async fn refuse(mut stream: UnixStream, message: &str) {
    let error = RpcError::new(RpcError::SERVER_BUSY, message);
    let _ = stream.write_all(error_line(&RequestId::null(), &error).as_bytes()).await;
    let _ = stream.shutdown().await;
}

async fn connection(
    stream: UnixStream,
    state: Arc<DaemonState>,
    stop: Arc<Notify>,
    in_flight: Arc<Semaphore>,
) -> std::io::Result<()> {
    let (reader, mut writer) = stream.into_split();
    let mut lines = BoundedLines::new(reader);
    // After `subscribe`: the published graphs to announce (and no idle timeout: waiting for
    // them is what a subscribed connection does).
    let mut subscription: Option<broadcast::Receiver<Arc<GraphPublished>>> = None;
    // Unsaved editor buffers this connection's answers are built with; closed with it.
    let buffers = Arc::new(Mutex::new(EditorBuffers::default()));
    let _closes_buffers =
        ClosesBuffers { state: Arc::clone(&state), buffers: Arc::clone(&buffers) };
    loop {
        let read = match subscription.as_mut() {
            None => match tokio::time::timeout(IDLE_TIMEOUT, lines.next_line()).await {
                Err(_) => return Ok(()),
                Ok(read) => read?,
            },
            Some(receiver) => tokio::select! {
                read = lines.next_line() => read?,
                published = receiver.recv() => {
                    match published {
                        Ok(published) => {
                            writer.write_all(graph_published_line(&published).as_bytes()).await?;
                        }
                        // A subscriber that fell behind gets the next announcement; the
                        // graph it describes is current anyway.
                        Err(broadcast::error::RecvError::Lagged(missed)) => {
                            tracing::debug!(missed, "a subscriber missed announcements");
                        }
                        Err(broadcast::error::RecvError::Closed) => subscription = None,
                    }
                    continue;
                }
            },
        };
        match read {
            ReadLine::Closed => return Ok(()),
            ReadLine::TooLong => {
                let error = RpcError::new(
                    RpcError::INVALID_REQUEST,
                    format!("request larger than {MAX_REQUEST_BYTES} bytes"),
                );
                writer.write_all(error_line(&RequestId::null(), &error).as_bytes()).await?;
                continue;
            }
            ReadLine::Line => {}
        }
        let line = lines.line();
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let call = match parse_call(line) {
            Err((id, error)) => {
                if !id.is_notification() {
                    writer.write_all(error_line(&id, &error).as_bytes()).await?;
                }
                continue;
            }
            Ok(call) => call,
        };
        let request = match call.request {
            WireRequest::Answered(request) => request,
            WireRequest::Connection(ConnectionRequest::Shutdown) => {
                if !call.id.is_notification() {
                    let stopping = Ok(Answer::Stopping(StoppingAnswer { stopping: true }));
                    writer.write_all(answer_line(&call.id, &stopping).as_bytes()).await?;
                }
                stop.notify_one();
                return Ok(());
            }
            WireRequest::Connection(ConnectionRequest::Subscribe) => {
                subscription.get_or_insert_with(|| state.subscribe());
                if !call.id.is_notification() {
                    let subscribed = Ok(Answer::Subscribed(SubscribedAnswer { subscribed: true }));
                    writer.write_all(answer_line(&call.id, &subscribed).as_bytes()).await?;
                }
                continue;
            }
            WireRequest::Connection(ConnectionRequest::Buffer(buffer_request)) => {
                let response = update_buffers(&state, &buffers, buffer_request);
                if !call.id.is_notification() {
                    writer.write_all(answer_line(&call.id, &response).as_bytes()).await?;
                }
                continue;
            }
        };
        let response = answer(&state, &in_flight, &buffers, request).await;
        // A notification is carried out but never answered (JSON-RPC 2.0, section 4.1).
        if call.id.is_notification() {
            continue;
        }
        writer.write_all(answer_line(&call.id, &response).as_bytes()).await?;
    }
}

/// Closes a connection's buffers however the connection ends, so their bytes, their place
/// among the connections with buffers and their graph are given back.
struct ClosesBuffers {
    state: Arc<DaemonState>,
    buffers: Arc<Mutex<EditorBuffers>>,
}

impl Drop for ClosesBuffers {
    fn drop(&mut self) {
        let state = Arc::clone(&self.state);
        let buffers = Arc::clone(&self.buffers);
        let close = move || {
            let mut buffers = buffers.lock().ignoring_poison();
            buffers.close_all(&state.buffer_totals);
        };
        // A request still building this connection's graph holds the lock: wait for it off
        // the async workers.
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(close)),
            Err(_) => close(),
        }
    }
}

/// Runs one request on the blocking pool, after waiting for an in-flight slot, under a
/// deadline that both the answer and the work respect.
async fn answer(
    state: &Arc<DaemonState>,
    in_flight: &Arc<Semaphore>,
    buffers: &Arc<Mutex<EditorBuffers>>,
    request: Request,
) -> Result<Answer, RpcError> {
    let deadline = Deadline::after(REQUEST_TIMEOUT);
    let timeout_error = || {
        RpcError::new(
            RpcError::TIMEOUT,
            format!("the request took longer than {} s", REQUEST_TIMEOUT.as_secs()),
        )
    };
    let permit =
        match tokio::time::timeout(REQUEST_TIMEOUT, Arc::clone(in_flight).acquire_owned()).await {
            Err(_) => return Err(timeout_error()),
            Ok(permit) => permit
                .map_err(|_| RpcError::new(RpcError::INTERNAL_ERROR, "the daemon is stopping"))?,
        };
    let state = Arc::clone(state);
    let buffers = Arc::clone(buffers);
    let logged_method = request.method().as_str();
    let work = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let buffers = buffers.lock().ignoring_poison();
            apply_with_buffers(&state, Some(&buffers), request, deadline)
        }))
    });
    let remaining = deadline.remaining().unwrap_or(REQUEST_TIMEOUT);
    match tokio::time::timeout(remaining, work).await {
        Err(_) => Err(timeout_error()),
        Ok(Err(join_error)) => Err(RpcError::new(
            RpcError::INTERNAL_ERROR,
            format!("the request failed: {join_error}"),
        )),
        Ok(Ok(Err(panic))) => {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string()))
                .unwrap_or_default();
            tracing::error!(method = %logged_method, %message, "a request panicked");
            Err(RpcError::new(
                RpcError::INTERNAL_ERROR,
                format!("internal error (a bug in tether): {message}"),
            ))
        }
        Ok(Ok(Ok(result))) => result,
    }
}

/// `buffer_update` and `buffer_close`: this connection's buffers, within their limits.
fn update_buffers(
    state: &DaemonState,
    buffers: &Mutex<EditorBuffers>,
    request: BufferRequest,
) -> Result<Answer, RpcError> {
    let mut buffers = buffers.lock().ignoring_poison();
    match request {
        BufferRequest::Update { path, text, version } => {
            let relative = tether_features::repository_path(&state.paths.root, &path)
                .map_err(crate::handlers::rpc_error)?;
            if tether_model::Language::from_path(&relative).is_none() {
                return Err(RpcError::invalid_params(format!(
                    "{path:?} is not a source file tether indexes (Python or Rust)"
                )));
            }
            buffers
                .update(&state.buffer_totals, relative, text, version)
                .map_err(RpcError::invalid_params)?;
        }
        BufferRequest::Close { path } => {
            let relative = tether_features::repository_path(&state.paths.root, &path)
                .map_err(crate::handlers::rpc_error)?;
            buffers.close(&state.buffer_totals, &relative);
        }
    }
    let open = tether_protocol::open_buffers_wire(&buffers.versions());
    Ok(Answer::Buffers(BuffersAnswer { buffers: open }))
}

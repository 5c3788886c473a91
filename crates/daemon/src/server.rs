//! The socket server: takes a bound listener and a shutdown future; each connection is a
//! task reading newline-delimited JSON-RPC requests. A malformed request gets an error and
//! the connection stays usable; a panic or timeout in one request harms nothing else.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tether_protocol::rpc::{error_line, parse_request, success_line, RpcError, MAX_REQUEST_BYTES};
use tether_protocol::Value;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::Notify;

use crate::handlers::handle;
use crate::state::DaemonState;

/// A request running longer than this is answered with a timeout error.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// Serves until `shutdown` completes or a client calls `shutdown`.
pub async fn serve(listener: UnixListener, state: Arc<DaemonState>, shutdown: impl Future<Output = ()>) {
    let stop = Arc::new(Notify::new());
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            _ = &mut shutdown => break,
            _ = stop.notified() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let state = Arc::clone(&state);
                    let stop = Arc::clone(&stop);
                    tokio::spawn(async move {
                        if let Err(error) = connection(stream, state, stop).await {
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

async fn connection(stream: UnixStream, state: Arc<DaemonState>, stop: Arc<Notify>) -> std::io::Result<()> {
    let (reader, mut writer) = stream.into_split();
    let mut reader = BufReader::new(reader);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader).take(MAX_REQUEST_BYTES as u64 + 1).read_until(b'\n', &mut line).await?;
        if read == 0 {
            return Ok(());
        }
        if line.len() > MAX_REQUEST_BYTES && !line.ends_with(b"\n") {
            // Skip the rest of the oversized line, then answer.
            let mut rest = Vec::new();
            reader.read_until(b'\n', &mut rest).await?;
            let error = RpcError::new(RpcError::INVALID_REQUEST, format!("request larger than {MAX_REQUEST_BYTES} bytes"));
            writer.write_all(error_line(&Value::Null, &error).as_bytes()).await?;
            continue;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let response = match parse_request(&line) {
            Err((id, error)) => error_line(&id, &error),
            Ok(request) if request.method == "shutdown" => {
                writer.write_all(success_line(&request.id, serde_json::json!({ "stopping": true })).as_bytes()).await?;
                stop.notify_one();
                return Ok(());
            }
            Ok(request) => {
                let state = Arc::clone(&state);
                let method = request.method.clone();
                let params = request.params.clone();
                let work = tokio::task::spawn_blocking(move || std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(&state, &method, &params))));
                match tokio::time::timeout(REQUEST_TIMEOUT, work).await {
                    Err(_) => error_line(&request.id, &RpcError::new(RpcError::TIMEOUT, format!("the request took longer than {} s", REQUEST_TIMEOUT.as_secs()))),
                    Ok(Err(join_error)) => error_line(&request.id, &RpcError::new(RpcError::INTERNAL_ERROR, format!("the request failed: {join_error}"))),
                    Ok(Ok(Err(panic))) => {
                        let message = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|text| text.to_string())).unwrap_or_default();
                        tracing::error!(method = %request.method, %message, "a request panicked");
                        error_line(&request.id, &RpcError::new(RpcError::INTERNAL_ERROR, format!("internal error (a bug in tether): {message}")))
                    }
                    Ok(Ok(Ok(Ok(result)))) => success_line(&request.id, result),
                    Ok(Ok(Ok(Err(error)))) => error_line(&request.id, &error),
                }
            }
        };
        writer.write_all(response.as_bytes()).await?;
    }
}

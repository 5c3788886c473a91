//! `tether serve`, `start`, `stop` and `status`: running the repository's daemon.

use std::os::unix::fs::PermissionsExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use tether_daemon::{DaemonLock, DaemonPaths, DaemonState};
use tether_protocol::wire::Answer;
use tether_protocol::{ConnectionRequest, Request};

use crate::daemon_client::{connect_or_start, DaemonClient};
use crate::exit_codes::daemon_failure;
use crate::stdout_text::{print_line, print_text};
use crate::RepositoryArgs;

#[derive(Args)]
pub struct DaemonArgs {
    #[command(flatten)]
    pub repository: RepositoryArgs,
    /// Print the daemon's answer as JSON.
    #[arg(long)]
    pub json: bool,
    /// serve, start: stop once no client has been connected for this long (`90s`, `30m`,
    /// `2h`). Default: never; a daemon a query starts stops after 30m.
    #[arg(long, value_name = "DURATION", value_parser = parse_idle_exit)]
    pub idle_exit: Option<std::time::Duration>,
}

/// How long a daemon that a query (not `tether start` or `serve`) started waits, with no
/// client connected, before it stops.
pub const AUTOSTARTED_IDLE_EXIT: &str = "30m";

/// `90s`, `30m`, `2h` (a number alone is seconds).
fn parse_idle_exit(text: &str) -> Result<std::time::Duration, String> {
    let (number, unit) = match text.find(|character: char| !character.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let seconds_per_unit = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        _ => return Err(format!("{text:?} is not a duration like 90s, 30m or 2h")),
    };
    let count: u64 =
        number.parse().map_err(|_| format!("{text:?} is not a duration like 90s, 30m or 2h"))?;
    Ok(std::time::Duration::from_secs(count.saturating_mul(seconds_per_unit)))
}

impl RepositoryArgs {
    pub fn daemon_paths(&self) -> DaemonPaths {
        DaemonPaths::new(&self.root(), &self.database_path())
    }

    /// The arguments that make `tether serve` serve this same repository and database, for a
    /// daemon a query starts: it stops after [`AUTOSTARTED_IDLE_EXIT`] without clients.
    pub fn serve_arguments(&self) -> Vec<String> {
        let mut arguments = self.serve_arguments_without_idle_exit();
        arguments.extend(["--idle-exit".to_string(), AUTOSTARTED_IDLE_EXIT.to_string()]);
        arguments
    }

    /// The arguments of `tether serve` for this repository and database, with no idle exit.
    pub fn serve_arguments_without_idle_exit(&self) -> Vec<String> {
        vec![
            self.root().display().to_string(),
            "--db".into(),
            self.database_path().display().to_string(),
            "--buffer-pool-mib".into(),
            self.buffer_pool_mib.to_string(),
        ]
    }
}

/// `tether serve`: the daemon in the foreground, until SIGTERM, Ctrl-C or a `shutdown` call.
pub fn run_serve(args: DaemonArgs) -> anyhow::Result<()> {
    let paths = args.repository.daemon_paths();
    paths.prepare().with_context(|| format!("preparing {}", paths.folder.display()))?;
    let _lock = DaemonLock::acquire(&paths.lock)?;
    init_logging(&paths)?;
    if let Err(error) = tether_daemon::recover_interrupted_record(&paths) {
        tracing::error!(%error, "an interrupted record could not be settled; the next record retries");
    }
    if paths.socket.exists() {
        std::fs::remove_file(&paths.socket)
            .with_context(|| format!("removing the stale socket {}", paths.socket.display()))?;
    }
    let listener = std::os::unix::net::UnixListener::bind(&paths.socket)
        .with_context(|| format!("binding {}", paths.socket.display()))?;
    std::fs::set_permissions(&paths.socket, std::fs::Permissions::from_mode(0o600))
        .context("restricting the socket to its owner")?;
    listener.set_nonblocking(true)?;
    print_line(&format!(
        "tether daemon serving {} on {} (log: {})",
        paths.root.display(),
        paths.socket.display(),
        paths.log.display()
    ))?;
    tracing::info!(root = %paths.root.display(), socket = %paths.socket.display(), "daemon started");

    let state = Arc::new(DaemonState::new(paths.clone(), args.repository.store_config()));
    let stop = Arc::new(AtomicBool::new(false));
    let background_state = Arc::clone(&state);
    let background_stop = Arc::clone(&stop);
    std::thread::Builder::new().name("tether-first-index".into()).spawn(move || {
        if let Err(error) = background_state.load_or_build() {
            tracing::error!(%error, "the first index failed; `status` reports it, `reindex` retries");
        }
        tether_daemon::spawn_follower(background_state, background_stop);
    })?;

    let runtime = tether_daemon::server_runtime(2).context("starting the async runtime")?;
    let serving_state = Arc::clone(&state);
    runtime.block_on(async move {
        let listener =
            tokio::net::UnixListener::from_std(listener).context("adopting the socket")?;
        let (root, socket) = (serving_state.paths.root.clone(), serving_state.paths.socket.clone());
        let shutdown = shutdown_signal(root, socket);
        tether_daemon::serve_until_idle(listener, serving_state, shutdown, args.idle_exit).await;
        anyhow::Ok(())
    })?;
    stop.store(true, Ordering::Relaxed);
    // Write the last graph, but never hang on the way out: the next start reconciles anyway.
    let (done, finished) = std::sync::mpsc::channel();
    let persisting_state = Arc::clone(&state);
    std::thread::spawn(move || {
        let _ = done.send(persisting_state.persist_now());
    });
    match finished.recv_timeout(std::time::Duration::from_secs(30)) {
        Ok(Ok(())) => {}
        Ok(Err(error)) => tracing::error!(%error, "could not write the last graph at shutdown; the next start rebuilds it"),
        Err(_) => tracing::error!("writing the last graph took over 30 s; stopping without it (the next start rebuilds it)"),
    }
    let _ = std::fs::remove_file(&paths.socket);
    tracing::info!("daemon stopped");
    Ok(())
}

/// Completes on SIGTERM, Ctrl-C, or when the repository's folder or the daemon's socket file
/// disappears (a daemon of a deleted checkout, or one no client can reach, has nothing left
/// to serve).
async fn shutdown_signal(root: std::path::PathBuf, socket: std::path::PathBuf) {
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    let root_gone = async {
        while root.is_dir() && socket.exists() {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
        tracing::info!(root = %root.display(), "the repository folder or the socket is gone; stopping");
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate => {}
        _ = root_gone => {}
    }
}

fn init_logging(paths: &DaemonPaths) -> anyhow::Result<()> {
    let log = tether_daemon::open_private_append(&paths.log)
        .with_context(|| format!("opening {}", paths.log.display()))?;
    let _ = tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(log))
        .with_ansi(false)
        .with_target(false)
        .try_init();
    Ok(())
}

/// `tether start`: the daemon in the background (or report the running one).
pub fn run_start(args: DaemonArgs) -> anyhow::Result<()> {
    let paths = args.repository.daemon_paths();
    if DaemonLock::is_held(&paths.lock) {
        print_line(&format!(
            "a tether daemon already serves {} ({})",
            paths.root.display(),
            paths.socket.display()
        ))?;
        return print_status(&paths, args.json);
    }
    let mut serve_arguments = args.repository.serve_arguments_without_idle_exit();
    if let Some(idle_exit) = args.idle_exit {
        serve_arguments.extend(["--idle-exit".to_string(), format!("{}s", idle_exit.as_secs())]);
    }
    let mut client = connect_or_start(&paths, &serve_arguments)?;
    let status = client.status(&Request::Status)?;
    print_line(&format!(
        "started the tether daemon for {} (pid {})",
        paths.root.display(),
        status.pid
    ))
}

/// `tether stop`.
pub fn run_stop(args: DaemonArgs) -> anyhow::Result<()> {
    let paths = args.repository.daemon_paths();
    match DaemonClient::connect_to(&paths) {
        Ok(mut client) => {
            client
                .call(&ConnectionRequest::Shutdown.into())?
                .map_err(|error| daemon_failure(error.message))?;
            for _ in 0..100 {
                if !DaemonLock::is_held(&paths.lock) {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            print_line(&format!("stopped the tether daemon for {}", paths.root.display()))
        }
        Err(_) => print_line(&format!("no tether daemon is running for {}", paths.root.display())),
    }
}

/// `tether status`: exit code 3 when no daemon runs.
pub fn run_status(args: DaemonArgs) -> anyhow::Result<()> {
    let paths = args.repository.daemon_paths();
    print_status(&paths, args.json)
}

fn print_status(paths: &DaemonPaths, as_json: bool) -> anyhow::Result<()> {
    let Ok(mut client) = DaemonClient::connect_to(paths) else {
        return Err(daemon_failure(format!(
            "no tether daemon is running for {} (start one with `tether start`)",
            paths.root.display()
        )));
    };
    let status = client.status(&Request::Status)?;
    if as_json {
        print_line(&Answer::Status(status).to_pretty_json())
    } else {
        print_text(&crate::answer_text::status_text(&status))
    }
}

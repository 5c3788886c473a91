//! Asking one query and printing its answer: of the daemon (started if needed), or in this
//! process with `--no-daemon`; as text with a `tether …` hint, or as the protocol's JSON.
//! The daemon's errors become typed failures here: no such symbol is "nothing matched" (1),
//! an ambiguous address or a refused request a usage error (2), anything else a daemon
//! failure (3).

use anyhow::Context;
use tether_daemon::{DaemonLock, DaemonState};
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::Answer;
use tether_protocol::Request;

use crate::daemon_client::connect_or_start;
use crate::exit_codes::{usage, CliFailure};
use crate::next_command_hints::next_command;
use crate::query_commands::QueryOptions;
use crate::stdout_text::{print_line, print_text};

/// Asks one request of the daemon (or of this process, with `--no-daemon`) and prints its
/// answer; an answer in which nothing matched ends with exit code 1.
pub(crate) fn run_query(request: Request, options: &QueryOptions) -> anyhow::Result<()> {
    let method = request.method();
    let answer = ask(&request, options)?;
    match answer {
        Ok(answer) => {
            if options.json {
                print_line(&answer.to_pretty_json())?;
            } else {
                let hint = next_command(&request, &answer, options.hint_context());
                let text =
                    crate::answer_text::answer_text(method, &answer, hint.as_deref(), options.why);
                print_text(&text)?;
            }
            if nothing_matched(&answer) {
                return Err(CliFailure::NothingMatched(None).into());
            }
            Ok(())
        }
        Err(error) => {
            if options.json {
                print_line(&error.to_pretty_json())?;
            }
            Err(rpc_failure(&error, options.no_daemon).into())
        }
    }
}

/// The answer to `request`, from the daemon (started when none runs) or, with
/// `--no-daemon`, computed here under the database lock.
pub(crate) fn ask(
    request: &Request,
    options: &QueryOptions,
) -> anyhow::Result<Result<Answer, RpcError>> {
    let repository = options.repository();
    crate::unindexed_folder_guard::refuse_to_index_by_surprise(&repository)?;
    let paths = repository.daemon_paths();
    let answer: Result<Answer, RpcError> = if options.no_daemon {
        if DaemonLock::is_held(&paths.lock) {
            return Err(usage(
                "a tether daemon owns this repository's database; drop --no-daemon to ask it",
            ));
        }
        paths.prepare().with_context(|| format!("preparing {}", paths.folder.display()))?;
        let _lock = DaemonLock::acquire(&paths.lock)?;
        if let Err(error) = tether_daemon::recover_interrupted_record(&paths) {
            anyhow::bail!("an interrupted record could not be settled: {error}");
        }
        let state = DaemonState::new(paths.clone(), repository.store_config());
        state.load_or_build()?;
        tether_daemon::handle(&state, request.clone())
    } else {
        let mut client = connect_or_start(&paths, &repository.serve_arguments())?;
        client.call_when_ready(request)?
    };
    Ok(answer)
}

/// Answers that are a search with no hit: `lookup` and `search-memory` found nothing.
fn nothing_matched(answer: &Answer) -> bool {
    match answer {
        Answer::Lookup(lookup) => lookup.total == 0,
        Answer::SearchMemory(search) => search.total == 0,
        Answer::Recall(recall) => recall.traces.is_empty(),
        _ => false,
    }
}

/// The daemon's error as a typed failure, with the candidates or near names it lists.
pub(crate) fn rpc_failure(error: &RpcError, in_this_process: bool) -> CliFailure {
    let mut message = error.message.clone();
    let data = error.address_data();
    let listed =
        data.iter().flat_map(|data| data.candidates.iter().chain(data.similar.iter()).flatten());
    for candidate in listed {
        message.push_str(&format!(
            "\n  {} ({}, {}:{}) id {}",
            candidate.qualified_name, candidate.kind, candidate.path, candidate.line, candidate.id
        ));
    }
    match error.code {
        RpcError::SYMBOL_NOT_FOUND => CliFailure::NothingMatched(Some(message)),
        RpcError::AMBIGUOUS_SYMBOL | RpcError::INVALID_PARAMS => CliFailure::Usage(message),
        _ if in_this_process => CliFailure::Internal(message),
        _ => CliFailure::Daemon(format!("the tether daemon failed: {message}")),
    }
}

//! Daemon errors as actionable messages for a model: which symbols an ambiguous name could
//! be, which names are near a missing one, and what to do about the others.

use tether_protocol::rpc::RpcError;
use tether_protocol::wire::AddressCandidate;

/// The most candidates or similar names listed.
const LISTED_SYMBOLS_LIMIT: usize = 25;

/// `- qualified_name (kind) path:line · id <id>` for each listed symbol.
fn symbol_choice_lines(symbols: &[AddressCandidate]) -> Vec<String> {
    let mut lines: Vec<String> = symbols
        .iter()
        .take(LISTED_SYMBOLS_LIMIT)
        .map(|symbol| {
            format!(
                "- {} ({}) {}:{} · id {}",
                symbol.qualified_name, symbol.kind, symbol.path, symbol.line, symbol.id
            )
        })
        .collect();
    if symbols.len() > LISTED_SYMBOLS_LIMIT {
        lines.push(format!(
            "- … and {} more; use a longer qualified name or path:line to narrow it",
            symbols.len() - LISTED_SYMBOLS_LIMIT
        ));
    }
    lines
}

/// The message of a tool error for a daemon error answered to `method`.
pub fn daemon_error_message(method: &str, error: &RpcError) -> String {
    let mut lines =
        vec![format!("tether {method} failed: {} (code {})", error.message, error.code)];
    // `search_memory` reports ambiguity under the not-found code, so the data decides.
    let data = error.address_data();
    let listed =
        |list: Option<&Vec<AddressCandidate>>| list.filter(|symbols| !symbols.is_empty()).cloned();
    let candidates = listed(data.as_ref().and_then(|data| data.candidates.as_ref()));
    let similar = listed(data.as_ref().and_then(|data| data.similar.as_ref()));
    if let Some(candidates) = candidates {
        lines.push(format!(
            "The address matches {} symbols; tether never guesses. Candidates:",
            candidates.len()
        ));
        lines.extend(symbol_choice_lines(&candidates));
        lines.push("Call again with one of these ids as \"symbol\".".to_string());
        return lines.join("\n");
    }
    match error.code {
        RpcError::AMBIGUOUS_SYMBOL => lines.push("Several symbols match; call again with a full qualified name, path:line or an id (lookup finds them).".to_string()),
        RpcError::SYMBOL_NOT_FOUND => match similar {
            Some(similar) => {
                lines.push("Similar symbols:".to_string());
                lines.extend(symbol_choice_lines(&similar));
                lines.push("Call again with one of these ids, or use lookup to search by name.".to_string());
            }
            None => lines.push("No similar names either; use lookup with part of the name to find the symbol, or check the spelling and the path.".to_string()),
        },
        RpcError::NOT_READY => lines.push("The first index of the repository is still being built; wait a few seconds and call again.".to_string()),
        RpcError::TIMEOUT => lines.push("The query ran too long; narrow it (a lower depth or limit, a single symbol instead of a file) and call again.".to_string()),
        RpcError::INVALID_PARAMS => lines.push("Check the arguments against the tool's input schema and call again.".to_string()),
        RpcError::METHOD_NOT_FOUND => lines.push("The running daemon does not know this method; it is probably older than this MCP server: restart it (tether stop, then any tether command) and call again.".to_string()),
        _ => lines.push("If this persists, check that the daemon is running (tether status) and read its log (daemon.log beside the database).".to_string()),
    }
    lines.join("\n")
}

//! What an ad-hoc Cypher statement (`tether cypher`) may do: read the graph, nothing else.
//! One statement; no clause that touches files or the database's state (`COPY`, `EXPORT` /
//! `IMPORT DATABASE`, `LOAD FROM`, `ATTACH`, `INSTALL` / `LOAD` extension, `CHECKPOINT`,
//! transactions, writes); `CALL` only of the engine's introspection functions, never a
//! setting (`CALL timeout=0` would lift the time limit). Checked on the statement's tokens
//! (strings, comments and quoted names skipped) before the engine sees it.
//!
//! It deliberately does not parse Cypher: a word is refused wherever it stands as a keyword,
//! so a variable named `copy` is refused too (the message says which word).

/// The longest statement accepted, in bytes.
pub const MAX_AD_HOC_STATEMENT_BYTES: usize = 100_000;

/// Keywords that touch files, the database's state or the graph: refused.
const REFUSED_KEYWORDS: [&str; 20] = [
    "COPY",
    "EXPORT",
    "IMPORT",
    "LOAD",
    "ATTACH",
    "DETACH",
    "INSTALL",
    "UNINSTALL",
    "CHECKPOINT",
    "USE",
    "BEGIN",
    "COMMIT",
    "ROLLBACK",
    "CREATE",
    "MERGE",
    "SET",
    "DELETE",
    "REMOVE",
    "DROP",
    "ALTER",
];

/// The engine's functions `CALL` may run: they describe the database and read no file.
const INTROSPECTION_FUNCTIONS: [&str; 13] = [
    "show_tables",
    "table_info",
    "show_connection",
    "db_version",
    "show_functions",
    "current_setting",
    "show_warnings",
    "show_indexes",
    "show_sequences",
    "show_attached_databases",
    "show_loaded_extensions",
    "show_official_extensions",
    "show_macros",
];

/// Why a statement is refused, in words for the person who wrote it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefusedStatement {
    pub reason: String,
}

/// One token of a statement: a word (keyword, name, function), `;`, or another character.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Token<'s> {
    /// A bare word, with whether it follows `.`, `:` or `$` (a property, label or parameter).
    Word {
        text: &'s str,
        qualified: bool,
    },
    Semicolon,
    Other(char),
}

/// Checks that `statement` only reads the graph.
pub fn check_ad_hoc_statement(statement: &str) -> Result<(), RefusedStatement> {
    let refuse = |reason: String| Err(RefusedStatement { reason });
    if statement.len() > MAX_AD_HOC_STATEMENT_BYTES {
        return refuse(format!(
            "the statement is {} bytes; at most {MAX_AD_HOC_STATEMENT_BYTES} are accepted",
            statement.len()
        ));
    }
    let tokens = tokens(statement)?;
    let end = tokens.iter().position(|token| *token == Token::Semicolon).unwrap_or(tokens.len());
    if tokens[end..].iter().any(|token| *token != Token::Semicolon) {
        return refuse("one statement at a time: nothing may follow the first `;`".to_string());
    }
    let tokens = &tokens[..end];
    if tokens.is_empty() {
        return refuse("the statement is empty".to_string());
    }
    for (position, token) in tokens.iter().enumerate() {
        let Token::Word { text, qualified: false } = token else { continue };
        let upper = text.to_ascii_uppercase();
        if REFUSED_KEYWORDS.contains(&upper.as_str()) {
            return refuse(format!(
                "`{text}` is refused: `tether cypher` is read-only (no writes, files, \
                 extensions, transactions or checkpoints)"
            ));
        }
        if upper == "CALL" {
            let function = match tokens.get(position + 1) {
                Some(Token::Word { text, .. }) => text.to_ascii_lowercase(),
                _ => String::new(),
            };
            let is_setting = tokens.get(position + 2) == Some(&Token::Other('='));
            if is_setting || !INTROSPECTION_FUNCTIONS.contains(&function.as_str()) {
                return refuse(format!(
                    "`CALL {function}` is refused: only the engine's introspection functions \
                     may be called ({})",
                    INTROSPECTION_FUNCTIONS.join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// The statement's tokens; strings, comments and `quoted` names are skipped (a string or a
/// comment left open is refused: the engine would read it otherwise than this does).
fn tokens(statement: &str) -> Result<Vec<Token<'_>>, RefusedStatement> {
    let unclosed = |what: &str| RefusedStatement { reason: format!("{what} is not closed") };
    let bytes = statement.as_bytes();
    let mut tokens = Vec::new();
    let mut at = 0;
    let mut qualifier = false;
    while at < bytes.len() {
        let byte = bytes[at];
        match byte {
            b if b.is_ascii_whitespace() => at += 1,
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = statement[at..].find('\n').map_or(bytes.len(), |line_end| at + line_end);
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                let close = statement[at + 2..].find("*/").ok_or_else(|| unclosed("a comment"))?;
                at += 2 + close + 2;
            }
            b'\'' | b'"' | b'`' => {
                let mut end = at + 1;
                loop {
                    match bytes.get(end) {
                        None => return Err(unclosed("a string or quoted name")),
                        Some(b'\\') if byte != b'`' => end += 2,
                        Some(closing) if *closing == byte => break,
                        Some(_) => end += 1,
                    }
                }
                at = end + 1;
                // A quoted name after `.` is a property; after it, nothing is qualified.
                qualifier = false;
                tokens.push(Token::Other('"'));
            }
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let end = bytes[at..]
                    .iter()
                    .position(|next| !(next.is_ascii_alphanumeric() || *next == b'_'))
                    .map_or(bytes.len(), |length| at + length);
                tokens.push(Token::Word { text: &statement[at..end], qualified: qualifier });
                qualifier = false;
                at = end;
            }
            b';' => {
                tokens.push(Token::Semicolon);
                qualifier = false;
                at += 1;
            }
            _ => {
                let character = statement[at..].chars().next().unwrap_or('?');
                qualifier = matches!(character, '.' | ':' | '$');
                tokens.push(Token::Other(character));
                at += character.len_utf8();
            }
        }
    }
    Ok(tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(statement: &str) -> String {
        match check_ad_hoc_statement(statement) {
            Ok(()) => "ok".to_string(),
            Err(refused) => refused.reason,
        }
    }

    #[test]
    fn reads_pass_and_file_touching_or_writing_clauses_are_refused() {
        for statement in [
            "MATCH (s:Symbol) RETURN s.name LIMIT 3",
            "MATCH (s:Symbol) WHERE s.name = 'copy; LOAD FROM x' RETURN count(*);",
            "MATCH (s:Symbol) RETURN s.`set`, s.load // COPY TO '/tmp/x'",
            "/* EXPORT DATABASE '/tmp' */ MATCH (n) RETURN n.id",
            "CALL show_tables() RETURN *",
            "CALL table_info('Symbol') RETURN *",
            "MATCH (s:Symbol) WHERE s.qualified_name CONTAINS $name RETURN s.id",
        ] {
            assert_eq!(verdict(statement), "ok", "{statement}");
        }
        for statement in [
            "COPY (MATCH (s:Symbol) RETURN s.id) TO '/tmp/out.csv'",
            "EXPORT DATABASE '/tmp/anywhere'",
            "IMPORT DATABASE '/tmp/anywhere'",
            "LOAD FROM '/etc/passwd' (header=false) RETURN *",
            "ATTACH '/tmp/other.lbug' AS other",
            "INSTALL httpfs",
            "LOAD EXTENSION '/tmp/evil.so'",
            "CHECKPOINT",
            "BEGIN TRANSACTION",
            "MATCH (s:Symbol) SET s.name = 'x'",
            "MATCH (s:Symbol) DETACH DELETE s",
            "CREATE (:Meta {key: 'a', value: 'b'})",
            "CALL timeout=0",
            "CALL threads = 64",
            "CALL read_csv('/etc/passwd')",
            "MATCH (n) RETURN n; MATCH (m) RETURN m",
            "MATCH (n) RETURN n; COPY Symbol TO '/tmp/x.csv'",
            "",
            "  ;  ",
            "MATCH (n) WHERE n.name = 'open RETURN n",
            "MATCH (n) /* open comment RETURN n",
        ] {
            assert_ne!(verdict(statement), "ok", "{statement}");
        }
        assert!(verdict(&"a".repeat(MAX_AD_HOC_STATEMENT_BYTES + 1)).contains("at most"));
        assert_eq!(
            verdict("copy Symbol to '/tmp/x'"),
            "`copy` is refused: `tether cypher` is read-only (no writes, files, \
             extensions, transactions or checkpoints)"
        );
    }
}

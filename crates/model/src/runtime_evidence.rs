//! Runtime evidence: which tests executed which lines, as a coverage tool recorded them with
//! per-test contexts, kept with the commit and each file's content hash at recording time so
//! evidence for a file changed since is known to be stale.
//!
//! Its text form (`runtime-evidence.tsv`) is written and read here, without IO: a line
//! `commit\tSHA`, one `context\tNAME` per test context (numbered from 0 in order), then per
//! file a `file\tHASH\tPATH` line followed by `line\tN\tCONTEXT,CONTEXT,…` lines and
//! `symbol\tHASH\tFIRST\tLAST\tQUALIFIED_NAME` lines (the file's symbols as recorded).

use std::collections::BTreeMap;

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RuntimeEvidence {
    /// The commit the evidence was recorded at (HEAD when it was imported).
    pub commit: Option<String>,
    /// The test contexts as the coverage tool names them
    /// (`tests/test_app.py::TestApp::test_run|run`, `tests.test_app.test_run`).
    pub contexts: Vec<String>,
    /// Per repository-relative path.
    pub files: BTreeMap<String, EvidenceFile>,
}

#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct EvidenceFile {
    /// [`crate::stable_hash`] of the file's content when the evidence was recorded.
    pub content_hash: u64,
    /// Executed line (1-based) → indices into [`RuntimeEvidence::contexts`].
    pub lines: BTreeMap<u32, Vec<u32>>,
    /// The file's symbols when the evidence was recorded (when the graph then held the file
    /// as recorded): evidence for a symbol whose text is unchanged stays fresh after edits
    /// elsewhere in its file, read at the lines it had then.
    pub symbols: Vec<RecordedSymbol>,
}

/// A symbol as it was when evidence was recorded: its text's hash
/// ([`crate::Symbol::content_hash`]) and the lines its evidence was read from then (a Python
/// function's from its body's first line).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordedSymbol {
    pub qualified_name: String,
    pub content_hash: u64,
    pub first_line: u32,
    pub last_line: u32,
}

impl EvidenceFile {
    /// The recorded symbol of this name whose text hashed to `content_hash` (never for 0, an
    /// unknown text).
    pub fn unchanged_symbol(
        &self,
        qualified_name: &str,
        content_hash: u64,
    ) -> Option<&RecordedSymbol> {
        if content_hash == 0 {
            return None;
        }
        self.symbols.iter().find(|recorded| {
            recorded.content_hash == content_hash && recorded.qualified_name == qualified_name
        })
    }
}

impl RuntimeEvidence {
    /// The contexts that executed any line of `path` in `first..=last` (none when first > last).
    pub fn contexts_executing(&self, path: &str, first: u32, last: u32) -> Vec<u32> {
        let Some(file) = self.files.get(path).filter(|_| first <= last) else {
            return Vec::new();
        };
        let mut contexts: Vec<u32> = file
            .lines
            .range(first..=last)
            .flat_map(|(_, contexts)| contexts.iter().copied())
            .collect();
        contexts.sort_unstable();
        contexts.dedup();
        contexts
    }

    pub fn to_text(&self) -> String {
        let mut out = String::new();
        out.push_str(&format!("commit\t{}\n", self.commit.as_deref().unwrap_or("")));
        for context in &self.contexts {
            out.push_str(&format!("context\t{}\n", one_line(context)));
        }
        for (path, file) in &self.files {
            out.push_str(&format!("file\t{:016x}\t{}\n", file.content_hash, one_line(path)));
            for (line, contexts) in &file.lines {
                let list: Vec<String> = contexts.iter().map(u32::to_string).collect();
                out.push_str(&format!("line\t{line}\t{}\n", list.join(",")));
            }
            for symbol in &file.symbols {
                out.push_str(&format!(
                    "symbol\t{:016x}\t{}\t{}\t{}\n",
                    symbol.content_hash,
                    symbol.first_line,
                    symbol.last_line,
                    one_line(&symbol.qualified_name)
                ));
            }
        }
        out
    }

    /// The evidence back from [`RuntimeEvidence::to_text`], and a message per line that could
    /// not be read (such lines are skipped).
    pub fn from_text(text: &str) -> (RuntimeEvidence, Vec<String>) {
        let mut evidence = RuntimeEvidence::default();
        let mut errors = Vec::new();
        let mut current: Option<String> = None;
        for (number, line) in text.lines().enumerate() {
            let mut fields = line.splitn(3, '\t');
            let parsed = match (fields.next(), fields.next(), fields.next()) {
                (Some("commit"), Some(commit), None) => {
                    evidence.commit = (!commit.is_empty()).then(|| commit.to_string());
                    true
                }
                (Some("context"), Some(name), None) => {
                    evidence.contexts.push(name.to_string());
                    true
                }
                (Some("file"), Some(hash), Some(path)) => match u64::from_str_radix(hash, 16) {
                    Ok(content_hash) => {
                        evidence.files.insert(
                            path.to_string(),
                            EvidenceFile {
                                content_hash,
                                lines: BTreeMap::new(),
                                symbols: Vec::new(),
                            },
                        );
                        current = Some(path.to_string());
                        true
                    }
                    Err(_) => false,
                },
                (Some("line"), Some(executed), Some(list)) => {
                    let contexts: Option<Vec<u32>> = list
                        .split(',')
                        .filter(|item| !item.is_empty())
                        .map(|item| {
                            item.parse()
                                .ok()
                                .filter(|index| (*index as usize) < evidence.contexts.len())
                        })
                        .collect();
                    match (
                        executed.parse::<u32>(),
                        contexts,
                        current.as_ref().and_then(|path| evidence.files.get_mut(path)),
                    ) {
                        (Ok(executed), Some(contexts), Some(file)) => {
                            file.lines.insert(executed, contexts);
                            true
                        }
                        _ => false,
                    }
                }
                (Some("symbol"), Some(hash), Some(rest)) => {
                    let mut rest = rest.splitn(3, '\t');
                    let recorded = match (
                        u64::from_str_radix(hash, 16),
                        rest.next().map(str::parse::<u32>),
                        rest.next().map(str::parse::<u32>),
                        rest.next(),
                    ) {
                        (
                            Ok(content_hash),
                            Some(Ok(first_line)),
                            Some(Ok(last_line)),
                            Some(name),
                        ) => Some(RecordedSymbol {
                            qualified_name: name.to_string(),
                            content_hash,
                            first_line,
                            last_line,
                        }),
                        _ => None,
                    };
                    match (recorded, current.as_ref().and_then(|path| evidence.files.get_mut(path)))
                    {
                        (Some(recorded), Some(file)) => {
                            file.symbols.push(recorded);
                            true
                        }
                        _ => false,
                    }
                }
                _ => line.is_empty(),
            };
            if !parsed {
                errors.push(format!("line {}: not runtime evidence: {line:?}", number + 1));
            }
        }
        (evidence, errors)
    }
}

/// Tabs and newlines cannot appear inside a field.
fn one_line(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_form_reads_back_and_bad_lines_are_reported() {
        let mut evidence = RuntimeEvidence {
            commit: Some("abc".into()),
            contexts: vec!["t::a|run".into(), "t::b|run".into()],
            files: BTreeMap::new(),
        };
        let mut file =
            EvidenceFile { content_hash: 0xfeed, lines: BTreeMap::new(), symbols: Vec::new() };
        file.lines.insert(3, vec![0, 1]);
        file.lines.insert(7, vec![1]);
        file.symbols.push(RecordedSymbol {
            qualified_name: "a b.f".into(),
            content_hash: 0xbeef,
            first_line: 2,
            last_line: 8,
        });
        evidence.files.insert("src/a b.py".into(), file);
        let (back, errors) = RuntimeEvidence::from_text(&evidence.to_text());
        assert_eq!(back, evidence);
        assert!(errors.is_empty());
        assert_eq!(back.contexts_executing("src/a b.py", 1, 5), vec![0, 1]);
        assert_eq!(back.contexts_executing("src/a b.py", 6, 9), vec![1]);
        let file = &back.files["src/a b.py"];
        assert_eq!(file.unchanged_symbol("a b.f", 0xbeef).map(|symbol| symbol.first_line), Some(2));
        assert_eq!(file.unchanged_symbol("a b.f", 0xbee), None);
        let (_, errors) = RuntimeEvidence::from_text(
            "commit\tx\nline\t3\t9\nnonsense\nsymbol\t00ff\t1\t2\tbefore.any.file\n",
        );
        assert_eq!(errors.len(), 3);
    }
}

//! The blast radius of a diff: hunks mapped onto symbol spans (old side for deleted and
//! modified lines, new side for added ones, both sides parsed from the text at that side),
//! each symbol classified as added, modified or deleted, then one blast over them all. Blank
//! lines touch nothing; a symbol whose changed lines are all comments is listed as such
//! (`comments`: a module's, outside any other symbol) and seeds no blast.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use tether_git::{FileDiff, Repository, Side};
use tether_model::{FileFacts, Language, Symbol, SymbolKind};
use tether_query::Snapshot;

/// How a symbol changed.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum ChangeKind {
    Added,
    Modified,
    Deleted,
    /// Only comment lines changed in it (for a module: outside any other symbol).
    CommentsOnly,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Modified => "modified",
            ChangeKind::Deleted => "deleted",
            ChangeKind::CommentsOnly => "comments",
        }
    }

    /// Whether the change can change behaviour: an added symbol has no dependents yet, and a
    /// comment runs nothing.
    pub fn seeds_blast(self) -> bool {
        matches!(self, ChangeKind::Modified | ChangeKind::Deleted)
    }
}

/// One changed symbol.
#[derive(Clone, PartialEq, Debug)]
pub struct ChangedSymbol {
    pub qualified_name: String,
    pub kind: SymbolKind,
    pub path: String,
    /// Its first line on the side where it exists (new side unless deleted).
    pub line: u32,
    pub change: ChangeKind,
    pub lines_changed: u32,
    /// The file was renamed (the symbol keeps its change kind, not delete + add).
    pub renamed_from: Option<String>,
}

/// Per-file facts of either side, cached by path and content so repeated calls re-parse nothing.
#[derive(Default)]
pub struct SideFactsCache {
    facts: FxHashMap<(String, u64), FileFacts>,
}

impl SideFactsCache {
    fn facts(&mut self, path: &str, module_name: &str, text: &str) -> &FileFacts {
        let language = Language::from_path(path).unwrap_or(Language::Python);
        let key = (format!("{module_name} {path}"), tether_model::stable_hash(text.as_bytes()));
        if self.facts.len() > 4096 {
            self.facts.clear();
        }
        self.facts.entry(key).or_insert_with(|| {
            tether_extract::extract_bytes(
                path,
                language,
                module_name,
                text.as_bytes(),
                tether_extract::DEFAULT_MAX_FILE_BYTES,
            )
        })
    }
}

/// The changed symbols of a diff.
pub fn changed_symbols(
    repository: &Repository,
    snapshot: &Snapshot,
    diffs: &[FileDiff],
    sides: &(Side, Side),
    cache: &mut SideFactsCache,
    deadline: tether_model::Deadline,
) -> Result<Vec<ChangedSymbol>, tether_git::GitError> {
    let old_paths: Vec<String> =
        diffs.iter().map(|diff| diff.old_path.clone().unwrap_or_default()).collect();
    let new_paths: Vec<String> =
        diffs.iter().map(|diff| diff.new_path.clone().unwrap_or_default()).collect();
    let old_texts = repository.texts_at(&sides.0, &old_paths)?;
    let new_texts = repository.texts_at(&sides.1, &new_paths)?;
    changed_symbols_in_texts(snapshot, diffs, &old_texts, &new_texts, cache, deadline)
}

/// The changed symbols of a diff whose files' texts on both sides are given (in the diff's
/// order; `None` where a side has no such file).
pub fn changed_symbols_in_texts(
    snapshot: &Snapshot,
    diffs: &[FileDiff],
    old_texts: &[Option<String>],
    new_texts: &[Option<String>],
    cache: &mut SideFactsCache,
    deadline: tether_model::Deadline,
) -> Result<Vec<ChangedSymbol>, tether_git::GitError> {
    let mut changed = Vec::new();
    for (index, diff) in diffs.iter().enumerate() {
        if deadline.has_passed() {
            return Err(tether_git::GitError::Cancelled {
                command: "mapping the diff onto symbols".to_string(),
            });
        }
        let path = diff.new_path.clone().or_else(|| diff.old_path.clone()).unwrap_or_default();
        // Both sides are named as the new path's module, so a moved file's symbols pair up.
        let module_name = module_name_of(snapshot, &path);
        let old_text = old_texts.get(index).and_then(Option::as_deref);
        let new_text = new_texts.get(index).and_then(Option::as_deref);
        let old = match (&diff.old_path, old_text) {
            (Some(old_path), Some(text)) => Some(cache.facts(old_path, &module_name, text).clone()),
            _ => None,
        };
        let new = match (&diff.new_path, new_text) {
            (Some(new_path), Some(text)) => Some(cache.facts(new_path, &module_name, text).clone()),
            _ => None,
        };
        let sides = Sides { old: old.as_ref(), new: new.as_ref(), old_text, new_text };
        changed.extend(classify(diff, &sides, &path));
    }
    changed.sort_by(|a, b| {
        (a.path.as_str(), a.line, a.qualified_name.as_str()).cmp(&(
            b.path.as_str(),
            b.line,
            b.qualified_name.as_str(),
        ))
    });
    Ok(changed)
}

/// One file's facts and text on both sides of a diff.
pub struct Sides<'a> {
    pub old: Option<&'a FileFacts>,
    pub new: Option<&'a FileFacts>,
    pub old_text: Option<&'a str>,
    pub new_text: Option<&'a str>,
}

/// What a 1-based line of a text holds, as far as a change is concerned.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LineContent {
    /// Blank (blank lines between items touch no item); also a line past the end.
    Blank,
    /// Only a line comment (`# …`, `// …`): it runs nothing.
    Comment,
    Code,
}

/// Each line's [`LineContent`], computed once per side, not once per changed line. Comments
/// are told by the language's line-comment prefix (a line inside a block comment counts as
/// code: a change there still seeds a blast).
struct SideLines(Vec<LineContent>);

impl SideLines {
    fn of(text: Option<&str>, language: Option<Language>) -> SideLines {
        let prefix = language.map(Language::line_comment_prefix);
        let content = |line: &str| {
            let line = line.trim();
            if line.is_empty() {
                LineContent::Blank
            } else if prefix.is_some_and(|prefix| line.starts_with(prefix)) {
                LineContent::Comment
            } else {
                LineContent::Code
            }
        };
        SideLines(text.map(|text| text.lines().map(content).collect()).unwrap_or_default())
    }

    fn content(&self, line: u32) -> LineContent {
        self.0.get(line.saturating_sub(1) as usize).copied().unwrap_or(LineContent::Blank)
    }
}

/// The symbols the lines of one side touch: by code lines, and by comment lines only.
#[derive(Default)]
struct Touched {
    code: BTreeMap<(String, SymbolKind), u32>,
    comments: BTreeMap<(String, SymbolKind), u32>,
}

impl Touched {
    fn of(
        facts: Option<&FileFacts>,
        lines: &SideLines,
        changed: impl Iterator<Item = u32>,
    ) -> Touched {
        let mut touched = Touched::default();
        let Some(facts) = facts else { return touched };
        for line in changed {
            let counts = match lines.content(line) {
                LineContent::Blank => continue,
                LineContent::Comment => &mut touched.comments,
                LineContent::Code => &mut touched.code,
            };
            if let Some(symbol) = innermost(facts, line) {
                *counts.entry((symbol.qualified_name.clone(), symbol.kind)).or_default() += 1;
            }
        }
        touched
    }
}

/// Maps one file's hunks onto the innermost symbols of each side and classifies them.
pub fn classify(diff: &FileDiff, sides: &Sides<'_>, path: &str) -> Vec<ChangedSymbol> {
    let (old, new) = (sides.old, sides.new);
    let key = |symbol: &Symbol| (symbol.qualified_name.clone(), symbol.kind);
    let language = Language::from_path(path);
    let old_lines = diff
        .hunks
        .iter()
        .flat_map(|hunk| hunk.old_start..hunk.old_start.saturating_add(hunk.old_count));
    let new_lines = diff
        .hunks
        .iter()
        .flat_map(|hunk| hunk.new_start..hunk.new_start.saturating_add(hunk.new_count));
    let touched_old = Touched::of(old, &SideLines::of(sides.old_text, language), old_lines);
    let touched_new = Touched::of(new, &SideLines::of(sides.new_text, language), new_lines);
    let (comments_old, touched_old) = (touched_old.comments, touched_old.code);
    let (comments_new, touched_new) = (touched_new.comments, touched_new.code);
    let exists = |facts: Option<&FileFacts>, wanted: &(String, SymbolKind)| {
        facts.is_some_and(|facts| facts.symbols.iter().any(|symbol| &key(symbol) == wanted))
    };
    let find = |facts: Option<&FileFacts>, wanted: &(String, SymbolKind)| {
        facts.and_then(|facts| {
            facts
                .symbols
                .iter()
                .find(|symbol| &key(symbol) == wanted)
                .map(|symbol| symbol.span.start_line)
        })
    };
    let mut result: BTreeMap<(String, SymbolKind), ChangedSymbol> = BTreeMap::new();
    let renamed_from = diff.is_rename.then(|| diff.old_path.clone()).flatten();
    for (symbol_key, lines) in &touched_new {
        let change = if exists(old, symbol_key) { ChangeKind::Modified } else { ChangeKind::Added };
        result.insert(
            symbol_key.clone(),
            ChangedSymbol {
                qualified_name: symbol_key.0.clone(),
                kind: symbol_key.1,
                path: path.to_string(),
                line: find(new, symbol_key).unwrap_or(0),
                change,
                lines_changed: *lines,
                renamed_from: renamed_from.clone(),
            },
        );
    }
    for (symbol_key, lines) in &touched_old {
        if let Some(existing) = result.get_mut(symbol_key) {
            existing.lines_changed += lines;
            continue;
        }
        let (change, line) = match find(new, symbol_key) {
            Some(line) => (ChangeKind::Modified, line),
            None => (ChangeKind::Deleted, find(old, symbol_key).unwrap_or(0)),
        };
        let path = if change == ChangeKind::Deleted {
            diff.old_path.clone().unwrap_or_else(|| path.to_string())
        } else {
            path.to_string()
        };
        result.insert(
            symbol_key.clone(),
            ChangedSymbol {
                qualified_name: symbol_key.0.clone(),
                kind: symbol_key.1,
                path,
                line,
                change,
                lines_changed: *lines,
                renamed_from: renamed_from.clone(),
            },
        );
    }
    // Symbols whose changed lines, on either side, are all comments.
    for (symbol_key, lines) in comments_new.iter().chain(&comments_old) {
        if let Some(existing) = result.get(symbol_key) {
            if existing.change != ChangeKind::CommentsOnly {
                continue;
            }
        }
        let Some(line) = find(new, symbol_key).or_else(|| find(old, symbol_key)) else { continue };
        let entry = result.entry(symbol_key.clone()).or_insert_with(|| ChangedSymbol {
            qualified_name: symbol_key.0.clone(),
            kind: symbol_key.1,
            path: path.to_string(),
            line,
            change: ChangeKind::CommentsOnly,
            lines_changed: 0,
            renamed_from: renamed_from.clone(),
        });
        entry.lines_changed += lines;
    }
    result.into_values().collect()
}

/// The innermost symbol whose span holds a line (the module for module-level code).
fn innermost(facts: &FileFacts, line: u32) -> Option<&Symbol> {
    facts
        .symbols
        .iter()
        .filter(|symbol| symbol.span.contains_line(line) && symbol.kind != SymbolKind::Lambda)
        .min_by_key(|symbol| {
            (
                symbol.span.end_line - symbol.span.start_line,
                std::cmp::Reverse(symbol.span.start_line),
            )
        })
}

/// The module name the index gave a file, or one derived from its path for a new file.
pub fn module_name_of(snapshot: &Snapshot, path: &str) -> String {
    let indexed = snapshot
        .symbols_in_file(path)
        .iter()
        .map(|index| snapshot.symbol(*index))
        .find(|symbol| symbol.kind == SymbolKind::Module && symbol.parent.is_none());
    if let Some(module) = indexed {
        return module.qualified_name.clone();
    }
    match Language::from_path(path) {
        Some(Language::Rust) => path.trim_end_matches(".rs").replace('/', "::"),
        _ => path.trim_end_matches(".py").trim_end_matches("/__init__").replace('/', "."),
    }
}

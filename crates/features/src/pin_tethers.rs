//! What each memory pin tethers: the symbols its commit changed in the pinned files (or the
//! files themselves). Pins name immutable commits, so a pin is mapped once, ever: mapped
//! pins are kept in memory and appended to `pin-tethers.tsv` in the daemon's folder, which
//! the next daemon reads instead of mapping again. Unmapped pins are mapped in batches: one
//! `git log --stdin` gives every commit's diff against its first parent, one `git cat-file
//! --batch` both sides' texts, so thousands of pins cost a few git processes, not four each.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use tether_model::IgnoringPoison;

use tether_git::{CommitDiff, Repository, Revision};
use tether_memory::TetherKind;
use tether_model::{Cancelled, Deadline, SymbolKind};
use tether_query::Snapshot;

use crate::changes::{changed_symbols_in_texts, module_name_of};
use crate::FeatureContext;

/// What one pin tethers: a symbol of a file (by its name inside its module), or the file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PinTether {
    pub kind: TetherKind,
    pub path: String,
    /// The qualified name without the module prefix (`Class.method`), for `Changed` tethers.
    pub relative_name: Option<String>,
    pub symbol_kind: Option<SymbolKind>,
}

/// A pin: its full commit id and its files.
pub(crate) type PinKey = (String, Vec<String>);

/// Pins mapped in one batch (one `git log`, one `git cat-file`).
const PINS_PER_BATCH: usize = 256;

/// The first line of the persisted file; a file with another one is ignored and rewritten.
const STORE_HEADER: &str = concat!("tether-pin-tethers 1 ", env!("CARGO_PKG_VERSION"));

fn store_path(folder: &Path) -> std::path::PathBuf {
    folder.join("pin-tethers.tsv")
}

/// A qualified name without its module's prefix (`pkg.mod.Class.method` → `Class.method`,
/// `krate::m::Type::f` → `Type::f`); `None` when it is not inside that module.
pub fn name_inside_module<'a>(qualified_name: &'a str, module: &str) -> Option<&'a str> {
    qualified_name.strip_prefix(module).map(|rest| rest.trim_start_matches(['.', ':']))
}

/// Makes sure every pin is mapped (from memory, the persisted file, or git). `Err` when the
/// deadline passed first; the pins mapped so far are kept, so the next call goes on.
pub fn ensure_mapped(
    state: &FeatureContext,
    repository: &Repository,
    snapshot: &Snapshot,
    pins: &[(Revision, Vec<String>)],
    deadline: Deadline,
) -> Result<(), Cancelled> {
    let unmapped: Vec<&(Revision, Vec<String>)> = {
        let mut memory = state.caches.memory.lock().ignoring_poison();
        if !memory.pin_tethers_loaded {
            memory.pin_tethers.extend(read_store(&store_path(state.folder)));
            memory.pin_tethers_loaded = true;
        }
        let mut seen = std::collections::HashSet::new();
        pins.iter()
            .filter(|(commit, files)| {
                !memory.pin_tethers.contains_key(&(commit.to_string(), files.clone()))
                    && seen.insert((commit.clone(), files.clone()))
            })
            .collect()
    };
    for batch in unmapped.chunks(PINS_PER_BATCH) {
        deadline.check()?;
        let mapped = map_batch(repository, snapshot, batch, deadline)?;
        append_to_store(&store_path(state.folder), &mapped);
        let mut memory = state.caches.memory.lock().ignoring_poison();
        memory
            .pin_tethers
            .extend(mapped.into_iter().map(|(key, tethers)| (key, Arc::new(tethers))));
    }
    Ok(())
}

/// The tethers of a mapped pin.
pub fn tethers_of(
    state: &FeatureContext,
    commit: &Revision,
    files: &[String],
) -> Option<Arc<Vec<PinTether>>> {
    state
        .caches
        .memory
        .lock()
        .ignoring_poison()
        .pin_tethers
        .get(&(commit.to_string(), files.to_vec()))
        .cloned()
}

/// Maps one batch of pins with one `git log` and one `git cat-file`.
fn map_batch(
    repository: &Repository,
    snapshot: &Snapshot,
    pins: &[&(Revision, Vec<String>)],
    deadline: Deadline,
) -> Result<Vec<(PinKey, Vec<PinTether>)>, Cancelled> {
    let mut commits: Vec<Revision> = pins.iter().map(|(commit, _)| commit.clone()).collect();
    commits.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    commits.dedup();
    let diffs: HashMap<String, CommitDiff> = match repository.first_parent_diffs(&commits, deadline)
    {
        Ok(diffs) => {
            diffs.into_iter().map(|diff| (diff.commit.as_str().to_string(), diff)).collect()
        }
        Err(tether_git::GitError::Cancelled { .. }) => return Err(Cancelled),
        // A commit git no longer has (a rewritten history) tethers its files only.
        Err(_) => HashMap::new(),
    };
    // Each pin's diffs (only its files, when it names some), then both sides' texts at once.
    let pin_diffs: Vec<(Option<&CommitDiff>, Vec<&tether_git::FileDiff>)> = pins
        .iter()
        .map(|(commit, files)| {
            let diff = diffs.get(commit.as_str());
            let chosen = diff
                .map(|diff| {
                    diff.files
                        .iter()
                        .filter(|file| {
                            files.is_empty()
                                || file
                                    .new_path
                                    .as_ref()
                                    .or(file.old_path.as_ref())
                                    .is_some_and(|path| files.contains(path))
                        })
                        .collect()
                })
                .unwrap_or_default();
            (diff, chosen)
        })
        .collect();
    let texts = side_texts(repository, &pin_diffs);
    let text = |revision: Option<&Revision>, path: Option<&String>| -> Option<String> {
        texts.get(&(revision?.clone(), path?.clone())).cloned().flatten()
    };
    let mut cache = crate::changes::SideFactsCache::default();
    let mut mapped = Vec::with_capacity(pins.len());
    for ((commit, files), (diff, file_diffs)) in pins.iter().zip(&pin_diffs) {
        let owned: Vec<tether_git::FileDiff> =
            file_diffs.iter().map(|file| (*file).clone()).collect();
        let old_texts: Vec<Option<String>> = owned
            .iter()
            .map(|file| text(diff.and_then(|diff| diff.parent.as_ref()), file.old_path.as_ref()))
            .collect();
        let new_texts: Vec<Option<String>> = owned
            .iter()
            .map(|file| text(diff.map(|diff| &diff.commit), file.new_path.as_ref()))
            .collect();
        let changed = match changed_symbols_in_texts(
            snapshot, &owned, &old_texts, &new_texts, &mut cache, deadline,
        ) {
            Ok(changed) => changed,
            Err(tether_git::GitError::Cancelled { .. }) => return Err(Cancelled),
            Err(_) => Vec::new(),
        };
        let tethers = mapped_tethers(snapshot, &changed, files);
        mapped.push(((commit.to_string(), files.clone()), tethers));
    }
    Ok(mapped)
}

/// A pin's tethers: each symbol its diff changed, and each pinned file that holds none of
/// them (an empty diff, or no parsed symbol) as a referenced file.
fn mapped_tethers(
    snapshot: &Snapshot,
    changed: &[crate::changes::ChangedSymbol],
    files: &[String],
) -> Vec<PinTether> {
    let mut tethers = Vec::new();
    for symbol in changed {
        let module = module_name_of(snapshot, &symbol.path);
        let relative = name_inside_module(&symbol.qualified_name, &module)
            .unwrap_or(&symbol.qualified_name)
            .to_string();
        tethers.push(PinTether {
            kind: TetherKind::Changed,
            path: symbol.path.clone(),
            relative_name: Some(relative),
            symbol_kind: Some(symbol.kind),
        });
    }
    // A pinned file whose diff is empty, or holds no parsed symbol, is referenced as a file.
    for file in files {
        if !changed.iter().any(|symbol| &symbol.path == file) {
            tethers.push(PinTether {
                kind: TetherKind::Referenced,
                path: file.clone(),
                relative_name: None,
                symbol_kind: None,
            });
        }
    }
    tethers
}

/// Both sides' texts of every file diff, read with one `git cat-file`: the parent's at the
/// old path, the commit's at the new one (none when git cannot give them).
fn side_texts(
    repository: &Repository,
    pin_diffs: &[(Option<&CommitDiff>, Vec<&tether_git::FileDiff>)],
) -> HashMap<(Revision, String), Option<String>> {
    let mut wanted: Vec<(Revision, String)> = Vec::new();
    for (diff, files) in pin_diffs {
        let Some(diff) = diff else { continue };
        for file in files {
            if let (Some(parent), Some(old_path)) = (&diff.parent, &file.old_path) {
                wanted.push((parent.clone(), old_path.clone()));
            }
            if let Some(new_path) = &file.new_path {
                wanted.push((diff.commit.clone(), new_path.clone()));
            }
        }
    }
    match repository.texts_in(&wanted) {
        Ok(texts) => wanted.into_iter().zip(texts).collect(),
        Err(_) => HashMap::new(),
    }
}

/// Tabs, newlines and backslashes inside a field, escaped so one record stays one line.
fn escape(field: &str) -> String {
    field.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n").replace('\r', "\\r")
}

fn unescape(field: &str) -> String {
    let mut out = String::with_capacity(field.len());
    let mut characters = field.chars();
    while let Some(character) = characters.next() {
        if character != '\\' {
            out.push(character);
            continue;
        }
        match characters.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// `P <commit> <files joined by \u{1f}>` starts a pin; each `T <kind> <path> <name> <symbol
/// kind>` line after it is one of its tethers (`-` for none); `E` ends a batch, and only
/// complete batches are read back (a crash while appending loses the last one only).
fn render_records(mapped: &[(PinKey, Vec<PinTether>)]) -> String {
    let mut text = String::new();
    for ((commit, files), tethers) in mapped {
        let files: Vec<String> = files.iter().map(|file| escape(file)).collect();
        text.push_str(&format!("P\t{commit}\t{}\n", files.join("\u{1f}")));
        for tether in tethers {
            let kind = match tether.kind {
                TetherKind::Changed => "changed",
                TetherKind::Referenced => "referenced",
            };
            let name =
                tether.relative_name.as_deref().map(escape).unwrap_or_else(|| "-".to_string());
            let symbol_kind = tether.symbol_kind.map(SymbolKind::as_str).unwrap_or("-");
            text.push_str(&format!("T\t{kind}\t{}\t{name}\t{symbol_kind}\n", escape(&tether.path)));
        }
    }
    text.push_str("E\n");
    text
}

fn parse_records(text: &str) -> Vec<(PinKey, Arc<Vec<PinTether>>)> {
    let mut complete: Vec<(PinKey, Vec<PinTether>)> = Vec::new();
    let mut records: Vec<(PinKey, Vec<PinTether>)> = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split('\t').collect();
        match fields.as_slice() {
            ["P", commit, files] => {
                let files = if files.is_empty() {
                    Vec::new()
                } else {
                    files.split('\u{1f}').map(unescape).collect()
                };
                records.push(((commit.to_string(), files), Vec::new()));
            }
            ["T", kind, path, name, symbol_kind] => {
                let Some((_, tethers)) = records.last_mut() else { continue };
                let kind =
                    if *kind == "changed" { TetherKind::Changed } else { TetherKind::Referenced };
                let relative_name = (*name != "-").then(|| unescape(name));
                let symbol_kind = SymbolKind::parse(symbol_kind);
                tethers.push(PinTether { kind, path: unescape(path), relative_name, symbol_kind });
            }
            ["E"] => complete.append(&mut records),
            // A torn line (a crash while appending) ends the file.
            _ => break,
        }
    }
    complete.into_iter().map(|(key, tethers)| (key, Arc::new(tethers))).collect()
}

/// The persisted pins, or none when the file is missing or from another version.
fn read_store(path: &Path) -> Vec<(PinKey, Arc<Vec<PinTether>>)> {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    match text.split_once('\n') {
        Some((header, records)) if header == STORE_HEADER => parse_records(records),
        _ => Vec::new(),
    }
}

/// Appends newly mapped pins (starting the file, with its header, when it is missing or from
/// another version). A failure only costs mapping them again next time.
fn append_to_store(path: &Path, mapped: &[(PinKey, Vec<PinTether>)]) {
    if mapped.is_empty() {
        return;
    }
    // The first mapping may come before anything else created the daemon's folder.
    if let Some(folder) = path.parent() {
        if let Err(error) = std::fs::create_dir_all(folder) {
            tracing::warn!(%error, path = %path.display(), "could not persist mapped pins");
            return;
        }
    }
    let current = std::fs::File::open(path)
        .ok()
        .and_then(|file| std::io::BufRead::lines(std::io::BufReader::new(file)).next())
        .and_then(Result::ok)
        .is_some_and(|header| header == STORE_HEADER);
    let file = if current {
        std::fs::OpenOptions::new().append(true).open(path)
    } else {
        crate::record_journal::write_atomically(path, &format!("{STORE_HEADER}\n"))
            .and_then(|()| std::fs::OpenOptions::new().append(true).open(path))
    };
    match file {
        Ok(mut file) => {
            if let Err(error) = file.write_all(render_records(mapped).as_bytes()) {
                tracing::warn!(%error, path = %path.display(), "could not persist mapped pins");
            }
        }
        Err(error) => {
            tracing::warn!(%error, path = %path.display(), "could not persist mapped pins")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn persisted_pins_read_back_and_a_torn_tail_is_dropped() {
        let mapped = vec![
            (
                (
                    "0123456789abcdef0123456789abcdef01234567".to_string(),
                    vec!["a b.py".to_string(), "t\tab.rs".to_string()],
                ),
                vec![
                    PinTether {
                        kind: TetherKind::Changed,
                        path: "a b.py".into(),
                        relative_name: Some("C.m".into()),
                        symbol_kind: Some(SymbolKind::Method),
                    },
                    PinTether {
                        kind: TetherKind::Referenced,
                        path: "t\tab.rs".into(),
                        relative_name: None,
                        symbol_kind: None,
                    },
                ],
            ),
            (("fedcba9876543210fedcba9876543210fedcba98".to_string(), vec![]), vec![]),
        ];
        let text = render_records(&mapped);
        let read: Vec<(PinKey, Vec<PinTether>)> = parse_records(&text)
            .into_iter()
            .map(|(key, tethers)| (key, tethers.as_ref().clone()))
            .collect();
        assert_eq!(read, mapped);
        let torn = format!(
            "{text}P\tfedcba9876543210fedcba9876543210fedcba99\t\nT\tchanged\tx.py\tf\tfunction\n"
        );
        assert_eq!(parse_records(&torn).len(), 2, "an unfinished batch is not read");
    }
}

//! The traces of a repository, read from `.memory/traces/*.md` (the files are the truth;
//! nothing else holds them), cached until a trace file's name, size or time changes.
//! A file that cannot be read or parsed is a problem named with its line, never dropped
//! silently: `recall` says what it could not read.

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

use tether_memory::{EntryProblem, Trace};

use crate::memory_context::memory_file_names;

/// The largest trace file read (a trace is a few lines; anything larger is not one).
pub const MAX_TRACE_FILE_BYTES: u64 = 256 * 1024;

/// The traces read, and the files that could not be.
#[derive(Default, Debug)]
pub struct LoadedTraces {
    pub traces: Vec<Trace>,
    pub problems: Vec<EntryProblem>,
    /// The file stems of every trace file, readable or not: ids a new trace cannot take.
    pub file_ids: HashSet<String>,
}

/// The traces last read and the signature of the files they were read from.
#[derive(Default)]
pub struct TraceCache {
    loaded: Mutex<Option<(u64, Arc<LoadedTraces>)>>,
}

impl TraceCache {
    /// The traces, read again when a trace file changed since the last read.
    pub fn current(&self, root: &Path) -> Arc<LoadedTraces> {
        let (names, signature) = trace_file_names(root);
        let mut loaded = self.loaded.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((cached, traces)) = loaded.as_ref() {
            if *cached == signature {
                return Arc::clone(traces);
            }
        }
        let traces = Arc::new(read_traces(root, &names));
        *loaded = Some((signature, Arc::clone(&traces)));
        traces
    }
}

/// The trace files' repository-relative paths and a signature of their names, sizes and
/// modification times.
fn trace_file_names(root: &Path) -> (Vec<String>, u64) {
    let prefix = format!(".memory/{}/", tether_memory::TRACE_FOLDER);
    let (names, _) = memory_file_names(root);
    let names: Vec<String> = names.into_iter().filter(|name| name.starts_with(&prefix)).collect();
    let mut signature = rustc_hash::FxHasher::default();
    for name in &names {
        let metadata = std::fs::symlink_metadata(root.join(name)).ok();
        std::hash::Hash::hash(
            &(
                name,
                metadata.as_ref().map(|metadata| metadata.len()),
                metadata.and_then(|metadata| metadata.modified().ok()),
            ),
            &mut signature,
        );
    }
    (names, std::hash::Hasher::finish(&signature))
}

/// Reads every trace file now, uncached (a writer under the record lock).
pub fn read_traces_now(root: &Path) -> LoadedTraces {
    let (names, _) = trace_file_names(root);
    read_traces(root, &names)
}

fn read_traces(root: &Path, names: &[String]) -> LoadedTraces {
    let mut loaded = LoadedTraces::default();
    for name in names {
        if let Some(stem) = Path::new(name).file_stem().and_then(|stem| stem.to_str()) {
            loaded.file_ids.insert(stem.to_string());
        }
        match read_trace_file(&root.join(name)) {
            Err(problem) => loaded.problems.push(EntryProblem::error(name, 1, problem)),
            Ok(text) => match tether_memory::parse_trace(name, &text) {
                Ok((trace, warnings)) => {
                    loaded.traces.push(trace);
                    loaded.problems.extend(warnings);
                }
                Err(problem) => loaded.problems.push(problem),
            },
        }
    }
    loaded
}

/// A regular file's text, at most [`MAX_TRACE_FILE_BYTES`], opened without following a
/// link or blocking on a FIFO.
fn read_trace_file(path: &Path) -> Result<String, String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(path)
        .map_err(|error| format!("cannot open it: {error}"))?;
    let metadata = file.metadata().map_err(|error| format!("cannot read it: {error}"))?;
    if !metadata.is_file() {
        return Err("not a regular file".to_string());
    }
    if metadata.len() > MAX_TRACE_FILE_BYTES {
        return Err(format!(
            "{} bytes; a trace file holds at most {MAX_TRACE_FILE_BYTES}",
            metadata.len()
        ));
    }
    let mut text = String::new();
    file.take(MAX_TRACE_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(|error| format!("cannot read it as UTF-8 text: {error}"))?;
    Ok(text)
}

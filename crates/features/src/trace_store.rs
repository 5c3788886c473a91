//! The traces of a repository, read from `.memory/traces/*.md` (the files are the truth;
//! nothing else holds them). One scan of the folder per request (a `stat` per file); a file
//! is parsed again only when its size or modification time changed, so a warm request over
//! thousands of traces reads none. A file that cannot be read or parsed is a problem named
//! with its line, never dropped silently: `recall` says what it could not read.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use tether_memory::{EntryProblem, Trace};

/// The largest trace file read (a trace is a few lines; anything larger is not one).
pub const MAX_TRACE_FILE_BYTES: u64 = 256 * 1024;

/// The traces read, and the files that could not be.
#[derive(Default, Debug)]
pub struct LoadedTraces {
    /// In the order of their file names.
    pub traces: Vec<Trace>,
    pub problems: Vec<EntryProblem>,
    /// The file stems of every trace file, readable or not: ids a new trace cannot take.
    pub file_ids: HashSet<String>,
}

/// One trace file as last read: its stamp and what it held.
type ReadFile = (Stamp, Result<(Trace, Vec<EntryProblem>), EntryProblem>);

/// A file's size and modification time.
type Stamp = (u64, Option<SystemTime>);

/// The traces last read, each file's stamp, and the signature of the whole folder.
#[derive(Default)]
pub struct TraceCache {
    state: Mutex<TraceCacheState>,
}

#[derive(Default)]
struct TraceCacheState {
    signature: Option<u64>,
    loaded: Arc<LoadedTraces>,
    files: HashMap<String, ReadFile>,
}

impl TraceCache {
    /// The traces as the folder holds them now: the last read when no file changed, else
    /// read again, parsing only the files that changed.
    pub fn current(&self, root: &Path) -> Arc<LoadedTraces> {
        let listed = trace_files(root);
        let signature = signature_of(&listed);
        let mut state = self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if state.signature == Some(signature) {
            return Arc::clone(&state.loaded);
        }
        let mut files = HashMap::with_capacity(listed.len());
        let mut loaded = LoadedTraces::default();
        for (name, stamp) in listed {
            let read = match state.files.remove(&name) {
                Some((old_stamp, read)) if old_stamp == stamp && stamp.1.is_some() => read,
                _ => read_trace(root, &name),
            };
            if let Some(stem) = Path::new(&name).file_stem().and_then(|stem| stem.to_str()) {
                loaded.file_ids.insert(stem.to_string());
            }
            match &read {
                Ok((trace, warnings)) => {
                    loaded.traces.push(trace.clone());
                    loaded.problems.extend(warnings.iter().cloned());
                }
                Err(problem) => loaded.problems.push(problem.clone()),
            }
            files.insert(name, (stamp, read));
        }
        let loaded = Arc::new(loaded);
        *state = TraceCacheState { signature: Some(signature), loaded: Arc::clone(&loaded), files };
        loaded
    }
}

/// The `.md` files of `.memory/traces/` (repository-relative, sorted) with their stamps;
/// links and other non-regular files are listed (and reported unreadable), never followed.
fn trace_files(root: &Path) -> Vec<(String, Stamp)> {
    let folder = root.join(".memory").join(tether_memory::TRACE_FOLDER);
    // A link in place of the folder is not followed.
    if !std::fs::symlink_metadata(&folder).is_ok_and(|metadata| metadata.is_dir()) {
        return Vec::new();
    }
    let Ok(read) = std::fs::read_dir(&folder) else { return Vec::new() };
    let mut files: Vec<(String, Stamp)> = read
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if !name.ends_with(".md") || entry.file_type().ok()?.is_dir() {
                return None;
            }
            let metadata = entry.metadata().ok();
            let stamp = (
                metadata.as_ref().map_or(0, |metadata| metadata.len()),
                metadata.and_then(|metadata| metadata.modified().ok()),
            );
            Some((format!(".memory/{}/{name}", tether_memory::TRACE_FOLDER), stamp))
        })
        .collect();
    files.sort();
    files
}

fn signature_of(files: &[(String, Stamp)]) -> u64 {
    let mut signature = rustc_hash::FxHasher::default();
    std::hash::Hash::hash(files, &mut signature);
    std::hash::Hasher::finish(&signature)
}

fn read_trace(root: &Path, name: &str) -> Result<(Trace, Vec<EntryProblem>), EntryProblem> {
    let text = read_trace_file(&root.join(name))
        .map_err(|problem| EntryProblem::error(name, 1, problem))?;
    let (trace, warnings) = tether_memory::parse_trace(name, &text)?;
    let stem = Path::new(name).file_stem().and_then(|stem| stem.to_str()).unwrap_or_default();
    if trace.id != stem {
        return Err(EntryProblem::error(
            name,
            2,
            format!("id `{}` is not the file's name (`{stem}.md`)", trace.id),
        ));
    }
    Ok((trace, warnings))
}

/// The ids the trace files take (their names), read or not: an entry cannot take one.
pub fn trace_file_ids(root: &Path) -> HashSet<String> {
    trace_files(root)
        .into_iter()
        .filter_map(|(name, _)| {
            Path::new(&name).file_stem().and_then(|stem| stem.to_str()).map(str::to_string)
        })
        .collect()
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

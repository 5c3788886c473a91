//! The change history `health`'s churn reads: HEAD's newest commits from `git log`, cached in
//! memory and in the daemon's folder (`churn-history.v1`), extended as HEAD moves forward,
//! read again when HEAD's history is rewritten. A read that would run past its time budget
//! stops with the commits read so far (the answer says so) and a background thread reads on
//! for the next answer. Commits by bots are left out as ownership leaves them out.
//!
//! It deliberately never writes into the repository: only its own file under `.git/tether/`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tether_git::{looks_like_bot, Repository, Revision};
use tether_model::{ChangeHistory, Deadline, IgnoringPoison};

use crate::churn_history_file::{decode_history, encode_history, MAX_HISTORY_FILE_BYTES};

/// Commits read from git at a time.
const PAGE_COMMITS: usize = 500;
/// How long one page may take in the background.
const BACKGROUND_PAGE_BUDGET: Duration = Duration::from_secs(120);
/// The background reader writes the history file after this many pages (and at its end).
const PAGES_PER_WRITE: usize = 10;

/// The history read so far, shared by requests and the background reader.
#[derive(Default)]
pub struct ChurnHistoryCache {
    history: Mutex<Option<ChangeHistory>>,
    reading_in_background: AtomicBool,
    /// How many commits the background reader reads to (the most any request asked).
    background_target: AtomicUsize,
}

/// What churn gets to read.
#[derive(Clone, PartialEq, Debug)]
pub enum HistoryRead {
    /// The newest commits (at most those asked for), bots left out; `read` of them were read
    /// (bots' included), and `cut_short` when the time ran out before all asked for were.
    Read { history: ChangeHistory, read: usize, cut_short: bool, note: Option<String> },
    /// Why there is no history.
    Unavailable(String),
}

fn history_file(folder: &Path) -> PathBuf {
    folder.join("churn-history.v1")
}

/// The newest `commits` of HEAD's history, from the cache, extended or read from git until
/// `budget` passes; the rest is read in the background.
pub fn read_history(
    cache: &Arc<ChurnHistoryCache>,
    root: &Path,
    folder: &Path,
    commits: usize,
    extra_bots: &[String],
    budget: Deadline,
) -> HistoryRead {
    let Some(repository) = tether_git::discover(root) else {
        return HistoryRead::Unavailable(
            "not a git repository: churn reads the history git keeps".to_string(),
        );
    };
    let Some(head) = repository.head().ok().and_then(|head| head.commit) else {
        return HistoryRead::Unavailable("no commit yet: churn has no history to read".to_string());
    };
    let mut cached = cache.history.lock().ignoring_poison();
    let mut history = match cached.take() {
        Some(history) => history,
        None => load(folder).unwrap_or_default(),
    };
    let changed = follow_head(&repository, &mut history, &head, budget);
    let read_more = read_pages(&repository, &mut history, commits, budget);
    if changed || read_more {
        let _ = crate::write_atomically(&history_file(folder), &encode_history(&history));
    }
    let cut_short = history.commits.len() < commits && !history.reached_root;
    let read = history.commits.len().min(commits);
    let (kept, note) = without_bots(&history, commits, extra_bots, repository.is_shallow());
    *cached = Some(history);
    drop(cached);
    if cut_short {
        read_in_background(cache, repository, folder.to_path_buf(), commits);
    }
    HistoryRead::Read { history: kept, read, cut_short, note }
}

fn load(folder: &Path) -> Option<ChangeHistory> {
    use std::io::Read;
    let file = std::fs::File::open(history_file(folder)).ok()?;
    let metadata = file.metadata().ok()?;
    // A file cut at a line end would read as a shorter history: one too large is not read.
    if !metadata.is_file() || metadata.len() > MAX_HISTORY_FILE_BYTES {
        return None;
    }
    let mut text = String::new();
    file.take(MAX_HISTORY_FILE_BYTES).read_to_string(&mut text).ok()?;
    decode_history(&text)
}

/// A history of HEAD not read yet: paging starts from HEAD.
fn fresh_history(head: &str) -> ChangeHistory {
    ChangeHistory {
        tip: Some(head.to_string()),
        paged_from: Some(head.to_string()),
        ..Default::default()
    }
}

/// Makes the history start at HEAD: the commits HEAD gained are put in front; a history
/// HEAD no longer contains (a rebase, a reset, another branch) is dropped. Whether it changed.
fn follow_head(
    repository: &Repository,
    history: &mut ChangeHistory,
    head: &str,
    budget: Deadline,
) -> bool {
    if history.tip.as_deref() == Some(head) {
        return false;
    }
    let (Some(head_revision), Some(tip)) =
        (Revision::from_object_id(head), history.tip.as_deref().and_then(Revision::from_object_id))
    else {
        *history = fresh_history(head);
        return true;
    };
    if !repository.is_ancestor(&tip, &head_revision) {
        *history = fresh_history(head);
        return true;
    }
    let gained = Revision::range(&tip, &head_revision);
    let mut newer = Vec::new();
    loop {
        match repository.change_log_page(&gained, newer.len(), PAGE_COMMITS, budget) {
            Ok(page) => {
                let last = page.len() < PAGE_COMMITS;
                newer.extend(page);
                if last {
                    break;
                }
            }
            Err(_) => {
                // Cut short: start again from HEAD rather than keep a history with a hole.
                *history = fresh_history(head);
                return true;
            }
        }
    }
    newer.append(&mut history.commits);
    history.commits = newer;
    history.tip = Some(head.to_string());
    true
}

/// Reads the next page from where paging began (at most `count` commits); `None` when
/// git could not (the deadline passed, the commit is gone).
fn next_page(
    repository: &Repository,
    history: &ChangeHistory,
    count: usize,
    deadline: Deadline,
) -> Option<Vec<tether_model::ChangedCommit>> {
    let from = history.paged_from.as_deref().and_then(Revision::from_object_id)?;
    repository.change_log_page(&from, history.paged, count, deadline).ok()
}

/// Appends a page read from `paged_from`.
fn append_page(history: &mut ChangeHistory, page: Vec<tether_model::ChangedCommit>, count: usize) {
    history.reached_root = page.len() < count;
    history.paged += page.len();
    history.commits.extend(page);
}

/// Reads pages of older commits until `commits` are read, the history ends or `budget`
/// passes. Whether any were read.
fn read_pages(
    repository: &Repository,
    history: &mut ChangeHistory,
    commits: usize,
    budget: Deadline,
) -> bool {
    let mut read = false;
    while history.commits.len() < commits && !history.reached_root && !budget.has_passed() {
        let count = PAGE_COMMITS.min(commits - history.commits.len());
        let Some(page) = next_page(repository, history, count, budget) else { break };
        append_page(history, page, count);
        read = true;
    }
    read
}

/// The newest `commits` of the history without the bots' commits, and a note saying what
/// was left out and whether the history is cut (a shallow clone).
fn without_bots(
    history: &ChangeHistory,
    commits: usize,
    extra_bots: &[String],
    shallow: bool,
) -> (ChangeHistory, Option<String>) {
    let mut bots: Vec<&str> = Vec::new();
    let mut bot_commits = 0;
    let mut kept = Vec::new();
    for commit in history.commits.iter().take(commits) {
        if looks_like_bot(&commit.author, &commit.email, extra_bots) {
            bot_commits += 1;
            if !bots.contains(&commit.author.as_str()) {
                bots.push(&commit.author);
            }
        } else {
            kept.push(commit.clone());
        }
    }
    let mut notes = Vec::new();
    if bot_commits > 0 {
        notes.push(format!("{bot_commits} commits by bots left out ({})", bots.join(", ")));
    }
    if shallow && history.reached_root {
        notes.push(
            "a shallow clone: the history ends where the clone was cut, not at the first commit"
                .to_string(),
        );
    }
    let note = (!notes.is_empty()).then(|| notes.join("; "));
    let kept = ChangeHistory {
        tip: history.tip.clone(),
        paged_from: history.paged_from.clone(),
        paged: history.paged,
        commits: kept,
        reached_root: history.reached_root,
    };
    (kept, note)
}

/// Reads on in a thread of its own (one at a time) until the most commits any request asked
/// for are read or the history ends; when a request changed the history meanwhile (HEAD
/// moved), it goes on from the history as that request left it.
fn read_in_background(
    cache: &Arc<ChurnHistoryCache>,
    repository: Repository,
    folder: PathBuf,
    commits: usize,
) {
    cache.background_target.fetch_max(commits, Ordering::SeqCst);
    if cache.reading_in_background.swap(true, Ordering::SeqCst) {
        return;
    }
    let reader = Arc::clone(cache);
    let spawned = std::thread::Builder::new()
        .name("churn-history".to_string())
        .spawn(move || read_on(&reader, &repository, &folder));
    if spawned.is_err() {
        cache.reading_in_background.store(false, Ordering::SeqCst);
    }
}

fn read_on(cache: &ChurnHistoryCache, repository: &Repository, folder: &Path) {
    loop {
        read_pages_in_background(cache, repository, folder);
        cache.reading_in_background.store(false, Ordering::SeqCst);
        // A request may have raised the target just before the flag was lowered, and found
        // this reader still running: read on for it, unless another reader started.
        let more_wanted = cache.history.lock().ignoring_poison().as_ref().is_some_and(|history| {
            history.commits.len() < cache.background_target.load(Ordering::SeqCst)
                && !history.reached_root
        });
        if !more_wanted || cache.reading_in_background.swap(true, Ordering::SeqCst) {
            break;
        }
    }
}

fn read_pages_in_background(cache: &ChurnHistoryCache, repository: &Repository, folder: &Path) {
    let mut pages = 0;
    loop {
        let target = cache.background_target.load(Ordering::SeqCst);
        // What to read next, from a copy of where paging stands (git runs without the lock).
        let position = {
            let cached = cache.history.lock().ignoring_poison();
            cached.as_ref().and_then(|history| {
                let wanted = history.commits.len() < target && !history.reached_root;
                wanted.then(|| (history.paged_from.clone(), history.paged, history.commits.len()))
            })
        };
        let Some((paged_from, paged, length)) = position else { break };
        let probe = ChangeHistory { paged_from: paged_from.clone(), paged, ..Default::default() };
        let count = PAGE_COMMITS.min(target - length);
        let page = next_page(repository, &probe, count, Deadline::after(BACKGROUND_PAGE_BUDGET));
        let Some(page) = page else { break };
        let mut cached = cache.history.lock().ignoring_poison();
        let Some(history) = cached.as_mut() else { break };
        // A request moved the history meanwhile: read again from where it stands now.
        if history.paged_from != paged_from || history.paged != paged {
            continue;
        }
        append_page(history, page, count);
        pages += 1;
        if pages % PAGES_PER_WRITE == 0 {
            let _ = crate::write_atomically(&history_file(folder), &encode_history(history));
        }
    }
    if pages % PAGES_PER_WRITE != 0 {
        if let Some(history) = cache.history.lock().ignoring_poison().as_ref() {
            let _ = crate::write_atomically(&history_file(folder), &encode_history(history));
        }
    }
}

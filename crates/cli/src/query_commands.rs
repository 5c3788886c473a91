//! `tether lookup`, `callers`, `callees`, `imports` and `blast`: asked of the daemon (started
//! if needed), or answered in this process with `--no-daemon`.

use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::Args;
use tether_daemon::{DaemonLock, DaemonState};
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::Answer;
use tether_protocol::{
    ChangesParams, Method, RecordParams, Request, SearchMemoryParams, Subject, WalkParams,
};
use tether_query::PageRequest;

use crate::daemon_client::connect_or_start;
use crate::RepositoryArgs;

/// Options every query shares.
#[derive(Args, Clone)]
pub struct QueryOptions {
    /// The repository (default: the current folder).
    #[arg(long = "repo", short = 'C', default_value = ".")]
    pub repo: PathBuf,
    /// The graph database (default: inside the git directory).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// At most this many items (1 to 200).
    #[arg(long)]
    pub limit: Option<usize>,
    /// Continue from a previous answer's `next_cursor`.
    #[arg(long)]
    pub cursor: Option<String>,
    /// Print the exact JSON payload.
    #[arg(long)]
    pub json: bool,
    /// Answer in this process instead of asking the daemon (refused while a daemon runs).
    #[arg(long)]
    pub no_daemon: bool,
}

impl QueryOptions {
    pub fn require_folder(&self) -> anyhow::Result<()> {
        self.repository().require_folder()
    }

    fn repository(&self) -> RepositoryArgs {
        RepositoryArgs { path: self.repo.clone(), db: self.db.clone(), buffer_pool_mib: 256 }
    }

    /// The page `--limit` and `--cursor` ask for.
    fn page(&self) -> anyhow::Result<PageRequest> {
        PageRequest::new(self.cursor.as_deref(), self.limit).map_err(|error| anyhow::anyhow!(error))
    }
}

#[derive(Args)]
pub struct SymbolQueryArgs {
    /// The symbol: a qualified name, a unique suffix of one, `path:line` (the path from the
    /// current folder or the repository root), or an id.
    pub symbol: String,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct BlastArgs {
    /// The symbol (qualified name, unique suffix, `path:line` or id); or use --file.
    pub symbol: Option<String>,
    /// The blast radius of everything in this file (relative to the repository root).
    #[arg(long, conflicts_with = "symbol")]
    pub file: Option<String>,
    /// How many hops to walk back (1 to 8).
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    /// List at most this many tests (1 to 10,000; `tests_total` counts them all).
    #[arg(long, default_value_t = 100)]
    pub tests_limit: usize,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct LookupArgs {
    /// A name or part of a qualified name; without it, the census.
    pub query: Option<String>,
    /// Only symbols in files under this folder.
    #[arg(long)]
    pub folder: Option<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct OwnershipArgs {
    /// The symbol (qualified name, unique suffix, `path:line` or id); or use --path.
    pub symbol: Option<String>,
    /// A whole file instead of a symbol (from the current folder or the repository root).
    #[arg(long, conflicts_with = "symbol")]
    pub path: Option<String>,
    /// Also leave out this author (name or email); repeatable. Bots are left out already.
    #[arg(long = "exclude-author")]
    pub exclude_authors: Vec<String>,
    /// Plain `git blame`: credit moved and copied lines to who moved them (by default
    /// `-w -M -C` credits who wrote them).
    #[arg(long)]
    pub plain_blame: bool,
    /// Do not skip the commits `.git-blame-ignore-revs` lists (skipped by default when the
    /// file exists).
    #[arg(long)]
    pub no_ignore_revs: bool,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct ChangesArgs {
    /// Only staged changes.
    #[arg(long, conflicts_with_all = ["unstaged", "base", "range"])]
    pub staged: bool,
    /// Only unstaged changes.
    #[arg(long, conflicts_with_all = ["base", "range"])]
    pub unstaged: bool,
    /// Changes since the merge base with this ref (e.g. main).
    #[arg(long, conflicts_with = "range")]
    pub base: Option<String>,
    /// A revision range, A..B.
    #[arg(long)]
    pub range: Option<String>,
    /// Count whitespace-only and line-ending-only changes too.
    #[arg(long)]
    pub include_whitespace: bool,
    /// How many hops the blast walks back (1 to 8).
    #[arg(long, default_value_t = 3)]
    pub depth: u32,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct ContextArgs {
    /// The symbol (qualified name, unique suffix, `path:line` or id); or use --path.
    pub symbol: Option<String>,
    /// A file instead of a symbol.
    #[arg(long, conflicts_with = "symbol")]
    pub path: Option<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct SearchMemoryArgs {
    /// Words to find in titles, tags and bodies.
    pub query: String,
    /// Only entries of this type.
    #[arg(long = "type")]
    pub entry_type: Option<String>,
    /// Only entries with this status (active, discarded).
    #[arg(long)]
    pub status: Option<String>,
    /// Only entries tethered to this symbol.
    #[arg(long)]
    pub symbol: Option<String>,
    /// Only entries tethered to this file.
    #[arg(long)]
    pub path: Option<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct RecordArgs {
    /// plan, checkpoint, experiment, decision, todo, note or annotation.
    #[arg(long = "type")]
    pub entry_type: String,
    #[arg(long)]
    pub title: String,
    /// The body (Markdown).
    #[arg(long, conflicts_with = "body_file")]
    pub body: Option<String>,
    /// Read the body from this file.
    #[arg(long)]
    pub body_file: Option<PathBuf>,
    /// The id of the entry this one belongs under.
    #[arg(long)]
    pub parent: Option<String>,
    /// Commit these changed files and pin the entry to that commit.
    #[arg(long, num_args = 1.., conflicts_with = "commit")]
    pub files: Vec<String>,
    /// Pin an existing commit.
    #[arg(long)]
    pub commit: Option<String>,
    #[arg(long, num_args = 1..)]
    pub tags: Vec<String>,
    #[arg(long, num_args = 1..)]
    pub supersedes: Vec<String>,
    #[arg(long = "depends-on", num_args = 1..)]
    pub depends_on: Vec<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

/// A symbol, or a file given with `flag`: exactly one.
fn symbol_or_path(
    symbol: &Option<String>,
    path: &Option<String>,
    flag: &str,
) -> anyhow::Result<Subject> {
    use crate::current_folder_paths::{address_from_current_folder, path_from_current_folder};
    match (symbol, path) {
        (Some(symbol), None) => Ok(Subject::Symbol(address_from_current_folder(symbol))),
        (None, Some(path)) => Ok(Subject::Path(path_from_current_folder(path))),
        _ => bail!("name a symbol, or a file with {flag}"),
    }
}

pub fn run_context(args: ContextArgs) -> anyhow::Result<()> {
    let subject = symbol_or_path(&args.symbol, &args.path, "--path")?;
    run_query(Request::Context { subject }, &args.options)
}

pub fn run_search_memory(args: SearchMemoryArgs) -> anyhow::Result<()> {
    let tethered_to = match (&args.symbol, &args.path) {
        (None, None) => None,
        _ => Some(symbol_or_path(&args.symbol, &args.path, "--path")?),
    };
    let request = Request::SearchMemory(SearchMemoryParams {
        query: args.query.clone(),
        entry_type: args.entry_type.clone(),
        status: args.status.clone(),
        tethered_to,
        page: args.options.page()?,
    });
    run_query(request, &args.options)
}

pub fn run_record(args: RecordArgs) -> anyhow::Result<()> {
    let body = match (&args.body, &args.body_file) {
        (Some(body), _) => body.clone(),
        (None, Some(path)) => std::fs::read_to_string(path)
            .map_err(|error| anyhow::anyhow!("cannot read {}: {error}", path.display()))?,
        (None, None) => String::new(),
    };
    let request = Request::Record(RecordParams {
        entry_type: Some(args.entry_type.clone()),
        title: Some(args.title.clone()),
        body,
        files: args.files.clone(),
        commit: args.commit.clone(),
        tags: args.tags.clone(),
        parent: args.parent.clone(),
        id: None,
        supersedes: args.supersedes.clone(),
        depends_on: args.depends_on.clone(),
        related: Vec::new(),
    });
    run_query(request, &args.options)
}

pub fn run_ownership(args: OwnershipArgs) -> anyhow::Result<()> {
    let subject = symbol_or_path(&args.symbol, &args.path, "--path")?;
    let blame = tether_protocol::BlameParams {
        follow_moves: !args.plain_blame,
        ignore_revs_file: !args.no_ignore_revs,
    };
    let request =
        Request::Ownership { subject, exclude_authors: args.exclude_authors.clone(), blame };
    run_query(request, &args.options)
}

pub fn run_changes(args: ChangesArgs) -> anyhow::Result<()> {
    let scope = if args.staged {
        "staged"
    } else if args.unstaged {
        "unstaged"
    } else {
        "all"
    };
    let request = Request::Changes(ChangesParams {
        scope: Some(scope.to_string()),
        base: args.base.clone(),
        range: args.range.clone(),
        include_whitespace: args.include_whitespace,
        walk: WalkParams {
            depth: Some(args.depth as usize),
            tests_limit: None,
            page: args.options.page()?,
        },
    });
    run_query(request, &args.options)
}

pub fn run_neighbours(method: Method, args: SymbolQueryArgs) -> anyhow::Result<()> {
    let symbol = crate::current_folder_paths::address_from_current_folder(&args.symbol);
    let page = args.options.page()?;
    let request = match method {
        Method::Callers => Request::Callers { symbol, page },
        Method::Callees => Request::Callees { symbol, page },
        _ => Request::Imports { symbol, page },
    };
    run_query(request, &args.options)
}

pub fn run_blast(args: BlastArgs) -> anyhow::Result<()> {
    let subject = symbol_or_path(&args.symbol, &args.file, "--file")?;
    let walk = WalkParams {
        depth: Some(args.depth as usize),
        tests_limit: Some(args.tests_limit),
        page: args.options.page()?,
    };
    run_query(Request::Blast { subject, walk }, &args.options)
}

pub fn run_lookup(args: LookupArgs) -> anyhow::Result<()> {
    let request = Request::Lookup {
        query: args.query.clone(),
        folder: args.folder.clone(),
        page: args.options.page()?,
    };
    run_query(request, &args.options)
}

/// Asks one request of the daemon (or of this process, with `--no-daemon`) and prints its
/// answer.
pub(crate) fn run_query(request: Request, options: &QueryOptions) -> anyhow::Result<()> {
    let method = request.method();
    let repository = options.repository();
    let paths = repository.daemon_paths();
    let answer: Result<Answer, RpcError> = if options.no_daemon {
        if DaemonLock::is_held(&paths.lock) {
            bail!("a tether daemon owns this repository's database; drop --no-daemon to ask it");
        }
        paths.prepare().with_context(|| format!("preparing {}", paths.folder.display()))?;
        let _lock = DaemonLock::acquire(&paths.lock)?;
        if let Err(error) = tether_daemon::recover_interrupted_record(&paths) {
            bail!("an interrupted record could not be settled: {error}");
        }
        let state = DaemonState::new(paths.clone(), repository.store_config());
        state.load_or_build()?;
        tether_daemon::handle(&state, request)
    } else {
        let mut client = connect_or_start(&paths, &repository.serve_arguments())?;
        client.call_when_ready(&request)?
    };
    match answer {
        Ok(answer) => {
            if options.json {
                println!("{}", answer.to_pretty_json());
            } else {
                print!("{}", crate::answer_text::answer_text(method, &answer));
            }
            Ok(())
        }
        Err(error) => {
            if options.json {
                println!("{}", error.to_pretty_json());
            }
            let mut message = error.message.clone();
            let data = error.address_data();
            let listed = data
                .iter()
                .flat_map(|data| data.candidates.iter().chain(data.similar.iter()).flatten());
            for candidate in listed {
                message.push_str(&format!(
                    "\n  {} ({}, {}:{}) id {}",
                    candidate.qualified_name,
                    candidate.kind,
                    candidate.path,
                    candidate.line,
                    candidate.id
                ));
            }
            bail!(message)
        }
    }
}

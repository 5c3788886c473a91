//! The queries (`lookup`, `callers`, `callees`, `imports`, `blast`, `ownership`, `changes`,
//! `context`, `search-memory`, `record`): their arguments, and the request each one makes.
//! `query_answers` asks it and prints the answer.

use std::path::{Path, PathBuf};

use clap::Args;
use tether_protocol::{
    ChangesParams, Method, RecordParams, Request, SearchMemoryParams, Subject, WalkParams,
};
use tether_query::PageRequest;

use crate::current_folder_paths::{
    address_from_current_folder, folder_from_current_folder, path_from_current_folder,
};
use crate::exit_codes::{usage, CliFailure};
use crate::next_command_hints::HintContext;
pub(crate) use crate::query_answers::run_query;
use crate::RepositoryArgs;

/// An integer option's range: the bounds the method's parameter table gives `name`.
fn range_of<T>(method: Method, name: &str) -> clap::builder::RangedI64ValueParser<T>
where
    T: TryFrom<i64> + Clone + Send + Sync + 'static,
    <T as TryFrom<i64>>::Error: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
{
    let (minimum, maximum) = method
        .parameter(name)
        .and_then(|parameter| parameter.integer_bounds())
        .unwrap_or_else(|| panic!("{} takes no integer {name}", method.as_str()));
    clap::builder::RangedI64ValueParser::<T>::new().range(minimum..=maximum)
}

/// `--depth`'s bounds, those of `blast`'s `depth` (1 to `BlastOptions::MAX_DEPTH`).
fn depth_range() -> clap::builder::RangedI64ValueParser<u32> {
    range_of(Method::Blast, "depth")
}

/// Options every query shares.
#[derive(Args, Clone)]
pub struct QueryOptions {
    /// The repository (default: the current folder); inside git, the whole repository.
    #[arg(long = "repo", short = 'C', default_value = ".", value_name = "DIR")]
    pub repo: PathBuf,
    /// The graph database (default: inside the git directory).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// At most this many items (1 to 200; default 20, or the configuration's `answers.limit`).
    #[arg(long, value_parser = range_of::<u64>(Method::Lookup, "limit"))]
    pub limit: Option<u64>,
    /// Continue from a previous answer's cursor (`--cursor o:20`).
    #[arg(long)]
    pub cursor: Option<String>,
    /// Print the exact JSON payload of the protocol instead of text.
    #[arg(long)]
    pub json: bool,
    /// Answer in this process instead of asking the daemon (refused while a daemon runs).
    #[arg(long)]
    pub no_daemon: bool,
    /// Spell out every cause of an incomplete answer, also those only counted by default
    /// (outside code that may call the subject: a decorator, a base class).
    #[arg(long)]
    pub why: bool,
}

impl QueryOptions {
    pub fn repository(&self) -> RepositoryArgs {
        RepositoryArgs::of_folder(self.repo.clone(), self.db.clone())
    }

    /// The page `--limit` and `--cursor` ask for.
    fn page(&self) -> anyhow::Result<PageRequest> {
        let limit = crate::configured_defaults::limit(self.limit).map(|limit| limit as usize);
        PageRequest::new(self.cursor.as_deref(), limit).map_err(usage)
    }

    /// What a `next:` hint repeats of this command line.
    pub(crate) fn hint_context(&self) -> HintContext<'_> {
        let repo = (self.repo != Path::new(".")).then_some(self.repo.as_path());
        HintContext { repo, limit: self.limit }
    }
}

#[derive(Args)]
pub struct SymbolQueryArgs {
    /// The symbol: a qualified name, a unique suffix of one, `path:line` or
    /// `path:line:column` (on a call, the function called there; the path from the current
    /// folder or the repository root), or an id.
    pub symbol: String,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct BlastArgs {
    /// The symbol (qualified name, unique suffix, `path:line[:column]` or id); or use --file.
    pub symbol: Option<String>,
    /// The blast radius of everything in this file (relative to the repository root).
    #[arg(long, conflicts_with = "symbol")]
    pub file: Option<String>,
    /// How many hops to walk back (1 to 8).
    #[arg(long, default_value_t = 3, value_parser = depth_range())]
    pub depth: u32,
    /// List at most this many tests (1 to 10,000; default 100, or the configuration's
    /// `answers.tests_limit`; `tests_total` counts them all).
    #[arg(long, value_parser = range_of::<u64>(Method::Blast, "tests_limit"))]
    pub tests_limit: Option<u64>,
    /// Print only the command lines that run these tests: `ran` the first tier (tests fresh
    /// runtime evidence saw run the subject), `all` every listed test.
    #[arg(long, value_enum, conflicts_with = "json")]
    pub tests: Option<crate::tests_to_run::TestsToRun>,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct LookupArgs {
    /// A name or part of a qualified name; without it, the census.
    pub query: Option<String>,
    /// Only symbols in files under this folder (from the current folder or the repository
    /// root).
    #[arg(long)]
    pub folder: Option<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct OwnershipArgs {
    /// The symbol (qualified name, unique suffix, `path:line[:column]` or id); or use --path.
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
    #[arg(long, default_value_t = 3, value_parser = depth_range())]
    pub depth: u32,
    /// List at most this many tests (1 to 10,000; `tests_total` counts them all).
    #[arg(long, value_parser = range_of::<u64>(Method::Changes, "tests_limit"))]
    pub tests_limit: Option<u64>,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct ContextArgs {
    /// The symbol (qualified name, unique suffix, `path:line[:column]` or id); or use --path.
    pub symbol: Option<String>,
    /// A file instead of a symbol (from the current folder or the repository root).
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
    /// Only entries tethered to this file (from the current folder or the repository root).
    #[arg(long, conflicts_with = "symbol")]
    pub path: Option<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct RecordArgs {
    /// plan, checkpoint, experiment, decision, todo, note or annotation.
    #[arg(long = "type")]
    pub entry_type: String,
    /// The entry's title, one line.
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
    /// Commit these changed files (from the current folder or the repository root) and pin
    /// the entry to that commit.
    #[arg(long, num_args = 1.., conflicts_with = "commit")]
    pub files: Vec<String>,
    /// Pin an existing commit.
    #[arg(long)]
    pub commit: Option<String>,
    /// Tags to find the entry by (search-memory ranks them above the body).
    #[arg(long, num_args = 1..)]
    pub tags: Vec<String>,
    /// Ids of the entries this one replaces (they are marked superseded).
    #[arg(long, num_args = 1..)]
    pub supersedes: Vec<String>,
    /// Ids of the entries this one relies on (a superseded one makes it need a recheck).
    #[arg(long = "depends-on", num_args = 1..)]
    pub depends_on: Vec<String>,
    /// Check the entry and print what would be committed, and on which branch, writing
    /// nothing.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub options: QueryOptions,
}

/// A symbol, or a file given with `flag`: exactly one.
fn symbol_or_path(
    symbol: &Option<String>,
    path: &Option<String>,
    flag: &str,
) -> anyhow::Result<Subject> {
    match (symbol, path) {
        (Some(symbol), None) => Ok(Subject::Symbol(address_from_current_folder(symbol))),
        (None, Some(path)) => Ok(Subject::Path(path_from_current_folder(path))),
        _ => Err(usage(format!("name a symbol, or a file with {flag}"))),
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
            .map_err(|error| usage(format!("cannot read {}: {error}", path.display())))?,
        (None, None) => String::new(),
    };
    let request = Request::Record(RecordParams {
        entry_type: Some(args.entry_type.clone()),
        title: Some(args.title.clone()),
        body,
        files: args.files.iter().map(|file| path_from_current_folder(file)).collect(),
        commit: args.commit.clone(),
        tags: args.tags.clone(),
        parent: args.parent.clone(),
        id: None,
        supersedes: args.supersedes.clone(),
        depends_on: args.depends_on.clone(),
        related: Vec::new(),
        dry_run: args.dry_run,
    });
    run_query(request, &args.options)
}

pub fn run_ownership(args: OwnershipArgs) -> anyhow::Result<()> {
    let subject = symbol_or_path(&args.symbol, &args.path, "--path")?;
    // A flag given wins; else the configuration's `ownership.*`; else on.
    let configured = crate::configured_defaults::configuration();
    let blame = tether_protocol::BlameParams {
        follow_moves: !args.plain_blame && configured.follow_moves.value.unwrap_or(true),
        ignore_revs_file: !args.no_ignore_revs && configured.ignore_revs_file.value.unwrap_or(true),
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
            tests_limit: Some(crate::configured_defaults::tests_limit(args.tests_limit) as usize),
            page: args.options.page()?,
        },
    });
    run_query(request, &args.options)
}

pub fn run_neighbours(method: Method, args: SymbolQueryArgs) -> anyhow::Result<()> {
    let symbol = address_from_current_folder(&args.symbol);
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
        tests_limit: Some(crate::configured_defaults::tests_limit(args.tests_limit) as usize),
        page: args.options.page()?,
    };
    let request = Request::Blast { subject, walk };
    let Some(which) = args.tests else { return run_query(request, &args.options) };
    let answer = crate::query_answers::ask(&request, &args.options)?
        .map_err(|error| crate::query_answers::rpc_failure(&error, args.options.no_daemon))?;
    let tether_protocol::wire::Answer::Blast(blast) = answer else {
        anyhow::bail!("the daemon answered a blast with another answer");
    };
    let root = args.options.repository().root();
    match crate::tests_to_run::runner_command_lines(&blast, which, &root) {
        Ok(lines) => crate::stdout_text::print_text(&format!("{}\n", lines.join("\n"))),
        Err(why) => Err(CliFailure::NothingMatched(Some(why)).into()),
    }
}

pub fn run_lookup(args: LookupArgs) -> anyhow::Result<()> {
    let request = Request::Lookup {
        query: args.query.clone(),
        folder: args
            .folder
            .as_deref()
            .map(|folder| folder_from_current_folder(folder, &args.options.repository().root())),
        page: args.options.page()?,
    };
    run_query(request, &args.options)
}

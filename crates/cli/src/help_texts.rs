//! The words of `tether --help` meant for people: what tether does, its main commands, and
//! an `Examples:` section per command. Kept apart from the argument definitions so that both
//! stay readable.

/// `tether -h`.
pub const ABOUT: &str =
    "A code graph of one git repository (Python and Rust): what breaks if I change this?";

/// `tether --help`.
pub const LONG_ABOUT: &str = "\
tether builds a code graph of one git repository (Python and Rust: modules, classes, functions,
methods, traits, impls… joined by calls, imports, inheritance and references) and answers the
question asked before changing code: what breaks if I change this? A daemon per repository
keeps the graph in an embedded database, follows git HEAD and saved files, and answers in
well under a millisecond; every answer says whether it is exact or a lower bound, and why.

Main commands:
  index        build the graph of a folder and print its census
  blast        what breaks if this symbol (or file) changes, with the tests affected
  callers      who calls this symbol; callees: what it calls; imports: a module's imports
  lookup       find symbols by name (alone: the census)
  changes      the blast radius of a diff (uncommitted changes, a branch, a range)
  ownership    who wrote this code, and whom to ask
  context      why this code exists: the memory entries tethered to it
  record       write a memory entry, commit it and pin it
  status       the daemon: whether it runs, what it serves, how fresh its graph is
  mcp, lsp     serve agents (MCP) and editors (LSP) over stdio

Queries start the repository's daemon when none runs. A symbol is named by its qualified name,
a unique suffix of one, `path:line` or its id; paths are taken from the current folder, else
from the repository root. Every command that works on a repository takes -C DIR.";

/// The top-level help's closing section: examples, then the exit codes.
pub fn top_level_after_help() -> String {
    format!(
        "Examples:
  tether index                          # index the current repository
  tether blast app.core.compute         # what breaks if compute changes
  tether callers core.py:12 --limit 5   # who calls the function at that line
  tether blast --help                   # one command's options and examples
  tether completions bash > ~/.local/share/bash-completion/completions/tether

{}",
        crate::exit_codes::EXIT_CODES_HELP
    )
}

pub const INDEX_EXAMPLES: &str = "\
Examples:
  tether index                    # the current folder
  tether index -C ~/src/flask     # another folder (the same as `tether index ~/src/flask`)
  tether index --report --json    # the census as JSON, with the unresolved names";

pub const CONFIG_EXAMPLES: &str = "\
Examples:
  tether config                   # every key, its value, and the file it came from
  tether config -C ~/src/flask    # another repository's

Files: .tether.toml at the repository's root, then $XDG_CONFIG_HOME/tether/config.toml
(else ~/.config/tether/config.toml); a flag given wins over both. Keys (docs/configuration.md):
  [index]      exclude = [\"vendor/\", \"*_pb2.py\"]   max_file_bytes = 2097152
  [answers]    limit = 20   tests_limit = 100   budget_tokens = 6000
  [ownership]  exclude_authors = [\"release-bot\"]   follow_moves = true   ignore_revs_file = true
  [lsp]        lenses = { class = false }";

pub const EXPORT_EXAMPLES: &str = "\
Examples:
  tether export -o graph.json
  tether export | head -c 2000    # a reader may stop early";

pub const CYPHER_EXAMPLES: &str = "\
Examples:
  tether cypher \"MATCH (s:Symbol) RETURN s.kind, count(*)\"
  tether cypher \"MATCH (f:Symbol {name: 'compute'})<-[:CALLS]-(c:Symbol) RETURN c.qualified_name\"";

pub const CYPHER_WORKER_EXAMPLES: &str = "\
Examples:
  echo 'MATCH (s:Symbol) RETURN count(*)' | tether cypher-worker --database .git/tether/graph.lbug --timeout-ms 20000 --max-rows 100000";

pub const BLAST_EXAMPLES: &str = "\
Examples:
  tether blast app.core.compute           # a qualified name
  tether blast compute --depth 5          # a unique suffix, walked five hops back
  tether blast app/core.py:12             # the symbol defined at that line
  tether blast --file app/core.py         # everything defined in a file
  tether blast compute --json | jq .tests_affected";

pub const CALLERS_EXAMPLES: &str = "\
Examples:
  tether callers app.core.compute
  tether callers compute --limit 5
  tether callers app.core.compute --cursor o:20   # the next page";

pub const CALLEES_EXAMPLES: &str = "\
Examples:
  tether callees app.api.handle
  tether callees src/lib.rs:40";

pub const IMPORTS_EXAMPLES: &str = "\
Examples:
  tether imports app.core
  tether imports my_crate::config --json";

pub const LOOKUP_EXAMPLES: &str = "\
Examples:
  tether lookup compute                # symbols whose names match
  tether lookup parse --folder app     # only under app/
  tether lookup                        # the census: files, symbols and edges by kind";

pub const HEALTH_EXAMPLES: &str = "\
Examples:
  tether health                        # the worst five of each section
  tether health --kind cycles          # every import and call cycle, paged
  tether health --kind dead_code --why # unused code; why each possibly_dead may be used
  tether health --kind churn --commits 2000  # complex files that change the most
  tether health --kind coupling --folder src/app --limit 10";

pub const OWNERSHIP_EXAMPLES: &str = "\
Examples:
  tether ownership app.core.compute
  tether ownership --path app/core.py --exclude-author ci@example.com";

pub const CHANGES_EXAMPLES: &str = "\
Examples:
  tether changes                  # staged and unstaged changes against HEAD
  tether changes --staged         # what the next commit changes
  tether changes --base main      # what this branch changes
  tether changes --range v1.0..v1.1";

pub const CONTEXT_EXAMPLES: &str = "\
Examples:
  tether context app.core.compute
  tether context --path app/core.py";

pub const SEARCH_MEMORY_EXAMPLES: &str = "\
Examples:
  tether search-memory commas
  tether search-memory retry --type decision --status active";

pub const RECORD_EXAMPLES: &str = "\
Examples:
  tether record --type decision --title \"Split on commas\" --body \"Because…\" --files app/core.py
  tether record --type note --title \"Why the retry\" --body-file note.md --commit 1a2b3c4";

pub const RECORD_TRACE_EXAMPLES: &str = "\
Examples:
  tether record-trace --subject 'tests/test_io.py::test_read@linux' --situation 'test_read fails on CI' \\
      --rationale 'the fixture path is relative' --action 'made it absolute' --outcome 'green locally' \\
      --artifact tests/test_io.py --evidence 'pytest -k test_read: 1 passed'
  tether record-trace --json-file traces.json   # a batch (with evidence_refs), one commit";

pub const RECALL_EXAMPLES: &str = "\
Examples:
  tether recall 'test_read fixture'
  tether recall --anchor tests/test_io.py --max-depth 3
  tether recall --anchor 'tests/test_io.py::test_read@linux' --json";

pub const TREE_EXAMPLES: &str = "\
Examples:
  tether tree
  tether tree --plans-only
  tether tree --include-discarded --limit 200";

pub const OPEN_PHASES_EXAMPLES: &str = "\
Examples:
  tether open-phases";

pub const BRIEF_EXAMPLES: &str = "\
Examples:
  tether brief my-project
  tether brief parser-rewrite --json";

pub const COVERAGE_EXAMPLES: &str = "\
Examples:
  tether coverage import coverage.json
  tether coverage run --python .venv/bin/python -- .venv/bin/pytest --cov=src --cov-context=test
  tether coverage cargo -p my_crate";

pub const COVERAGE_IMPORT_EXAMPLES: &str = "\
Examples:
  pytest --cov=src --cov-context=test && coverage json --show-contexts -o coverage.json
  tether coverage import coverage.json
  tether coverage import rust-tests.lcov   # LCOV with a TN: test name per section";

pub const COVERAGE_RUN_EXAMPLES: &str = "\
Examples:
  tether coverage run -- pytest --cov=src --cov-context=test
  tether coverage run --python .venv/bin/python -- .venv/bin/pytest --cov=src --cov-context=test
  # re-record some tests only (node ids, as `blast --tests all` prints them), keeping the others':
  tether coverage run --only tests/test_core.py::test_parse -- pytest --cov=src --cov-context=test";

pub const COVERAGE_CARGO_EXAMPLES: &str = "\
Examples:
  tether coverage cargo -p my_crate
  tether coverage cargo --jobs 2 --test-timeout 60 -- --features extra
  tether coverage cargo -p my_crate --only parser::tests::parses_empty   # merged into the kept evidence";

pub const MCP_EXAMPLES: &str = "\
Examples:
  tether mcp                      # an agent's MCP server for the current repository
  tether mcp -C ~/src/flask";

pub const LSP_EXAMPLES: &str = "\
Examples:
  tether lsp                      # configure your editor to run this as its language server";

pub const SERVE_EXAMPLES: &str = "\
Examples:
  tether serve                    # the daemon in the foreground, until Ctrl-C
  tether serve -C ~/src/flask";

pub const START_EXAMPLES: &str = "\
Examples:
  tether start
  tether start -C ~/src/flask";

pub const STOP_EXAMPLES: &str = "\
Examples:
  tether stop
  tether stop -C ~/src/flask";

pub const STATUS_EXAMPLES: &str = "\
Examples:
  tether status                   # exit code 3 when no daemon runs
  tether status --json | jq .freshness";

pub const COMPLETIONS_EXAMPLES: &str = "\
Examples:
  tether completions bash > ~/.local/share/bash-completion/completions/tether
  tether completions zsh > ~/.zfunc/_tether
  tether completions fish > ~/.config/fish/completions/tether.fish";

pub const MAN_EXAMPLES: &str = "\
Examples:
  tether man | man -l -
  tether man blast > tether-blast.1";

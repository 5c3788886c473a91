//! The configuration files' values for this command line (`tether_config`): read once,
//! before a command that opens a repository runs (an unusable file, or a value outside the
//! bounds of the flag it stands for, is a usage error naming the file), and applied wherever
//! a flag was not given. `tether config` prints them with where each came from.
//!
//! It deliberately holds the configuration in one process-wide cell: a command line is one
//! command on one repository, and the values are defaults of its flags, read by the argument
//! structs that clap builds.

use std::sync::OnceLock;

use clap::Args;
use tether_config::{Configuration, Setting};
use tether_protocol::Method;

use crate::exit_codes::usage;
use crate::stdout_text::print_text;
use crate::RepositoryArgs;

static CONFIGURATION: OnceLock<Configuration> = OnceLock::new();

/// Reads the repository's configuration (and the user's) and checks its values; a second
/// call keeps the first's.
pub fn load(repository: &RepositoryArgs) -> anyhow::Result<&'static Configuration> {
    if let Some(configuration) = CONFIGURATION.get() {
        return Ok(configuration);
    }
    let configuration =
        Configuration::load(&repository.root()).map_err(|error| usage(error.to_string()))?;
    check_bounds(&configuration)?;
    Ok(CONFIGURATION.get_or_init(|| configuration))
}

/// The configuration read by [`load`] (the defaults when none was).
pub fn configuration() -> &'static Configuration {
    CONFIGURATION.get_or_init(Configuration::default)
}

/// `--limit`, else `answers.limit`.
pub fn limit(given: Option<u64>) -> Option<u64> {
    given.or(configuration().limit.value)
}

/// `--tests-limit`, else `answers.tests_limit`, else 100.
pub fn tests_limit(given: Option<u64>) -> u64 {
    given.or(configuration().tests_limit.value).unwrap_or(DEFAULT_TESTS_LIMIT)
}

/// `--tests-limit`'s default.
pub const DEFAULT_TESTS_LIMIT: u64 = 100;

/// A value the flags' own bounds refuse is refused here, with the file named.
fn check_bounds(configuration: &Configuration) -> anyhow::Result<()> {
    let outside =
        |key: &str, setting: &Setting<Option<u64>>, (minimum, maximum): (u64, u64)| match setting
            .value
        {
            Some(value) if !(minimum..=maximum).contains(&value) => Err(usage(format!(
                "{}: {key} = {value} is outside {minimum} to {maximum}",
                setting.deciding_file()
            ))),
            _ => Ok(()),
        };
    let bounds_of = |method: Method, name: &str| {
        let (minimum, maximum) = method
            .parameter(name)
            .and_then(|parameter| parameter.integer_bounds())
            .unwrap_or_else(|| panic!("{} takes no integer {name}", method.as_str()));
        (minimum.max(0) as u64, maximum.max(0) as u64)
    };
    outside("answers.limit", &configuration.limit, bounds_of(Method::Lookup, "limit"))?;
    outside(
        "answers.tests_limit",
        &configuration.tests_limit,
        bounds_of(Method::Blast, "tests_limit"),
    )?;
    outside(
        "answers.budget_tokens",
        &configuration.budget_tokens,
        (tether_mcp::MINIMUM_BUDGET_TOKENS, tether_mcp::MAXIMUM_BUDGET_TOKENS),
    )?;
    if let Some((kind, _)) = configuration
        .lenses
        .value
        .iter()
        .find(|(kind, _)| !tether_lsp::LENS_KINDS.contains(&kind.as_str()))
    {
        return Err(usage(format!(
            "{}: lsp.lenses: unknown kind {kind:?} (the kinds are {})",
            configuration.lenses.deciding_file(),
            tether_lsp::LENS_KINDS.join(", ")
        )));
    }
    Ok(())
}

#[derive(Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub repository: RepositoryArgs,
}

/// `tether config`: every key, its value and where it came from.
pub fn run_config(args: ConfigArgs) -> anyhow::Result<()> {
    let configuration = load(&args.repository)?;
    let mut text = String::new();
    let user = tether_config::user_configuration_file();
    let repository = args.repository.root().join(tether_config::REPOSITORY_CONFIGURATION_FILE);
    for (role, path) in [("user", user.as_deref()), ("repository", Some(repository.as_path()))] {
        let Some(path) = path else {
            text.push_str(&format!(
                "{role} file: none (neither XDG_CONFIG_HOME nor HOME is set)\n"
            ));
            continue;
        };
        let state = if configuration.files_read.iter().any(|read| read == path) {
            "read"
        } else {
            "not found"
        };
        text.push_str(&format!("{role} file: {} ({state})\n", path.display()));
    }
    let entries = configuration.entries();
    let width = entries.iter().map(|(key, _, _)| key.len()).max().unwrap_or(0);
    let value_width = entries.iter().map(|(_, value, _)| value.len()).max().unwrap_or(0);
    for (key, value, source) in entries {
        text.push_str(&format!("{key:<width$}  {value:<value_width$}  {source}\n"));
    }
    print_text(&text)
}

//! `tether completions SHELL` (clap_complete) and `tether man [COMMAND]` (clap_mangen): the
//! shell completion script and the roff manual page, both generated from the same argument
//! definitions as `--help` and printed to standard output.

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::exit_codes::usage;
use crate::stdout_text::print_text;

#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

#[derive(Args)]
pub struct ManArgs {
    /// One command's page (`tether man blast`); without it, the page of `tether` itself.
    pub command: Option<String>,
}

/// Prints the completion script for `args.shell`.
pub fn run_completions(args: CompletionsArgs) -> anyhow::Result<()> {
    let mut command = crate::Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "tether", &mut script);
    print_text(&String::from_utf8_lossy(&script))
}

/// Prints the manual page of `tether`, or of one of its commands.
pub fn run_man(args: ManArgs) -> anyhow::Result<()> {
    let mut command = crate::Cli::command();
    // Built, each command knows its full name (`tether blast`) for the synopsis.
    command.build();
    let page = match &args.command {
        None => clap_mangen::Man::new(command),
        Some(name) => {
            let Some(found) = command.find_subcommand(name) else {
                let names: Vec<&str> =
                    command.get_subcommands().map(|command| command.get_name()).collect();
                return Err(usage(format!(
                    "tether has no command {name:?}; one of: {}",
                    names.join(", ")
                )));
            };
            let found = found.clone().version(env!("CARGO_PKG_VERSION"));
            clap_mangen::Man::new(found).title(format!("tether-{name}"))
        }
    };
    let mut roff = Vec::new();
    page.render(&mut roff)?;
    print_text(&String::from_utf8_lossy(&roff))
}

//! `--color auto|always|never`: a little styling of text answers (bold headers, dim
//! freshness and hints), decided once per run. `auto` colours only when standard output is a
//! terminal and `NO_COLOR` is not set.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::ValueEnum;

/// When to colour the output.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum ColorWhen {
    /// Only on a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

static COLOR_ON: AtomicBool = AtomicBool::new(false);

/// Decides, once at start, whether this run colours its text.
pub fn choose_color(when: ColorWhen) {
    let on = match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    COLOR_ON.store(on, Ordering::Relaxed);
}

fn styled(code: &str, text: &str) -> String {
    if COLOR_ON.load(Ordering::Relaxed) {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// A header line.
pub fn bold(text: &str) -> String {
    styled("1", text)
}

/// Secondary lines: freshness, hints.
pub fn dim(text: &str) -> String {
    styled("2", text)
}

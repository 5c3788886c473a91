//! The configuration files: what a person sets repeatedly, written once. `.tether.toml` at the
//! repository's root and the user's `$XDG_CONFIG_HOME/tether/config.toml` (else
//! `~/.config/tether/config.toml`) are read strictly (an unknown key or a value of the wrong
//! type is an error naming the file, the line and the key) and merged: a flag on the command
//! line wins over the repository's file, which wins over the user's, which wins over the
//! default; lists (paths and authors to leave out) are joined. Each value keeps where it came
//! from, for `tether config`.
//!
//! The keys (docs/configuration.md):
//! - `index.exclude`: paths to leave out of the graph beyond `.gitignore` (gitignore syntax);
//!   `index.max_file_bytes`.
//! - `answers.limit`, `answers.tests_limit`: the CLI's `--limit` and `--tests-limit`;
//!   `answers.budget_tokens`: MCP's default `budget_tokens`.
//! - `ownership.exclude_authors` (left out as bots are), `ownership.follow_moves`,
//!   `ownership.ignore_revs_file`.
//! - `lsp.lenses`: lens kinds on or off (`{class = false}`), as the editor's
//!   `initializationOptions.lenses`, which win.
//!
//! It deliberately checks only the files' shape: whether a limit is within a method's bounds,
//! or a lens kind exists, is for the part that applies the value to say (with the file named).

mod exclusions;
mod files;

use std::path::{Path, PathBuf};

pub use exclusions::PathExclusions;
pub use files::{user_configuration_file, REPOSITORY_CONFIGURATION_FILE};

/// A configuration file could not be used: unreadable, not TOML, an unknown key, a bad value.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ConfigError {
    pub path: PathBuf,
    pub message: String,
}

/// Where a value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Default,
    File(PathBuf),
}

impl std::fmt::Display for Source {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Default => formatter.write_str("default"),
            Source::File(path) => write!(formatter, "{}", path.display()),
        }
    }
}

/// A value and the files it came from (none: the default).
#[derive(Clone, Debug, PartialEq)]
pub struct Setting<T> {
    pub value: T,
    pub sources: Vec<PathBuf>,
}

impl<T> Setting<T> {
    fn default_value(value: T) -> Setting<T> {
        Setting { value, sources: Vec::new() }
    }

    /// The file whose word is in force (the last that set it), as an error names it; empty
    /// for a default.
    pub fn deciding_file(&self) -> String {
        self.sources.last().map(|path| path.display().to_string()).unwrap_or_default()
    }

    /// Where the value came from, as `tether config` says it.
    pub fn source_text(&self) -> String {
        if self.sources.is_empty() {
            return Source::Default.to_string();
        }
        self.sources.iter().map(|path| path.display().to_string()).collect::<Vec<_>>().join(" + ")
    }
}

/// The effective configuration of one repository.
#[derive(Clone, Debug, PartialEq)]
pub struct Configuration {
    /// The files read, in the order they apply (the user's, then the repository's).
    pub files_read: Vec<PathBuf>,
    pub exclude: Setting<Vec<String>>,
    /// `None`: the index's own default.
    pub max_file_bytes: Setting<Option<u64>>,
    pub limit: Setting<Option<u64>>,
    pub tests_limit: Setting<Option<u64>>,
    pub budget_tokens: Setting<Option<u64>>,
    pub exclude_authors: Setting<Vec<String>>,
    pub follow_moves: Setting<Option<bool>>,
    pub ignore_revs_file: Setting<Option<bool>>,
    /// Lens kinds set on or off, by kind.
    pub lenses: Setting<Vec<(String, bool)>>,
}

impl Default for Configuration {
    fn default() -> Configuration {
        Configuration {
            files_read: Vec::new(),
            exclude: Setting::default_value(Vec::new()),
            max_file_bytes: Setting::default_value(None),
            limit: Setting::default_value(None),
            tests_limit: Setting::default_value(None),
            budget_tokens: Setting::default_value(None),
            exclude_authors: Setting::default_value(Vec::new()),
            follow_moves: Setting::default_value(None),
            ignore_revs_file: Setting::default_value(None),
            lenses: Setting::default_value(Vec::new()),
        }
    }
}

impl Configuration {
    /// The configuration of the repository at `root`: the user's file, then `.tether.toml`.
    pub fn load(root: &Path) -> Result<Configuration, ConfigError> {
        let user = files::user_configuration_file();
        Configuration::load_files(user.as_deref(), &root.join(REPOSITORY_CONFIGURATION_FILE))
    }

    /// As [`Configuration::load`], with the user's file named (`None`: there is none).
    pub fn load_files(
        user: Option<&Path>,
        repository: &Path,
    ) -> Result<Configuration, ConfigError> {
        let mut configuration = Configuration::default();
        for path in user.into_iter().chain([repository]) {
            if let Some(written) = files::read_written(path)? {
                configuration.apply(path, written);
            }
        }
        // Checked now, so that every reader can rely on the patterns.
        configuration.path_exclusions(Path::new("."))?;
        Ok(configuration)
    }

    /// The matcher of `index.exclude` for the repository at `root`.
    pub fn path_exclusions(&self, root: &Path) -> Result<PathExclusions, ConfigError> {
        PathExclusions::new(root, &self.exclude.value).map_err(|message| ConfigError {
            path: self.exclude.sources.last().cloned().unwrap_or_default(),
            message,
        })
    }

    fn apply(&mut self, path: &Path, written: files::WrittenConfiguration) {
        self.files_read.push(path.to_path_buf());
        fn set<T>(setting: &mut Setting<Option<T>>, value: Option<T>, path: &Path) {
            if let Some(value) = value {
                *setting = Setting { value: Some(value), sources: vec![path.to_path_buf()] };
            }
        }
        fn join<T>(setting: &mut Setting<Vec<T>>, values: Option<Vec<T>>, path: &Path) {
            if let Some(values) = values {
                setting.value.extend(values);
                setting.sources.push(path.to_path_buf());
            }
        }
        let index = written.index.unwrap_or_default();
        join(&mut self.exclude, index.exclude, path);
        set(&mut self.max_file_bytes, index.max_file_bytes, path);
        let answers = written.answers.unwrap_or_default();
        set(&mut self.limit, answers.limit, path);
        set(&mut self.tests_limit, answers.tests_limit, path);
        set(&mut self.budget_tokens, answers.budget_tokens, path);
        let ownership = written.ownership.unwrap_or_default();
        join(&mut self.exclude_authors, ownership.exclude_authors, path);
        set(&mut self.follow_moves, ownership.follow_moves, path);
        set(&mut self.ignore_revs_file, ownership.ignore_revs_file, path);
        if let Some(lenses) = written.lsp.unwrap_or_default().lenses {
            // The repository's word on a kind replaces the user's.
            for (kind, shown) in lenses {
                self.lenses.value.retain(|(each, _)| *each != kind);
                self.lenses.value.push((kind, shown));
            }
            self.lenses.sources.push(path.to_path_buf());
        }
    }

    /// Every key with its value and where it came from, in the documented order.
    pub fn entries(&self) -> Vec<(&'static str, String, String)> {
        fn shown<T: std::fmt::Display>(value: &Option<T>) -> String {
            value.as_ref().map_or_else(|| "(built-in default)".to_string(), ToString::to_string)
        }
        fn listed(values: &[String]) -> String {
            format!(
                "[{}]",
                values.iter().map(|value| format!("{value:?}")).collect::<Vec<_>>().join(", ")
            )
        }
        let lenses = self
            .lenses
            .value
            .iter()
            .map(|(kind, shown)| format!("{kind} = {shown}"))
            .collect::<Vec<_>>()
            .join(", ");
        vec![
            ("index.exclude", listed(&self.exclude.value), self.exclude.source_text()),
            (
                "index.max_file_bytes",
                shown(&self.max_file_bytes.value),
                self.max_file_bytes.source_text(),
            ),
            ("answers.limit", shown(&self.limit.value), self.limit.source_text()),
            ("answers.tests_limit", shown(&self.tests_limit.value), self.tests_limit.source_text()),
            (
                "answers.budget_tokens",
                shown(&self.budget_tokens.value),
                self.budget_tokens.source_text(),
            ),
            (
                "ownership.exclude_authors",
                listed(&self.exclude_authors.value),
                self.exclude_authors.source_text(),
            ),
            (
                "ownership.follow_moves",
                shown(&self.follow_moves.value),
                self.follow_moves.source_text(),
            ),
            (
                "ownership.ignore_revs_file",
                shown(&self.ignore_revs_file.value),
                self.ignore_revs_file.source_text(),
            ),
            ("lsp.lenses", format!("{{{lenses}}}"), self.lenses.source_text()),
        ]
    }
}

#[cfg(test)]
mod tests;

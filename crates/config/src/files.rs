//! Finding and reading the configuration files: regular files of at most 256 KiB (a FIFO,
//! a device or a folder named like one is refused, never opened for reading), parsed as
//! TOML into the written shape with every unknown key refused.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::ConfigError;

/// The repository's file, at its root.
pub const REPOSITORY_CONFIGURATION_FILE: &str = ".tether.toml";

/// Larger files are refused (a configuration is a few lines).
const MAX_CONFIGURATION_BYTES: u64 = 256 * 1024;

/// `$XDG_CONFIG_HOME/tether/config.toml`, else `$HOME/.config/tether/config.toml`; `None`
/// when neither variable names an absolute folder.
pub fn user_configuration_file() -> Option<PathBuf> {
    let absolute = |name: &str| {
        std::env::var_os(name).map(PathBuf::from).filter(|folder| folder.is_absolute())
    };
    let folder = absolute("XDG_CONFIG_HOME")
        .or_else(|| absolute("HOME").map(|home| home.join(".config")))?;
    Some(folder.join("tether").join("config.toml"))
}

/// The file's settings; `None` when there is no file at `path`.
pub(crate) fn read_written(path: &Path) -> Result<Option<WrittenConfiguration>, ConfigError> {
    let refuse = |message: String| ConfigError { path: path.to_path_buf(), message };
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(refuse(format!("cannot read it: {error}"))),
    };
    if !metadata.is_file() {
        return Err(refuse("not a regular file (a folder, FIFO or device); not read".to_string()));
    }
    if metadata.len() > MAX_CONFIGURATION_BYTES {
        return Err(refuse(format!(
            "{} bytes, over the {MAX_CONFIGURATION_BYTES} a configuration file may hold",
            metadata.len()
        )));
    }
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_CONFIGURATION_BYTES + 1).read_to_string(&mut text))
        .map_err(|error| refuse(format!("cannot read it as UTF-8 text: {error}")))?;
    if text.len() as u64 > MAX_CONFIGURATION_BYTES {
        return Err(refuse(format!(
            "over the {MAX_CONFIGURATION_BYTES} bytes a configuration file may hold"
        )));
    }
    toml::from_str(&text).map(Some).map_err(|error| refuse(one_line(&error.to_string())))
}

/// TOML's message (which quotes the line under a caret) on one line: `line 3, column 1:
/// unknown field ...`.
fn one_line(message: &str) -> String {
    let lines: Vec<&str> = message.lines().map(str::trim).filter(|line| !line.is_empty()).collect();
    let place =
        lines.first().copied().unwrap_or_default().trim_start_matches("TOML parse error at ");
    let place = place.to_string();
    let reason = lines.last().copied().unwrap_or_default();
    if reason == place || reason.is_empty() {
        return place;
    }
    format!("{place}: {reason}")
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct WrittenConfiguration {
    pub index: Option<WrittenIndex>,
    pub answers: Option<WrittenAnswers>,
    pub ownership: Option<WrittenOwnership>,
    pub lsp: Option<WrittenLsp>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct WrittenIndex {
    pub exclude: Option<Vec<String>>,
    pub max_file_bytes: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct WrittenAnswers {
    pub limit: Option<u64>,
    pub tests_limit: Option<u64>,
    pub budget_tokens: Option<u64>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct WrittenOwnership {
    pub exclude_authors: Option<Vec<String>>,
    pub follow_moves: Option<bool>,
    pub ignore_revs_file: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct WrittenLsp {
    pub lenses: Option<BTreeMap<String, bool>>,
}

//! What `tether coverage run` adds to the suite's environment so that code a test runs in
//! another process is attributed to that test: a pytest plugin naming the running test in the
//! environment, and a `sitecustomize` starting coverage.py in any Python process started
//! meanwhile under that test's context (both written in Python, in the crate's
//! `coverage_hooks/` folder). Threads need nothing: coverage.py follows them, in the context of
//! the test that started them.
//!
//! The hooks live in a temporary folder for the run; the project's files and configuration are
//! never edited. It deliberately does not follow `multiprocessing` children started by `fork`
//! (the default start method on Linux before Python 3.14): they run no start-up hook; children
//! started by `spawn` or `forkserver` are followed.

use std::ffi::OsString;
use std::path::Path;

use anyhow::Context;

const PYTEST_PLUGIN: &str = include_str!("../coverage_hooks/tether_test_context.py");
const SITECUSTOMIZE: &str = include_str!("../coverage_hooks/sitecustomize.py");

/// The configuration files coverage.py reads, in its order, from the repository's root.
const COVERAGE_CONFIG_FILES: [&str; 4] = [".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml"];

/// The hooks written for one run; the folder goes when this is dropped.
pub struct ChildProcessHooks {
    folder: tempfile::TempDir,
    root: std::path::PathBuf,
}

impl ChildProcessHooks {
    pub fn write(root: &Path) -> anyhow::Result<ChildProcessHooks> {
        let folder = tempfile::Builder::new()
            .prefix("tether-coverage-hooks-")
            .tempdir()
            .context("cannot make a folder for the coverage hooks")?;
        for (name, text) in
            [("tether_test_context.py", PYTEST_PLUGIN), ("sitecustomize.py", SITECUSTOMIZE)]
        {
            std::fs::write(folder.path().join(name), text)
                .with_context(|| format!("cannot write {name} for the coverage run"))?;
        }
        Ok(ChildProcessHooks { folder, root: root.to_path_buf() })
    }

    /// The variables the test command runs with: the hooks' folder first on `PYTHONPATH`, the
    /// plugin added to `PYTEST_PLUGINS`, where child processes write their data (beside the
    /// suite's default `.coverage`) and which configuration they read.
    pub fn environment(&self) -> Vec<(&'static str, OsString)> {
        let mut python_path = OsString::from(self.folder.path());
        if let Some(before) = std::env::var_os("PYTHONPATH").filter(|before| !before.is_empty()) {
            python_path.push(":");
            python_path.push(before);
        }
        let plugins = match std::env::var("PYTEST_PLUGINS") {
            Ok(before) if !before.trim().is_empty() => format!("{before},tether_test_context"),
            _ => "tether_test_context".to_string(),
        };
        let mut environment = vec![
            ("PYTHONPATH", python_path),
            ("PYTEST_PLUGINS", OsString::from(plugins)),
            ("TETHER_COVERAGE_DATA_FILE", self.root.join(".coverage").into_os_string()),
        ];
        if let Some(config) = COVERAGE_CONFIG_FILES
            .iter()
            .map(|name| self.root.join(name))
            .find(|path| path.is_file())
        {
            environment.push(("TETHER_COVERAGE_CONFIG", config.into_os_string()));
        }
        environment
    }
}

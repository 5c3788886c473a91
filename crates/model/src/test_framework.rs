//! A Python test framework's conventions as data (`queries/python/test_framework.txt`,
//! pytest's): which files, classes and functions are tests, and how fixtures are declared,
//! renamed, applied and found. Extraction, resolution and queries ask this model instead of
//! naming pytest in code. The shipped file is parsed once; unknown keys are rejected.
//!
//! Cargo's places for test code are the same kind of data (`queries/rust/test_framework.txt`:
//! only its file keys apply).
//!
//! Not modelled: `pytest.ini`/`pyproject.toml` settings (`python_files`, `testpaths`), which
//! would make the model per project.

use std::sync::OnceLock;

const SHIPPED_PYTHON_TEST_FRAMEWORK: &str =
    include_str!("../../../queries/python/test_framework.txt");
const SHIPPED_RUST_TEST_FRAMEWORK: &str = include_str!("../../../queries/rust/test_framework.txt");

/// A file name pattern with at most one `*` (`test_*.py`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileNamePattern {
    before_star: String,
    after_star: Option<String>,
}

impl FileNamePattern {
    fn parse(text: &str) -> Result<FileNamePattern, String> {
        match text.split_once('*') {
            None => Ok(FileNamePattern { before_star: text.to_string(), after_star: None }),
            Some((_, after)) if after.contains('*') => {
                Err(format!("`{text}`: at most one `*` in a file pattern"))
            }
            Some((before, after)) => Ok(FileNamePattern {
                before_star: before.to_string(),
                after_star: Some(after.to_string()),
            }),
        }
    }

    /// Whether a file name (no folder) matches.
    pub fn matches(&self, file_name: &str) -> bool {
        match &self.after_star {
            None => file_name == self.before_star,
            Some(after) => {
                file_name.len() >= self.before_star.len() + after.len()
                    && file_name.starts_with(&self.before_star)
                    && file_name.ends_with(after.as_str())
            }
        }
    }
}

/// The conventions of one test framework; see the module doc and the data file's header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestFramework {
    pub test_files: Vec<FileNamePattern>,
    pub test_folders: Vec<String>,
    pub test_class_prefixes: Vec<String>,
    pub test_class_base_suffixes: Vec<String>,
    pub test_function_prefixes: Vec<String>,
    pub shared_fixture_files: Vec<String>,
    pub fixture_decorators: Vec<String>,
    pub fixture_name_keywords: Vec<String>,
    pub fixture_autouse_keywords: Vec<String>,
    pub fixture_request_decorators: Vec<String>,
    pub hook_function_prefixes: Vec<String>,
}

impl TestFramework {
    /// Parses a model file: `KEY VALUE` lines, `#` comments, blank lines.
    pub fn parse(text: &str) -> Result<TestFramework, String> {
        let mut model = TestFramework::default();
        for (number, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let key = words.next().unwrap_or_default();
            let (Some(value), None) = (words.next(), words.next()) else {
                return Err(format!("line {}: `{key}` takes exactly one value", number + 1));
            };
            let list = match key {
                "test_file" => {
                    let pattern = FileNamePattern::parse(value)
                        .map_err(|problem| format!("line {}: {problem}", number + 1))?;
                    model.test_files.push(pattern);
                    continue;
                }
                "test_folder" => &mut model.test_folders,
                "test_class_prefix" => &mut model.test_class_prefixes,
                "test_class_base_suffix" => &mut model.test_class_base_suffixes,
                "test_function_prefix" => &mut model.test_function_prefixes,
                "shared_fixture_file" => &mut model.shared_fixture_files,
                "fixture_decorator" => &mut model.fixture_decorators,
                "fixture_name_keyword" => &mut model.fixture_name_keywords,
                "fixture_autouse_keyword" => &mut model.fixture_autouse_keywords,
                "fixture_request_decorator" => &mut model.fixture_request_decorators,
                "hook_function_prefix" => &mut model.hook_function_prefixes,
                _ => return Err(format!("line {}: unknown key `{key}`", number + 1)),
            };
            list.push(value.to_string());
        }
        Ok(model)
    }

    /// The shipped Python model (pytest's conventions).
    pub fn python() -> &'static TestFramework {
        static SHIPPED: OnceLock<TestFramework> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            // The shipped file is checked by a test; a broken one must not pass silently.
            TestFramework::parse(SHIPPED_PYTHON_TEST_FRAMEWORK)
                .expect("queries/python/test_framework.txt parses")
        })
    }

    /// The shipped model of a language's test framework.
    pub fn of(language: crate::Language) -> &'static TestFramework {
        match language {
            crate::Language::Python => TestFramework::python(),
            crate::Language::Rust => TestFramework::rust(),
        }
    }

    /// The shipped Rust model (Cargo's places for tests: file keys only).
    pub fn rust() -> &'static TestFramework {
        static SHIPPED: OnceLock<TestFramework> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            TestFramework::parse(SHIPPED_RUST_TEST_FRAMEWORK)
                .expect("queries/rust/test_framework.txt parses")
        })
    }

    /// Whether the file at `path` (relative, `/`-separated) is a module whose functions the
    /// framework feeds fixtures: a test file or a shared fixture file.
    pub fn is_fixture_module(&self, path: &str) -> bool {
        let file_name = file_name(path);
        self.test_files.iter().any(|pattern| pattern.matches(file_name))
            || self.shared_fixture_files.iter().any(|shared| shared == file_name)
    }

    /// Whether a module-level function `name` of the file at `path` is a hook the framework
    /// calls by its name (`pytest_collection_modifyitems` in a `conftest.py`).
    pub fn is_hook_function(&self, path: &str, name: &str) -> bool {
        self.is_fixture_module(path)
            && self.hook_function_prefixes.iter().any(|prefix| name.starts_with(prefix.as_str()))
    }

    /// Whether the file at `path` holds test code: a fixture module, or any file under a
    /// test folder.
    pub fn is_test_file(&self, path: &str) -> bool {
        self.is_fixture_module(path)
            || path
                .split('/')
                .rev()
                .skip(1)
                .any(|folder| self.test_folders.iter().any(|f| f == folder))
    }

    /// The folder a shared fixture file serves (`""` for the root), when `path` is one.
    pub fn shared_fixture_folder<'p>(&self, path: &'p str) -> Option<&'p str> {
        let name = file_name(path);
        if !self.shared_fixture_files.iter().any(|shared| shared == name) {
            return None;
        }
        Some(path.strip_suffix(name).unwrap_or("").trim_end_matches('/'))
    }

    /// Whether a class so named (in a test file) holds tests.
    pub fn is_test_class_name(&self, name: &str) -> bool {
        self.test_class_prefixes.iter().any(|prefix| name.starts_with(prefix.as_str()))
    }

    /// Whether a base class so named (its last segment) makes a class in test code hold tests
    /// whatever the class's own name (`class SampleTests(unittest.TestCase)`).
    pub fn is_test_class_base_name(&self, name: &str) -> bool {
        self.test_class_base_suffixes.iter().any(|suffix| name.ends_with(suffix.as_str()))
    }

    /// Whether a function or method so named (in test code) is a test the framework runs.
    pub fn is_test_function_name(&self, name: &str) -> bool {
        self.test_function_prefixes.iter().any(|prefix| name.starts_with(prefix.as_str()))
    }

    /// Whether a decorator's last segment makes a fixture.
    pub fn is_fixture_decorator(&self, name: &str) -> bool {
        self.fixture_decorators.iter().any(|decorator| decorator == name)
    }

    /// Whether a decorator's last segment requests fixtures by its string arguments.
    pub fn is_fixture_request_decorator(&self, name: &str) -> bool {
        self.fixture_request_decorators.iter().any(|decorator| decorator == name)
    }
}

/// The last segment of a `/`-separated path.
fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_rust_model_names_cargos_places_for_tests() {
        let rust = TestFramework::of(crate::Language::Rust);
        assert!(rust.is_test_file("tests/quick.rs"));
        assert!(rust.is_test_file("crates/app/tests/common/mod.rs"));
        assert!(rust.is_test_file("src/map/tests.rs"));
        assert!(!rust.is_test_file("src/map.rs"));
        assert!(!rust.is_test_file("src/tests_helpers.rs"));
        assert!(!rust.is_test_file("tests.rs.orig"));
    }

    #[test]
    fn the_shipped_model_names_pytests_conventions() {
        let pytest = TestFramework::python();
        assert!(pytest.is_fixture_module("tests/test_basic.py"));
        assert!(pytest.is_fixture_module("src/app_test.py"));
        assert!(pytest.is_fixture_module("tests/conftest.py"));
        assert!(!pytest.is_fixture_module("tests/helpers.py"));
        assert!(pytest.is_test_file("tests/helpers.py"));
        assert!(!pytest.is_test_file("src/testing.py"));
        assert_eq!(pytest.shared_fixture_folder("tests/unit/conftest.py"), Some("tests/unit"));
        assert_eq!(pytest.shared_fixture_folder("conftest.py"), Some(""));
        assert_eq!(pytest.shared_fixture_folder("tests/myconftest.py"), None);
        assert!(pytest.is_test_class_name("TestApp") && !pytest.is_test_class_name("AppTest"));
        assert!(pytest.is_fixture_decorator("fixture"));
        assert!(pytest.is_fixture_request_decorator("usefixtures"));
        assert_eq!(pytest.fixture_name_keywords, ["name"]);
        assert_eq!(pytest.fixture_autouse_keywords, ["autouse"]);
    }

    #[test]
    fn a_line_added_to_the_model_changes_what_it_recognises_and_unknown_keys_are_rejected() {
        let extended = format!("{SHIPPED_PYTHON_TEST_FRAMEWORK}\ntest_file check_*.py\n");
        let model = TestFramework::parse(&extended).expect("the extended model parses");
        assert!(model.is_fixture_module("tests/check_routes.py"));
        assert!(!TestFramework::python().is_fixture_module("tests/check_routes.py"));
        assert_eq!(
            TestFramework::parse("# pytest\ntest_module test_*.py\n"),
            Err("line 2: unknown key `test_module`".to_string())
        );
        assert_eq!(
            TestFramework::parse("test_file\n"),
            Err("line 1: `test_file` takes exactly one value".to_string())
        );
        assert_eq!(
            TestFramework::parse("test_file t*_*.py\n"),
            Err("line 1: `t*_*.py`: at most one `*` in a file pattern".to_string())
        );
    }
}

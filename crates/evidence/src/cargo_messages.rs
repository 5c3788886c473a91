//! Cargo's JSON messages (`cargo test --no-run --message-format=json`) read for the
//! executables a build wrote: the test harnesses to run and the binaries they may spawn. Only
//! the documented `compiler-artifact` fields are read; other messages are skipped.

use serde_json::Value;

/// One executable cargo built.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BuiltExecutable {
    /// Where it was written.
    pub executable: String,
    /// The target's crate root (`src/lib.rs`, `tests/cli.rs`), absolute.
    pub crate_root: String,
    /// The package's `Cargo.toml`, absolute: tests run in its folder, as `cargo test` runs them.
    pub manifest_path: String,
    /// Built with the test harness (a unit or integration test target), not a plain binary.
    pub is_test_harness: bool,
}

/// The executables of a build's message stream (one JSON object per line), in order.
pub fn built_executables(messages: &str) -> Vec<BuiltExecutable> {
    let mut built = Vec::new();
    for line in messages.lines() {
        let Ok(message) = serde_json::from_str::<Value>(line) else { continue };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let (Some(executable), Some(crate_root), Some(manifest_path)) = (
            message["executable"].as_str(),
            message["target"]["src_path"].as_str(),
            message["manifest_path"].as_str(),
        ) else {
            continue;
        };
        let is_test_harness = message["profile"]["test"].as_bool() == Some(true);
        built.push(BuiltExecutable {
            executable: executable.into(),
            crate_root: crate_root.into(),
            manifest_path: manifest_path.into(),
            is_test_harness,
        });
    }
    built
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_harnesses_and_binaries_are_read_and_other_messages_skipped() {
        let messages = concat!(
            r#"{"reason":"compiler-artifact","package_id":"a","manifest_path":"/r/Cargo.toml","target":{"kind":["lib"],"name":"a","src_path":"/r/src/lib.rs","test":true},"profile":{"test":true},"executable":"/r/target/debug/deps/a-1"}"#,
            "\n",
            r#"{"reason":"compiler-artifact","manifest_path":"/r/Cargo.toml","target":{"src_path":"/r/src/lib.rs"},"profile":{"test":false},"executable":null}"#,
            "\n",
            r#"{"reason":"compiler-artifact","manifest_path":"/r/Cargo.toml","target":{"src_path":"/r/src/main.rs"},"profile":{"test":false},"executable":"/r/target/debug/a"}"#,
            "\n",
            r#"{"reason":"build-finished","success":true}"#,
            "\nnot json\n"
        );
        let built = built_executables(messages);
        assert_eq!(
            built
                .iter()
                .map(|built| (built.executable.as_str(), built.is_test_harness))
                .collect::<Vec<_>>(),
            [("/r/target/debug/deps/a-1", true), ("/r/target/debug/a", false)]
        );
        assert_eq!(built[0].crate_root, "/r/src/lib.rs");
    }
}

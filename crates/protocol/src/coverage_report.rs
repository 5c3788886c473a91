//! Coverage reports read into runtime evidence: per file, the lines executed and the test
//! contexts that executed each. Two documented formats: coverage.py's JSON report (`coverage
//! json --show-contexts`) and LCOV tracefiles with one `TN:` test name per section (what
//! `tether coverage cargo` writes from `llvm-cov export -format=lcov`, one run per test).
//! The coverage tools do the recording; this only reads their reports.

use serde_json::Value;

/// One measured file of a report: its path as coverage wrote it (relative to where coverage
/// ran, or absolute), and each executed line with the contexts that executed it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CoveredFile {
    pub path: String,
    pub lines: Vec<(u32, Vec<String>)>,
}

/// The files of a coverage report, JSON (coverage.py) or LCOV told apart by their first
/// character; an error when it is neither, or carries no per-test contexts.
pub fn parse_coverage_report(text: &str) -> Result<Vec<CoveredFile>, String> {
    if text.trim_start().starts_with('{') || text.trim_start().starts_with('[') {
        parse_coverage_json(text)
    } else {
        parse_lcov_tracefile(text)
    }
}

/// A coverage.py JSON report; an error when it was written without contexts.
fn parse_coverage_json(text: &str) -> Result<Vec<CoveredFile>, String> {
    let report: Value = serde_json::from_str(text).map_err(|error| format!("not JSON: {error}"))?;
    let files = report
        .get("files")
        .and_then(Value::as_object)
        .ok_or("not a coverage.py JSON report: no \"files\" object")?;
    if report.pointer("/meta/show_contexts").and_then(Value::as_bool) != Some(true) {
        return Err("the report has no per-test contexts: record with `pytest --cov=PACKAGE --cov-context=test` (or `[run] dynamic_context = test_function`), then write it with `coverage json --show-contexts`".into());
    }
    let mut covered = Vec::new();
    for (path, file) in files {
        let Some(contexts) = file.get("contexts").and_then(Value::as_object) else { continue };
        let mut lines: Vec<(u32, Vec<String>)> = contexts
            .iter()
            .filter_map(|(line, names)| {
                let line = line.parse::<u32>().ok()?;
                let names: Vec<String> = names
                    .as_array()?
                    .iter()
                    .filter_map(Value::as_str)
                    .filter(|name| !name.is_empty())
                    .map(str::to_string)
                    .collect();
                (!names.is_empty()).then_some((line, names))
            })
            .collect();
        lines.sort();
        covered.push(CoveredFile { path: path.clone(), lines });
    }
    Ok(covered)
}

/// An LCOV tracefile: `TN:name` opens a test's sections, `SF:path` … `end_of_record` is one
/// file, `DA:line,count[,checksum]` a line's count; lines with a count of 0 did not run. A
/// tracefile whose sections have no test names cannot tell tests apart and is refused.
fn parse_lcov_tracefile(text: &str) -> Result<Vec<CoveredFile>, String> {
    let mut files: std::collections::BTreeMap<
        String,
        std::collections::BTreeMap<u32, Vec<String>>,
    > = std::collections::BTreeMap::new();
    let mut test_name = String::new();
    let mut current_file: Option<String> = None;
    let mut records = 0usize;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if let Some(name) = line.strip_prefix("TN:") {
            test_name = name.to_string();
        } else if let Some(path) = line.strip_prefix("SF:") {
            current_file = Some(path.to_string());
            records += 1;
        } else if line == "end_of_record" {
            current_file = None;
        } else if let Some(data) = line.strip_prefix("DA:") {
            let Some(path) = &current_file else {
                return Err(format!("line {}: DA outside an SF record", number + 1));
            };
            let mut fields = data.split(',');
            let (Some(Ok(line_number)), Some(Ok(count))) =
                (fields.next().map(str::parse::<u32>), fields.next().map(str::parse::<u64>))
            else {
                return Err(format!("line {}: not a DA:line,count record", number + 1));
            };
            if count == 0 {
                continue;
            }
            if test_name.is_empty() {
                return Err("the LCOV tracefile has no test names: each test's sections need a `TN:` line (`tether coverage cargo` writes one per test)".into());
            }
            let contexts = files.entry(path.clone()).or_default().entry(line_number).or_default();
            if contexts.last() != Some(&test_name) {
                contexts.push(test_name.clone());
            }
        } else if !line.is_empty()
            && !line.starts_with(|character: char| character.is_ascii_uppercase())
        {
            return Err(format!("line {}: not an LCOV record", number + 1));
        }
    }
    if records == 0 && !text.trim().is_empty() {
        return Err(
            "neither a coverage.py JSON report nor an LCOV tracefile (no SF: record)".into()
        );
    }
    let covered = files
        .into_iter()
        .map(|(path, lines)| {
            let lines = lines
                .into_iter()
                .map(|(line, mut contexts)| {
                    contexts.sort();
                    contexts.dedup();
                    (line, contexts)
                })
                .collect();
            CoveredFile { path, lines }
        })
        .collect();
    Ok(covered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_with_contexts_is_read_and_one_without_is_refused() {
        let report = r#"{"meta": {"version": "7.6.1", "show_contexts": true}, "files": {"src/app.py": {"executed_lines": [1, 3], "contexts": {"1": [""], "3": ["tests/test_app.py::test_run|run", ""]}}}}"#;
        assert_eq!(
            parse_coverage_report(report).unwrap(),
            vec![CoveredFile {
                path: "src/app.py".into(),
                lines: vec![(3, vec!["tests/test_app.py::test_run|run".into()])]
            }]
        );
        assert!(parse_coverage_report(r#"{"meta": {"show_contexts": false}, "files": {}}"#)
            .unwrap_err()
            .contains("--cov-context=test"));
        assert!(parse_coverage_report("[]").is_err());
    }

    #[test]
    fn an_lcov_tracefile_with_test_names_is_read_and_one_without_is_refused() {
        let tracefile = "TN:src/lib.rs::tests::one\nSF:/repo/src/lib.rs\nFN:3,f\nDA:3,1\nDA:4,0\nDA:5,2,abc\nend_of_record\nTN:src/lib.rs::tests::two\nSF:/repo/src/lib.rs\nDA:3,4\nLF:2\nLH:1\nend_of_record\n";
        let expected = vec![CoveredFile {
            path: "/repo/src/lib.rs".into(),
            lines: vec![
                (3, vec!["src/lib.rs::tests::one".into(), "src/lib.rs::tests::two".into()]),
                (5, vec!["src/lib.rs::tests::one".into()]),
            ],
        }];
        assert_eq!(parse_coverage_report(tracefile).unwrap(), expected);
        assert!(parse_coverage_report("SF:/repo/a.rs\nDA:1,1\nend_of_record\n")
            .unwrap_err()
            .contains("TN:"));
        assert!(parse_coverage_report("hello world").is_err());
        assert!(parse_coverage_report("SF:/repo/a.rs\nDA:x\nend_of_record\n")
            .unwrap_err()
            .contains("line 2"));
    }
}

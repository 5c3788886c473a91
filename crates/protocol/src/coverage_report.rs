//! coverage.py's JSON report (`coverage json --show-contexts`) read into runtime evidence:
//! per file, the lines executed and the test contexts that executed each. coverage.py does
//! the recording; this only reads its documented report format.

use serde_json::Value;

/// One measured file of a report: its path as coverage wrote it (relative to where coverage
/// ran, or absolute), and each executed line with the contexts that executed it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CoveredFile {
    pub path: String,
    pub lines: Vec<(u32, Vec<String>)>,
}

/// The files of a coverage.py JSON report; an error when it is not one, or was written
/// without contexts (which tell tests apart).
pub fn parse_coverage_report(text: &str) -> Result<Vec<CoveredFile>, String> {
    let report: Value = serde_json::from_str(text).map_err(|error| format!("not JSON: {error}"))?;
    let files = report.get("files").and_then(Value::as_object).ok_or("not a coverage.py JSON report: no \"files\" object")?;
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
                let names: Vec<String> = names.as_array()?.iter().filter_map(Value::as_str).filter(|name| !name.is_empty()).map(str::to_string).collect();
                (!names.is_empty()).then_some((line, names))
            })
            .collect();
        lines.sort();
        covered.push(CoveredFile { path: path.clone(), lines });
    }
    Ok(covered)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_with_contexts_is_read_and_one_without_is_refused() {
        let report = r#"{"meta": {"version": "7.6.1", "show_contexts": true}, "files": {"src/app.py": {"executed_lines": [1, 3], "contexts": {"1": [""], "3": ["tests/test_app.py::test_run|run", ""]}}}}"#;
        assert_eq!(parse_coverage_report(report).unwrap(), vec![CoveredFile { path: "src/app.py".into(), lines: vec![(3, vec!["tests/test_app.py::test_run|run".into()])] }]);
        assert!(parse_coverage_report(r#"{"meta": {"show_contexts": false}, "files": {}}"#).unwrap_err().contains("--cov-context=test"));
        assert!(parse_coverage_report("[]").is_err());
    }
}

//! Coverage reports read into runtime evidence: per file, the lines executed and the test
//! contexts that executed each. Two documented formats: coverage.py's JSON report (`coverage
//! json --show-contexts`) and LCOV tracefiles with one `TN:` test name per section (what
//! `tether coverage cargo` writes from `llvm-cov export -format=lcov`, one run per test).
//! The coverage tools do the recording; this only reads their reports.
//!
//! A report is streamed, never held whole: test names are interned once, and the number of
//! distinct tests, of (line, test) pairs and the length of an LCOV line are capped
//! ([`CoverageLimits`]), so memory stays bounded whatever the report holds. Past a cap the
//! report is refused with an error naming it; nothing is half-read.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, Read};

/// One measured file of a report: its path as coverage wrote it (relative to where coverage
/// ran, or absolute), and each executed line with the contexts (indices into
/// [`CoverageReport::contexts`]) that executed it, sorted and without repeats.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CoveredFile {
    pub path: String,
    pub lines: Vec<(u32, Vec<u32>)>,
}

/// The tests a report names, once each, and its files.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CoverageReport {
    /// Test contexts without pytest-cov's phase (`|run`, `|setup`, `|teardown`) and a
    /// pytest node id's parameters (`test_x[1]` and `test_x[2]` are one test of the graph).
    pub contexts: Vec<String>,
    pub files: Vec<CoveredFile>,
}

/// What a report may hold; past any of these it is refused.
#[derive(Clone, Copy, Debug)]
pub struct CoverageLimits {
    /// Distinct test contexts (after phases and parameters are folded).
    pub contexts: usize,
    /// Executed lines over all files.
    pub lines: usize,
    /// (line, test) pairs over all files.
    pub entries: usize,
    /// Bytes in one LCOV line (paths and test names included).
    pub lcov_line_bytes: usize,
}

impl Default for CoverageLimits {
    /// A suite of a quarter of a million tests, two million executed lines, 32 million
    /// (line, test) pairs, 64 KiB LCOV lines: at the caps the evidence takes about 300 MiB.
    fn default() -> Self {
        CoverageLimits {
            contexts: 250_000,
            lines: 2_000_000,
            entries: 32_000_000,
            lcov_line_bytes: 64 << 10,
        }
    }
}

/// The files of a coverage report read from `reader`, JSON (coverage.py) or LCOV told apart
/// by their first non-blank character; an error when it is neither, carries no per-test
/// contexts, or passes one of `limits`.
pub fn parse_coverage_report(
    reader: impl Read,
    limits: CoverageLimits,
) -> Result<CoverageReport, String> {
    let mut reader = std::io::BufReader::new(reader);
    let first = loop {
        let buffer = reader.fill_buf().map_err(|error| error.to_string())?;
        if buffer.is_empty() {
            break None;
        }
        let blanks = buffer.iter().take_while(|byte| byte.is_ascii_whitespace()).count();
        let first = buffer.get(blanks).copied();
        reader.consume(blanks);
        if first.is_some() {
            break first;
        }
    };
    match first {
        Some(b'{' | b'[') => crate::coverage_json::parse(reader, limits),
        _ => parse_lcov_tracefile(reader, limits),
    }
}

/// Test names interned once, with the caps counted as they arrive.
pub(crate) struct Interner {
    pub(crate) limits: CoverageLimits,
    /// The cap a report passed, once it has.
    pub(crate) refused: Option<String>,
    ids: HashMap<String, u32>,
    pub(crate) contexts: Vec<String>,
    lines: usize,
    entries: usize,
}

impl Interner {
    pub(crate) fn new(limits: CoverageLimits) -> Interner {
        Interner {
            limits,
            refused: None,
            ids: HashMap::new(),
            contexts: Vec::new(),
            lines: 0,
            entries: 0,
        }
    }

    /// The id of a context (folded), or `None` for an empty one; an error past the cap.
    pub(crate) fn intern(&mut self, context: &str) -> Result<Option<u32>, String> {
        let context = folded_context(context);
        if context.is_empty() {
            return Ok(None);
        }
        if let Some(id) = self.ids.get(context) {
            return Ok(Some(*id));
        }
        if self.contexts.len() >= self.limits.contexts {
            return Err(self.refuse(format!(
                "the report names more than {} distinct tests, the cap; record part of the suite",
                self.limits.contexts
            )));
        }
        let id = self.contexts.len() as u32;
        self.ids.insert(context.to_string(), id);
        self.contexts.push(context.to_string());
        Ok(Some(id))
    }

    /// Counts a line executed by `tests` tests; an error past a cap.
    pub(crate) fn count_line(&mut self, tests: usize) -> Result<(), String> {
        self.lines += 1;
        if self.lines > self.limits.lines {
            return Err(self.refuse(format!(
                "the report has more than {} executed lines, the cap; record part of the suite or fewer files",
                self.limits.lines
            )));
        }
        self.count_entries(tests)
    }

    /// Counts `added` (line, test) pairs; an error past the cap.
    pub(crate) fn count_entries(&mut self, added: usize) -> Result<(), String> {
        self.entries += added;
        if self.entries > self.limits.entries {
            return Err(self.refuse(format!(
                "the report holds more than {} (line, test) pairs, the cap; record part of the suite or fewer files",
                self.limits.entries
            )));
        }
        Ok(())
    }

    fn refuse(&mut self, why: String) -> String {
        self.refused = Some(why.clone());
        why
    }
}

/// The phases pytest-cov appends to a test's context.
const PHASES: [&str; 3] = ["|run", "|setup", "|teardown"];

/// A context as the graph tells tests apart: without its phase and, for a pytest node id
/// (`path::Class::test_x[param]`), without its parameters.
fn folded_context(context: &str) -> &str {
    let context = PHASES.iter().find_map(|phase| context.strip_suffix(phase)).unwrap_or(context);
    if context.contains(".rs::") {
        return context;
    }
    match context.find("::") {
        Some(names) => match context[names..].find('[') {
            Some(parameters) => &context[..names + parameters],
            None => context,
        },
        None => context,
    }
}

/// A line's contexts sorted, without repeats.
pub(crate) fn sorted_ids(mut ids: Vec<u32>) -> Vec<u32> {
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// An LCOV tracefile: `TN:name` opens a test's sections, `SF:path` … `end_of_record` is one
/// file, `DA:line,count[,checksum]` a line's count; lines with a count of 0 did not run. A
/// tracefile whose sections have no test names cannot tell tests apart and is refused.
fn parse_lcov_tracefile(
    mut reader: impl BufRead,
    limits: CoverageLimits,
) -> Result<CoverageReport, String> {
    let mut interner = Interner::new(limits);
    let mut files: BTreeMap<String, BTreeMap<u32, Vec<u32>>> = BTreeMap::new();
    let mut test: Option<u32> = None;
    let mut current_file: Option<String> = None;
    let mut records = 0usize;
    let mut blank = true;
    let mut buffer = Vec::new();
    for number in 1.. {
        buffer.clear();
        let read = (&mut reader)
            .take(limits.lcov_line_bytes as u64 + 1)
            .read_until(b'\n', &mut buffer)
            .map_err(|error| error.to_string())?;
        if read == 0 {
            break;
        }
        if buffer.len() > limits.lcov_line_bytes && buffer.last() != Some(&b'\n') {
            return Err(format!(
                "line {number} is longer than {} bytes, the cap",
                limits.lcov_line_bytes
            ));
        }
        let line = std::str::from_utf8(&buffer)
            .map_err(|_| format!("line {number} is not UTF-8 text"))?
            .trim_end();
        blank &= line.trim().is_empty();
        if let Some(name) = line.strip_prefix("TN:") {
            test = interner.intern(name)?;
        } else if let Some(path) = line.strip_prefix("SF:") {
            current_file = Some(path.to_string());
            records += 1;
        } else if line == "end_of_record" {
            current_file = None;
        } else if let Some(data) = line.strip_prefix("DA:") {
            let Some(path) = &current_file else {
                return Err(format!("line {number}: DA outside an SF record"));
            };
            let mut fields = data.split(',');
            let (Some(Ok(line_number)), Some(Ok(count))) =
                (fields.next().map(str::parse::<u32>), fields.next().map(str::parse::<u64>))
            else {
                return Err(format!("line {number}: not a DA:line,count record"));
            };
            if count == 0 {
                continue;
            }
            let Some(test) = test else {
                return Err("the LCOV tracefile has no test names: each test's sections need a `TN:` line (`tether coverage cargo` writes one per test)".into());
            };
            let lines = files.entry(path.clone()).or_default();
            let contexts = match lines.entry(line_number) {
                std::collections::btree_map::Entry::Occupied(seen) => seen.into_mut(),
                std::collections::btree_map::Entry::Vacant(new) => {
                    interner.count_line(0)?;
                    new.insert(Vec::new())
                }
            };
            if contexts.last() != Some(&test) {
                interner.count_entries(1)?;
                contexts.push(test);
            }
        } else if !line.is_empty()
            && !line.starts_with(|character: char| character.is_ascii_uppercase())
        {
            return Err(format!("line {number}: not an LCOV record"));
        }
    }
    if records == 0 && !blank {
        return Err(
            "neither a coverage.py JSON report nor an LCOV tracefile (no SF: record)".into()
        );
    }
    let files = files
        .into_iter()
        .map(|(path, lines)| CoveredFile {
            path,
            lines: lines.into_iter().map(|(line, ids)| (line, sorted_ids(ids))).collect(),
        })
        .collect();
    Ok(CoverageReport { contexts: interner.contexts, files })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(report: &str) -> Result<CoverageReport, String> {
        parse_coverage_report(report.as_bytes(), CoverageLimits::default())
    }

    fn small(contexts: usize, entries: usize) -> CoverageLimits {
        CoverageLimits { contexts, lines: 1000, entries, lcov_line_bytes: 64 }
    }

    #[test]
    fn a_report_with_contexts_is_read_and_one_without_is_refused() {
        let report = r#"{"meta": {"version": "7.6.1", "show_contexts": true}, "files": {"src/app.py": {"executed_lines": [1, 3], "summary": {"n": [1, {"deep": null}]}, "contexts": {"1": [""], "3": ["tests/test_app.py::test_run[a::b]|run", "", 7, "tests/test_app.py::test_run[2]|setup"], "x": ["t"]}}}}"#;
        assert_eq!(
            parse(report).unwrap(),
            CoverageReport {
                contexts: vec!["tests/test_app.py::test_run".into()],
                files: vec![CoveredFile { path: "src/app.py".into(), lines: vec![(3, vec![0])] }],
            }
        );
        assert!(parse(r#"{"meta": {"show_contexts": false}, "files": {}}"#)
            .unwrap_err()
            .contains("--cov-context=test"));
        assert!(parse(r#"{"meta": {"show_contexts": true}}"#).unwrap_err().contains("\"files\""));
        for broken in ["[]", "{", r#"{"files": []}"#, r#"{"meta": {"show_contexts": true}} x"#] {
            assert!(
                parse(broken).unwrap_err().contains("not a coverage.py JSON report"),
                "{broken}"
            );
        }
        assert_eq!(parse("  \n").unwrap(), CoverageReport::default());
    }

    #[test]
    fn an_lcov_tracefile_with_test_names_is_read_and_one_without_is_refused() {
        let tracefile = "TN:src/lib.rs::tests::one\nSF:/repo/src/lib.rs\nFN:3,f\nDA:3,1\nDA:4,0\nDA:5,2,abc\nend_of_record\nTN:src/lib.rs::tests::two\nSF:/repo/src/lib.rs\nDA:3,4\nLF:2\nLH:1\nend_of_record\n";
        let expected = CoverageReport {
            contexts: vec!["src/lib.rs::tests::one".into(), "src/lib.rs::tests::two".into()],
            files: vec![CoveredFile {
                path: "/repo/src/lib.rs".into(),
                lines: vec![(3, vec![0, 1]), (5, vec![0])],
            }],
        };
        assert_eq!(parse(tracefile).unwrap(), expected);
        assert!(parse("SF:/repo/a.rs\nDA:1,1\nend_of_record\n").unwrap_err().contains("TN:"));
        assert!(parse("hello world").is_err());
        assert!(parse("SF:/repo/a.rs\nDA:x\nend_of_record\n").unwrap_err().contains("line 2"));
        assert!(parse_coverage_report(&b"TN:t\nSF:\xff\n"[..], CoverageLimits::default())
            .unwrap_err()
            .contains("line 2 is not UTF-8"));
    }

    /// Past a cap a report is refused with the cap named, however it is written; an endless
    /// LCOV line is not read past its cap.
    #[test]
    fn reports_past_a_cap_are_refused_naming_it() {
        let json = |names: &str| {
            format!(
                r#"{{"meta": {{"show_contexts": true}}, "files": {{"a.py": {{"contexts": {{"1": [{names}], "2": [{names}]}}}}}}}}"#
            )
        };
        let three = r#""t::a", "t::b", "t::c""#;
        assert!(parse_coverage_report(json(three).as_bytes(), small(3, 6)).is_ok());
        let error = parse_coverage_report(json(three).as_bytes(), small(2, 100)).unwrap_err();
        assert!(error.contains("more than 2 distinct tests, the cap"), "{error}");
        let error = parse_coverage_report(json(three).as_bytes(), small(3, 5)).unwrap_err();
        assert!(error.contains("more than 5 (line, test) pairs, the cap"), "{error}");
        let lines = CoverageLimits { lines: 1, ..small(3, 100) };
        let error = parse_coverage_report(json(three).as_bytes(), lines).unwrap_err();
        assert!(error.contains("more than 1 executed lines, the cap"), "{error}");
        let repeated = vec![r#""t::a""#; 1000].join(", ");
        let read = parse_coverage_report(json(&repeated).as_bytes(), small(1, 2)).unwrap();
        assert_eq!(read.files[0].lines, vec![(1, vec![0]), (2, vec![0])]);

        let lcov = "TN:t::a\nSF:a.rs\nDA:1,1\nDA:2,1\nend_of_record\nTN:t::b\nSF:a.rs\nDA:1,1\nend_of_record\n";
        assert!(parse_coverage_report(lcov.as_bytes(), small(2, 3)).is_ok());
        assert!(parse_coverage_report(lcov.as_bytes(), small(1, 3))
            .unwrap_err()
            .contains("the cap"));
        assert!(parse_coverage_report(lcov.as_bytes(), small(2, 2))
            .unwrap_err()
            .contains("the cap"));
        let endless = std::io::Read::chain(&b"TN:"[..], std::io::repeat(b'x'));
        let error = parse_coverage_report(endless, small(2, 2)).unwrap_err();
        assert!(error.contains("line 1 is longer than 64 bytes"), "{error}");
    }
}

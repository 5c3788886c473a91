//! coverage.py's JSON report (`coverage json --show-contexts`), streamed: the `files` object
//! is visited entry by entry, each line's test names interned as they are read, everything
//! but `meta.show_contexts` and each file's `contexts` skipped without being built. Only a
//! single string (a path or a test name) is ever held whole.

use std::fmt;
use std::io::Read;

use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::coverage_report::{sorted_ids, CoverageLimits, CoverageReport, CoveredFile, Interner};

const NO_CONTEXTS: &str = "the report has no per-test contexts: record with `pytest --cov=PACKAGE --cov-context=test` (or `[run] dynamic_context = test_function`), then write it with `coverage json --show-contexts`";

/// The report's files, or an error naming what is wrong (not JSON, no `files` object, no
/// contexts, a cap passed) and where.
pub(crate) fn parse(reader: impl Read, limits: CoverageLimits) -> Result<CoverageReport, String> {
    let mut report =
        ReportVisitor { interner: Interner::new(limits), files: None, show_contexts: false };
    let mut deserializer = serde_json::Deserializer::from_reader(reader);
    let read = deserializer.deserialize_map(&mut report).and_then(|()| deserializer.end());
    if let Err(error) = read {
        return Err(match report.interner.refused.take() {
            Some(cap) => cap,
            None if error.is_io() => error.to_string(),
            None => format!("not a coverage.py JSON report: {error}"),
        });
    }
    if !report.show_contexts {
        return Err(NO_CONTEXTS.into());
    }
    let files = report.files.ok_or("not a coverage.py JSON report: no \"files\" object")?;
    Ok(CoverageReport { contexts: report.interner.contexts, files })
}

struct ReportVisitor {
    interner: Interner,
    files: Option<Vec<CoveredFile>>,
    show_contexts: bool,
}

#[derive(serde::Deserialize)]
struct Meta {
    #[serde(default)]
    show_contexts: Option<bool>,
}

impl<'de> Visitor<'de> for &mut ReportVisitor {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a coverage.py JSON report object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "meta" => {
                    let meta: Meta = map.next_value()?;
                    self.show_contexts = meta.show_contexts == Some(true);
                }
                "files" => {
                    let mut files = Vec::new();
                    map.next_value_seed(FilesSeed {
                        interner: &mut self.interner,
                        files: &mut files,
                    })?;
                    self.files = Some(files);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

/// `"files": {PATH: {..., "contexts": {LINE: [TEST, ...]}}}`.
struct FilesSeed<'a> {
    interner: &'a mut Interner,
    files: &'a mut Vec<CoveredFile>,
}

impl<'de> DeserializeSeed<'de> for FilesSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FilesSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object of files")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(path) = map.next_key::<String>()? {
            let mut lines = Vec::new();
            map.next_value_seed(FileSeed { interner: &mut *self.interner, lines: &mut lines })?;
            lines.sort_unstable_by_key(|(line, _)| *line);
            self.files.push(CoveredFile { path, lines });
        }
        Ok(())
    }
}

/// One file's object: only `contexts` is read.
struct FileSeed<'a> {
    interner: &'a mut Interner,
    lines: &'a mut Vec<(u32, Vec<u32>)>,
}

impl<'de> DeserializeSeed<'de> for FileSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FileSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a file's coverage object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "contexts" {
                map.next_value_seed(LinesSeed {
                    interner: &mut *self.interner,
                    lines: &mut *self.lines,
                })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// `{"LINE": [TEST, ...]}`: lines that are not numbers are skipped, as are empty names.
struct LinesSeed<'a> {
    interner: &'a mut Interner,
    lines: &'a mut Vec<(u32, Vec<u32>)>,
}

impl<'de> DeserializeSeed<'de> for LinesSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for LinesSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an object of lines and their test names")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(line) = map.next_key::<String>()? {
            let Ok(line) = line.parse::<u32>() else {
                map.next_value::<IgnoredAny>()?;
                continue;
            };
            let mut ids = Vec::new();
            map.next_value_seed(NamesSeed { interner: &mut *self.interner, ids: &mut ids })?;
            let ids = sorted_ids(ids);
            if !ids.is_empty() {
                self.interner.count_line(ids.len()).map_err(serde::de::Error::custom)?;
                self.lines.push((line, ids));
            }
        }
        Ok(())
    }
}

/// `[TEST, ...]`: each name interned; anything but a string is skipped.
struct NamesSeed<'a> {
    interner: &'a mut Interner,
    ids: &'a mut Vec<u32>,
}

impl<'de> DeserializeSeed<'de> for NamesSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for NamesSeed<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a list of test names")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut names: A) -> Result<(), A::Error> {
        while let Some(name) = names.next_element::<NameOrOther>()? {
            let NameOrOther(Some(name)) = name else { continue };
            if let Some(id) = self.interner.intern(&name).map_err(serde::de::Error::custom)? {
                // A line listing the same tests over and over stays bounded: past twice the
                // cap on distinct tests, its list is sorted and its repeats dropped.
                if self.ids.len() >= 2 * self.interner.limits.contexts {
                    *self.ids = sorted_ids(std::mem::take(&mut *self.ids));
                }
                self.ids.push(id);
            }
        }
        Ok(())
    }
}

/// A string, or anything else (skipped).
struct NameOrOther(Option<String>);

impl<'de> serde::Deserialize<'de> for NameOrOther {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NameVisitor;
        impl<'de> Visitor<'de> for NameVisitor {
            type Value = NameOrOther;

            fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
                formatter.write_str("a test name")
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<NameOrOther, E> {
                Ok(NameOrOther(Some(name.to_string())))
            }

            fn visit_string<E: serde::de::Error>(self, name: String) -> Result<NameOrOther, E> {
                Ok(NameOrOther(Some(name)))
            }

            fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<NameOrOther, E> {
                Ok(NameOrOther(None))
            }

            fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<NameOrOther, E> {
                Ok(NameOrOther(None))
            }

            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<NameOrOther, E> {
                Ok(NameOrOther(None))
            }

            fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<NameOrOther, E> {
                Ok(NameOrOther(None))
            }

            fn visit_unit<E: serde::de::Error>(self) -> Result<NameOrOther, E> {
                Ok(NameOrOther(None))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<NameOrOther, A::Error> {
                while items.next_element::<IgnoredAny>()?.is_some() {}
                Ok(NameOrOther(None))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<NameOrOther, A::Error> {
                while entries.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(NameOrOther(None))
            }
        }
        deserializer.deserialize_any(NameVisitor)
    }
}

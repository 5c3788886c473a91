//! Addressing a symbol: by id, `path:line` (the path repository-relative or absolute), qualified
//! name, or a unique suffix of one. A name that matches several symbols returns them all; it
//! is never guessed.

use tether_model::{SymbolId, SymbolKind};

use crate::snapshot::{Snapshot, SymbolIndex};

/// One candidate of an ambiguous address.
#[derive(Clone, PartialEq, Debug)]
pub struct Candidate {
    pub index: SymbolIndex,
    pub qualified_name: String,
    pub kind: SymbolKind,
    pub path: String,
    pub line: u32,
    pub id: SymbolId,
}

#[derive(Clone, PartialEq, Debug)]
pub enum AddressError {
    /// Nothing matches; `similar` lists symbols whose names contain the last segment.
    NotFound { address: String, similar: Vec<Candidate> },
    /// Several symbols match; call again with one of these (ids are always unique).
    Ambiguous { address: String, candidates: Vec<Candidate> },
}

/// At most this many candidates are listed.
const MAX_CANDIDATES: usize = 12;

impl Snapshot {
    pub fn candidate(&self, index: SymbolIndex) -> Candidate {
        let symbol = self.symbol(index);
        Candidate {
            index,
            qualified_name: symbol.qualified_name.clone(),
            kind: symbol.kind,
            path: symbol.path.clone(),
            line: symbol.span.start_line,
            id: symbol.id,
        }
    }

    /// Resolves an address to one symbol.
    pub fn resolve_address(&self, address: &str) -> Result<SymbolIndex, AddressError> {
        let address = address.trim();
        if let Some(index) = SymbolId::parse_hex(address).and_then(|id| self.index_of(id)) {
            return Ok(index);
        }
        if let Some(index) = self.address_by_path_and_line(address) {
            return Ok(index);
        }
        let exact: Vec<SymbolIndex> =
            self.by_qualified_name.get(address).cloned().unwrap_or_default();
        let matches = if exact.is_empty() { self.suffix_matches(address) } else { exact };
        match matches.len() {
            0 => Err(AddressError::NotFound {
                address: address.to_string(),
                similar: self.similar(address),
            }),
            1 => Ok(matches[0]),
            _ => Err(AddressError::Ambiguous {
                address: address.to_string(),
                candidates: matches
                    .into_iter()
                    .take(MAX_CANDIDATES)
                    .map(|index| self.candidate(index))
                    .collect(),
            }),
        }
    }

    /// `path:line`: the innermost symbol of that file whose span holds the line (the file's
    /// module when no other does). The path is repository-relative (`./` allowed) or
    /// absolute under the indexed root.
    fn address_by_path_and_line(&self, address: &str) -> Option<SymbolIndex> {
        let (path, line) = address.rsplit_once(':')?;
        let line: u32 = line.parse().ok()?;
        let symbols = self.by_path.get(self.repository_relative(path))?;
        symbols
            .iter()
            .copied()
            .filter(|index| self.symbol(*index).span.contains_line(line))
            .min_by_key(|index| {
                let span = self.symbol(*index).span;
                span.end_line - span.start_line
            })
    }

    /// A written file path as the graph keys files: a leading `./`, or the indexed root of an
    /// absolute path under it, dropped (`/work/app/core.py` is `core.py` of root `/work/app`).
    pub fn repository_relative<'p>(&self, path: &'p str) -> &'p str {
        let root = self.meta.root.trim_end_matches('/');
        let path = match path.strip_prefix(root).and_then(|rest| rest.strip_prefix('/')) {
            Some(relative) if !root.is_empty() => relative,
            _ => path,
        };
        path.strip_prefix("./").unwrap_or(path)
    }

    /// Symbols whose qualified name ends with the address at a segment boundary.
    fn suffix_matches(&self, address: &str) -> Vec<SymbolIndex> {
        let dotted = format!(".{address}");
        let pathed = format!("::{address}");
        let mut matches: Vec<SymbolIndex> = self
            .symbols()
            .iter()
            .enumerate()
            .filter(|(_, symbol)| !symbol.kind.is_outside())
            .filter(|(_, symbol)| {
                symbol.qualified_name.ends_with(&dotted) || symbol.qualified_name.ends_with(&pathed)
            })
            .map(|(index, _)| index as SymbolIndex)
            .collect();
        matches.sort_by(|a, b| self.symbol(*a).qualified_name.cmp(&self.symbol(*b).qualified_name));
        matches
    }

    fn similar(&self, address: &str) -> Vec<Candidate> {
        let last = address.rsplit(['.', ':']).next().unwrap_or(address).to_lowercase();
        if last.is_empty() {
            return Vec::new();
        }
        self.symbols()
            .iter()
            .enumerate()
            .filter(|(_, symbol)| {
                !symbol.kind.is_outside() && symbol.name.to_lowercase().contains(&last)
            })
            .take(MAX_CANDIDATES)
            .map(|(index, _)| self.candidate(index as SymbolIndex))
            .collect()
    }
}

//! Addressing a symbol: by id, `path:line` (the path repository-relative or absolute), qualified
//! name, or a unique suffix of one; else as a member of an owner it names (an impl's method,
//! a module's re-export, a base's or a trait's member: `member_addresses`). A name that
//! matches several symbols returns them all; it is never guessed.

use tether_model::{EdgeKind, SymbolId, SymbolKind};

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

    /// Resolves an address to one symbol; `path:line:column` is read as `path:line` (a caller
    /// that has the files' text gives it to [`Snapshot::resolve_address_in`]).
    pub fn resolve_address(&self, address: &str) -> Result<SymbolIndex, AddressError> {
        self.resolve_address_in(address, &|_, _| None)
    }

    /// Resolves an address to one symbol. `source_line(path, line)` gives a line of an indexed
    /// file as the graph was built from it, for `path:line:column` (1-based, in characters):
    /// the name under the column is the function called there when a call on that line
    /// names it, the symbol defined there when one is, else the innermost symbol around
    /// the line.
    pub fn resolve_address_in(
        &self,
        address: &str,
        source_line: &dyn Fn(&str, u32) -> Option<String>,
    ) -> Result<SymbolIndex, AddressError> {
        let address = address.trim();
        if let Some(index) = SymbolId::parse_hex(address).and_then(|id| self.index_of(id)) {
            return Ok(index);
        }
        if let Some(found) = self.address_by_path_line_and_column(address, source_line) {
            return found;
        }
        if let Some(index) = self.address_by_path_and_line(address) {
            return Ok(index);
        }
        let exact: Vec<SymbolIndex> =
            self.by_qualified_name.get(address).cloned().unwrap_or_default();
        let mut matches = if exact.is_empty() { self.suffix_matches(address) } else { exact };
        if matches.is_empty() {
            matches = self.members_by_owner(address);
        }
        // `@overload` stubs describe the definition of their name: it answers, not them.
        if matches.iter().any(|index| !self.symbol(*index).is_overload_stub) {
            matches.retain(|index| !self.symbol(*index).is_overload_stub);
        }
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

    /// `path:line:column` where the column is on a name: the callees of that line's calls
    /// with that name (several are an ambiguity, never a guess), else a symbol of that name
    /// defined on the line, else the innermost symbol around the line. `None` when the
    /// address has another shape or the line is in no symbol of an indexed file.
    fn address_by_path_line_and_column(
        &self,
        address: &str,
        source_line: &dyn Fn(&str, u32) -> Option<String>,
    ) -> Option<Result<SymbolIndex, AddressError>> {
        let mut parts = address.rsplitn(3, ':');
        let column: usize = parts.next()?.parse().ok()?;
        let line: u32 = parts.next()?.parse().ok()?;
        let written_path = parts.next()?;
        let innermost = || self.address_by_path_and_line(&format!("{written_path}:{line}"));
        let path = self.repository_relative(written_path);
        let symbols = self.by_path.get(path)?;
        let Some(name) = source_line(path, line).and_then(|text| name_at_column(&text, column))
        else {
            return innermost().map(Ok);
        };
        let mut callees: Vec<SymbolIndex> = symbols
            .iter()
            .flat_map(|caller| self.outgoing(*caller, &[EdgeKind::Calls]).collect::<Vec<_>>())
            .filter(|edge| edge.edge.line == line && self.symbol(edge.target).name == name)
            .map(|edge| edge.target)
            .collect();
        callees.sort_unstable();
        callees.dedup();
        if callees.is_empty() {
            callees = symbols
                .iter()
                .copied()
                .filter(|index| {
                    let symbol = self.symbol(*index);
                    symbol.span.start_line == line && symbol.name == name
                })
                .collect();
        }
        match callees[..] {
            [] => innermost().map(Ok),
            [callee] => Some(Ok(callee)),
            _ => Some(Err(AddressError::Ambiguous {
                address: address.to_string(),
                candidates: callees.iter().map(|index| self.candidate(*index)).collect(),
            })),
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
    pub(crate) fn suffix_matches(&self, address: &str) -> Vec<SymbolIndex> {
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

    /// Symbols named like the address's last segment, closest first: names within
    /// [`MAX_SIMILAR_DISTANCE`] edits of it (a typo: `compte` for `compute`), then names that
    /// contain it; ties by how close the whole qualified name is to the address.
    pub fn similar(&self, address: &str) -> Vec<Candidate> {
        let last = address.rsplit(['.', ':']).next().unwrap_or(address).to_lowercase();
        if last.is_empty() {
            return Vec::new();
        }
        let address = address.to_lowercase();
        let mut ranked: Vec<((usize, usize, &str), SymbolIndex)> = self
            .symbols()
            .iter()
            .enumerate()
            .filter(|(_, symbol)| !symbol.kind.is_outside())
            .filter_map(|(index, symbol)| {
                let (name, qualified) = &self.lowercase_names[index];
                let distance = bounded_edit_distance(name, &last, MAX_SIMILAR_DISTANCE)
                    .or_else(|| name.contains(&last).then_some(MAX_SIMILAR_DISTANCE + 1))?;
                let path_distance = edit_distance(qualified, &address);
                Some((
                    (distance, path_distance, symbol.qualified_name.as_str()),
                    index as SymbolIndex,
                ))
            })
            .collect();
        ranked.sort_unstable();
        ranked.into_iter().take(MAX_CANDIDATES).map(|(_, index)| self.candidate(index)).collect()
    }
}

/// The most edits (insertions, deletions, substitutions) a name may be from the one asked for
/// to be listed as similar.
const MAX_SIMILAR_DISTANCE: usize = 2;

/// The edit distance between two strings when it is at most `bound` (computed only then: a
/// length difference over the bound answers at once).
fn bounded_edit_distance(a: &str, b: &str, bound: usize) -> Option<usize> {
    if a.chars().count().abs_diff(b.chars().count()) > bound {
        return None;
    }
    Some(edit_distance(a, b)).filter(|distance| *distance <= bound)
}

/// Levenshtein distance over characters, one row at a time.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, a_char) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, b_char) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(a_char != *b_char);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The identifier (letters, digits, `_`) that covers the 1-based character `column` of a
/// line, or ends just before it.
fn name_at_column(text: &str, column: usize) -> Option<String> {
    let characters: Vec<char> = text.chars().collect();
    let is_name = |character: &char| character.is_alphanumeric() || *character == '_';
    let mut at = column.checked_sub(1)?;
    if !characters.get(at).is_some_and(is_name) {
        at = at.checked_sub(1).filter(|before| characters.get(*before).is_some_and(is_name))?;
    }
    let start =
        characters[..at].iter().rposition(|c| !is_name(c)).map_or(0, |position| position + 1);
    let end = characters[at..]
        .iter()
        .position(|c| !is_name(c))
        .map_or(characters.len(), |length| at + length);
    let name: String = characters[start..end].iter().collect();
    (!name.is_empty()).then_some(name)
}

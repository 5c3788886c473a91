//! Lookup: name and qualified-name search, optionally inside one folder, ranked so that exact
//! names come first.

use crate::page::PageRequest;
use crate::snapshot::{Snapshot, SymbolIndex};

/// One match, with how well it matched (lower is better).
#[derive(Clone, PartialEq, Debug)]
pub struct LookupItem {
    pub index: SymbolIndex,
    pub rank: u8,
}

#[derive(Clone, PartialEq, Debug)]
pub struct LookupAnswer {
    pub query: String,
    pub total: usize,
    pub items: Vec<LookupItem>,
    pub next_cursor: Option<String>,
}

impl Snapshot {
    /// Symbols whose name or qualified name matches `query` (case-insensitive), in files under
    /// `folder` when given. Ranks: 0 exact name, 1 exact qualified name suffix, 2 name prefix,
    /// 3 name substring, 4 qualified-name substring.
    pub fn lookup(&self, query: &str, folder: Option<&str>, page: PageRequest) -> LookupAnswer {
        let needle = query.trim().to_lowercase();
        let folder = folder
            .map(|folder| folder.trim_end_matches('/').to_string())
            .filter(|folder| !folder.is_empty() && folder != ".");
        let mut items: Vec<LookupItem> = Vec::new();
        let dotted_suffix = format!(".{needle}");
        let pathed_suffix = format!("::{needle}");
        let folder_prefix = folder.as_ref().map(|folder| format!("{folder}/"));
        if !needle.is_empty() {
            for (index, symbol) in self.symbols().iter().enumerate() {
                if symbol.kind.is_outside() {
                    continue;
                }
                if let Some(prefix) = &folder_prefix {
                    if !symbol.path.starts_with(prefix) {
                        continue;
                    }
                }
                let (name, qualified_name) = &self.lowercase_names[index];
                let rank = if *name == needle {
                    0
                } else if qualified_name.ends_with(&dotted_suffix)
                    || qualified_name.ends_with(&pathed_suffix)
                    || *qualified_name == needle
                {
                    1
                } else if name.starts_with(&needle) {
                    2
                } else if name.contains(&needle) {
                    3
                } else if qualified_name.contains(&needle) {
                    4
                } else {
                    continue;
                };
                items.push(LookupItem { index: index as SymbolIndex, rank });
            }
        }
        items.sort_by(|a, b| {
            a.rank
                .cmp(&b.rank)
                .then_with(|| {
                    self.symbol(a.index)
                        .qualified_name
                        .len()
                        .cmp(&self.symbol(b.index).qualified_name.len())
                })
                .then_with(|| {
                    self.symbol(a.index).qualified_name.cmp(&self.symbol(b.index).qualified_name)
                })
                // A definition before the `@overload` stubs of its name, listed with it.
                .then_with(|| {
                    self.symbol(a.index)
                        .is_overload_stub
                        .cmp(&self.symbol(b.index).is_overload_stub)
                })
        });
        let total = items.len();
        let (items, next_cursor) = page.apply(items);
        LookupAnswer { query: query.to_string(), total, items, next_cursor }
    }
}

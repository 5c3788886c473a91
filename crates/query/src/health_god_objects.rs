//! God objects: types that do too much and that much of the code base is tied to. A class,
//! struct, enum, union or trait, with its methods (a Rust type's include its impls'), is
//! listed when it has many methods or lines (thresholds in `queries/health_thresholds.txt`)
//! and many other files depend on it or are depended on by it. Ranked by methods times
//! files; the heaviest methods are named as the drivers.

use rustc_hash::FxHashSet as HashSet;

use tether_model::SymbolKind;

use crate::health::{is_guess, HealthOptions, HealthThresholds, DEPENDENCY_KINDS};
use crate::snapshot::{Snapshot, SymbolIndex};

/// One of a god object's heaviest methods.
#[derive(Clone, PartialEq, Debug)]
pub struct HeavyMember {
    pub index: SymbolIndex,
    pub lines: u32,
}

#[derive(Clone, PartialEq, Debug)]
pub struct GodObject {
    pub index: SymbolIndex,
    /// Methods (and other callables) it defines, its impls' included.
    pub members: usize,
    /// Lines of its definition and of its impls.
    pub lines: u32,
    /// Other files that call, reference, import or extend it or one of its members (tests
    /// left out: they are meant to depend on what they test).
    pub fan_in: usize,
    /// Other files its members call, reference or import.
    pub fan_out: usize,
    /// `members × (fan_in + fan_out)`: how it is ranked.
    pub score: usize,
    /// The heaviest members, longest first (at most three).
    pub drivers: Vec<HeavyMember>,
}

/// At most this many drivers are named.
const MAX_DRIVERS: usize = 3;

impl Snapshot {
    pub(crate) fn god_objects(
        &self,
        options: &HealthOptions,
        thresholds: &HealthThresholds,
    ) -> Vec<GodObject> {
        let mut found: Vec<GodObject> = (0..self.symbols().len() as SymbolIndex)
            .filter(|index| {
                let symbol = self.symbol(*index);
                symbol.kind.is_type()
                    && !symbol.is_test
                    && Snapshot::in_health_folder(&symbol.path, options)
            })
            .filter_map(|index| self.god_object(index, thresholds))
            .collect();
        found.sort_by(|a, b| {
            b.score.cmp(&a.score).then_with(|| {
                self.symbol(a.index).qualified_name.cmp(&self.symbol(b.index).qualified_name)
            })
        });
        found
    }

    fn god_object(&self, index: SymbolIndex, thresholds: &HealthThresholds) -> Option<GodObject> {
        let symbol = self.symbol(index);
        let mut parts = vec![index];
        let mut lines = symbol.span.end_line + 1 - symbol.span.start_line;
        let mut members = Vec::new();
        for child in self.children(index) {
            let child_symbol = self.symbol(child);
            if child_symbol.kind == SymbolKind::Impl {
                parts.push(child);
                if child_symbol.path != symbol.path
                    || !symbol.span.contains_line(child_symbol.span.start_line)
                {
                    lines += child_symbol.span.end_line + 1 - child_symbol.span.start_line;
                }
                members.extend(self.children(child).filter(|member| self.is_member(*member)));
            } else if self.is_member(child) {
                members.push(child);
            }
        }
        if members.len() < thresholds.god_object_members && lines < thresholds.god_object_lines {
            return None;
        }
        parts.extend(members.iter().copied());
        let inside: HashSet<SymbolIndex> = parts.iter().copied().collect();
        let mut callers_files: HashSet<&str> = HashSet::default();
        let mut called_files: HashSet<&str> = HashSet::default();
        for part in &parts {
            for edge in self.incoming(*part, &DEPENDENCY_KINDS) {
                if is_guess(edge.edge.rule) {
                    continue;
                }
                let source = self.symbol(edge.source);
                if !inside.contains(&edge.source)
                    && !source.path.is_empty()
                    && !self.is_test_code(edge.source)
                {
                    callers_files.insert(source.path.as_str());
                }
            }
            for edge in self.outgoing(*part, &DEPENDENCY_KINDS) {
                if is_guess(edge.edge.rule) {
                    continue;
                }
                let target = self.symbol(edge.target);
                if !inside.contains(&edge.target) && !target.kind.is_outside() {
                    called_files.insert(target.path.as_str());
                }
            }
        }
        callers_files.remove(symbol.path.as_str());
        called_files.remove(symbol.path.as_str());
        let (fan_in, fan_out) = (callers_files.len(), called_files.len());
        if fan_in + fan_out < thresholds.god_object_modules {
            return None;
        }
        let mut drivers: Vec<HeavyMember> = members
            .iter()
            .map(|member| {
                let span = self.symbol(*member).span;
                HeavyMember { index: *member, lines: span.end_line + 1 - span.start_line }
            })
            .collect();
        drivers.sort_by(|a, b| b.lines.cmp(&a.lines).then_with(|| a.index.cmp(&b.index)));
        drivers.truncate(MAX_DRIVERS);
        Some(GodObject {
            index,
            members: members.len(),
            lines,
            fan_in,
            fan_out,
            score: members.len().max(1) * (fan_in + fan_out),
            drivers,
        })
    }

    fn is_member(&self, index: SymbolIndex) -> bool {
        matches!(self.symbol(index).kind, SymbolKind::Method | SymbolKind::Function)
    }
}

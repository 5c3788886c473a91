//! Addresses through what an owner offers rather than what a symbol is named: `Owner.member`
//! (or `Owner::member`) where the member is written in one of the owner's impls (`Dog::hello`
//! for `{impl Greet for Dog}::hello`), re-exported by a module (`fx::sync::Mutex` for
//! `fx::sync::mutex::Mutex` when `sync` has `pub use self::mutex::Mutex`, `pkg.Engine` for
//! `pkg.core.Engine` when `pkg/__init__.py` imports it), or provided by a base or a trait
//! (`Dog::bye` for the trait's default `Greet::bye` when Dog's impl does not write it). The
//! owner is found the same way, so paths chain (`fx::sync::Mutex::lock`). The symbol found
//! keeps its own qualified name, so an answer says which one it is: the impl's method or the
//! trait's.
//!
//! Not handled: a re-export under another name (`pub use a::B as C`, `from .a import b as
//! c`; the graph's IMPORTS edge does not keep the name it binds), and glob re-exports (`pub
//! use a::*`, `from .a import *`), which name a module and not its members. A module's
//! imports count whether or not they are public (an edge does not record visibility): within
//! the module, the name does mean the imported symbol.

use std::collections::{HashSet, VecDeque};

use tether_model::{EdgeKind, SymbolKind};

use crate::snapshot::{Snapshot, SymbolIndex};

/// How many owners deep an address's path is followed (`a::b::C::m` is three).
const MAX_OWNER_DEPTH: usize = 8;

impl Snapshot {
    /// The symbols an address names as a member of an owner it names, when no symbol's
    /// qualified name matches it: empty when the address has no owner part or none offers
    /// the member.
    pub(crate) fn members_by_owner(&self, address: &str) -> Vec<SymbolIndex> {
        self.members_by_owner_within(address, MAX_OWNER_DEPTH)
    }

    fn members_by_owner_within(&self, address: &str, depth: usize) -> Vec<SymbolIndex> {
        let Some(depth) = depth.checked_sub(1) else { return Vec::new() };
        let Some((owner, member)) = address.rsplit_once("::").or_else(|| address.rsplit_once('.'))
        else {
            return Vec::new();
        };
        if owner.is_empty() || member.is_empty() {
            return Vec::new();
        }
        let exact = self.symbols_named(owner);
        let mut owners = if exact.is_empty() { self.suffix_matches(owner) } else { exact.to_vec() };
        if owners.is_empty() {
            owners = self.members_by_owner_within(owner, depth);
        }
        let mut found: Vec<SymbolIndex> =
            owners.into_iter().flat_map(|owner| self.members_offered(owner, member)).collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// What `owner.member` means, nearest first: the owner's own child of that name; else
    /// its inherent impls' (Rust: the method a call `value.member()` takes first), else its
    /// trait impls' (several when more than one trait impl writes it: an ambiguity, never a
    /// guess); else a module's import of that name (a re-export); else its nearest bases'.
    fn members_offered(&self, owner: SymbolIndex, member: &str) -> Vec<SymbolIndex> {
        let named = |child: &SymbolIndex| self.symbol(*child).name == member;
        let own: Vec<SymbolIndex> = self
            .children(owner)
            .filter(|child| self.symbol(*child).kind != SymbolKind::Impl)
            .filter(named)
            .collect();
        if !own.is_empty() {
            return own;
        }
        let inherent_name = format!("{}::{member}", self.symbol(owner).qualified_name);
        let (inherent, from_traits): (Vec<SymbolIndex>, Vec<SymbolIndex>) = self
            .children(owner)
            .filter(|child| self.symbol(*child).kind == SymbolKind::Impl)
            .flat_map(|block| self.children(block).filter(named).collect::<Vec<_>>())
            .partition(|method| self.symbol(*method).qualified_name == inherent_name);
        for candidates in [inherent, from_traits] {
            if !candidates.is_empty() {
                return candidates;
            }
        }
        if self.symbol(owner).kind == SymbolKind::Module {
            let reexported: Vec<SymbolIndex> = self
                .outgoing(owner, &[EdgeKind::Imports])
                .map(|edge| edge.target)
                .filter(|target| !self.symbol(*target).kind.is_outside())
                .filter(named)
                .collect();
            if !reexported.is_empty() {
                return reexported;
            }
        }
        self.inherited_members(owner, member)
    }

    /// The members of that name of the owner's nearest bases (breadth-first over INHERITS
    /// and IMPLEMENTS; several only when
    /// bases at the same distance each offer one).
    fn inherited_members(&self, owner: SymbolIndex, member: &str) -> Vec<SymbolIndex> {
        let mut visited = HashSet::from([owner]);
        let mut level = VecDeque::from([owner]);
        while !level.is_empty() {
            let bases: Vec<SymbolIndex> = level
                .drain(..)
                .flat_map(|class| {
                    self.outgoing(class, &[EdgeKind::Inherits, EdgeKind::Implements])
                        .map(|edge| edge.target)
                        .collect::<Vec<_>>()
                })
                .filter(|base| visited.insert(*base))
                .collect();
            let found: Vec<SymbolIndex> = bases
                .iter()
                .flat_map(|base| {
                    self.children(*base).filter(|child| self.symbol(*child).name == member)
                })
                .collect();
            if !found.is_empty() {
                return found;
            }
            level.extend(bases);
        }
        Vec::new()
    }
}

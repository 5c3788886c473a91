//! Stable symbol ids: a 64-bit FNV-1a hash of path, qualified name, kind and occurrence.
//!
//! The hash is spelled out here rather than taken from `std` because `DefaultHasher` is not
//! guaranteed to be stable across Rust releases, and ids are persisted in the database.

use std::fmt;

use crate::symbol::SymbolKind;

/// The id of a symbol. Equal inputs give equal ids on every machine and every run.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct SymbolId(pub u64);

impl SymbolId {
    /// The id of the `occurrence`-th symbol (0-based) with this path, qualified name and kind.
    ///
    /// `occurrence` tells apart redefinitions in one file (for example a Python function
    /// defined twice under `if`/`else`), which share a qualified name.
    pub fn for_symbol(
        path: &str,
        qualified_name: &str,
        kind: SymbolKind,
        occurrence: u32,
    ) -> SymbolId {
        let mut hasher = Fnv1a::new();
        hasher.write(path.as_bytes());
        hasher.write(&[0xff]);
        hasher.write(qualified_name.as_bytes());
        hasher.write(&[0xff]);
        hasher.write(kind.as_str().as_bytes());
        hasher.write(&occurrence.to_le_bytes());
        SymbolId(hasher.finish())
    }

    /// The id of a target outside the repository (an external module member or a builtin),
    /// which has no path.
    pub fn for_outside_target(qualified_name: &str, kind: SymbolKind) -> SymbolId {
        SymbolId::for_symbol("", qualified_name, kind, 0)
    }

    /// The id as the signed integer the database stores (same bits).
    pub fn as_i64(self) -> i64 {
        self.0 as i64
    }

    /// The id back from the database's signed integer.
    pub fn from_i64(value: i64) -> SymbolId {
        SymbolId(value as u64)
    }

    /// Parses the 16-hex-digit form that `Display` prints.
    pub fn parse_hex(text: &str) -> Option<SymbolId> {
        if text.len() != 16 {
            return None;
        }
        u64::from_str_radix(text, 16).ok().map(SymbolId)
    }
}

impl fmt::Display for SymbolId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// A stable 64-bit hash of bytes (FNV-1a), used for ids and content tags.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut hasher = Fnv1a::new();
    hasher.write(bytes);
    hasher.finish()
}

struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Fnv1a {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_distinguish_inputs() {
        let a = SymbolId::for_symbol("a.py", "a.f", SymbolKind::Function, 0);
        assert_eq!(a, SymbolId::for_symbol("a.py", "a.f", SymbolKind::Function, 0));
        assert_ne!(a, SymbolId::for_symbol("a.py", "a.f", SymbolKind::Function, 1));
        assert_ne!(a, SymbolId::for_symbol("b.py", "a.f", SymbolKind::Function, 0));
        assert_ne!(a, SymbolId::for_symbol("a.py", "a.f", SymbolKind::Method, 0));
        // The published FNV-1a test vectors: a change here breaks every persisted id.
        assert_eq!(stable_hash(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(stable_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn hex_round_trips() {
        let id = SymbolId(0x0123_4567_89ab_cdef);
        assert_eq!(id.to_string(), "0123456789abcdef");
        assert_eq!(SymbolId::parse_hex("0123456789abcdef"), Some(id));
        assert_eq!(SymbolId::parse_hex("xyz"), None);
        assert_eq!(SymbolId::from_i64(id.as_i64()), id);
    }
}

//! A definition's declared visibility: who may name it, as the source says (Rust's `pub`,
//! `pub(crate)`, no modifier). Python declares none; its convention (a leading underscore) is
//! read from the name where it matters, not stored.

use std::fmt;

/// What a definition's own modifier says. Not its effective reach: a `pub` item of a private
/// module may still be re-exported (`pub use`), so only `Crate` and `Private` prove that no
/// code outside the crate names it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Visibility {
    /// The language declares none (Python), or the definition is outside the repository.
    #[default]
    Undeclared,
    /// Rust `pub`, a `#[macro_export]` macro, and what is as visible as its container (a
    /// trait's methods, the methods of a trait impl).
    Public,
    /// Rust `pub(crate)`, `pub(super)`, `pub(self)`, `pub(in path)`, `crate`: visible inside
    /// its crate only.
    Crate,
    /// Rust without a modifier (its module and the module's descendants), and anything
    /// defined inside a function body.
    Private,
    /// Written inside a macro call's item body (`wrap! { fn f() … }`) or under an attribute
    /// macro tether does not expand (`#[pyfunction]`): what the macro makes of it, and who
    /// may name it, is not known.
    MacroWritten,
}

impl Visibility {
    pub const ALL: [Visibility; 5] = [
        Visibility::Undeclared,
        Visibility::Public,
        Visibility::Crate,
        Visibility::Private,
        Visibility::MacroWritten,
    ];

    /// The stored spelling (`""` for undeclared).
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Undeclared => "",
            Visibility::Public => "pub",
            Visibility::Crate => "crate",
            Visibility::Private => "private",
            Visibility::MacroWritten => "macro",
        }
    }

    pub fn parse(text: &str) -> Option<Visibility> {
        Visibility::ALL.into_iter().find(|visibility| visibility.as_str() == text)
    }

    /// Whether no code outside the definition's crate can name it.
    pub fn is_crate_local(self) -> bool {
        matches!(self, Visibility::Crate | Visibility::Private)
    }
}

impl fmt::Display for Visibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Visibility;

    #[test]
    fn every_visibility_reads_back_from_its_spelling() {
        for visibility in Visibility::ALL {
            assert_eq!(Visibility::parse(visibility.as_str()), Some(visibility));
        }
        assert_eq!(Visibility::parse("pub(crate)"), None);
    }
}

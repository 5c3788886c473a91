//! Symbols: the nodes of the code graph, with their kind, language and source span.

use std::fmt;

use crate::id::SymbolId;

/// A language tether parses.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Language {
    Python,
    Rust,
}

impl Language {
    pub const ALL: [Language; 2] = [Language::Python, Language::Rust];

    pub fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Rust => "rust",
        }
    }

    pub fn parse(text: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|language| language.as_str() == text)
    }

    /// What starts a comment that runs to the end of the line.
    pub fn line_comment_prefix(self) -> &'static str {
        match self {
            Language::Python => "#",
            Language::Rust => "//",
        }
    }

    /// The language of a file, judged by its extension alone.
    pub fn from_path(path: &str) -> Option<Language> {
        let extension = path.rsplit_once('.').map(|(_, extension)| extension)?;
        match extension {
            "py" => Some(Language::Python),
            "rs" => Some(Language::Rust),
            _ => None,
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a symbol is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum SymbolKind {
    /// A Python module (a file) or a Rust module (a file or an inline `mod`).
    Module,
    Class,
    Struct,
    Enum,
    Union,
    Trait,
    /// A Rust `impl` block; its methods are its children.
    Impl,
    Function,
    Method,
    /// A Python lambda. Call sites inside it are attributed to its nearest named scope.
    Lambda,
    /// A Rust `macro_rules!` definition.
    Macro,
    /// A Rust `type Name = Type;` item (an alias, or an impl's associated type).
    TypeAlias,
    /// A target outside the repository, named by its import path (`requests.get`).
    External,
    /// A language builtin (`<builtin>.len`).
    Builtin,
}

impl SymbolKind {
    pub const ALL: [SymbolKind; 14] = [
        SymbolKind::Module,
        SymbolKind::Class,
        SymbolKind::Struct,
        SymbolKind::Enum,
        SymbolKind::Union,
        SymbolKind::Trait,
        SymbolKind::Impl,
        SymbolKind::Function,
        SymbolKind::Method,
        SymbolKind::Lambda,
        SymbolKind::Macro,
        SymbolKind::TypeAlias,
        SymbolKind::External,
        SymbolKind::Builtin,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Module => "module",
            SymbolKind::Class => "class",
            SymbolKind::Struct => "struct",
            SymbolKind::Enum => "enum",
            SymbolKind::Union => "union",
            SymbolKind::Trait => "trait",
            SymbolKind::Impl => "impl",
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Lambda => "lambda",
            SymbolKind::Macro => "macro",
            SymbolKind::TypeAlias => "type_alias",
            SymbolKind::External => "external",
            SymbolKind::Builtin => "builtin",
        }
    }

    pub fn parse(text: &str) -> Option<SymbolKind> {
        SymbolKind::ALL.into_iter().find(|kind| kind.as_str() == text)
    }

    /// Functions, methods and lambdas: the symbols whose bodies make calls.
    pub fn is_callable(self) -> bool {
        matches!(self, SymbolKind::Function | SymbolKind::Method | SymbolKind::Lambda)
    }

    /// Classes, structs, enums, unions and traits: the symbols that name a type.
    pub fn is_type(self) -> bool {
        matches!(
            self,
            SymbolKind::Class
                | SymbolKind::Struct
                | SymbolKind::Enum
                | SymbolKind::Union
                | SymbolKind::Trait
        )
    }

    /// External and builtin targets, which live outside the repository's files.
    pub fn is_outside(self) -> bool {
        matches!(self, SymbolKind::External | SymbolKind::Builtin)
    }
}

impl fmt::Display for SymbolKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a symbol sits in its file. Lines are 1-based and inclusive; bytes are a half-open range.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Span {
    pub start_line: u32,
    pub end_line: u32,
    pub start_byte: u32,
    pub end_byte: u32,
}

impl Span {
    pub fn contains_line(&self, line: u32) -> bool {
        self.start_line <= line && line <= self.end_line
    }

    pub fn contains_byte(&self, byte: u32) -> bool {
        self.start_byte <= byte && byte < self.end_byte
    }
}

/// A node of the code graph.
#[derive(Clone, PartialEq, Debug)]
pub struct Symbol {
    pub id: SymbolId,
    pub kind: SymbolKind,
    /// The short name as written (`method`, `{impl Display for Type}`, `<lambda>`).
    pub name: String,
    /// Python: dotted from the package root (`pkg.module.Class.method`).
    /// Rust: the crate path (`my_crate::module::Type::method`).
    pub qualified_name: String,
    /// Repository-relative path with `/` separators; empty for external and builtin targets.
    pub path: String,
    pub language: Language,
    pub span: Span,
    /// The syntactic container; `None` for a file's module and for outside targets.
    pub parent: Option<SymbolId>,
    /// A test function, a method of a test class, or an item of a `#[cfg(test)]` module.
    pub is_test: bool,
    /// A test the runner collects and runs by name: pytest's `test…` function at a test
    /// module's top level or `test…` method of a test class, a Rust `#[test]` function (or
    /// one under a test attribute macro, or written by a test macro). Never a helper of a
    /// test module, a test class, nor code nested in a test.
    pub runs_as_test: bool,
    /// [`crate::stable_hash`] of the symbol's source text (its span's bytes), so evidence
    /// recorded for it can be known fresh after edits elsewhere in its file; 0 when unknown
    /// (a target outside the repository).
    pub content_hash: u64,
    /// A Python function's or method's first body line: its decorators and `def` line run when
    /// it is defined (a module's import), not when it is called, so runtime evidence for it is
    /// read from here. 0 when the whole span runs when called (other kinds, Rust).
    pub body_start_line: u32,
    /// A Python `@overload` stub: a typed signature of the definition of the same name that
    /// follows it. An address names that definition, never a stub; lookup lists the stubs
    /// with it.
    pub is_overload_stub: bool,
    /// What its own modifier declares (Rust); [`crate::Visibility::Undeclared`] for Python
    /// and outside targets.
    pub visibility: crate::Visibility,
}

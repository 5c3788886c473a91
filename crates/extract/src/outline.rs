//! The language-independent sweep: tags in document order become nested symbols, and every
//! reference is handed to the language with the stack of scopes that encloses it.

use std::collections::HashMap;

use tether_model::{
    Diagnostic, DiagnosticKind, FileFacts, Language, Span, Symbol, SymbolId, SymbolKind,
};
use tree_sitter::{Node, Tree};

use crate::query::{CaptureRole, DefinitionCapture, Tag};

/// A definition that is open (its end not yet passed) during the sweep.
#[derive(Clone, Debug)]
pub(crate) struct OpenScope<'tree> {
    pub id: SymbolId,
    /// The definition's tagged node (`None` for the file's module): asking it for a field is
    /// cheaper than walking up from a node inside it.
    pub node: Option<Node<'tree>>,
    pub kind: SymbolKind,
    /// What children's qualified names start with: the scope's own name, except for Rust
    /// inherent impls, whose methods are named after the type (`m::Type::new`).
    pub child_prefix: String,
    pub end_byte: usize,
    pub is_test: bool,
}

/// The scopes enclosing the current tag, outermost (the file's module) first.
pub(crate) struct ScopeStack<'tree> {
    scopes: Vec<OpenScope<'tree>>,
    /// The end bytes of the open `@local.scope` blocks, innermost last.
    local_scope_ends: Vec<usize>,
}

impl<'tree> ScopeStack<'tree> {
    pub(crate) fn innermost(&self) -> &OpenScope<'tree> {
        self.scopes.last().expect("the module scope is never popped")
    }

    /// The innermost scope that is not a lambda: where call sites are attributed.
    pub(crate) fn innermost_named(&self) -> &OpenScope<'tree> {
        self.scopes
            .iter()
            .rev()
            .find(|scope| scope.kind != SymbolKind::Lambda)
            .expect("the module scope is named")
    }

    /// Where the innermost open `@local.scope` block ends: the end of a `let`'s reach,
    /// known without walking up the tree.
    pub(crate) fn innermost_local_scope_end(&self) -> Option<usize> {
        self.local_scope_ends.last().copied()
    }

    /// The scope enclosing the innermost named one (the class of a method, say).
    pub(crate) fn enclosing_of_innermost_named(&self) -> Option<&OpenScope<'tree>> {
        let position = self.scopes.iter().rposition(|scope| scope.kind != SymbolKind::Lambda)?;
        position.checked_sub(1).map(|index| &self.scopes[index])
    }
}

/// What a language decided about a definition tag.
pub(crate) struct NewSymbol<'tree> {
    pub kind: SymbolKind,
    pub name: String,
    /// The node whose extent is the symbol's span (a decorated definition includes its decorators).
    pub span_node: Node<'tree>,
    /// Overrides the children's prefix (Rust inherent impls); `None` uses the qualified name.
    pub child_prefix: Option<String>,
    /// Overrides `parent prefix + separator + name` (Rust trait impls).
    pub qualified_name: Option<String>,
    pub is_test: bool,
    /// A test the runner collects (see `Symbol::runs_as_test`); never inherited.
    pub runs_as_test: bool,
    /// See `Symbol::body_start_line`; 0 when the whole span runs when called.
    pub body_start_line: u32,
    /// See `Symbol::is_overload_stub`.
    pub is_overload_stub: bool,
    /// See `Symbol::visibility`.
    pub visibility: tether_model::Visibility,
}

/// The per-language half of extraction.
pub(crate) trait Lowering {
    const LANGUAGE: Language;
    const SEPARATOR: &'static str;

    /// Whether items in this file are tests when nothing else says so (Python test files).
    fn module_is_test(&self) -> bool {
        false
    }

    /// The symbol a definition tag declares, or `None` to ignore the tag.
    fn definition<'tree>(
        &self,
        capture: DefinitionCapture,
        tag: &Tag<'tree>,
        scopes: &ScopeStack,
        source: &str,
    ) -> Option<NewSymbol<'tree>>;

    /// Records the facts of a reference tag (calls, imports, supertypes, bindings). For
    /// definitions that carry references of their own (Rust impls), `definition_id` is set.
    fn reference(&self, tag: &Tag<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts);

    /// Called before a definition's symbol is pushed, for facts that belong to it (Rust impls).
    fn after_definition(
        &self,
        _tag: &Tag<'_>,
        _symbol: &Symbol,
        _scopes: &ScopeStack,
        _source: &str,
        _facts: &mut FileFacts,
    ) {
    }

    /// Called after a struct's, an enum's or a union's symbol is pushed: the members an
    /// attribute macro generates for it (salsa's field getters), pushed after their parent,
    /// and what its derives say.
    fn generated_members(
        &self,
        _tag: &Tag<'_>,
        _symbol: &Symbol,
        _source: &str,
        _facts: &mut FileFacts,
    ) {
    }
}

/// Runs the sweep over a parsed tree.
pub(crate) fn sweep<L: Lowering>(
    lowering: &L,
    path: &str,
    module_name: &str,
    tree: &Tree,
    tags: &[Tag<'_>],
    source: &str,
) -> FileFacts {
    let mut facts =
        FileFacts { path: path.to_string(), language: Some(L::LANGUAGE), ..FileFacts::default() };
    let root = tree.root_node();
    let module_short_name =
        module_name.rsplit(L::SEPARATOR).next().unwrap_or(module_name).to_string();
    let module = Symbol {
        id: SymbolId::for_symbol(path, module_name, SymbolKind::Module, 0),
        kind: SymbolKind::Module,
        name: module_short_name,
        qualified_name: module_name.to_string(),
        path: path.to_string(),
        language: L::LANGUAGE,
        span: Span {
            start_line: 1,
            end_line: (root.end_position().row as u32 + 1).max(1),
            start_byte: 0,
            end_byte: source.len() as u32,
        },
        parent: None,
        is_test: lowering.module_is_test(),
        runs_as_test: false,
        content_hash: 0,
        body_start_line: 0,
        is_overload_stub: false,
        visibility: tether_model::Visibility::Undeclared,
    };
    let mut scopes = ScopeStack {
        scopes: vec![OpenScope {
            id: module.id,
            node: None,
            kind: SymbolKind::Module,
            child_prefix: module.qualified_name.clone(),
            end_byte: usize::MAX,
            is_test: module.is_test,
        }],
        local_scope_ends: Vec::new(),
    };
    facts.symbols.push(module);
    let mut occurrences: HashMap<(String, SymbolKind), u32> = HashMap::new();

    for tag in tags {
        while scopes.scopes.len() > 1 && scopes.innermost().end_byte <= tag.node.start_byte() {
            scopes.scopes.pop();
        }
        while scopes.local_scope_ends.last().is_some_and(|end| *end <= tag.node.start_byte()) {
            scopes.local_scope_ends.pop();
        }
        match tag.role {
            CaptureRole::LocalScope => scopes.local_scope_ends.push(tag.node.end_byte()),
            CaptureRole::Definition(capture) => {
                let Some(new) = lowering.definition(capture, tag, &scopes, source) else {
                    continue;
                };
                let parent = scopes.innermost();
                let qualified_name = new.qualified_name.unwrap_or_else(|| {
                    format!("{}{}{}", parent.child_prefix, L::SEPARATOR, new.name)
                });
                let occurrence = occurrences.entry((qualified_name.clone(), new.kind)).or_insert(0);
                let id = SymbolId::for_symbol(path, &qualified_name, new.kind, *occurrence);
                *occurrence += 1;
                let is_test = new.is_test || parent.is_test;
                let symbol = Symbol {
                    id,
                    kind: new.kind,
                    name: new.name,
                    qualified_name: qualified_name.clone(),
                    path: path.to_string(),
                    language: L::LANGUAGE,
                    span: span_of(new.span_node),
                    parent: Some(parent.id),
                    is_test,
                    runs_as_test: new.runs_as_test,
                    content_hash: 0,
                    body_start_line: new.body_start_line,
                    is_overload_stub: new.is_overload_stub,
                    visibility: new.visibility,
                };
                scopes.scopes.push(OpenScope {
                    id,
                    node: Some(tag.node),
                    kind: new.kind,
                    child_prefix: new.child_prefix.unwrap_or_else(|| qualified_name.clone()),
                    end_byte: tag.node.end_byte(),
                    is_test,
                });
                lowering.after_definition(tag, &symbol, &scopes, source, &mut facts);
                if matches!(symbol.kind, SymbolKind::Struct | SymbolKind::Enum | SymbolKind::Union)
                {
                    let structure = symbol.clone();
                    facts.symbols.push(symbol);
                    lowering.generated_members(tag, &structure, source, &mut facts);
                } else {
                    facts.symbols.push(symbol);
                }
            }
            _ => lowering.reference(tag, &scopes, source, &mut facts),
        }
    }
    report_syntax_errors(path, root, &mut facts.diagnostics);
    facts
}

/// The smallest of the file's symbols whose span holds `byte` and that `kind_counts`
/// accepts: who makes a call written where no sweep scope is open (a blanked wrapper, an
/// attribute).
pub(crate) fn innermost_symbol_at(
    symbols: &[tether_model::Symbol],
    byte: u32,
    kind_counts: impl Fn(tether_model::SymbolKind) -> bool,
) -> Option<tether_model::SymbolId> {
    symbols
        .iter()
        .filter(|symbol| {
            kind_counts(symbol.kind)
                && symbol.span.start_byte <= byte
                && byte < symbol.span.end_byte.max(symbol.span.start_byte + 1)
        })
        .min_by_key(|symbol| symbol.span.end_byte - symbol.span.start_byte)
        .map(|symbol| symbol.id)
}

/// The span of a node: 1-based inclusive lines and its byte range.
pub(crate) fn span_of(node: Node<'_>) -> Span {
    Span {
        start_line: node.start_position().row as u32 + 1,
        end_line: node.end_position().row as u32 + 1,
        start_byte: node.start_byte() as u32,
        end_byte: node.end_byte() as u32,
    }
}

/// The 1-based line a node starts on.
pub(crate) fn line_of(node: Node<'_>) -> u32 {
    node.start_position().row as u32 + 1
}

/// The text of a node; empty if the range is not on a character boundary (cannot happen
/// for a tree parsed from the same `&str`).
pub(crate) fn text_of<'source>(node: Node<'_>, source: &'source str) -> &'source str {
    source.get(node.byte_range()).unwrap_or("")
}

/// At most this many syntax errors are reported per file.
const MAX_SYNTAX_ERRORS_REPORTED: usize = 3;

fn report_syntax_errors(path: &str, root: Node<'_>, diagnostics: &mut Vec<Diagnostic>) {
    if !root.has_error() {
        return;
    }
    let mut found = 0usize;
    let mut cursor = root.walk();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if found >= MAX_SYNTAX_ERRORS_REPORTED {
            break;
        }
        if node.is_error() || node.is_missing() {
            found += 1;
            let message = if node.is_missing() {
                format!("missing `{}`; facts outside the error region are kept", node.kind())
            } else {
                "syntax error; facts outside the error region are kept".to_string()
            };
            diagnostics.push(Diagnostic {
                path: path.to_string(),
                line: Some(line_of(node)),
                kind: DiagnosticKind::SyntaxError,
                message,
            });
            continue;
        }
        if node.has_error() {
            let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
            stack.extend(children.into_iter().rev());
        }
    }
}

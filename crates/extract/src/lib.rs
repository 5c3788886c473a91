//! Extraction: one file's source text becomes its [`FileFacts`] (symbols, call sites,
//! imports, supertypes, impl blocks, typed bindings) through tree-sitter tag queries.
//!
//! Extraction never fails: a file that is binary, not UTF-8, too large or full of syntax
//! errors yields diagnostics, and whatever facts could be recovered.
//!
//! This crate deliberately does no IO (the caller reads files and Cargo manifests), no
//! cross-file resolution (that is `tether-resolve`), and no storage.

/// `node.child_by_field_name("name")`, with the field's id looked up once per call site rather
/// than by comparing field names on every call. A call site sees one language's nodes only.
macro_rules! field_child {
    ($node:expr, $name:literal) => {{
        static FIELD_ID: std::sync::OnceLock<Option<std::num::NonZeroU16>> =
            std::sync::OnceLock::new();
        let node: tree_sitter::Node<'_> = $node;
        FIELD_ID
            .get_or_init(|| node.language().field_id_for_name($name))
            .and_then(|id| node.child_by_field_id(id.get()))
    }};
}

mod ancestors;
mod module_names;
mod outline;
mod python;
mod query;
mod query_plan;
mod render;
mod rust;

use std::cell::RefCell;

use tether_model::{Diagnostic, DiagnosticKind, FileFacts, Language};

pub use module_names::{python_module_name, rust_module_path, RustCrate};
pub use query::{check_queries, QueryLoadError};
pub use render::render_facts;

/// The binding name under which a function's declared return type is recorded.
pub const RETURN_BINDING: &str = "return";

/// The binding name under which a Python function's `yield` values are recorded.
pub const YIELD_BINDING: &str = "yield";

/// The binding that marks a Python method as a property (`@property`, `@cached_property`):
/// reading the attribute gives what the method returns.
pub const PROPERTY_BINDING: &str = "@property";

/// The binding that marks a Python method as a property's setter (`@name.setter`): writing
/// the attribute calls it.
pub const PROPERTY_SETTER_BINDING: &str = "@property.setter";

/// The binding that marks a Python function decorated as a pytest fixture (`@pytest.fixture`,
/// `@fixture(scope=…)`): tests elsewhere may receive its value by naming it.
pub const FIXTURE_BINDING: &str = "@fixture";

/// The binding that marks a pytest fixture declared `autouse=True`: every test in its scope
/// (its class, module, or the folders under its `conftest.py`) runs it.
pub const AUTOUSE_FIXTURE_BINDING: &str = "@autouse_fixture";

/// The binding that marks a Python `@overload` stub: the implementation of the same name is
/// what runs.
pub const OVERLOAD_BINDING: &str = "@overload";

/// The binding that marks a Rust method of an inherent impl written without `pub`: only its
/// module (and the modules inside it) can call it; elsewhere a trait method of the same name
/// is the one called.
pub const PRIVATE_METHOD_BINDING: &str = "@private";

/// The bindings under which a decorated Python function records its decorators, in the
/// order they apply (the nearest first): each is what calling that decorator returns, so
/// the name denotes what the last one gives when that is visible.
pub const DECORATED_BINDING: &str = "@decorated";

/// The binding name under which a Rust type alias records the type it stands for.
pub const TYPE_ALIAS_BINDING: &str = "type";

/// Files larger than this are skipped with a diagnostic unless the caller sets another limit.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 2 * 1024 * 1024;

/// Files whose syntax tree nests deeper than this are skipped with a `too_deep` diagnostic.
/// Lowering and resolution walk nested types, expressions and items recursively; this bound
/// (with the stack size [`EXTRACTION_STACK_BYTES`]) keeps every such walk on the stack and
/// every qualified name short. Hand-written code stays far below it (see ARCHITECTURE.md).
pub const MAX_SYNTAX_DEPTH: usize = 1000;

/// The stack each thread that extracts or resolves needs for files within
/// [`MAX_SYNTAX_DEPTH`]: the index's worker pool and the daemon's request threads are built
/// with it (Rust's default for spawned threads is 2 MiB).
pub const EXTRACTION_STACK_BYTES: usize = 64 * 1024 * 1024;

/// One file to extract.
#[derive(Clone, Copy, Debug)]
pub struct SourceFile<'a> {
    /// Repository-relative, `/`-separated.
    pub path: &'a str,
    pub language: Language,
    /// The file's module: `pkg.module` (Python) or `my_crate::a::b` (Rust).
    pub module_name: &'a str,
    pub text: &'a str,
}

/// Extracts the facts of a file given as raw bytes, after checking that it is text.
///
/// Binary content (a NUL byte), invalid UTF-8 and files over `max_bytes` yield a facts value
/// with no symbols and one diagnostic saying why.
pub fn extract_bytes(
    path: &str,
    language: Language,
    module_name: &str,
    bytes: &[u8],
    max_bytes: u64,
) -> FileFacts {
    match text_or_diagnostic(path, bytes, max_bytes) {
        Ok(text) => extract(&SourceFile { path, language, module_name, text }),
        Err(diagnostic) => FileFacts {
            path: path.to_string(),
            language: Some(language),
            diagnostics: vec![diagnostic],
            ..FileFacts::default()
        },
    }
}

/// The bytes as text (validated once), or why they are not.
fn text_or_diagnostic<'a>(
    path: &str,
    bytes: &'a [u8],
    max_bytes: u64,
) -> Result<&'a str, Diagnostic> {
    if bytes.len() as u64 <= max_bytes && !bytes.iter().take(8192).any(|byte| *byte == 0) {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return Ok(text);
        }
    }
    Err(reject_non_text(path, bytes, max_bytes).expect("bytes that are not text have a reason"))
}

/// Why bytes cannot be parsed as source text, if they cannot.
pub fn reject_non_text(path: &str, bytes: &[u8], max_bytes: u64) -> Option<Diagnostic> {
    let (kind, message) = if bytes.len() as u64 > max_bytes {
        (
            DiagnosticKind::TooLarge,
            format!("{} bytes is over the limit of {max_bytes} bytes; not parsed", bytes.len()),
        )
    } else if bytes.iter().take(8192).any(|byte| *byte == 0) {
        (DiagnosticKind::Binary, "contains NUL bytes; looks binary, not parsed".to_string())
    } else if let Err(error) = std::str::from_utf8(bytes) {
        (
            DiagnosticKind::NotUtf8,
            format!("not valid UTF-8 at byte {}; not parsed", error.valid_up_to()),
        )
    } else {
        return None;
    };
    let line = match kind {
        DiagnosticKind::NotUtf8 => {
            let valid =
                std::str::from_utf8(bytes).err().map(|error| error.valid_up_to()).unwrap_or(0);
            Some(bytes[..valid].iter().filter(|byte| **byte == b'\n').count() as u32 + 1)
        }
        _ => None,
    };
    Some(Diagnostic { path: path.to_string(), line, kind, message })
}

thread_local! {
    static PARSERS: RefCell<Vec<(Language, tree_sitter::Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Extracts the facts of one source file.
pub fn extract(file: &SourceFile<'_>) -> FileFacts {
    let (grammar, query) = match query::grammar_and_query(file.language) {
        Ok(loaded) => (&loaded.0, &loaded.1),
        Err(error) => return unsupported(file, error.to_string()),
    };
    let Some(tree) = parse_tree(file.language, grammar, file.text) else {
        return unsupported(file, "tree-sitter returned no tree".to_string());
    };
    // Items inside `cfg_rt! { … }`-style wrappers parse in place once the wrappers are blanked.
    let unwrapped = match file.language {
        Language::Rust => rust::item_macros::unwrap_item_macros(&tree, file.text, |text| {
            parse_tree(file.language, grammar, text)
        }),
        Language::Python => None,
    };
    // The file as written: its macro calls, which the unwrapped parse blanks.
    let written_tree = &tree;
    let (text, tree) = match &unwrapped {
        Some((text, tree, _)) => (text.as_str(), tree),
        None => (file.text, &tree),
    };
    let (tags, depth) = query.tags(tree, text.as_bytes());
    if depth > MAX_SYNTAX_DEPTH {
        return too_deep(file, depth);
    }
    let mut facts = ancestors::while_extracting(tree, || match file.language {
        Language::Python => {
            let lowering = python::PythonLowering::new(file.path);
            outline::sweep(&lowering, file.path, file.module_name, tree, &tags, text)
        }
        Language::Rust => {
            let lowering = rust::RustLowering::new(file.path);
            outline::sweep(&lowering, file.path, file.module_name, tree, &tags, text)
        }
    });
    if file.language == Language::Rust {
        // What the file's own `macro_rules!` write in item position, swept like the file.
        for expansion in rust::macro_expansion::item_macro_expansions(tree, text) {
            let Some(expanded_tree) = parse_tree(file.language, grammar, &expansion.text) else {
                continue;
            };
            let (tags, depth) = query.tags(&expanded_tree, expansion.text.as_bytes());
            if depth > MAX_SYNTAX_DEPTH {
                continue;
            }
            let expanded = ancestors::while_extracting(&expanded_tree, || {
                let lowering = rust::RustLowering::new(file.path);
                let text = expansion.text.as_str();
                outline::sweep(&lowering, file.path, file.module_name, &expanded_tree, &tags, text)
            });
            rust::macro_expansion::merge_expansion(&mut facts, expanded, expansion.invocation_byte);
        }
        rust::test_macros::mark_tests_written_from_items(written_tree, file.text, &mut facts);
        rust::attribute_strings::record_attribute_string_mentions(
            written_tree.root_node(),
            file.text,
            &mut facts,
        );
        if let Some((_, _, wrapper_calls)) = unwrapped {
            rust::item_macros::push_wrapper_calls(wrapper_calls, &mut facts);
        }
    }
    hash_symbol_texts(&mut facts, file.text);
    facts
}

/// Each symbol's [`Symbol::content_hash`](tether_model::Symbol): the hash of its span's
/// bytes in the file as written (0 for a span outside them).
fn hash_symbol_texts(facts: &mut FileFacts, text: &str) {
    for symbol in &mut facts.symbols {
        let span = symbol.span;
        symbol.content_hash = text
            .as_bytes()
            .get(span.start_byte as usize..span.end_byte as usize)
            .map_or(0, tether_model::stable_hash);
    }
}

/// Parses a file and discards the tree: the floor under extraction's cost, for benchmarks.
/// Returns the number of bytes parsed, or `None` if tree-sitter gave up.
pub fn parse_only(language: Language, text: &str) -> Option<usize> {
    let grammar = &query::grammar_and_query(language).as_ref().ok()?.0;
    parse_tree(language, grammar, text).map(|tree| tree.root_node().end_byte())
}

/// Parses with this thread's parser for the language, created on first use.
fn parse_tree(
    language: Language,
    grammar: &tree_sitter::Language,
    text: &str,
) -> Option<tree_sitter::Tree> {
    PARSERS.with(|parsers| {
        let mut parsers = parsers.borrow_mut();
        let position = match parsers.iter().position(|(candidate, _)| *candidate == language) {
            Some(position) => position,
            None => {
                let mut parser = tree_sitter::Parser::new();
                parser.set_language(grammar).ok()?;
                parsers.push((language, parser));
                parsers.len() - 1
            }
        };
        parsers[position].1.parse(text, None)
    })
}

/// A file left out because it nests too deeply: no symbols, one diagnostic.
fn too_deep(file: &SourceFile<'_>, depth: usize) -> FileFacts {
    FileFacts {
        path: file.path.to_string(),
        language: Some(file.language),
        diagnostics: vec![Diagnostic {
            path: file.path.to_string(),
            line: None,
            kind: DiagnosticKind::TooDeep,
            message: format!("its syntax nests {depth} levels deep, over the limit of {MAX_SYNTAX_DEPTH}; not indexed"),
        }],
        ..FileFacts::default()
    }
}

fn unsupported(file: &SourceFile<'_>, message: String) -> FileFacts {
    FileFacts {
        path: file.path.to_string(),
        language: Some(file.language),
        diagnostics: vec![Diagnostic {
            path: file.path.to_string(),
            line: None,
            kind: DiagnosticKind::Unsupported,
            message,
        }],
        ..FileFacts::default()
    }
}

#[cfg(test)]
mod python_tests;
#[cfg(test)]
mod rust_tests;

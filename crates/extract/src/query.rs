//! Loading the `.scm` tag queries: compiled once per language, unknown captures rejected.
//!
//! The capture vocabulary follows tree-sitter's tags convention (`@definition.function`,
//! `@reference.call`, `@name`), plus `@reference.import`, `@reference.inherits` and
//! `@local.definition` (a name whose type is visible), which tags.scm files do not need.

use std::sync::OnceLock;

use tether_model::Language;
use tree_sitter::{Node, Query, QueryCursor, Tree};

use crate::query_plan::{push_matches, FoundTag, QueryPlan};

/// What a definition capture declares, before the language decides on the final kind
/// (a function inside a class becomes a method).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum DefinitionCapture {
    Module,
    Class,
    Struct,
    Enum,
    Union,
    Trait,
    Impl,
    Function,
    Lambda,
    Macro,
    TypeAlias,
    /// A block that runs only when the file is run as a script (Python's `if __name__ ==
    /// "__main__":`): a function named `__main__`, so its calls are not import-time code.
    Script,
}

/// The role of one capture name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CaptureRole {
    Definition(DefinitionCapture),
    Call,
    Import,
    Inherits,
    Binding,
    /// `@reference.value`: a node whose names are used as values (passed, stored, returned).
    Value,
    /// `@reference.protocol`: a construct the language calls methods for without a call
    /// expression (Python's `with x:` calls `x.__enter__()` and `x.__exit__()`).
    Protocol,
    /// `@reference.attribute`: an attribute read (`x.name` not called, not assigned), which
    /// runs a getter when the attribute is a property.
    Attribute,
    /// `@local.scope`: a block whose end ends the locals bound in it (no symbol).
    LocalScope,
    Name,
}

impl CaptureRole {
    fn from_capture_name(name: &str) -> Option<CaptureRole> {
        let role = match name {
            "name" => CaptureRole::Name,
            "definition.module" => CaptureRole::Definition(DefinitionCapture::Module),
            "definition.class" => CaptureRole::Definition(DefinitionCapture::Class),
            "definition.struct" => CaptureRole::Definition(DefinitionCapture::Struct),
            "definition.enum" => CaptureRole::Definition(DefinitionCapture::Enum),
            "definition.union" => CaptureRole::Definition(DefinitionCapture::Union),
            "definition.trait" => CaptureRole::Definition(DefinitionCapture::Trait),
            "definition.impl" => CaptureRole::Definition(DefinitionCapture::Impl),
            "definition.function" => CaptureRole::Definition(DefinitionCapture::Function),
            "definition.lambda" => CaptureRole::Definition(DefinitionCapture::Lambda),
            "definition.macro" => CaptureRole::Definition(DefinitionCapture::Macro),
            "definition.type" => CaptureRole::Definition(DefinitionCapture::TypeAlias),
            "definition.script" => CaptureRole::Definition(DefinitionCapture::Script),
            "reference.call" => CaptureRole::Call,
            "reference.import" => CaptureRole::Import,
            "reference.inherits" => CaptureRole::Inherits,
            "reference.value" => CaptureRole::Value,
            "reference.protocol" => CaptureRole::Protocol,
            "reference.attribute" => CaptureRole::Attribute,
            "local.definition" => CaptureRole::Binding,
            "local.scope" => CaptureRole::LocalScope,
            _ => return None,
        };
        Some(role)
    }
}

/// A query failed to load. Queries ship inside the binary, so this is a bug in a `.scm` file;
/// a unit test loads every language's query.
#[derive(Debug, thiserror::Error)]
pub enum QueryLoadError {
    #[error("queries/{language}/tags.scm:{line}: {message}")]
    Syntax { language: Language, line: usize, message: String },
    #[error("queries/{language}/tags.scm: unknown capture @{capture} (known: @name, @definition.*, @reference.call, @reference.import, @reference.inherits, @reference.value, @reference.protocol, @local.definition, @local.scope)")]
    UnknownCapture { language: Language, capture: String },
}

/// One language's compiled query with the role of each capture index.
pub(crate) struct TagQuery {
    query: Query,
    roles: Vec<CaptureRole>,
    /// How the query runs in one tree walk; `None` runs tree-sitter's cursor over the tree.
    plan: Option<QueryPlan>,
}

/// One captured node with its `@name` node from the same match, if any.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tag<'tree> {
    pub role: CaptureRole,
    pub node: Node<'tree>,
    pub name: Option<Node<'tree>>,
}

impl TagQuery {
    pub(crate) fn load(
        language: Language,
        grammar: &tree_sitter::Language,
        source: &str,
    ) -> Result<TagQuery, QueryLoadError> {
        let query = Query::new(grammar, source).map_err(|error| QueryLoadError::Syntax {
            language,
            line: error.row + 1,
            message: error.message.clone(),
        })?;
        let mut roles = Vec::new();
        for capture in query.capture_names() {
            match CaptureRole::from_capture_name(capture) {
                Some(role) => roles.push(role),
                None => {
                    return Err(QueryLoadError::UnknownCapture {
                        language,
                        capture: capture.to_string(),
                    })
                }
            }
        }
        let plan = QueryPlan::new(grammar, source, &query, &roles);
        Ok(TagQuery { query, roles, plan })
    }

    /// Every tagged node of the tree, in document order, each (node, role) once.
    /// The tags of a tree in document order, and the depth of its deepest node.
    pub(crate) fn tags<'tree>(&self, tree: &'tree Tree, source: &[u8]) -> (Vec<Tag<'tree>>, usize) {
        let mut found = Vec::new();
        let depth = match &self.plan {
            Some(plan) => plan.run(tree, source, &self.roles, &mut found),
            None => {
                push_matches(
                    &self.query,
                    &mut QueryCursor::new(),
                    tree.root_node(),
                    source,
                    &self.roles,
                    &mut found,
                );
                crate::query_plan::tree_depth(tree)
            }
        };
        (sorted_tags(found), depth)
    }

    /// [`tags`](TagQuery::tags) by tree-sitter's query cursor alone: what the plan must equal.
    #[cfg(test)]
    pub(crate) fn tags_by_cursor<'tree>(
        &self,
        tree: &'tree Tree,
        source: &[u8],
    ) -> Vec<Tag<'tree>> {
        let mut found = Vec::new();
        push_matches(
            &self.query,
            &mut QueryCursor::new(),
            tree.root_node(),
            source,
            &self.roles,
            &mut found,
        );
        sorted_tags(found)
    }
}

/// Tags in document order (an enclosing node before the nodes inside it), each (node, role) once.
fn sorted_tags(found: Vec<FoundTag<'_>>) -> Vec<Tag<'_>> {
    let mut tags: Vec<Tag<'_>> =
        found.into_iter().map(|(role, node, name)| Tag { role, node, name }).collect();
    tags.sort_by_key(|tag| (tag.node.start_byte(), std::cmp::Reverse(tag.node.end_byte())));
    tags.dedup_by(|a, b| a.node.id() == b.node.id() && a.role == b.role);
    tags
}

pub(crate) const PYTHON_TAGS: &str = include_str!("../../../queries/python/tags.scm");
pub(crate) const RUST_TAGS: &str = include_str!("../../../queries/rust/tags.scm");

/// The grammar and compiled query of a language, built on first use.
pub(crate) fn grammar_and_query(
    language: Language,
) -> &'static Result<(tree_sitter::Language, TagQuery), QueryLoadError> {
    static PYTHON: OnceLock<Result<(tree_sitter::Language, TagQuery), QueryLoadError>> =
        OnceLock::new();
    static RUST: OnceLock<Result<(tree_sitter::Language, TagQuery), QueryLoadError>> =
        OnceLock::new();
    let (cell, grammar, source): (_, tree_sitter::Language, _) = match language {
        Language::Python => (&PYTHON, tree_sitter_python::LANGUAGE.into(), PYTHON_TAGS),
        Language::Rust => (&RUST, tree_sitter_rust::LANGUAGE.into(), RUST_TAGS),
    };
    cell.get_or_init(|| {
        let query = TagQuery::load(language, &grammar, source)?;
        Ok((grammar, query))
    })
}

/// Checks that every language's query loads; the CLI and tests call it up front.
pub fn check_queries() -> Result<(), &'static QueryLoadError> {
    for language in Language::ALL {
        if let Err(error) = grammar_and_query(language) {
            return Err(error);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_query_loads() {
        check_queries().unwrap();
    }

    type TagSummary = (String, usize, usize, CaptureRole, Option<(usize, usize)>);

    /// Kind, span, role and `@name` span of each tag: what the plan and the cursor must agree on.
    fn tag_summary(tags: &[Tag<'_>]) -> Vec<TagSummary> {
        tags.iter()
            .map(|tag| {
                (
                    tag.node.kind().to_string(),
                    tag.node.start_byte(),
                    tag.node.end_byte(),
                    tag.role,
                    tag.name.map(|name| (name.start_byte(), name.end_byte())),
                )
            })
            .collect()
    }

    fn assert_plan_matches_cursor(language: Language, source: &str) {
        let (grammar, query) = grammar_and_query(language).as_ref().unwrap();
        assert!(query.plan.is_some(), "the shipped {language} query is planned");
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(grammar).unwrap();
        let tree = parser.parse(source, None).unwrap();
        let planned = tag_summary(&query.tags(&tree, source.as_bytes()).0);
        let by_cursor = tag_summary(&query.tags_by_cursor(&tree, source.as_bytes()));
        assert!(planned.len() > 20, "a sample worth comparing: {planned:?}");
        assert_eq!(planned, by_cursor);
    }

    #[test]
    fn the_planned_walk_finds_what_the_query_cursor_finds() {
        for source in [
            include_str!("rust/bindings.rs"),
            include_str!("rust/mod.rs"),
            include_str!("outline.rs"),
            include_str!("query_plan.rs"),
        ] {
            assert_plan_matches_cursor(Language::Rust, source);
        }
        assert_plan_matches_cursor(Language::Rust, "trait A: B + C where Self: D { fn f(&self); }\nmacro_rules! m { () => {} }\ntype T = u8;\nmod x { union U { a: u8 } enum E { V(u8) } }\nfn g() { let Some(v) = h() else { return }; for (a, b) in i() { m!(a); } |x: T| x; }");
        let python = r#"
import os
from a.b import c as d

@decorator
@module.decorator(arg)
class Service(Base, metaclass=Meta):
    '''Doc.'''
    def __init__(self, helper: Helper = make()):
        self.helper = helper
        handler = lambda item: item.run()
        with open(path) as stream, lock:
            data = [transform(x) for x in stream if keep(x)]
        for key, value in data:
            if isinstance(value, Node):
                value.visit()
            elif isinstance(value, Leaf):
                value.leaf()
        assert isinstance(self.helper, Helper)
        yield handler(data)
        return self.helper.done()

def outer():
    def inner():
        return [y async for y in source()]
    return inner
"#;
        assert_plan_matches_cursor(Language::Python, python);
    }

    #[test]
    fn unknown_captures_are_rejected_at_load() {
        let grammar: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
        let error =
            TagQuery::load(Language::Python, &grammar, "(call) @reference.cal").err().unwrap();
        assert!(error.to_string().contains("unknown capture @reference.cal"), "{error}");
        let error = TagQuery::load(Language::Python, &grammar, "(call").err().unwrap();
        assert!(matches!(error, QueryLoadError::Syntax { .. }), "{error}");
    }
}

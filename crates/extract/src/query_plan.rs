//! Running a tag query in one tree walk: patterns of the simplest shapes are matched by node
//! kind, the rest by tree-sitter's query cursor started at their root node only.
//!
//! A query cursor pays for every node of the tree (field and sibling status, the pattern map,
//! in-progress states): on rust-analyzer it cost 0.7 s against 0.3 s for a plain cursor walk
//! (see ARCHITECTURE.md, "Extraction"). Nearly every tag pattern is `(kind) @role` or
//! `(kind name: (child) @name) @role`, and those need nothing but the node's kind. The `.scm`
//! file stays the single source of truth: the plan is read from its patterns, a pattern of any
//! other shape is left to tree-sitter at its root node, and a query whose roots cannot be read
//! this way runs on the query cursor as a whole. A unit test checks the plan against the cursor.

use tree_sitter::{Node, Query, QueryCursor, StreamingIterator, Tree};

use crate::query::CaptureRole;

/// A pattern the walk matches itself.
#[derive(Clone, Copy, Debug)]
struct NodePattern {
    role: CaptureRole,
    /// `field: (kind) @name`: the named child the pattern requires and captures as `@name`.
    name_child: Option<(std::num::NonZeroU16, u16)>,
}

/// What the walk does at a node of one kind.
#[derive(Clone, Debug, Default)]
struct KindPlan {
    patterns: Vec<NodePattern>,
    /// Some pattern of another shape is rooted at this kind: run the cursor here.
    needs_cursor: bool,
}

/// The query split by root node kind, or `None` when some pattern's root kind cannot be read.
pub(crate) struct QueryPlan {
    by_kind: Vec<KindPlan>,
    /// The same query with the patterns the walk matches itself disabled.
    rest: Query,
}

/// One tagged node as the plan finds it: (role, node, `@name` node).
pub(crate) type FoundTag<'tree> = (CaptureRole, Node<'tree>, Option<Node<'tree>>);

impl QueryPlan {
    /// Plans `source` (already compiled as `query`); `None` if any pattern's root is not a
    /// plain named node kind, in which case the caller runs the cursor over the whole tree.
    pub(crate) fn new(
        grammar: &tree_sitter::Language,
        source: &str,
        query: &Query,
        roles: &[CaptureRole],
    ) -> Option<QueryPlan> {
        let mut rest = Query::new(grammar, source).ok()?;
        let mut by_kind = vec![KindPlan::default(); grammar.node_kind_count()];
        for pattern in 0..query.pattern_count() {
            let text =
                &source[query.start_byte_for_pattern(pattern)..query.end_byte_for_pattern(pattern)];
            let tokens = pattern_tokens(text);
            let root = match tokens.as_slice() {
                [PatternToken::Open, PatternToken::Word(kind), ..] => kind_id(grammar, kind)?,
                _ => return None,
            };
            match simple_pattern(grammar, &tokens, roles, query) {
                Some(found)
                    if query.general_predicates(pattern).is_empty()
                        && query.property_predicates(pattern).is_empty() =>
                {
                    by_kind[root as usize].patterns.push(found);
                    rest.disable_pattern(pattern);
                }
                _ => by_kind[root as usize].needs_cursor = true,
            }
        }
        Some(QueryPlan { by_kind, rest })
    }

    /// Every match of the query in `tree`, in walk order (not yet sorted), and the depth of
    /// the deepest node (the root is at depth 0), which the walk measures for free.
    pub(crate) fn run<'tree>(
        &self,
        tree: &'tree Tree,
        source: &[u8],
        roles: &[CaptureRole],
        found: &mut Vec<FoundTag<'tree>>,
    ) -> usize {
        let mut cursor = tree.walk();
        let mut rest_cursor: Option<QueryCursor> = None;
        let (mut depth, mut deepest) = (0usize, 0usize);
        'walk: loop {
            let node = cursor.node();
            if let Some(plan) = self.by_kind.get(node.kind_id() as usize) {
                for pattern in &plan.patterns {
                    match pattern.name_child {
                        None => found.push((pattern.role, node, None)),
                        Some((field, kind)) => {
                            if let Some(name) = named_child(node, field, kind) {
                                found.push((pattern.role, node, Some(name)));
                            }
                        }
                    }
                }
                if plan.needs_cursor {
                    let rest_cursor = rest_cursor.get_or_insert_with(|| {
                        let mut cursor = QueryCursor::new();
                        cursor.set_max_start_depth(Some(0));
                        cursor
                    });
                    push_matches(&self.rest, rest_cursor, node, source, roles, found);
                }
            }
            if cursor.goto_first_child() {
                depth += 1;
                deepest = deepest.max(depth);
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
                depth -= 1;
            }
        }
        deepest
    }
}

/// The depth of the deepest node of a tree (the root is at depth 0), by one cursor walk.
pub(crate) fn tree_depth(tree: &Tree) -> usize {
    let mut cursor = tree.walk();
    let (mut depth, mut deepest) = (0usize, 0usize);
    loop {
        if cursor.goto_first_child() {
            depth += 1;
            deepest = deepest.max(depth);
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return deepest;
            }
            depth -= 1;
        }
    }
}

/// The first child of `node` in `field` whose kind is `kind`.
fn named_child(node: Node<'_>, field: std::num::NonZeroU16, kind: u16) -> Option<Node<'_>> {
    let first = node.child_by_field_id(field.get())?;
    if first.kind_id() == kind {
        return Some(first);
    }
    let mut children = node.walk();
    let found =
        node.children_by_field_id(field, &mut children).find(|child| child.kind_id() == kind);
    found
}

/// Runs `query` from `node` and adds every capture but `@name`, with its match's `@name`.
pub(crate) fn push_matches<'tree>(
    query: &Query,
    cursor: &mut QueryCursor,
    node: Node<'tree>,
    source: &[u8],
    roles: &[CaptureRole],
    found: &mut Vec<FoundTag<'tree>>,
) {
    let mut matches = cursor.matches(query, node, source);
    while let Some(matched) = matches.next() {
        let name = matched
            .captures()
            .iter()
            .find(|capture| roles[capture.index as usize] == CaptureRole::Name)
            .map(|capture| capture.node);
        for capture in matched.captures() {
            let role = roles[capture.index as usize];
            if role != CaptureRole::Name {
                found.push((role, capture.node, name));
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum PatternToken<'a> {
    Open,
    Close,
    /// `field:`
    Field(&'a str),
    /// `@capture`
    Capture(&'a str),
    /// A node kind.
    Word(&'a str),
    /// Anything else: strings, alternations, quantifiers, anchors, predicates, negations.
    Other,
}

/// The tokens of one pattern's text, comments dropped.
fn pattern_tokens(text: &str) -> Vec<PatternToken<'_>> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    let is_word = |byte: u8| byte.is_ascii_alphanumeric() || matches!(byte, b'_' | b'.' | b'-');
    while at < bytes.len() {
        match bytes[at] {
            b';' => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    at += 1;
                }
            }
            byte if byte.is_ascii_whitespace() => at += 1,
            b'(' => {
                tokens.push(PatternToken::Open);
                at += 1;
            }
            b')' => {
                tokens.push(PatternToken::Close);
                at += 1;
            }
            b'@' => {
                let start = at + 1;
                at = start;
                while at < bytes.len() && is_word(bytes[at]) {
                    at += 1;
                }
                tokens.push(PatternToken::Capture(&text[start..at]));
            }
            byte if is_word(byte) && byte != b'.' && byte != b'_'
                || byte == b'_' && bytes.get(at + 1).is_some_and(|next| is_word(*next)) =>
            {
                let start = at;
                while at < bytes.len() && is_word(bytes[at]) {
                    at += 1;
                }
                if bytes.get(at) == Some(&b':') {
                    tokens.push(PatternToken::Field(&text[start..at]));
                    at += 1;
                } else {
                    tokens.push(PatternToken::Word(&text[start..at]));
                }
            }
            _ => {
                tokens.push(PatternToken::Other);
                at += 1;
            }
        }
    }
    tokens
}

/// `(kind) @role` or `(kind field: (child) @name) @role`, with the capture's role.
fn simple_pattern(
    grammar: &tree_sitter::Language,
    tokens: &[PatternToken<'_>],
    roles: &[CaptureRole],
    query: &Query,
) -> Option<NodePattern> {
    use PatternToken::{Capture, Close, Field, Open, Word};
    let role_of = |capture: &str| {
        let index = query.capture_index_for_name(capture)?;
        roles.get(index as usize).copied().filter(|role| *role != CaptureRole::Name)
    };
    match tokens {
        [Open, Word(_), Close, Capture(capture)] => {
            Some(NodePattern { role: role_of(capture)?, name_child: None })
        }
        [Open, Word(_), Field(field), Open, Word(child), Close, Capture("name"), Close, Capture(capture)] =>
        {
            let field = grammar.field_id_for_name(field)?;
            Some(NodePattern {
                role: role_of(capture)?,
                name_child: Some((field, kind_id(grammar, child)?)),
            })
        }
        _ => None,
    }
}

/// The id of a named node kind; `None` for kinds the grammar lacks and for supertypes
/// (`_expression`), which match nodes of other kinds.
fn kind_id(grammar: &tree_sitter::Language, kind: &str) -> Option<u16> {
    if kind.starts_with('_') {
        return None;
    }
    // `ERROR` has an id beyond the grammar's kinds; it is left to the cursor.
    Some(grammar.id_for_node_kind(kind, true))
        .filter(|id| *id != 0 && (*id as usize) < grammar.node_kind_count())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_shapes_are_read() {
        use PatternToken::{Capture, Close, Field, Open, Other, Word};
        assert_eq!(
            pattern_tokens("(call) @reference.call"),
            vec![Open, Word("call"), Close, Capture("reference.call")]
        );
        assert_eq!(
            pattern_tokens(
                "(function_item ; the name\n  name: (identifier) @name) @definition.function"
            ),
            vec![
                Open,
                Word("function_item"),
                Field("name"),
                Open,
                Word("identifier"),
                Close,
                Capture("name"),
                Close,
                Capture("definition.function")
            ]
        );
        assert_eq!(
            pattern_tokens("(argument_list (_) @x)"),
            vec![Open, Word("argument_list"), Open, Other, Close, Capture("x"), Close]
        );
        assert_eq!(pattern_tokens("[(a) (b)] @x")[0], Other);
    }

    #[test]
    fn patterns_the_walk_cannot_match_are_left_to_the_cursor() {
        let grammar: tree_sitter::Language = tree_sitter_python::LANGUAGE.into();
        let roles = [CaptureRole::Call, CaptureRole::Name];
        let plan = |source: &str| {
            let query = Query::new(&grammar, source).unwrap();
            QueryPlan::new(&grammar, source, &query, &roles[..query.capture_names().len()])
        };
        let planned =
            plan("(call) @reference.call (decorator (identifier) @reference.call)").unwrap();
        let call = grammar.id_for_node_kind("call", true) as usize;
        let decorator = grammar.id_for_node_kind("decorator", true) as usize;
        assert_eq!(
            (planned.by_kind[call].patterns.len(), planned.by_kind[call].needs_cursor),
            (1, false)
        );
        assert_eq!(
            (planned.by_kind[decorator].patterns.len(), planned.by_kind[decorator].needs_cursor),
            (0, true)
        );
        // Roots the walk cannot read: the whole query runs on the cursor.
        assert!(plan("[(call) (decorator)] @reference.call").is_none());
        assert!(plan("(ERROR) @reference.call").is_none());
        assert!(plan("(_) @reference.call").is_none());
    }
}

//! Matching a `macro_rules!` rule's left side against an invocation's tokens, for the
//! fragments tether follows: tokens written as is, `$name:fragment` bindings, delimited
//! groups, and one repetition (`$( … ) sep? *`, `+` or `?`), whose bindings are kept per
//! iteration, so that `int_trait_impl!(Num for usize u8)` against
//! `($name:ident for $($t:ty)*)` binds `name` once and `t` twice.
//!
//! It deliberately does not follow nested repetitions or two repetitions in one rule, a
//! fragment of several tokens followed by another fragment or a group, or, inside a
//! repetition, an `expr` (or other many-token fragment) with no separator after it: such a
//! rule does not match, and the invocation keeps the token-tree treatment.

use std::ops::Range;

use tree_sitter::Node;

/// One element of a rule's matcher.
pub(crate) enum Matcher {
    /// A token written as is (`,`, `=>`, an identifier).
    Literal(String),
    /// `$name:fragment`.
    Binding { name: String, fragment: String },
    /// A delimited group, matched against a token tree of the same delimiter.
    Group { delimiter: char, inner: Vec<Matcher> },
    /// `$( inner ) separator? operator`.
    Repetition { inner: Vec<Matcher>, separator: Option<String>, operator: char },
}

/// What a matched rule binds: the metavariables outside the repetition, and those inside it
/// once per iteration.
#[derive(Default)]
pub(crate) struct Bindings {
    pub(crate) single: Vec<(String, Range<usize>)>,
    pub(crate) iterations: Vec<Vec<(String, Range<usize>)>>,
    /// Whether the rule has a repetition (possibly matched zero times).
    pub(crate) repeats: bool,
}

impl Bindings {
    /// The bytes a metavariable is bound to, in iteration `iteration` when it repeats.
    pub(crate) fn value_of(&self, name: &str, iteration: Option<usize>) -> Option<&Range<usize>> {
        let repeated = iteration.and_then(|iteration| self.iterations.get(iteration));
        repeated
            .into_iter()
            .flatten()
            .chain(&self.single)
            .find(|(bound_name, _)| bound_name == name)
            .map(|(_, range)| range)
    }
}

/// The children of a delimited node without its opening and closing delimiters.
pub(crate) fn inner_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    if children.len() < 2 {
        return Vec::new();
    }
    children[1..children.len() - 1].to_vec()
}

/// The matcher of a rule's left side (a delimited pattern); `None` for what is not followed.
pub(crate) fn matchers_of(pattern: Node<'_>, source: &str) -> Option<Vec<Matcher>> {
    let matchers = matchers_of_nodes(&inner_children(pattern), source, Nesting::TopLevel)?;
    let repetitions = count_repetitions(&matchers);
    (repetitions <= 1).then_some(matchers)
}

fn count_repetitions(matchers: &[Matcher]) -> usize {
    matchers
        .iter()
        .map(|matcher| match matcher {
            Matcher::Repetition { .. } => 1,
            Matcher::Group { inner, .. } => count_repetitions(inner),
            _ => 0,
        })
        .sum()
}

/// Whether a pattern stands inside a `$( … )*` repetition (one level is read, not two).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Nesting {
    TopLevel,
    InsideRepetition,
}

fn matchers_of_nodes(nodes: &[Node<'_>], source: &str, nesting: Nesting) -> Option<Vec<Matcher>> {
    let mut matchers = Vec::new();
    for child in nodes {
        matchers.push(match child.kind() {
            "token_binding_pattern" => {
                let name = field_child!(*child, "name")?;
                let fragment = field_child!(*child, "type")?;
                Matcher::Binding {
                    name: source[name.byte_range()].trim_start_matches('$').to_string(),
                    fragment: source[fragment.byte_range()].to_string(),
                }
            }
            "token_repetition_pattern" if nesting == Nesting::TopLevel => {
                repetition_of(*child, source)?
            }
            "token_repetition_pattern" => return None,
            "token_tree_pattern" => Matcher::Group {
                delimiter: source[child.byte_range()].chars().next()?,
                inner: matchers_of_nodes(&inner_children(*child), source, nesting)?,
            },
            _ => Matcher::Literal(source[child.byte_range()].to_string()),
        });
    }
    Some(matchers)
}

/// `$( … ) sep? op`: children `$`, `(`, the patterns, `)`, the operator.
fn repetition_of(node: Node<'_>, source: &str) -> Option<Matcher> {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    let operator = source[children.last()?.byte_range()].chars().next()?;
    let closing = children.iter().rposition(|child| child.kind() == ")")?;
    if closing < 2 {
        return None;
    }
    // The separator is not a node of its own: it is the text between `)` and the operator.
    let between = source[children[closing].end_byte()..children.last()?.start_byte()].trim();
    let separator = (!between.is_empty()).then(|| between.to_string());
    let inner = matchers_of_nodes(&children[2..closing], source, Nesting::InsideRepetition)?;
    Some(Matcher::Repetition { inner, separator, operator })
}

/// Whether `tokens` match `matchers` whole.
pub(crate) fn match_all(
    matchers: &[Matcher],
    tokens: &[Node<'_>],
    source: &str,
    bindings: &mut Bindings,
) -> bool {
    let mut single = Vec::new();
    match match_prefix(matchers, tokens, source, &mut single, bindings, None) {
        Some(taken) if taken == tokens.len() => {
            bindings.single.extend(single);
            true
        }
        _ => false,
    }
}

/// How many of `tokens` a sequence of matchers takes from the start, binding metavariables
/// into `bound` (a repetition's iterations go to `bindings`); `until` is set inside a
/// repetition, with its separator if it has one.
fn match_prefix(
    matchers: &[Matcher],
    tokens: &[Node<'_>],
    source: &str,
    bound: &mut Vec<(String, Range<usize>)>,
    bindings: &mut Bindings,
    until: Option<Option<&str>>,
) -> Option<usize> {
    let mut position = 0;
    for (index, matcher) in matchers.iter().enumerate() {
        match matcher {
            Matcher::Literal(literal) => {
                let token = tokens.get(position)?;
                if &source[token.byte_range()] != literal {
                    return None;
                }
                position += 1;
            }
            Matcher::Group { delimiter, inner } => {
                let token = tokens.get(position)?;
                let inside = inner_children(*token);
                if token.kind() != "token_tree"
                    || !source[token.byte_range()].starts_with(*delimiter)
                    || match_prefix(inner, &inside, source, bound, bindings, None)? != inside.len()
                {
                    return None;
                }
                position += 1;
            }
            Matcher::Binding { name, fragment } => {
                let rest = &tokens[position..];
                let next = matchers.get(index + 1);
                let taken = match (next, until) {
                    (None, Some(end)) => {
                        fragment_length_in_repetition(fragment, rest, end, source)?
                    }
                    _ => fragment_length(fragment, rest, next, source)?,
                };
                let range = match (rest.first(), rest.get(taken.max(1) - 1)) {
                    (Some(first), Some(last)) if taken > 0 => first.start_byte()..last.end_byte(),
                    _ => 0..0,
                };
                bound.push((name.clone(), range));
                position += taken;
            }
            Matcher::Repetition { inner, separator, operator } => {
                bindings.repeats = true;
                position += match_repetition(
                    inner,
                    separator.as_deref(),
                    *operator,
                    &tokens[position..],
                    source,
                    bindings,
                )?;
            }
        }
    }
    Some(position)
}

/// Iterations of a repetition, as many as match (each separated by the separator).
fn match_repetition(
    inner: &[Matcher],
    separator: Option<&str>,
    operator: char,
    tokens: &[Node<'_>],
    source: &str,
    bindings: &mut Bindings,
) -> Option<usize> {
    let mut position = 0;
    let mut iterations = Vec::new();
    loop {
        let mut bound = Vec::new();
        let rest = &tokens[position..];
        let Some(taken) = match_prefix(inner, rest, source, &mut bound, bindings, Some(separator))
            .filter(|taken| *taken > 0)
        else {
            break;
        };
        position += taken;
        iterations.push(bound);
        if operator == '?' {
            break;
        }
        match (separator, tokens.get(position)) {
            (Some(separator), Some(token)) if &source[token.byte_range()] == separator => {
                position += 1;
            }
            (Some(_), _) => break,
            (None, _) => {}
        }
    }
    if iterations.is_empty() && operator == '+' {
        return None;
    }
    bindings.iterations = iterations;
    Some(position)
}

/// How many tokens a fragment takes: one for a single-token fragment, otherwise every token
/// up to the next literal of the matcher (outside `<…>`), or all that remain when it is last.
fn fragment_length(
    fragment: &str,
    tokens: &[Node<'_>],
    next: Option<&Matcher>,
    source: &str,
) -> Option<usize> {
    if let Some(length) = single_token_length(fragment, tokens, source) {
        return length;
    }
    match next {
        None => (fragment == "vis" || !tokens.is_empty()).then_some(tokens.len()),
        Some(Matcher::Literal(literal)) => {
            fragment_length_before(fragment, tokens, literal, source)
        }
        // A type or path before a repetition (`$t:ty $(…)*`) is read as one path.
        Some(Matcher::Repetition { .. }) if matches!(fragment, "ty" | "path") => {
            path_length(tokens, source)
        }
        // Two fragments in a row, or a fragment before a group: not followed.
        Some(_) => None,
    }
}

/// The length of `ident`, `lifetime`, `tt` and `literal` fragments (`None` for the others).
fn single_token_length(fragment: &str, tokens: &[Node<'_>], source: &str) -> Option<Option<usize>> {
    match fragment {
        "ident" | "lifetime" | "tt" => Some((!tokens.is_empty()).then_some(1)),
        "literal" => {
            let negative = tokens.first().is_some_and(|token| &source[token.byte_range()] == "-");
            let length = 1 + usize::from(negative);
            Some((tokens.len() >= length).then_some(length))
        }
        _ => None,
    }
}

/// The last fragment of a repetition's body: up to the separator (the last iteration takes
/// the tokens that remain); with no separator, one token, or one path for a type or path
/// (`$($t:ty)*` over `usize u8 Wrapping<u16>`).
fn fragment_length_in_repetition(
    fragment: &str,
    tokens: &[Node<'_>],
    separator: Option<&str>,
    source: &str,
) -> Option<usize> {
    if let Some(length) = single_token_length(fragment, tokens, source) {
        return length;
    }
    match separator {
        Some(separator) => fragment_length_before(fragment, tokens, separator, source)
            .or_else(|| (!tokens.is_empty()).then_some(tokens.len())),
        None if matches!(fragment, "ty" | "path") => path_length(tokens, source),
        None => None,
    }
}

/// Every token up to `separator` (outside `<…>`), when there is one.
fn fragment_length_before(
    fragment: &str,
    tokens: &[Node<'_>],
    separator: &str,
    source: &str,
) -> Option<usize> {
    if let Some(length) = single_token_length(fragment, tokens, source) {
        return length;
    }
    let mut angle_depth = 0usize;
    for (index, token) in tokens.iter().enumerate() {
        let text = &source[token.byte_range()];
        if angle_depth == 0 && text == separator {
            return (fragment == "vis" || index > 0).then_some(index);
        }
        match text {
            "<" => angle_depth += 1,
            ">" => angle_depth = angle_depth.saturating_sub(1),
            ">>" => angle_depth = angle_depth.saturating_sub(2),
            _ => {}
        }
    }
    None
}

/// The tokens of one path or type: `usize`, `core::num::Wrapping<u8>`, `&'a str` is not
/// read (a reference type in a list stays unmatched).
fn path_length(tokens: &[Node<'_>], source: &str) -> Option<usize> {
    let text = |index: usize| tokens.get(index).map(|token| &source[token.byte_range()]);
    let is_name = |index: usize| {
        tokens.get(index).is_some_and(|token| {
            matches!(token.kind(), "identifier" | "primitive_type" | "crate" | "self" | "super")
        })
    };
    let mut position = 0;
    loop {
        if !is_name(position) {
            return None;
        }
        position += 1;
        if text(position) == Some("<") {
            let mut depth = 0usize;
            while let Some(token) = text(position) {
                position += 1;
                match token {
                    "<" => depth += 1,
                    ">" => depth = depth.saturating_sub(1),
                    ">>" => depth = depth.saturating_sub(2),
                    _ => {}
                }
                if depth == 0 {
                    break;
                }
            }
        }
        if text(position) != Some("::") {
            return Some(position);
        }
        position += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The iterations a rule binds for an invocation, as `name=text` per iteration.
    fn iterations_of(definition_and_invocation: &str) -> Option<Vec<String>> {
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_rust::LANGUAGE.into()).unwrap();
        let source = definition_and_invocation;
        let tree = parser.parse(source, None).unwrap();
        let root = tree.root_node();
        let definition = root.named_child(0).unwrap();
        let rule = definition
            .named_children(&mut definition.walk())
            .find(|rule| rule.kind() == "macro_rule")
            .unwrap();
        let invocation = root.named_child(1).unwrap();
        let invocation = match invocation.kind() {
            "expression_statement" => invocation.named_child(0).unwrap(),
            _ => invocation,
        };
        let arguments = invocation
            .named_children(&mut invocation.walk())
            .find(|child| child.kind() == "token_tree")
            .unwrap();
        let matchers = matchers_of(field_child!(rule, "left").unwrap(), source)?;
        let mut bindings = Bindings::default();
        if !match_all(&matchers, &inner_children(arguments), source, &mut bindings) {
            return None;
        }
        Some(
            bindings
                .iterations
                .iter()
                .map(|iteration| {
                    let bound: Vec<String> = iteration
                        .iter()
                        .map(|(name, range)| format!("{name}={}", &source[range.clone()]))
                        .collect();
                    bound.join(" ")
                })
                .collect(),
        )
    }

    #[test]
    fn repetitions_bind_each_iteration() {
        assert_eq!(
            iterations_of(
                "macro_rules! m { ($name:ident for $($t:ty)*) => {}; }\nm!(Num for usize u8 core::num::Wrapping<u16>);"
            ),
            Some(vec!["t=usize".into(), "t=u8".into(), "t=core::num::Wrapping<u16>".into()])
        );
        assert_eq!(
            iterations_of(
                "macro_rules! m { ($($name:ident => $text:expr),*) => {}; }\nm!(one => \"1\", pair => (\"a\", \"b\").0);"
            ),
            Some(vec!["name=one text=\"1\"".into(), "name=pair text=(\"a\", \"b\").0".into()])
        );
        // Nested repetitions are not followed.
        assert_eq!(
            iterations_of("macro_rules! m { ($($($x:ident)*);*) => {}; }\nm!(a b; c);"),
            None
        );
        // `+` needs one iteration.
        assert_eq!(iterations_of("macro_rules! m { ($($x:ident)+) => {}; }\nm!();"), None);
    }
}

//! Calls a macro's arguments make without a call expression, as the macro models say
//! (`queries/rust/macro_models.txt`): `assert_eq!(a, b)` compares `a == b` (`PartialEq::eq` of
//! `a`'s type), `a == b` inside any macro's arguments the same, and each `{}` of a format
//! string calls `Display::fmt` of its argument (`{:?}`: `Debug::fmt`). Each becomes an implicit
//! call site on the argument, resolved like a method call; only project impls become edges.
//!
//! It deliberately reads only plain arguments: a name, a chain of fields or a call, borrowed
//! or not. Any other expression (`*x`, `a + b`, a literal, a macro) is left alone rather than
//! guessed, and so is a format string whose width or precision takes an argument (`{:1$}`,
//! `{:.*}`): its arguments no longer pair with the placeholders in order.

use tether_model::{CallSite, CalleeExpr, FileFacts, Receiver, SymbolId};
use tree_sitter::Node;

use crate::outline::{line_of, text_of};
use crate::python::shorten;
use crate::rust::macro_arguments::{is_parenthesized, is_path_segment, receiver_ending_at};

/// What a call of the macro written `macro_path` makes of its arguments' tokens (`children`,
/// with the delimiters) as its models say.
pub(crate) fn calls_the_macro_makes(
    macro_path: &str,
    children: &[Node<'_>],
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let models = crate::rust::macro_models::shipped_macro_models();
    // Without the delimiters: `(` … `)`.
    let Some(inner) = children.get(1..children.len().saturating_sub(1)) else { return };
    let arguments: Vec<&[Node<'_>]> = inner.split(|token| token.kind() == ",").collect();
    if models.compares_arguments(macro_path) {
        if let Some(first) = arguments.first() {
            push_trait_call(first, TraitCall::Eq, caller, source, facts);
        }
    }
    // A comma inside generic arguments or a closure's parameters at the top level would pair
    // placeholders with the wrong arguments: such a call is left alone.
    let splits_cleanly = !inner.iter().any(|token| matches!(token.kind(), "<" | "|"));
    if let Some(position) = models.format_string_position(macro_path).filter(|_| splits_cleanly) {
        formatted_arguments(&arguments, position, caller, source, facts);
    }
}

/// `left == right` (or `!=`) written in a macro's arguments (`assert!(a == b)`): an implicit
/// call of `eq` on `left` when it is a plain operand (a name, a chain of fields or a call,
/// borrowed or not) that starts the argument or follows `,`, `&&` or `||`, so that no operator
/// binding tighter than `==` (`x + a == b`, `*a == b`, `n as u8 == m`) makes it something else.
pub(crate) fn compared_operand(
    children: &[Node<'_>],
    operator: usize,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let mut start = operator;
    while start > 0 && is_plain_operand_token(children[start - 1], source) {
        start -= 1;
    }
    let operand = &children[start..operator];
    // Borrows before the operand (`&a == &b`) compare the same way.
    let mut before = start;
    while before > 0 && children[before - 1].kind() == "&" {
        before -= 1;
    }
    let starts_argument = before == 0
        || matches!(children[before - 1].kind(), "," | "&&" | "||")
        || (before == 1 && is_delimiter(children[0], source));
    if !starts_argument || operand.is_empty() || is_parenthesized(operand[0], source) {
        return;
    }
    push_trait_call(operand, TraitCall::Eq, caller, source, facts);
}

/// Whether a token may be part of a plain operand: a name (not a macro's metavariable), a
/// `.` or `::`, or a call's parenthesized arguments.
fn is_plain_operand_token(token: Node<'_>, source: &str) -> bool {
    (is_path_segment(token) && token.kind() != "metavariable")
        || matches!(token.kind(), "." | "::")
        || is_parenthesized(token, source)
}

/// Whether a token is a token tree's opening delimiter.
fn is_delimiter(token: Node<'_>, source: &str) -> bool {
    matches!(text_of(token, source), "(" | "[" | "{")
}

/// A trait method the language calls on a plain operand.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TraitCall {
    /// `==`: `PartialEq::eq`, looked up as a method (a project type's own `eq` first).
    Eq,
    Display,
    Debug,
}

/// The tokens of a plain operand without its borrows, and the receiver they denote: a name,
/// a chain of fields or a call (`&map`, `self.items`, `m.get(k)`); `None` for any other
/// expression.
fn plain_operand<'tokens, 'tree>(
    tokens: &'tokens [Node<'tree>],
    source: &str,
) -> Option<(&'tokens [Node<'tree>], Receiver)> {
    let mut operand = tokens;
    while let [borrow, rest @ ..] = operand {
        if borrow.kind() != "&" {
            break;
        }
        operand = rest;
    }
    let first = operand.first()?;
    let is_plain = operand.iter().all(|token| is_plain_operand_token(*token, source));
    if !is_plain || is_parenthesized(*first, source) {
        return None;
    }
    match receiver_ending_at(operand, operand.len() - 1, source, 0) {
        Receiver::Other => None,
        receiver => Some((operand, receiver)),
    }
}

/// Records the trait call on a plain operand's tokens (nothing for another expression).
fn push_trait_call(
    tokens: &[Node<'_>],
    call: TraitCall,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some((operand, receiver)) = plain_operand(tokens, source) else { return };
    let (Some(start), Some(last)) = (operand.first(), operand.last()) else { return };
    let written = source.get(start.start_byte()..last.end_byte()).unwrap_or_default();
    push_call_on(
        receiver,
        written,
        call,
        line_of(*start),
        start.start_byte() as u32,
        caller,
        facts,
    );
}

fn push_call_on(
    receiver: Receiver,
    written: &str,
    call: TraitCall,
    line: u32,
    byte: u32,
    caller: SymbolId,
    facts: &mut FileFacts,
) {
    let (callee, text) = match call {
        TraitCall::Eq => {
            (CalleeExpr::Method { receiver, name: "eq".to_string() }, format!("{written}.eq"))
        }
        TraitCall::Display | TraitCall::Debug => {
            let trait_name = if call == TraitCall::Display { "Display" } else { "Debug" };
            (
                CalleeExpr::TraitMethod {
                    receiver,
                    trait_path: vec![trait_name.to_string()],
                    name: "fmt".to_string(),
                },
                format!("{trait_name}::fmt({written})"),
            )
        }
    };
    facts.implicit_calls.push(CallSite { caller, callee, line, byte, text: shorten(&text) });
}

/// The `{}` and `{:?}` of the format string at `position` among a macro's arguments: each
/// formats the next positional argument, the one its index names, the named argument
/// (`name = value`) or the variable its name captures.
fn formatted_arguments(
    arguments: &[&[Node<'_>]],
    position: usize,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some([literal]) = arguments.get(position) else { return };
    if literal.kind() != "string_literal" {
        return;
    }
    let Some(placeholders) = placeholders(text_of(*literal, source)) else { return };
    let values = &arguments[position + 1..];
    let named = |name: &str| {
        values.iter().find_map(|value: &&[Node<'_>]| match *value {
            [key, equals, rest @ ..] if equals.kind() == "=" && text_of(*key, source) == name => {
                Some(rest)
            }
            _ => None,
        })
    };
    let mut next = 0;
    for placeholder in placeholders {
        let call = if placeholder.debug { TraitCall::Debug } else { TraitCall::Display };
        let tokens = match &placeholder.argument {
            Argument::Next => {
                next += 1;
                values.get(next - 1).copied()
            }
            Argument::Index(index) => values.get(*index).copied(),
            Argument::Name(name) => match named(name) {
                Some(tokens) => Some(tokens),
                // A variable the string captures (`{count}`).
                None if placeholder.other_trait => None,
                None => {
                    let line = line_of(*literal);
                    let byte = literal.start_byte() as u32;
                    let receiver = Receiver::Path(vec![name.clone()]);
                    push_call_on(receiver, name, call, line, byte, caller, facts);
                    None
                }
            },
        };
        if let (Some(tokens), Some(call)) = (tokens, placeholder.trait_call(call)) {
            push_trait_call(tokens, call, caller, source, facts);
        }
    }
}

/// Which argument a placeholder formats.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Argument {
    Next,
    Index(usize),
    Name(String),
}

/// One `{…}` of a format string.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Placeholder {
    argument: Argument,
    debug: bool,
    /// Another formatting trait (`{:x}`: `LowerHex`): no `Display` or `Debug` call.
    other_trait: bool,
}

impl Placeholder {
    fn trait_call(&self, call: TraitCall) -> Option<TraitCall> {
        (!self.other_trait).then_some(call)
    }
}

/// The placeholders of a format string literal, in order; `None` when a width or precision
/// takes an argument (`{:1$}`, `{:.*}`, `{:width$}`), or the string is not a plain literal.
fn placeholders(literal: &str) -> Option<Vec<Placeholder>> {
    let text = literal.strip_prefix('"')?.strip_suffix('"')?;
    let mut found = Vec::new();
    let mut characters = text.chars().peekable();
    while let Some(character) = characters.next() {
        match character {
            '{' if characters.peek() == Some(&'{') => {
                characters.next();
            }
            '{' => {
                let mut inside = String::new();
                for character in characters.by_ref() {
                    if character == '}' {
                        break;
                    }
                    inside.push(character);
                }
                found.push(placeholder(&inside)?);
            }
            _ => {}
        }
    }
    Some(found)
}

/// One placeholder's text between its braces: `ARGUMENT[:SPEC]`.
fn placeholder(inside: &str) -> Option<Placeholder> {
    let (argument, spec) = inside.split_once(':').unwrap_or((inside, ""));
    let argument = argument.trim();
    if spec.contains('$') || spec.contains('*') {
        return None;
    }
    let argument = if argument.is_empty() {
        Argument::Next
    } else if let Ok(index) = argument.parse::<usize>() {
        Argument::Index(index)
    } else if argument.chars().all(|c| c.is_alphanumeric() || c == '_') {
        Argument::Name(argument.to_string())
    } else {
        return None;
    };
    let debug = spec.ends_with('?');
    let other_trait = !debug && spec.ends_with(['x', 'X', 'o', 'b', 'e', 'E', 'p']);
    Some(Placeholder { argument, debug, other_trait })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(literal: &str) -> Option<Vec<(Argument, bool, bool)>> {
        placeholders(literal)
            .map(|found| found.into_iter().map(|p| (p.argument, p.debug, p.other_trait)).collect())
    }

    #[test]
    fn placeholders_name_their_argument_and_trait() {
        assert_eq!(
            shapes(r#""{} {:?} {{x}} {1:>5} {name:#?} {:x}""#),
            Some(vec![
                (Argument::Next, false, false),
                (Argument::Next, true, false),
                (Argument::Index(1), false, false),
                (Argument::Name("name".to_string()), true, false),
                (Argument::Next, false, true),
            ])
        );
        assert_eq!(shapes(r#""{:1$}""#), None);
        assert_eq!(shapes(r#""{:.*}""#), None);
        assert_eq!(shapes(r#""{:width$}""#), None);
        assert_eq!(shapes(r#"r"{}""#), None);
        assert_eq!(shapes(r#""no placeholders {{}}""#), Some(vec![]));
    }
}

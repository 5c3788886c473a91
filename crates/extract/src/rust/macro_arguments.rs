//! Calls inside Rust macro arguments (`assert_eq!(add(1, 2), 3)`, `println!("{}", f())`).
//!
//! tree-sitter leaves a macro's arguments as an unparsed token tree. This scan recognizes the
//! shapes that are calls in ordinary expression macros: `path::to::f(…)`, `recv.method(…)`,
//! and nested `name!(…)`. It can mistake a tuple-struct pattern (`matches!(x, Some(_))`) for a
//! call; such sites bind to the type as a constructor, never to an unrelated function.

use tether_model::{
    Binding, BindingValue, CallSite, CalleeExpr, FileFacts, MacroInvocation, Receiver, SymbolId,
};
use tree_sitter::Node;

use crate::outline::{line_of, text_of};
use crate::python::shorten;

/// Token trees nest at most this deep before the scan stops.
const MAX_TOKEN_TREE_DEPTH: usize = 32;

/// Distinct identifiers recorded per macro invocation as names its expansion may call.
const MAX_INVOCATION_MENTIONS: usize = 1024;

/// Tokens a turbofish's generic arguments may span before the scan gives up on them.
const MAX_GENERIC_ARGUMENT_TOKENS: usize = 64;

/// Identifiers recorded per macro invocation, as what its metavariables may stand for.
const MAX_INVOCATION_IDENTIFIERS: usize = 32;

/// Macros whose arguments after the first are patterns (`matches!(e, Expr::Try(_))`), not
/// expressions: only their first argument is scanned for calls.
const PATTERN_MACROS: [&str; 3] = ["matches", "assert_matches", "debug_assert_matches"];

/// Records the calls found in the token tree of a call of the macro written `macro_path`
/// (`assert_eq`, `log::info`).
pub(crate) fn calls_in_macro_arguments(
    macro_path: &str,
    token_tree: Node<'_>,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
    depth: usize,
) {
    if depth > MAX_TOKEN_TREE_DEPTH {
        return;
    }
    let macro_name = macro_path.rsplit("::").next().unwrap_or_default();
    let mut children: Vec<Node<'_>> = token_tree.children(&mut token_tree.walk()).collect();
    if PATTERN_MACROS.contains(&macro_name) {
        if let Some(comma) = children.iter().position(|child| child.kind() == ",") {
            children.truncate(comma);
        }
    }
    crate::rust::macro_implicit_calls::calls_the_macro_makes(
        macro_path, &children, caller, source, facts,
    );
    calls_in_tokens(&children, caller, source, facts, depth);
}

/// Records the calls the expansions of a `macro_rules!` make, as the macro's own calls: each
/// rule's right side, scanned as a token tree. `$crate::f()` is `crate::f()`; a path with any
/// other metavariable (`$crate::audit::$stage()`) names what each invocation passes: it is
/// kept as a template call, which the resolver fills in with each invocation's identifiers.
pub(crate) fn record_expansion_calls(
    definition: Node<'_>,
    macro_symbol: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    for rule in definition.named_children(&mut definition.walk()) {
        if rule.kind() != "macro_rule" {
            continue;
        }
        if let Some(expansion) = field_child!(rule, "right") {
            calls_in_token_tree(expansion, macro_symbol, source, facts, 0);
        }
    }
}

/// Records the calls found in a macro invocation's token tree.
pub(crate) fn calls_in_token_tree(
    token_tree: Node<'_>,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
    depth: usize,
) {
    if depth > MAX_TOKEN_TREE_DEPTH {
        return;
    }
    let children: Vec<Node<'_>> = token_tree.children(&mut token_tree.walk()).collect();
    calls_in_tokens(&children, caller, source, facts, depth);
}

fn calls_in_tokens(
    children: &[Node<'_>],
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
    depth: usize,
) {
    let mut index = 0;
    while index < children.len() {
        let node = children[index];
        // A repetition of a rule's right side (`$(+ $crate::audit::$stage())*`) holds tokens
        // like a tree.
        if matches!(node.kind(), "token_tree" | "token_repetition") {
            calls_in_token_tree(node, caller, source, facts, depth + 1);
            index += 1;
            continue;
        }
        if node.kind() == "|" {
            index = typed_closure_parameters(children, index, caller, source, facts);
            continue;
        }
        // An attribute (`#[derive(Debug)]`, `#![allow(x)]` in a macro's expansion) calls
        // nothing.
        if node.kind() == "#" {
            let bang = usize::from(children.get(index + 1).is_some_and(|next| next.kind() == "!"));
            if children.get(index + 1 + bang).is_some_and(|tree| {
                tree.kind() == "token_tree" && text_of(*tree, source).starts_with('[')
            }) {
                index += 2 + bang;
                continue;
            }
        }
        if node.kind() == "let" {
            let_binding(children, index, caller, source, facts);
        }
        if matches!(node.kind(), "==" | "!=") {
            crate::rust::macro_implicit_calls::compared_operand(
                children, index, caller, source, facts,
            );
        }
        // A primitive type heads a path too (`u8::from_str_radix(…)`).
        let primitive_head = node.kind() == "primitive_type"
            && children.get(index + 1).is_some_and(|next| next.kind() == "::");
        if !is_path_segment(node) && !primitive_head {
            index += 1;
            continue;
        }
        // `fn name(…)` (also `fn $name(…)`) in an expansion defines a function: no call.
        if index > 0 && children[index - 1].kind() == "fn" {
            index += 1;
            continue;
        }
        let mut segments = vec![segment_text(node, source)];
        let mut next = index + 1;
        while next + 1 < children.len() && children[next].kind() == "::" {
            if is_path_segment(children[next + 1]) {
                segments.push(segment_text(children[next + 1], source));
                next += 2;
            } else if let Some(after) = after_generic_arguments(children, next + 1) {
                // A turbofish (`$function::<f32>(…)`, `Vec::<u8>::new()`) names no segment.
                next = after;
            } else {
                break;
            }
        }
        // A metavariable standing for a name (`$stage()`, `$crate::audit::$stage()`): a
        // template each invocation fills in.
        if segments.iter().any(|segment| segment.starts_with('$')) {
            if children.get(next).is_some_and(|arguments| is_parenthesized(*arguments, source)) {
                facts.macro_template_calls.push(CallSite {
                    caller,
                    callee: CalleeExpr::Path(segments.clone()),
                    line: line_of(node),
                    byte: node.start_byte() as u32,
                    text: shorten(&segments.join("::")),
                });
            }
            index = next;
            continue;
        }
        let follows = children.get(next).copied();
        let after = children.get(next + 1).copied();
        match follows {
            Some(bang)
                if bang.kind() == "!" && after.is_some_and(|tree| tree.kind() == "token_tree") =>
            {
                let text = format!("{}!", segments.join("::"));
                let macro_path = segments.join("::");
                let name = segments.last().cloned().unwrap_or_default();
                facts.calls.push(CallSite {
                    caller,
                    callee: CalleeExpr::Macro(segments),
                    line: line_of(node),
                    byte: node.start_byte() as u32,
                    text: shorten(&text),
                });
                if let Some(tree) = after {
                    record_invocation_identifiers(
                        caller,
                        line_of(node),
                        &name,
                        tree,
                        source,
                        facts,
                    );
                    calls_in_macro_arguments(&macro_path, tree, caller, source, facts, depth + 1);
                }
                index = next + 2;
            }
            Some(arguments) if is_parenthesized(arguments, source) => {
                let is_method =
                    index > 0 && children[index - 1].kind() == "." && segments.len() == 1;
                let callee = if is_method {
                    CalleeExpr::Method {
                        receiver: receiver_before(children, index - 1, source),
                        name: segments[0].clone(),
                    }
                } else {
                    CalleeExpr::Path(segments.clone())
                };
                facts.calls.push(CallSite {
                    caller,
                    callee,
                    line: line_of(node),
                    byte: node.start_byte() as u32,
                    text: shorten(&segments.join("::")),
                });
                calls_in_token_tree(arguments, caller, source, facts, depth + 1);
                index = next + 1;
            }
            _ => index = next,
        }
    }
}

/// Records the identifiers written at the top level of a macro invocation's token tree
/// (`stages!(open, flush)`; not those inside a closure or block argument), at most
/// [`MAX_INVOCATION_IDENTIFIERS`] distinct ones: what the macro's metavariables may stand for;
/// and every identifier at any depth not written as a call (at most
/// [`MAX_INVOCATION_MENTIONS`]): what its expansion may call where the resolver cannot follow
/// it.
pub(crate) fn record_invocation_identifiers(
    caller: SymbolId,
    line: u32,
    macro_name: &str,
    token_tree: Node<'_>,
    source: &str,
    facts: &mut FileFacts,
) {
    let mut identifiers: Vec<String> = Vec::new();
    for child in token_tree.children(&mut token_tree.walk()) {
        if child.kind() == "identifier" {
            let name = text_of(child, source);
            if !identifiers.iter().any(|known| known == name) {
                identifiers.push(name.to_string());
            }
        }
        if identifiers.len() >= MAX_INVOCATION_IDENTIFIERS {
            break;
        }
    }
    let mut mentions: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut pending = vec![(token_tree, 0)];
    while let Some((tree, depth)) = pending.pop() {
        let children: Vec<Node<'_>> = tree.children(&mut tree.walk()).collect();
        for (index, child) in children.iter().copied().enumerate() {
            match child.kind() {
                "identifier" => {
                    // `f(…)`, `x.m(…)` and `m!(…)` are call sites of their own.
                    let is_called = children
                        .get(index + 1)
                        .is_some_and(|next| next.kind() == "!" || is_parenthesized(*next, source));
                    let name = text_of(child, source);
                    if !is_called && mentions.len() < MAX_INVOCATION_MENTIONS && seen.insert(name) {
                        mentions.push(name.to_string());
                    }
                }
                "token_tree" | "token_repetition" if depth < MAX_TOKEN_TREE_DEPTH => {
                    pending.push((child, depth + 1))
                }
                _ => {}
            }
        }
    }
    mentions.sort_unstable();
    if !identifiers.is_empty() || !mentions.is_empty() {
        facts.macro_invocations.push(MacroInvocation {
            caller,
            line,
            macro_name: macro_name.to_string(),
            identifiers,
            mentions,
        });
    }
}

/// `|dir: Dir, mut cmd: TestCommand|` at `bar`: records each typed parameter as a binding of
/// `caller` (closures belong to the function around them) and returns the position after
/// the closing `|`; returns `bar + 1` when the tokens are no such list.
fn typed_closure_parameters(
    children: &[Node<'_>],
    bar: usize,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) -> usize {
    let Some(closing) = children[bar + 1..]
        .iter()
        .take(64)
        .position(|child| child.kind() == "|")
        .map(|offset| bar + 1 + offset)
    else {
        return bar + 1;
    };
    let mut bindings = Vec::new();
    for parameter in children[bar + 1..closing].split(|child| child.kind() == ",") {
        let tokens: Vec<Node<'_>> = parameter
            .iter()
            .copied()
            .filter(|token| !matches!(token.kind(), "mutable_specifier" | "mut" | "&"))
            .collect();
        let [name, colon, type_tokens @ ..] = tokens.as_slice() else { return bar + 1 };
        // `_: TestCommand` binds nothing; the other parameters still do.
        if matches!(name.kind(), "_" | "wildcard_pattern") || text_of(*name, source) == "_" {
            continue;
        }
        if name.kind() != "identifier" || colon.kind() != ":" || type_tokens.is_empty() {
            return bar + 1;
        }
        // A path type: `Dir` or `a::b::Dir` (generic arguments end it).
        let mut path = Vec::new();
        for (position, token) in type_tokens.iter().enumerate() {
            match (position % 2, token.kind()) {
                (0, "identifier") => path.push(text_of(*token, source).to_string()),
                (1, "::") => {}
                (1, "<") => break,
                _ => return bar + 1,
            }
        }
        // In force in the rest of the token tree (the closure's body).
        let visible_to = name.parent().map_or(u32::MAX, |tree| tree.end_byte() as u32);
        bindings.push(Binding {
            scope: caller,
            name: text_of(*name, source).to_string(),
            value: BindingValue::named_type(path),
            line: line_of(*name),
            visible_from: name.start_byte() as u32,
            visible_to,
            branch: tether_model::Branch::ALWAYS,
        });
    }
    facts.bindings.extend(bindings);
    closing + 1
}

/// `let name = value;` (or `let mut name`) at `let`: when the value ends in a call or is a
/// name, records it as a binding of `caller`, in force from the `;` to the token tree's end
/// (a test macro's body: `let set = GlobSetBuilder::new().build();` types `set.is_match(…)`).
fn let_binding(
    children: &[Node<'_>],
    at: usize,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    // Only a function's (or the macro being defined, not yet a symbol) locals: a `let` in
    // functions a macro wraps in an impl or module (`cfg_x! { fn f() { let now = … } }`) would
    // be read as the impl's, visible in its other functions.
    let scope_kind =
        facts.symbols.iter().rev().find(|symbol| symbol.id == caller).map(|symbol| symbol.kind);
    if scope_kind.is_some_and(|kind| !kind.is_callable()) {
        return;
    }
    let mut position = at + 1;
    if children
        .get(position)
        .is_some_and(|token| matches!(token.kind(), "mutable_specifier" | "mut"))
    {
        position += 1;
    }
    let (Some(name), Some(equals)) = (children.get(position), children.get(position + 1)) else {
        return;
    };
    if name.kind() != "identifier" || equals.kind() != "=" {
        return;
    }
    let Some(semicolon) = children[position + 2..]
        .iter()
        .position(|token| token.kind() == ";")
        .map(|offset| position + 2 + offset)
    else {
        return;
    };
    if semicolon == position + 2 {
        return;
    }
    let value = match receiver_ending_at(children, semicolon - 1, source, 0) {
        Receiver::Call(callee) => BindingValue::CallResult(*callee),
        path @ Receiver::Path(_) => BindingValue::Expression(path),
        _ => return,
    };
    let visible_to = name.parent().map_or(u32::MAX, |tree| tree.end_byte() as u32);
    facts.bindings.push(Binding {
        scope: caller,
        name: text_of(*name, source).to_string(),
        value,
        line: line_of(*name),
        visible_from: children[semicolon].end_byte() as u32,
        visible_to,
        branch: tether_model::Branch::ALWAYS,
    });
}

/// Generic arguments opened by the `<` at `open` (`<f32>`, `<Vec<u8>>`): the position after
/// their closing `>`, or `None` when `open` is no `<` or the arguments do not close within
/// [`MAX_GENERIC_ARGUMENT_TOKENS`] tokens.
fn after_generic_arguments(children: &[Node<'_>], open: usize) -> Option<usize> {
    if children.get(open)?.kind() != "<" {
        return None;
    }
    let mut depth: usize = 0;
    for (offset, token) in children[open..].iter().take(MAX_GENERIC_ARGUMENT_TOKENS).enumerate() {
        match token.kind() {
            "<" => depth += 1,
            ">" => depth = depth.saturating_sub(1),
            ">>" => depth = depth.saturating_sub(2),
            _ => {}
        }
        if depth == 0 {
            return Some(open + offset + 1);
        }
    }
    None
}

pub(crate) fn is_path_segment(node: Node<'_>) -> bool {
    matches!(node.kind(), "identifier" | "self" | "super" | "crate" | "metavariable")
}

/// A path segment's text; `$crate` (in a macro's expansion) is the macro's crate.
fn segment_text(node: Node<'_>, source: &str) -> String {
    match text_of(node, source) {
        "$crate" => "crate".to_string(),
        text => text.to_string(),
    }
}

pub(crate) fn is_parenthesized(node: Node<'_>, source: &str) -> bool {
    node.kind() == "token_tree" && text_of(node, source).starts_with('(')
}

/// The receiver written before the `.` at `dot`: a name, a chain of fields on a name, or the
/// result of a call (`cmd.arg("a").arg("b")`, `make().run()`), followed at most
/// [`MAX_TOKEN_TREE_DEPTH`] calls back.
fn receiver_before(children: &[Node<'_>], dot: usize, source: &str) -> Receiver {
    receiver_before_at_depth(children, dot, source, 0)
}

/// The expression a `ready!(…)` (std's `task::ready!`, or a macro the `ready-value` model of
/// `queries/rust/macro_models.txt` names) is given, read by shape from its tokens like any
/// macro argument.
pub(crate) fn ready_macro_value(invocation: Node<'_>, source: &str) -> Option<Receiver> {
    let name = text_of(field_child!(invocation, "macro")?, source);
    if !crate::rust::macro_models::shipped_macro_models().gives_ready_value(name) {
        return None;
    }
    let arguments = invocation
        .named_children(&mut invocation.walk())
        .find(|child| child.kind() == "token_tree")?;
    let mut cursor = arguments.walk();
    let children: Vec<Node<'_>> = arguments.children(&mut cursor).collect();
    // Without the delimiters: `(` … `)`.
    let inner = children.get(1..children.len().checked_sub(1)?)?;
    match receiver_ending_at(inner, inner.len().checked_sub(1)?, source, 0) {
        Receiver::Other => None,
        receiver => Some(receiver),
    }
}

fn receiver_before_at_depth(
    children: &[Node<'_>],
    dot: usize,
    source: &str,
    depth: usize,
) -> Receiver {
    if dot == 0 || children[dot].kind() != "." || depth > MAX_TOKEN_TREE_DEPTH {
        return Receiver::Other;
    }
    receiver_ending_at(children, dot - 1, source, depth)
}

/// The receiver whose last token is `children[last]`: a name, a chain of fields on a name, or
/// the result of a call.
pub(crate) fn receiver_ending_at(
    children: &[Node<'_>],
    last: usize,
    source: &str,
    depth: usize,
) -> Receiver {
    if depth > MAX_TOKEN_TREE_DEPTH {
        return Receiver::Other;
    }
    let dot = last + 1;
    // A call's result: `name(…)` or `receiver.name(…)`.
    if dot >= 2 && is_parenthesized(children[dot - 1], source) && is_path_segment(children[dot - 2])
    {
        let name_at = dot - 2;
        let name = text_of(children[name_at], source).to_string();
        if name_at >= 1 && children[name_at - 1].kind() == "." {
            let receiver = receiver_before_at_depth(children, name_at - 1, source, depth + 1);
            return Receiver::Call(Box::new(CalleeExpr::Method { receiver, name }));
        }
        let mut segments = vec![name];
        let mut position = name_at;
        while position >= 2
            && children[position - 1].kind() == "::"
            && is_path_segment(children[position - 2])
        {
            segments.push(text_of(children[position - 2], source).to_string());
            position -= 2;
        }
        segments.reverse();
        return Receiver::Call(Box::new(CalleeExpr::Path(segments)));
    }
    // A suffixed literal (`3i8`), or a cast in parentheses (`(3 as i8)`): a value of its type.
    let token = children[last];
    if matches!(token.kind(), "integer_literal" | "float_literal" | "string_literal") {
        if let Some(type_name) = crate::rust::literal_type(token, source) {
            return Receiver::Path(vec![type_name.to_string()]);
        }
    }
    if is_parenthesized(token, source) {
        let mut cursor = token.walk();
        let inner: Vec<Node<'_>> = token.children(&mut cursor).collect();
        if let [.., cast, cast_type, _] = inner.as_slice() {
            if text_of(*cast, source) == "as"
                && matches!(cast_type.kind(), "primitive_type" | "identifier")
            {
                return Receiver::Path(vec![text_of(*cast_type, source).to_string()]);
            }
        }
    }
    // A name or a chain of fields: `a.b.c`, read backwards from `c`.
    let mut path = Vec::new();
    let mut position = last;
    while is_path_segment(children[position]) {
        path.push(text_of(children[position], source).to_string());
        if position == 0 || children[position - 1].kind() != "." {
            path.reverse();
            return Receiver::Path(path);
        }
        if position < 2 {
            break;
        }
        position -= 2;
    }
    Receiver::Other
}

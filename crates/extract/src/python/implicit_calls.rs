//! Python constructs that run methods with no call expression. Each becomes an implicit call
//! site (`FileFacts::implicit_calls`) on the operand's receiver, resolved like a method call;
//! only those bound to project methods become edges (a builtin's `__iter__` is no news):
//!
//! - `with x:` calls `x.__enter__()` and `x.__exit__()` (`__aenter__`/`__aexit__` for `async
//!   with`); `for _ in x` (and comprehensions) call `x.__iter__()`;
//! - operators (`a + b`, `a < b`, `a in x`, `x += y`, `-x`): see `operator_calls.rs`;
//!   truth tests (`if x:`, `not x`, `a or b`): see `truth_tests.rs`;
//! - `x[k]` calls `x.__getitem__`, `x[k] = v` `x.__setitem__`, `del x[k]` `x.__delitem__`;
//! - `a, b = x`, `f(*x)`, `[*x]` and `yield from x` call `x.__iter__()`; `f(**x)` calls
//!   `x.keys()` and `x.__getitem__`;
//! - `raise C` (`raise mod.C`, `raise C from e`) calls `C()`: a class raised is instantiated;
//! - builtins of `queries/python/builtin_dunder_calls.txt` call dunders of their arguments:
//!   `len(x)` `x.__len__()`, `print(x)` `x.__str__()`, `list(x)` `x.__iter__()`; an
//!   f-string's `{x}` calls `x.__format__` and `x.__str__` (`{x!r}` `x.__repr__`).
//!
//! Attribute reads (`x.name`, and the read of `x.name += 1`) and writes (`x.name = v`) are
//! recorded beside them (`FileFacts::attribute_reads`, `attribute_writes`): the resolver
//! keeps those that read or write a project property.
//!
//! - defining a class calls `__init_subclass__` of its bases, `__new__` and `__init__` of its
//!   metaclass, and `__set_name__` of what its body assigns from a call (`x = Field()`): by
//!   the class, import-time code.
//!
//! Not lowered: `await x` (`__await__`), descriptors' `__get__`/`__set__`, and a metaclass's
//! `__call__` when the class is called.

use std::collections::HashMap;
use std::sync::OnceLock;

use tether_model::{CallSite, CalleeExpr, FileFacts, SymbolId, SymbolKind};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::python::{caller_scope, dotted_path, shorten, value_receiver};

/// `x` of `((x))`; `None` for empty parentheses.
pub(crate) fn unparenthesized(node: Node<'_>) -> Option<Node<'_>> {
    let mut node = node;
    while node.kind() == "parenthesized_expression" {
        node = node.named_child(0)?;
    }
    Some(node)
}

/// A call of `method` on the value of `operand`, at `site`'s line.
pub(crate) fn push_implicit_call(
    operand: Node<'_>,
    method: &str,
    site: Node<'_>,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(operand) = unparenthesized(operand) else { return };
    // A literal's methods are a builtin's.
    if matches!(
        operand.kind(),
        "integer"
            | "float"
            | "string"
            | "concatenated_string"
            | "true"
            | "false"
            | "none"
            | "list"
            | "dictionary"
            | "set"
            | "tuple"
    ) {
        return;
    }
    let callee = match dotted_path(operand, source) {
        Some(mut path) => {
            path.push(method.to_string());
            CalleeExpr::Path(path)
        }
        None => CalleeExpr::Method {
            receiver: value_receiver(operand, source),
            name: method.to_string(),
        },
    };
    let text = shorten(&format!("{}.{method}", text_of(operand, source)));
    facts.implicit_calls.push(CallSite {
        caller,
        callee,
        line: line_of(site),
        byte: operand.start_byte() as u32,
        text,
    });
}

/// Lowers one `@reference.protocol` node.
pub(crate) fn lower_protocol_calls(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let caller = caller_scope(node, scopes);
    match node.kind() {
        "with_item" => {
            let Some(value) = field_child!(node, "value") else { return };
            // `with open(p) as f`: the value is the `as_pattern`'s first child.
            let value = if value.kind() == "as_pattern" {
                value.named_child(0).unwrap_or(value)
            } else {
                value
            };
            let is_async = node
                .parent()
                .and_then(|clause| clause.parent())
                .is_some_and(|statement| text_of(statement, source).starts_with("async"));
            let methods: [&str; 2] =
                if is_async { ["__aenter__", "__aexit__"] } else { ["__enter__", "__exit__"] };
            for method in methods {
                push_implicit_call(value, method, node, caller, source, facts);
            }
        }
        "for_statement" | "for_in_clause" => {
            if let Some(iterated) = field_child!(node, "right") {
                let method = if text_of(node, source).starts_with("async") {
                    "__aiter__"
                } else {
                    "__iter__"
                };
                push_implicit_call(iterated, method, node, caller, source, facts);
            }
        }
        "comparison_operator" | "binary_operator" | "augmented_assignment" | "unary_operator" => {
            crate::python::operator_calls::lower_operator(node, caller, source, facts)
        }
        "if_statement"
        | "elif_clause"
        | "while_statement"
        | "conditional_expression"
        | "assert_statement"
        | "if_clause"
        | "not_operator"
        | "boolean_operator" => {
            crate::python::truth_tests::lower_truth_test(node, caller, source, facts)
        }
        "assignment" => {
            // `a, b = x` iterates `x`.
            let unpacks = field_child!(node, "left").is_some_and(|left| {
                matches!(left.kind(), "pattern_list" | "tuple_pattern" | "list_pattern")
            });
            let right = field_child!(node, "right");
            if let (true, Some(right)) = (unpacks, right) {
                push_implicit_call(right, "__iter__", node, caller, source, facts);
            }
            // `name = Descriptor()` in a class body: defining the class calls
            // `Descriptor.__set_name__`.
            let class_body = scopes.innermost().kind == SymbolKind::Class;
            let made = right.filter(|right| right.kind() == "call");
            if let (true, Some(function)) =
                (class_body, made.and_then(|call| field_child!(call, "function")))
            {
                if let Some(mut path) = dotted_path(function, source) {
                    path.push("__set_name__".to_string());
                    push_class_definition_call(path, node, caller, facts);
                }
            }
        }
        // `f(*x)`, `[*x]` iterate `x`; `f(**x)` reads its keys and items.
        "list_splat" => {
            if let Some(value) = node.named_child(0) {
                push_implicit_call(value, "__iter__", node, caller, source, facts);
            }
        }
        "dictionary_splat" => {
            if let Some(value) = node.named_child(0) {
                for method in ["keys", "__getitem__"] {
                    push_implicit_call(value, method, node, caller, source, facts);
                }
            }
        }
        // `yield from x` iterates `x`.
        "yield" if text_of(node, source).starts_with("yield from") => {
            if let Some(value) = node.named_child(0) {
                push_implicit_call(value, "__iter__", node, caller, source, facts);
            }
        }
        "subscript" => {
            let Some(value) = field_child!(node, "value") else { return };
            let parent = node.parent();
            let is_target = parent.is_some_and(|parent| {
                matches!(parent.kind(), "assignment" | "augmented_assignment")
                    && field_child!(parent, "left").is_some_and(|left| left.id() == node.id())
            });
            let is_deleted = parent.is_some_and(|parent| parent.kind() == "delete_statement");
            let method = if is_target {
                "__setitem__"
            } else if is_deleted {
                "__delitem__"
            } else {
                "__getitem__"
            };
            push_implicit_call(value, method, node, caller, source, facts);
        }
        "interpolation" => {
            let Some(expression) = field_child!(node, "expression") else { return };
            let conversion =
                field_child!(node, "type_conversion").map(|conversion| text_of(conversion, source));
            let methods: &[&str] = match conversion {
                Some("!r") => &["__repr__"],
                Some(_) => &["__str__"],
                None => &["__format__", "__str__"],
            };
            for method in methods {
                push_implicit_call(expression, method, node, caller, source, facts);
            }
        }
        "raise_statement" => {
            // `raise C`, `raise mod.C`, `raise C from e` make the instance they raise: `C()`.
            // (`raise C(...)` is a call expression of its own.)
            let cause = field_child!(node, "cause").map(|cause| cause.id());
            let Some(raised) = node.named_child(0).filter(|raised| Some(raised.id()) != cause)
            else {
                return;
            };
            if !matches!(raised.kind(), "identifier" | "attribute") {
                return;
            }
            let Some(path) = dotted_path(raised, source) else { return };
            facts.implicit_calls.push(CallSite {
                caller,
                callee: CalleeExpr::Path(path),
                line: line_of(node),
                byte: raised.start_byte() as u32,
                text: shorten(text_of(raised, source)),
            });
        }
        _ => {}
    }
}

/// Which positional arguments of a builtin have their dunders called.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum DunderArguments {
    /// The argument at this position (from 0).
    At(usize),
    /// Every positional argument (`print(a, b)`, `zip(xs, ys)`).
    Each,
}

/// The builtins of `queries/python/builtin_dunder_calls.txt`: name as written at the call,
/// the arguments, the methods called on them.
fn builtin_dunder_calls() -> &'static HashMap<&'static str, (DunderArguments, Vec<&'static str>)> {
    static TABLE: OnceLock<HashMap<&'static str, (DunderArguments, Vec<&'static str>)>> =
        OnceLock::new();
    TABLE.get_or_init(|| {
        let text = include_str!("../../../../queries/python/builtin_dunder_calls.txt");
        let mut table = HashMap::new();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(name), Some(arguments)) = (words.next(), words.next()) else {
                panic!("builtin_dunder_calls.txt: a line lacks its arguments: {line}");
            };
            let arguments = match arguments {
                "each" => DunderArguments::Each,
                position => DunderArguments::At(position.parse().unwrap_or_else(|_| {
                    panic!("builtin_dunder_calls.txt: not a position: {line}")
                })),
            };
            let methods: Vec<&'static str> = words.collect();
            assert!(!methods.is_empty(), "builtin_dunder_calls.txt: no methods: {line}");
            table.insert(name, (arguments, methods));
        }
        table
    })
}

/// A call that defining a class makes (`Base.__init_subclass__`, `Meta.__new__`,
/// `Descriptor.__set_name__`), by `caller`, the class.
pub(crate) fn push_class_definition_call(
    path: Vec<String>,
    site: Node<'_>,
    caller: SymbolId,
    facts: &mut FileFacts,
) {
    facts.implicit_calls.push(CallSite {
        caller,
        line: line_of(site),
        byte: site.start_byte() as u32,
        text: shorten(&path.join(".")),
        callee: CalleeExpr::Path(path),
    });
}

/// `len(x)`, `str(x)`, `print(a, b)`, `list(x)`… call dunders of their arguments
/// (`queries/python/builtin_dunder_calls.txt`).
pub(crate) fn lower_builtin_protocol_call(
    call: Node<'_>,
    callee: &CalleeExpr,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let CalleeExpr::Path(path) = callee else { return };
    let found = match path.as_slice() {
        [name] => builtin_dunder_calls().get(name.as_str()),
        [module, name] => builtin_dunder_calls().get(format!("{module}.{name}").as_str()),
        _ => None,
    };
    let Some((which, methods)) = found else { return };
    let Some(arguments) = field_child!(call, "arguments") else { return };
    let mut cursor = arguments.walk();
    let positional = arguments
        .named_children(&mut cursor)
        .filter(|argument| !argument.kind().ends_with("comment"))
        .take_while(|argument| {
            !matches!(argument.kind(), "keyword_argument" | "list_splat" | "dictionary_splat")
        })
        .enumerate()
        .filter(|(position, _)| match which {
            DunderArguments::At(wanted) => position == wanted,
            DunderArguments::Each => true,
        });
    for (_, argument) in positional {
        for method in methods {
            push_implicit_call(argument, method, call, caller, source, facts);
        }
    }
}

/// An attribute read (`x.name`): recorded unless the attribute is called (the call records
/// it), assigned or deleted, or is a decorator (`@name.setter`); an assigned one (`x.name =
/// v`, and `x.name += v`, which reads it too) is recorded as a write. Only reads and writes
/// of project properties become edges (the resolver's filter), so most are dropped there.
pub(crate) fn lower_attribute_read(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    #[derive(PartialEq)]
    enum Access {
        Read,
        Write,
        ReadAndWrite,
        Neither,
    }
    let Some(parent) = node.parent() else { return };
    let is_same = |other: Option<Node<'_>>| other.is_some_and(|other| other.id() == node.id());
    let access = match parent.kind() {
        "call" if is_same(field_child!(parent, "function")) => Access::Neither,
        "assignment" if is_same(field_child!(parent, "left")) => Access::Write,
        "augmented_assignment" if is_same(field_child!(parent, "left")) => Access::ReadAndWrite,
        "for_statement" if is_same(field_child!(parent, "left")) => Access::Neither,
        "decorator" | "delete_statement" => Access::Neither,
        // `a.b, c.d = …` are targets too.
        "pattern_list" | "tuple_pattern" => match parent.parent().map(|grand| grand.kind()) {
            Some("assignment") => Access::Write,
            Some("for_statement") => Access::Neither,
            _ => Access::Read,
        },
        _ => Access::Read,
    };
    let Some(name) = field_child!(node, "attribute") else { return };
    if access == Access::Neither {
        return;
    }
    let callee = match dotted_path(node, source) {
        Some(path) => CalleeExpr::Path(path),
        None => match field_child!(node, "object") {
            Some(object) => CalleeExpr::Method {
                receiver: value_receiver(object, source),
                name: text_of(name, source).to_string(),
            },
            None => return,
        },
    };
    let site = CallSite {
        caller: caller_scope(node, scopes),
        callee,
        line: line_of(node),
        byte: node.start_byte() as u32,
        text: shorten(text_of(node, source)),
    };
    match access {
        Access::Read => facts.attribute_reads.push(site),
        Access::Write => facts.attribute_writes.push(site),
        Access::ReadAndWrite => {
            facts.attribute_reads.push(site.clone());
            facts.attribute_writes.push(site);
        }
        Access::Neither => {}
    }
}

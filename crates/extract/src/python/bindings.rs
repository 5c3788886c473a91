//! Python bindings: parameters, assignments (attributes, tuples, class bodies), loop and
//! `with` variables, `isinstance` narrowing, and what a function returns or yields.

use tether_model::{Binding, BindingValue, Branch, FileFacts, Receiver, SymbolKind};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::python::annotations::annotation_value;
use crate::python::name_lists::PythonNameList;
use crate::python::{callee_expression, dotted_path, literal_type, value_receiver};
use crate::{RETURN_BINDING, YIELD_BINDING};

/// Lowers one `@local.definition` capture. Parameter lists, loops and `with` items are
/// captured whole, which keeps the query cheap, and their binding children are lowered.
pub(crate) fn lower_binding(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    match node.kind() {
        "parameters" => {
            let mut cursor = node.walk();
            for parameter in node.named_children(&mut cursor) {
                lower_one_binding(parameter, scopes, source, facts);
            }
            record_parameter_positions(node, scopes, source, facts);
        }
        "for_statement" | "for_in_clause" => lower_loop_variables(node, scopes, source, facts),
        "with_item" => {
            if let Some(pattern) =
                field_child!(node, "value").filter(|value| value.kind() == "as_pattern")
            {
                lower_one_binding(pattern, scopes, source, facts);
            }
        }
        // `if isinstance(x, Foo):` (or `elif`) makes `x` a `Foo` in the block; `assert
        // isinstance(x, Foo)` for the rest of the function.
        "if_statement" | "elif_clause" | "assert_statement" => {
            let condition = match node.kind() {
                "assert_statement" => node.named_child(0),
                _ => field_child!(node, "condition"),
            };
            let Some(condition) = condition else { return };
            let Some((name, class_path)) = isinstance_check(condition, source) else { return };
            // In force after the condition (a Python block starts at its first statement).
            let (visible_from, visible_to) = match node.kind() {
                "assert_statement" => (node.end_byte() as u32, u32::MAX),
                _ => match field_child!(node, "consequence") {
                    Some(block) => (condition.end_byte() as u32, block.end_byte() as u32),
                    None => return,
                },
            };
            let scope = scopes.innermost_named().id;
            facts.bindings.push(Binding {
                scope,
                name,
                value: BindingValue::named_type(class_path),
                line: line_of(node),
                visible_from,
                visible_to,
                branch: Branch::ALWAYS,
            });
        }
        "named_expression" => lower_walrus(node, scopes, source, facts),
        _ => lower_one_binding(node, scopes, source, facts),
    }
}

/// `(h := pick(text))`: `h` holds the value from the end of the expression on, in the
/// function around it (a comprehension's walrus binds there too).
fn lower_walrus(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let (Some(name), Some(value)) = (field_child!(node, "name"), field_child!(node, "value"))
    else {
        return;
    };
    if name.kind() != "identifier" {
        return;
    }
    let name_path = vec![text_of(name, source).to_string()];
    let scope = scopes.innermost_named().id;
    let Some(bound) = expression_value(value, &name_path, scope, source, facts) else { return };
    let mut binding = Binding::from_byte(
        scope,
        name_path[0].clone(),
        bound,
        line_of(node),
        node.end_byte() as u32,
    );
    binding.branch = conditional_branch(node);
    facts.bindings.push(binding);
}

fn lower_one_binding(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    match node.kind() {
        "assignment" => {
            let first = facts.bindings.len();
            lower_assignment(node, scopes, source, facts);
            // A local assigned in a branch may not have run where it is used.
            let branch = conditional_branch(node);
            for binding in &mut facts.bindings[first..] {
                if binding.visible_from != 0 {
                    binding.branch = branch;
                }
            }
        }
        "identifier" | "default_parameter" => lower_untyped_name(node, scopes, source, facts),
        "return_statement" | "yield" => lower_return_or_yield(node, scopes, source, facts),
        "as_pattern" => lower_as_pattern(node, scopes, source, facts),
        "typed_parameter" | "typed_default_parameter" => {
            lower_typed_parameter(node, scopes, source, facts)
        }
        _ => {}
    }
}

/// `x = v`, `x: T = v`, `self.x = v` (in a method: the class's attribute) and class-body
/// assignments (`x: T` describes `self.x`).
fn lower_assignment(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    let Some(left) = field_child!(node, "left") else { return };
    if matches!(left.kind(), "pattern_list" | "tuple_pattern") {
        lower_tuple_assignment(node, left, scopes, source, facts);
        return;
    }
    if left.kind() == "subscript" {
        lower_keyed_write(node, left, scopes, source, facts);
        crate::python::element_stores::lower_subscript_store(node, left, scopes, source, facts);
        return;
    }
    let Some(name_path) = dotted_path(left, source) else { return };
    if name_path.len() > 2 {
        return;
    }
    let named = scopes.innermost_named();
    let Some(value) = assigned_value(node, &name_path, named.id, source, facts) else { return };
    if name_path.len() == 1 {
        if let Some(right) = field_child!(node, "right") {
            lower_keyed_elements(node, &name_path[0], right, named.id, source, facts);
        }
    }
    // A class-body annotation or assignment (`x: T`) describes an attribute (`self.x`).
    if named.kind == SymbolKind::Class && name_path.len() == 1 {
        facts.bindings.push(Binding::everywhere(
            named.id,
            format!("self.{}", name_path[0]),
            value,
            line,
        ));
        return;
    }
    // `self.h = H()` inside a method describes the class's attribute.
    let scope = if name_path.len() == 2 {
        if name_path[0] != "self" || named.kind != SymbolKind::Method {
            return;
        }
        match scopes.enclosing_of_innermost_named() {
            Some(class) if class.kind == SymbolKind::Class => class.id,
            _ => return,
        }
    } else {
        named.id
    };
    // `self.on_click = on_click`: the attribute holds what the method's callers pass.
    if name_path.len() == 2
        && matches!(value, BindingValue::UntypedParameter | BindingValue::Unknown)
    {
        if let Some(right) =
            field_child!(node, "right").filter(|right| right.kind() == "identifier")
        {
            facts.attribute_parameters.push(tether_model::AttributeParameter {
                class: scope,
                attribute: name_path[1].clone(),
                method: named.id,
                parameter: text_of(right, source).to_string(),
            });
        }
    }
    // `h = a if c else b`: either side, both bound at once.
    if name_path.len() == 1 && field_child!(node, "type").is_none() {
        if let Some(right) =
            field_child!(node, "right").filter(|right| right.kind() == "conditional_expression")
        {
            let mut sides = Vec::new();
            conditional_sides(right, &mut sides);
            for side in sides {
                let Some(value) = expression_value(side, &name_path, scope, source, facts) else {
                    continue;
                };
                facts.bindings.push(Binding::from_byte(
                    scope,
                    name_path[0].clone(),
                    value,
                    line,
                    node.end_byte() as u32,
                ));
            }
            return;
        }
    }
    // An attribute is everywhere in its class; a local from the end of its assignment.
    let binding = match name_path.len() {
        1 => Binding {
            scope,
            name: name_path.join("."),
            value,
            line,
            visible_from: node.end_byte() as u32,
            visible_to: u32::MAX,
            branch: Branch::ALWAYS,
        },
        _ => Binding::everywhere(scope, name_path.join("."), value, line),
    };
    facts.bindings.push(binding);
}

/// What an assignment (or annotation) gives its target: the annotation's type, a call's
/// result, a copy of what is known of another name, an attribute's or an element's value, a
/// literal's type, the names a collection holds.
fn assigned_value(
    node: Node<'_>,
    name_path: &[String],
    scope: tether_model::SymbolId,
    source: &str,
    facts: &FileFacts,
) -> Option<BindingValue> {
    if let Some(annotation) = field_child!(node, "type") {
        // `name: Field = String()`: the class constructed is the annotation's or a subclass
        // of it, and its overrides are what calls on the attribute run.
        let constructed = field_child!(node, "right").filter(|right| {
            right.kind() == "call"
                && field_child!(*right, "function")
                    .and_then(|function| dotted_path(function, source))
                    .and_then(|path| path.last().cloned())
                    .is_some_and(|name| name.starts_with(|first: char| first.is_uppercase()))
        });
        if let Some(value) =
            constructed.and_then(|right| expression_value(right, name_path, scope, source, facts))
        {
            return Some(value);
        }
        return annotation_value(annotation, source);
    }
    expression_value(field_child!(node, "right")?, name_path, scope, source, facts)
}

/// What an expression assigned to a name gives it (`name_path` is the target, for
/// `__all__`).
fn expression_value(
    right: Node<'_>,
    name_path: &[String],
    scope: tether_model::SymbolId,
    source: &str,
    facts: &FileFacts,
) -> Option<BindingValue> {
    match right.kind() {
        // `first = second = f`: what the innermost assignment assigns.
        "assignment" => expression_value(field_child!(right, "right")?, &[], scope, source, facts),
        // `alert = partial(send, "alerts")` holds a callable that calls `send`.
        "call" => bound_function(right, source).or_else(|| {
            // `first = next(handlers())`: what the builtin makes of its arguments.
            if let Receiver::BuiltinCall { .. } = value_receiver(right, source) {
                return Some(BindingValue::Expression(value_receiver(right, source)));
            }
            field_child!(right, "function")
                .map(|function| BindingValue::CallResult(callee_expression(function, source)))
        }),
        // `self.x = x` copies what is known of a parameter or local `x`.
        "identifier" => {
            let source_name = text_of(right, source);
            // A local copy of a parameter of unknown type (`me = self`) is typed through the
            // name, as the parameter is (`self` is the method's class); an attribute keeps the
            // parameter's value (`self.on_click = on_click` is read by value flow).
            let copied = facts
                .bindings
                .iter()
                .rev()
                .find(|binding| binding.scope == scope && binding.name == source_name)
                .map(|binding| binding.value.clone())
                .filter(|value| {
                    !(name_path.len() == 1 && *value == BindingValue::UntypedParameter)
                });
            // An attribute set to a parameter with nothing known of it (`self.cb = cb`, `cb:
            // Callable | None`) holds what callers pass, never what the name means in the
            // class (a same-named method): a value of no known type. (A local copy, `me =
            // self`, is read in the method, where the name is the parameter.)
            let is_parameter = name_path.len() == 2
                && facts
                    .parameters
                    .iter()
                    .any(|parameter| parameter.function == scope && parameter.name == source_name);
            if copied.is_none() && is_parameter {
                return Some(BindingValue::Unknown);
            }
            // Otherwise the name as the scope sees it: `local = LocalPath` (an alias).
            Some(copied.unwrap_or_else(|| {
                BindingValue::Expression(tether_model::Receiver::Path(
                    vec![source_name.to_string()],
                ))
            }))
        }
        // `tw = reporter._tw`, `LEGACY_PATH = py.path.local`: the attribute's value.
        "attribute" => dotted_path(right, source)
            .map(|path| BindingValue::Expression(tether_model::Receiver::Path(path))),
        // `rep = reports[1]`: an element.
        "subscript" => Some(BindingValue::Expression(value_receiver(right, source))),
        // `__all__ = ["a", "b"]`: the names a star import takes.
        "list" | "tuple" if name_path == ["__all__"] => exported_names(right, source),
        "list" | "tuple" | "set" | "dictionary" => {
            Some(collection_of_names(right, source).unwrap_or_else(|| {
                BindingValue::named_type(vec![literal_type(right.kind())
                    .unwrap_or("list")
                    .to_string()])
            }))
        }
        // `b"…"` is bytes, not str.
        "string" if is_bytes_literal(text_of(right, source)) => {
            Some(BindingValue::named_type(vec!["bytes".to_string()]))
        }
        kind => Some(literal_type(kind).map_or(BindingValue::Unknown, |type_name| {
            BindingValue::named_type(vec![type_name.to_string()])
        })),
    }
}

/// What calling the result of a function binder calls (`partial(send, "alerts")` gives
/// `send`): its first positional argument, when that names a value.
fn bound_function(call: Node<'_>, source: &str) -> Option<BindingValue> {
    let function = dotted_path(field_child!(call, "function")?, source)?;
    if !PythonNameList::FunctionBinders.contains(function.last()?) {
        return None;
    }
    let arguments = field_child!(call, "arguments")?;
    let first = arguments
        .named_children(&mut arguments.walk())
        .find(|argument| !matches!(argument.kind(), "comment" | "keyword_argument"))?;
    let path = dotted_path(first, source)?;
    Some(BindingValue::Expression(Receiver::Path(path)))
}

/// The values a conditional expression may take: `a if c else b if d else e` gives `a`, `b`
/// and `e`.
fn conditional_sides<'tree>(expression: Node<'tree>, sides: &mut Vec<Node<'tree>>) {
    let mut cursor = expression.walk();
    let mut children = expression.named_children(&mut cursor);
    let (Some(taken), Some(_condition), Some(otherwise)) =
        (children.next(), children.next(), children.next())
    else {
        return;
    };
    for side in [taken, otherwise] {
        match side.kind() {
            "conditional_expression" => conditional_sides(side, sides),
            "parenthesized_expression" => match side.named_child(0) {
                Some(inner) if inner.kind() == "conditional_expression" => {
                    conditional_sides(inner, sides)
                }
                _ => sides.push(side),
            },
            _ => sides.push(side),
        }
    }
}

/// How many ancestors [`conditional_branch`] looks through before taking the binding as
/// conditional (deeply nested code).
const MAX_BRANCH_ANCESTORS: usize = 64;

/// The bytes of the innermost conditional branch around `node` within its function, class or
/// module: an `if` arm, a loop body or its `else`, a `try` body, handler or `else`, a `case`.
/// [`Branch::ALWAYS`] when none is (a `finally` or `with` body runs whenever its statement
/// does); an empty branch when the nesting is too deep to look through.
pub(crate) fn conditional_branch(node: Node<'_>) -> Branch {
    let mut child = node;
    for _ in 0..MAX_BRANCH_ANCESTORS {
        let Some(parent) = child.parent() else { return Branch::ALWAYS };
        match parent.kind() {
            "function_definition" | "class_definition" | "lambda" | "module" => {
                return Branch::ALWAYS
            }
            "elif_clause"
            | "else_clause"
            | "except_clause"
            | "except_group_clause"
            | "case_clause" => return byte_span(parent),
            "if_statement" | "for_statement" | "while_statement" | "try_statement"
                if child.kind() == "block" =>
            {
                return byte_span(child)
            }
            _ => {}
        }
        child = parent;
    }
    Branch { from: 0, to: 0 }
}

fn byte_span(node: Node<'_>) -> Branch {
    Branch { from: node.start_byte() as u32, to: node.end_byte() as u32 }
}

/// Whether a string literal's prefix (`b`, `rb`, `Br`…) makes it bytes.
pub(crate) fn is_bytes_literal(text: &str) -> bool {
    let prefix: String = text.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
    prefix.to_ascii_lowercase().contains('b')
}

/// Untyped parameters and loop variables: locals of no visible type.
fn lower_untyped_name(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    let name = if node.kind() == "identifier" { Some(node) } else { field_child!(node, "name") };
    let Some(name) = name.filter(|name| name.kind() == "identifier") else { return };
    let is_parameter = node.parent().is_some_and(|parent| parent.kind() == "parameters");
    // Parameters belong to the function being defined (the innermost scope); loop
    // variables to the innermost named scope.
    let scope = if is_parameter { scopes.innermost().id } else { scopes.innermost_named().id };
    let value = if is_parameter { BindingValue::UntypedParameter } else { BindingValue::Unknown };
    facts.bindings.push(Binding::from_byte(
        scope,
        text_of(name, source).to_string(),
        value,
        line,
        node.start_byte() as u32,
    ));
}

/// `return x` / `yield x` in a function without a return annotation: the binding `return`
/// (or `yield`).
fn lower_return_or_yield(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    let function = scopes.innermost();
    if !function.kind.is_callable() || function.kind == SymbolKind::Lambda {
        return;
    }
    // An annotation says it all; and a function's own statements only (not a class's
    // or a nested function's, which are their own innermost scopes).
    let mut ancestor = node.parent();
    while let Some(current) = ancestor.filter(|current| {
        !matches!(current.kind(), "function_definition" | "lambda" | "class_definition")
    }) {
        ancestor = current.parent();
    }
    if ancestor.is_none_or(|definition| {
        definition.kind() != "function_definition"
            || field_child!(definition, "return_type").is_some()
    }) {
        return;
    }
    let Some(value) = node.named_child(0).filter(|value| !value.kind().ends_with("comment")) else {
        return;
    };
    // `return a if c else b`: each side is one of the values returned.
    let sides = match value.kind() {
        "conditional_expression" => {
            let mut sides = Vec::new();
            conditional_sides(value, &mut sides);
            sides
        }
        _ => vec![value],
    };
    for side in sides {
        record_returned_value(node, side, function.id, line, source, facts);
    }
}

/// One value a `return` or `yield` gives, as a binding of the function.
fn record_returned_value(
    node: Node<'_>,
    value: Node<'_>,
    function: tether_model::SymbolId,
    line: u32,
    source: &str,
    facts: &mut FileFacts,
) {
    let value = match value.kind() {
        "call" => field_child!(value, "function")
            .map(|callee| BindingValue::CallResult(callee_expression(callee, source))),
        "identifier" | "attribute" => dotted_path(value, source)
            .map(|path| BindingValue::Expression(tether_model::Receiver::Path(path))),
        _ => None,
    };
    // `yield from it` yields each element of `it`.
    let yields_from = node.kind() == "yield"
        && node.children(&mut node.walk()).any(|child| child.kind() == "from");
    let value = match value {
        Some(BindingValue::CallResult(callee)) if yields_from => {
            Some(BindingValue::ElementOf(tether_model::Receiver::Call(Box::new(callee))))
        }
        Some(BindingValue::Expression(receiver)) if yields_from => {
            Some(BindingValue::ElementOf(receiver))
        }
        value => value,
    };
    let Some(value) = value else { return };
    // A generator's yields are not what calling it returns, but they are what a pytest
    // fixture gives the tests that name it.
    let name = if node.kind() == "yield" { YIELD_BINDING } else { RETURN_BINDING };
    facts.bindings.push(Binding::from_byte(
        function,
        name.to_string(),
        value,
        line,
        node.start_byte() as u32,
    ));
}

/// `with f() as x`: `x` is what entering the context gives.
fn lower_as_pattern(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    let Some(alias) = field_child!(node, "alias")
        .and_then(|alias| alias.named_child(0))
        .filter(|alias| alias.kind() == "identifier")
    else {
        return;
    };
    let value = node
        .named_child(0)
        .filter(|value| value.kind() == "call")
        .and_then(|call| field_child!(call, "function"))
        .map_or(BindingValue::Unknown, |function| {
            BindingValue::EnteredContext(callee_expression(function, source))
        });
    facts.bindings.push(Binding::from_byte(
        scopes.innermost_named().id,
        text_of(alias, source).to_string(),
        value,
        line,
        node.end_byte() as u32,
    ));
}

/// `x: T` and `x: T = d` parameters: of the annotation's type.
fn lower_typed_parameter(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    let name = match node.kind() {
        "typed_parameter" => {
            node.named_children(&mut node.walk()).find(|child| child.kind() == "identifier")
        }
        _ => field_child!(node, "name"),
    };
    let (Some(name), Some(annotation)) = (name, field_child!(node, "type")) else { return };
    let Some(value) = annotation_value(annotation, source) else { return };
    // Parameters belong to the function being defined, which is the innermost scope.
    let scope = scopes.innermost().id;
    facts.bindings.push(Binding::from_byte(
        scope,
        text_of(name, source).to_string(),
        value,
        line,
        node.start_byte() as u32,
    ));
}

/// `for x in xs` (or a comprehension's `for x in xs`): `x` is an element of `xs`; `for a, b in
/// pairs` binds each name to an element of the pair.
fn lower_loop_variables(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let (Some(left), Some(right)) = (field_child!(node, "left"), field_child!(node, "right"))
    else {
        return;
    };
    // `for step in [fetch, build]`: one of the literal's names; else an element of what the
    // iterable expression gives.
    let element = literal_of_names(right, source).map(BindingValue::LiteralElement).or_else(|| {
        Some(value_receiver(right, source))
            .filter(|iterated| *iterated != Receiver::Other)
            .map(BindingValue::ElementOf)
    });
    // A loop's names are in force after its iterable; a comprehension's in all of it.
    let (visible_from, visible_to) = match (node.kind(), node.parent()) {
        ("for_in_clause", Some(comprehension)) => {
            (comprehension.start_byte() as u32, comprehension.end_byte() as u32)
        }
        _ => (right.end_byte() as u32, u32::MAX),
    };
    let scope = scopes.innermost_named().id;
    let line = line_of(node);
    let names: Vec<(Node<'_>, Option<u32>)> = match left.kind() {
        "identifier" => vec![(left, None)],
        "pattern_list" | "tuple_pattern" => left
            .named_children(&mut left.walk())
            .filter(|element| !element.kind().ends_with("comment"))
            .enumerate()
            .take_while(|(_, element)| element.kind() != "list_splat_pattern")
            .filter(|(_, element)| element.kind() == "identifier")
            .map(|(position, element)| (element, Some(position as u32)))
            .collect(),
        _ => Vec::new(),
    };
    for (name, position) in names {
        let value = match (&element, position) {
            (Some(element), None) => element.clone(),
            (Some(element), Some(position)) => {
                BindingValue::TupleElement { of: Box::new(element.clone()), position }
            }
            (None, _) => BindingValue::Unknown,
        };
        facts.bindings.push(Binding {
            scope,
            name: text_of(name, source).to_string(),
            value,
            line,
            visible_from,
            visible_to,
            branch: Branch::ALWAYS,
        });
    }
}

/// `a, b = value`: each name is an element of the value, when the value is a call or a name.
fn lower_tuple_assignment(
    assignment: Node<'_>,
    left: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(right) = field_child!(assignment, "right") else { return };
    let value = match right.kind() {
        "call" => field_child!(right, "function")
            .map(|function| BindingValue::CallResult(callee_expression(function, source))),
        "identifier" | "attribute" | "subscript" => {
            Some(BindingValue::Expression(value_receiver(right, source)))
                .filter(|value| *value != BindingValue::Expression(Receiver::Other))
        }
        _ => None,
    };
    let scope = scopes.innermost_named();
    if scope.kind == SymbolKind::Class {
        return;
    }
    let line = line_of(assignment);
    let visible_from = assignment.end_byte() as u32;
    // `a, b = f, g` (and nested, and swaps): element by element, all read before any is bound.
    let mut pairs = Vec::new();
    if element_pairs(left, right, scope.id, source, facts, &mut pairs) {
        for (name, value) in pairs {
            facts.bindings.push(Binding::from_byte(scope.id, name, value, line, visible_from));
        }
        return;
    }
    for (position, element) in left
        .named_children(&mut left.walk())
        .filter(|element| !element.kind().ends_with("comment"))
        .enumerate()
    {
        // After a `*rest`, positions count from the end: nothing more is known.
        if element.kind() == "list_splat_pattern" {
            break;
        }
        if element.kind() != "identifier" {
            continue;
        }
        let value = match &value {
            Some(value) => BindingValue::TupleElement {
                of: Box::new(value.clone()),
                position: position as u32,
            },
            None => BindingValue::Unknown,
        };
        facts.bindings.push(Binding::from_byte(
            scope.id,
            text_of(element, source).to_string(),
            value,
            line,
            visible_from,
        ));
    }
}

/// The names of a tuple target paired with the values of a tuple of the same shape (nested
/// tuples in turn; names before a `*rest`); false when the right side is not such a tuple.
fn element_pairs(
    left: Node<'_>,
    right: Node<'_>,
    scope: tether_model::SymbolId,
    source: &str,
    facts: &FileFacts,
    pairs: &mut Vec<(String, BindingValue)>,
) -> bool {
    let right = match right.kind() {
        "parenthesized_expression" => match right.named_child(0) {
            Some(inner) => inner,
            None => return false,
        },
        _ => right,
    };
    if !matches!(right.kind(), "expression_list" | "tuple") {
        return false;
    }
    let (targets, values) = (tuple_elements(left), tuple_elements(right));
    if values.iter().any(|value| value.kind() == "list_splat") {
        return false;
    }
    let starred = targets.iter().position(|target| target.kind() == "list_splat_pattern");
    if starred.is_none() && targets.len() != values.len() {
        return false;
    }
    for (target, value) in targets.iter().zip(&values).take(starred.unwrap_or(targets.len())) {
        match target.kind() {
            "identifier" => {
                if let Some(bound) = expression_value(*value, &[], scope, source, facts) {
                    pairs.push((text_of(*target, source).to_string(), bound));
                }
            }
            "tuple_pattern" | "pattern_list" => {
                element_pairs(*target, *value, scope, source, facts, pairs);
            }
            _ => {}
        }
    }
    // `head, *rest = f, g, h` as the last target: `rest[0]` is `g`, `rest[1]` is `h`.
    if let Some(starred) = starred.filter(|starred| *starred + 1 == targets.len()) {
        let rest = targets[starred].named_child(0).filter(|name| name.kind() == "identifier");
        if let Some(rest) = rest {
            for (position, value) in values.iter().skip(starred).enumerate() {
                if let Some(path) = dotted_path(*value, source) {
                    pairs.push((
                        format!("{}[{position}]", text_of(rest, source)),
                        BindingValue::Expression(Receiver::Path(path)),
                    ));
                }
            }
        }
    }
    true
}

/// `ops = {"add": f, "sub": g}`, `steps = [f, g]`: each literal key's value, as a binding
/// named `ops["add"]`, `steps[0]` beside the whole collection's (what `ops["add"]()` calls);
/// nested literals by each key in turn (`nested["basic"][1]`).
fn lower_keyed_elements(
    assignment: Node<'_>,
    name: &str,
    right: Node<'_>,
    scope: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let mut keyed = Vec::new();
    keyed_elements(right, String::new(), source, 0, &mut keyed);
    for (key, path) in keyed {
        facts.bindings.push(Binding::from_byte(
            scope,
            format!("{name}{key}"),
            BindingValue::Expression(Receiver::Path(path)),
            line_of(assignment),
            assignment.end_byte() as u32,
        ));
    }
}

/// How deep literals nested in literals are keyed.
const MAX_KEYED_NESTING: usize = 3;

/// The named values of a dict, list or tuple literal by their keys after `prefix`.
fn keyed_elements(
    literal: Node<'_>,
    prefix: String,
    source: &str,
    depth: usize,
    keyed: &mut Vec<(String, Vec<String>)>,
) {
    let mut elements: Vec<(String, Node<'_>)> = Vec::new();
    match literal.kind() {
        "dictionary" => {
            for pair in tuple_elements(literal).into_iter().filter(|pair| pair.kind() == "pair") {
                let (Some(key), Some(value)) =
                    (field_child!(pair, "key"), field_child!(pair, "value"))
                else {
                    continue;
                };
                if let Some(key) = crate::python::literal_key(key, source) {
                    elements.push((key, value));
                }
            }
        }
        "list" | "tuple" => {
            for (position, value) in tuple_elements(literal).into_iter().enumerate() {
                if value.kind() == "list_splat" {
                    break;
                }
                elements.push((format!("[{position}]"), value));
            }
        }
        _ => return,
    }
    for (key, value) in elements {
        let key = format!("{prefix}{key}");
        match dotted_path(value, source) {
            Some(path) => keyed.push((key, path)),
            None if depth < MAX_KEYED_NESTING => {
                keyed_elements(value, key, source, depth + 1, keyed)
            }
            None => {}
        }
    }
}

/// `table["x"] = f`: the key's value from here on (a later write).
fn lower_keyed_write(
    assignment: Node<'_>,
    left: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let (Some(name), Some(key), Some(value)) = (
        field_child!(left, "value").filter(|name| name.kind() == "identifier"),
        field_child!(left, "subscript").and_then(|key| crate::python::literal_key(key, source)),
        field_child!(assignment, "right").and_then(|value| dotted_path(value, source)),
    ) else {
        return;
    };
    facts.bindings.push(Binding::from_byte(
        scopes.innermost_named().id,
        format!("{}{key}", text_of(name, source)),
        BindingValue::Expression(Receiver::Path(value)),
        line_of(assignment),
        assignment.end_byte() as u32,
    ));
}

/// The elements of a tuple expression or pattern, comments left out.
fn tuple_elements(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).filter(|child| !child.kind().ends_with("comment")).collect()
}

/// The string elements of an `__all__` literal, each as a one-segment path.
fn exported_names(node: Node<'_>, source: &str) -> Option<BindingValue> {
    let names: Vec<Vec<String>> = node
        .named_children(&mut node.walk())
        .filter(|element| element.kind() == "string")
        .map(|element| {
            vec![text_of(element, source).trim_matches(|c| c == '"' || c == '\'').to_string()]
        })
        .filter(|name| !name[0].is_empty())
        .collect();
    Some(BindingValue::Collection(names))
}

/// The names of a literal list, tuple or set whose elements are all names (a loop over it
/// binds its variable to each: `for step in [fetch, build]`).
pub(crate) fn literal_of_names(node: Node<'_>, source: &str) -> Option<Vec<Vec<String>>> {
    if !matches!(node.kind(), "list" | "tuple" | "set") {
        return None;
    }
    match collection_of_names(node, source)? {
        BindingValue::Collection(names) => Some(names),
        _ => None,
    }
}

/// A literal collection whose elements (or dict values) are all names, as a binding.
fn collection_of_names(node: Node<'_>, source: &str) -> Option<BindingValue> {
    let mut elements = Vec::new();
    for element in node.named_children(&mut node.walk()) {
        let value =
            if element.kind() == "pair" { field_child!(element, "value")? } else { element };
        if value.kind() == "comment" {
            continue;
        }
        elements.push(dotted_path(value, source)?);
    }
    if elements.is_empty() {
        return None;
    }
    Some(match node.kind() {
        "dictionary" => BindingValue::Mapping(elements),
        _ => BindingValue::Collection(elements),
    })
}

/// `isinstance(name, Class)` (a plain name, or an attribute of `self`, and one class): the
/// name (`self.handler` for the attribute) and the class's path.
fn isinstance_check(condition: Node<'_>, source: &str) -> Option<(String, Vec<String>)> {
    if condition.kind() != "call"
        || field_child!(condition, "function").map(|function| text_of(function, source))
            != Some("isinstance")
    {
        return None;
    }
    let arguments = field_child!(condition, "arguments")?;
    let mut cursor = arguments.walk();
    let mut arguments = arguments
        .named_children(&mut cursor)
        .filter(|argument| !argument.kind().ends_with("comment"));
    let (name, class) = (arguments.next()?, arguments.next()?);
    if arguments.next().is_some() {
        return None;
    }
    let name = match name.kind() {
        "identifier" => text_of(name, source).to_string(),
        "attribute" => match dotted_path(name, source)?.as_slice() {
            [receiver, attribute] if receiver == "self" => format!("self.{attribute}"),
            _ => return None,
        },
        _ => return None,
    };
    Some((name, dotted_path(class, source)?))
}

/// A function's parameters in order (`self` counts; `*args` takes the positions from its
/// own on, and it or a bare `*` makes the later ones keyword-only; `**kwargs` comes last),
/// with what a default names: where value flow finds what a parameter holds.
fn record_parameter_positions(
    parameters: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    use tether_model::ParameterKind;
    let function = scopes.innermost().id;
    let mut position = 0;
    let mut keyword_only = false;
    let mut cursor = parameters.walk();
    for parameter in parameters.named_children(&mut cursor) {
        let mut kind = match keyword_only {
            true => ParameterKind::KeywordOnly,
            false => ParameterKind::Positional,
        };
        let (name, default) = match parameter.kind() {
            "identifier" => (Some(parameter), None),
            "typed_parameter" => (
                parameter
                    .named_children(&mut parameter.walk())
                    .find(|child| child.kind() == "identifier"),
                None,
            ),
            "default_parameter" | "typed_default_parameter" => {
                (field_child!(parameter, "name"), field_child!(parameter, "value"))
            }
            "list_splat_pattern" => {
                kind = ParameterKind::VarPositional;
                keyword_only = true;
                (parameter.named_child(0), None)
            }
            "dictionary_splat_pattern" => {
                kind = ParameterKind::VarKeyword;
                (parameter.named_child(0), None)
            }
            "keyword_separator" => {
                keyword_only = true;
                continue;
            }
            _ => continue,
        };
        let Some(name) = name.filter(|name| name.kind() == "identifier") else { continue };
        let default = default
            .and_then(|value| Some((dotted_path(value, source)?, value.start_byte() as u32)));
        facts.parameters.push(tether_model::Parameter {
            function,
            position,
            name: text_of(name, source).to_string(),
            kind,
            default,
        });
        position += 1;
    }
}

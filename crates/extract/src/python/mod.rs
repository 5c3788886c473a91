//! Python lowering: classes, functions, methods and lambdas; calls, imports, bases, bindings.

pub(crate) mod annotations;
pub(crate) mod attribute_reads_by_name;
pub(crate) mod bindings;
pub(crate) mod dynamic_reads;
pub(crate) mod element_stores;
pub(crate) mod fixture_requests;
pub(crate) mod implicit_calls;
pub(crate) mod name_lists;
pub(crate) mod operator_calls;
pub(crate) mod test_classes;
pub(crate) mod truth_tests;
pub(crate) mod value_references;

use tether_model::{
    Binding, BindingValue, CallSite, CalleeExpr, FileFacts, Import, ImportStyle, Language,
    Receiver, SupertypeRef, SymbolKind,
};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, Lowering, NewSymbol, OpenScope, ScopeStack};
use crate::python::annotations::{annotation_value, generator_element_path};
use crate::query::{CaptureRole, DefinitionCapture, Tag};
use crate::{
    DECORATED_BINDING, FIXTURE_BINDING, OVERLOAD_BINDING, PROPERTY_BINDING, RETURN_BINDING,
    YIELD_BINDING,
};

/// Call-site texts longer than this are cut (with `…`) in reports.
const MAX_CALL_TEXT_BYTES: usize = 120;

pub(crate) struct PythonLowering {
    is_test_file: bool,
}

impl PythonLowering {
    pub(crate) fn new(path: &str) -> PythonLowering {
        PythonLowering { is_test_file: is_python_test_file(path) }
    }
}

/// A test file by the test framework's conventions (`queries/python/test_framework.txt`):
/// `test_*.py`, `*_test.py`, `conftest.py`, or anything under a `test`/`tests` directory.
fn is_python_test_file(path: &str) -> bool {
    tether_model::TestFramework::python().is_test_file(path)
}

impl Lowering for PythonLowering {
    const LANGUAGE: Language = Language::Python;
    const SEPARATOR: &'static str = ".";

    fn definition<'tree>(
        &self,
        capture: DefinitionCapture,
        tag: &Tag<'tree>,
        scopes: &ScopeStack,
        source: &str,
    ) -> Option<NewSymbol<'tree>> {
        let parent = scopes.innermost();
        let span_node = match tag.node.parent() {
            Some(decorated) if decorated.kind() == "decorated_definition" => decorated,
            _ => tag.node,
        };
        let (kind, name) = match capture {
            DefinitionCapture::Class => (SymbolKind::Class, text_of(tag.name?, source).to_string()),
            DefinitionCapture::Function => {
                let kind = if parent.kind == SymbolKind::Class {
                    SymbolKind::Method
                } else {
                    SymbolKind::Function
                };
                (kind, text_of(tag.name?, source).to_string())
            }
            DefinitionCapture::Lambda => (SymbolKind::Lambda, "<lambda>".to_string()),
            // `if __name__ == "__main__":` at module level runs only as a script.
            DefinitionCapture::Script => {
                let condition = field_child!(tag.node, "condition")?;
                let compact: String = text_of(condition, source)
                    .chars()
                    .filter(|character| !character.is_whitespace())
                    .collect();
                let is_guard = parent.kind == SymbolKind::Module
                    && matches!(
                        compact.as_str(),
                        "__name__==\"__main__\"" | "__name__=='__main__'"
                    );
                if !is_guard {
                    return None;
                }
                (SymbolKind::Function, "__main__".to_string())
            }
            _ => return None,
        };
        let framework = tether_model::TestFramework::python();
        let is_test = self.is_test_file
            && match kind {
                SymbolKind::Class => {
                    framework.is_test_class_name(&name)
                        || crate::python::test_classes::extends_a_test_case(tag.node, source, 0)
                }
                SymbolKind::Function => {
                    framework.is_test_function_name(&name) && parent.kind == SymbolKind::Module
                }
                SymbolKind::Method => framework.is_test_function_name(&name) && parent.is_test,
                _ => false,
            };
        // pytest collects the test functions and methods (the rules above); a test class is
        // where they are, not a test.
        let runs_as_test = is_test && matches!(kind, SymbolKind::Function | SymbolKind::Method);
        let body_start_line = match kind {
            SymbolKind::Function | SymbolKind::Method => field_child!(tag.node, "body")
                .map_or(0, |body| body.start_position().row as u32 + 1),
            _ => 0,
        };
        Some(NewSymbol {
            kind,
            name,
            span_node,
            child_prefix: None,
            qualified_name: None,
            is_test,
            runs_as_test,
            body_start_line,
            is_overload_stub: kind.is_callable()
                && decorator_names(tag.node, source).iter().any(|name| name == "overload"),
            visibility: tether_model::Visibility::Undeclared,
        })
    }

    fn after_definition(
        &self,
        tag: &Tag<'_>,
        symbol: &tether_model::Symbol,
        _scopes: &ScopeStack,
        source: &str,
        facts: &mut FileFacts,
    ) {
        if symbol.kind == SymbolKind::Class {
            crate::python::fixture_requests::record_fixture_requests(
                tag.node, symbol, false, source, facts,
            );
        }
        if !symbol.kind.is_callable() {
            return;
        }
        let line = line_of(tag.node);
        // The return annotation, as the binding `return` of the function; a generator's
        // (`-> Iterator[T]`) as what it yields, which is what a pytest fixture gives.
        if let Some(annotation) = field_child!(tag.node, "return_type") {
            if let Some(path) = generator_element_path(annotation, source) {
                facts.bindings.push(Binding::everywhere(
                    symbol.id,
                    YIELD_BINDING.to_string(),
                    BindingValue::named_type(path),
                    line,
                ));
            } else if let Some(value) = annotation_value(annotation, source) {
                facts.bindings.push(Binding::everywhere(
                    symbol.id,
                    RETURN_BINDING.to_string(),
                    value,
                    line,
                ));
            }
        }
        let decorators = decorator_names(tag.node, source);
        if symbol.kind == SymbolKind::Function {
            record_decorator_applications(tag.node, symbol.id, source, facts);
        }
        if symbol.kind == SymbolKind::Method
            && decorators.iter().any(|name| {
                matches!(
                    name.as_str(),
                    "property" | "cached_property" | "abstractproperty" | "getter"
                )
            })
        {
            facts.bindings.push(Binding::everywhere(
                symbol.id,
                PROPERTY_BINDING.to_string(),
                BindingValue::Unknown,
                line,
            ));
        }
        if symbol.kind == SymbolKind::Method && decorators.iter().any(|name| name == "setter") {
            facts.bindings.push(Binding::everywhere(
                symbol.id,
                crate::PROPERTY_SETTER_BINDING.to_string(),
                BindingValue::Unknown,
                line,
            ));
        }
        if decorators.iter().any(|name| name == "overload") {
            facts.bindings.push(Binding::everywhere(
                symbol.id,
                OVERLOAD_BINDING.to_string(),
                BindingValue::Unknown,
                line,
            ));
        }
        let is_fixture = decorators
            .iter()
            .any(|name| tether_model::TestFramework::python().is_fixture_decorator(name));
        if is_fixture {
            facts.bindings.push(Binding::everywhere(
                symbol.id,
                FIXTURE_BINDING.to_string(),
                BindingValue::Unknown,
                line,
            ));
        }
        crate::python::fixture_requests::record_fixture_requests(
            tag.node, symbol, is_fixture, source, facts,
        );
        // A decorator that is not known to hand the function back as it was receives it as a
        // value (a registry, a framework route, a wrapper): the function escapes there.
        if let (Some(decorator), Some(parent)) = (first_decorator(tag.node), symbol.parent) {
            if decorators.iter().any(|name| {
                !crate::python::name_lists::PythonNameList::TransparentDecorators.contains(name)
            }) {
                facts.value_references.push(CallSite {
                    caller: parent,
                    callee: CalleeExpr::Path(vec![symbol.name.clone()]),
                    line: line_of(decorator),
                    byte: decorator.start_byte() as u32,
                    text: shorten(text_of(decorator, source)),
                });
            }
        }
    }

    fn reference(&self, tag: &Tag<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
        match tag.role {
            CaptureRole::Call => {
                let callee_node = if tag.node.kind() == "call" {
                    field_child!(tag.node, "function")
                } else {
                    Some(tag.node)
                };
                let Some(callee_node) = callee_node else { return };
                let caller = caller_scope(tag.node, scopes);
                let callee = callee_expression(callee_node, source);
                if tag.node.kind() == "call" {
                    record_function_references(tag.node, &callee, caller, source, facts);
                    crate::python::dynamic_reads::record_dynamic_read(
                        tag.node, &callee, caller, source, facts,
                    );
                    crate::python::attribute_reads_by_name::record_attribute_read_by_name(
                        tag.node, &callee, caller, source, facts,
                    );
                    record_call_arguments(tag.node, caller, source, facts);
                    crate::python::implicit_calls::lower_builtin_protocol_call(
                        tag.node, &callee, caller, source, facts,
                    );
                    crate::python::element_stores::lower_storing_call(
                        tag.node, &callee, caller, source, facts,
                    );
                }
                // `@route("/")` calls `route("/")`, then what it returns with the function.
                let decorator = tag.node.parent().filter(|parent| parent.kind() == "decorator");
                if let Some(decorator) = decorator {
                    // An implicit call: an outside factory's decorator is not a site to
                    // count unresolved.
                    let application_byte = if tag.node.kind() == "call" {
                        facts.implicit_calls.push(CallSite {
                            caller,
                            callee: CalleeExpr::Returned(Box::new(callee.clone())),
                            line: line_of(decorator),
                            byte: decorator.start_byte() as u32,
                            text: shorten(text_of(tag.node, source)),
                        });
                        decorator.start_byte() as u32
                    } else {
                        tag.node.start_byte() as u32
                    };
                    record_decorated_argument(decorator, application_byte, caller, source, facts);
                }
                facts.calls.push(CallSite {
                    caller,
                    callee,
                    line: line_of(tag.node),
                    byte: tag.node.start_byte() as u32,
                    text: shorten(text_of(callee_node, source)),
                });
            }
            CaptureRole::Import => lower_import(tag.node, scopes, source, facts),
            CaptureRole::Inherits => {
                if tag.node.kind() == "keyword_argument" {
                    lower_metaclass(tag.node, scopes, source, facts);
                    return;
                }
                if tag.node.kind() == "comment" {
                    return;
                }
                // `class FDCapture(FDCaptureBase[str])`: the generic base's class.
                let base = match tag.node.kind() {
                    "subscript" => field_child!(tag.node, "value").filter(|value| {
                        !matches!(
                            text_of(*value, source),
                            "Generic" | "Protocol" | "typing.Generic" | "typing.Protocol"
                        )
                    }),
                    _ => Some(tag.node),
                };
                if let Some(path) = base.and_then(|base| dotted_path(base, source)) {
                    // The class being defined is the innermost scope: its name precedes its bases.
                    let subtype = scopes.innermost();
                    if subtype.kind == SymbolKind::Class {
                        // Defining a subclass calls the base's `__init_subclass__`.
                        let mut hook = path.clone();
                        hook.push("__init_subclass__".to_string());
                        crate::python::implicit_calls::push_class_definition_call(
                            hook, tag.node, subtype.id, facts,
                        );
                        facts.supertypes.push(SupertypeRef {
                            subtype: subtype.id,
                            path,
                            line: line_of(tag.node),
                        });
                    }
                }
            }
            CaptureRole::Binding => {
                crate::python::bindings::lower_binding(tag.node, scopes, source, facts)
            }
            CaptureRole::Value => {
                crate::python::value_references::lower_value_name(tag.node, scopes, source, facts)
            }
            CaptureRole::Protocol => {
                crate::python::implicit_calls::lower_protocol_calls(tag.node, scopes, source, facts)
            }
            CaptureRole::Attribute => {
                crate::python::implicit_calls::lower_attribute_read(tag.node, scopes, source, facts)
            }
            CaptureRole::Name | CaptureRole::Definition(_) | CaptureRole::LocalScope => {}
        }
    }
}

/// The function (or class) a decorator is applied to, as the argument of that application
/// (the call at `application_byte`): value flow then follows it into the decorator's
/// parameter (`def logged(func): def wrapper(): return func()`). Each decorator of a stack is
/// given the definition itself, as the usual decorators hand it on.
fn record_decorated_argument(
    decorator: Node<'_>,
    application_byte: u32,
    caller: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(definition) = decorator
        .parent()
        .filter(|parent| parent.kind() == "decorated_definition")
        .and_then(|decorated| field_child!(decorated, "definition"))
    else {
        return;
    };
    let Some(name) = field_child!(definition, "name") else { return };
    facts.call_arguments.push(tether_model::CallArgument {
        caller,
        call_byte: application_byte,
        position: Some(0),
        keyword: None,
        path: vec![text_of(name, source).to_string()],
        byte: definition.end_byte() as u32,
        form: tether_model::ArgumentForm::Decorated,
    });
}

/// The first decorator of a decorated definition.
fn first_decorator(definition: Node<'_>) -> Option<Node<'_>> {
    decorator_nodes(definition).into_iter().next()
}

/// The decorators of a decorated definition, in source order (none for a plain one).
fn decorator_nodes(definition: Node<'_>) -> Vec<Node<'_>> {
    let Some(decorated) =
        definition.parent().filter(|parent| parent.kind() == "decorated_definition")
    else {
        return Vec::new();
    };
    let decorators = decorated
        .named_children(&mut decorated.walk())
        .filter(|child| child.kind() == "decorator")
        .collect();
    decorators
}

/// The decorators of a function as what applying each gives (`@logged` is `logged(f)`,
/// `@route("/")` is `route("/")(f)`), nearest first, as `DECORATED_BINDING` bindings.
fn record_decorator_applications(
    definition: Node<'_>,
    function: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    for decorator in decorator_nodes(definition).into_iter().rev() {
        let Some(expression) = decorator.named_child(0) else { continue };
        let applied = match expression.kind() {
            "call" => match field_child!(expression, "function") {
                Some(factory) => CalleeExpr::Returned(Box::new(callee_expression(factory, source))),
                None => continue,
            },
            _ => match dotted_path(expression, source) {
                Some(path) => CalleeExpr::Path(path),
                None => continue,
            },
        };
        facts.bindings.push(Binding::everywhere(
            function,
            DECORATED_BINDING.to_string(),
            BindingValue::CallResult(applied),
            line_of(decorator),
        ));
    }
}

/// The last name of each decorator of a definition: `property` for `@property`, `fixture` for
/// `@pytest.fixture(scope="session")`, `setter` for `@x.setter`.
fn decorator_names(definition: Node<'_>, source: &str) -> Vec<String> {
    let mut names = Vec::new();
    for decorator in decorator_nodes(definition) {
        let Some(mut expression) = decorator.named_child(0) else { continue };
        if expression.kind() == "call" {
            let Some(function) = field_child!(expression, "function") else { continue };
            expression = function;
        }
        if let Some(name) = dotted_path(expression, source).and_then(|path| path.last().cloned()) {
            names.push(name);
        }
    }
    names
}

/// Function names passed to a higher-order call: positional arguments and `key=`, `func=`,
/// `function=`, `callback=`, `target=`, `default_factory=`.
fn record_function_references(
    call: Node<'_>,
    callee: &CalleeExpr,
    caller: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let name = match callee {
        CalleeExpr::Path(path) => path.last().map(String::as_str),
        CalleeExpr::Method { name, .. } => Some(name.as_str()),
        _ => None,
    };
    let Some(name) = name else { return };
    let is_higher_order =
        crate::python::name_lists::PythonNameList::HigherOrderFunctions.contains(name);
    let Some(arguments) = field_child!(call, "arguments") else { return };
    for argument in arguments.named_children(&mut arguments.walk()) {
        let value = match argument.kind() {
            "keyword_argument" => {
                let keyword =
                    field_child!(argument, "name").map(|name| text_of(name, source)).unwrap_or("");
                if !matches!(
                    keyword,
                    "key" | "func" | "function" | "callback" | "target" | "default_factory"
                ) {
                    continue;
                }
                field_child!(argument, "value")
            }
            _ if is_higher_order => Some(argument),
            _ => None,
        };
        let Some(value) = value else { continue };
        if let Some(path) = dotted_path(value, source) {
            facts.function_references.push(CallSite {
                caller,
                callee: CalleeExpr::Path(path),
                line: line_of(value),
                byte: value.start_byte() as u32,
                text: shorten(text_of(value, source)),
            });
        }
    }
}

/// The arguments of a call that name a value (a name or a dotted path), by position or
/// keyword; a `*args` argument (recorded, `Unpacked`, at its position) ends the positions
/// that can be told; a `**kwargs` argument is recorded `UnpackedKeywords`.
fn record_call_arguments(
    call: Node<'_>,
    caller: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(arguments) = field_child!(call, "arguments") else { return };
    if arguments.kind() != "argument_list" {
        return;
    }
    let mut position = Some(0u32);
    for argument in arguments.named_children(&mut arguments.walk()) {
        let (keyword, value) = match argument.kind() {
            "keyword_argument" => (
                field_child!(argument, "name").map(|name| text_of(name, source).to_string()),
                field_child!(argument, "value"),
            ),
            "list_splat" | "dictionary_splat" => {
                let form = match argument.kind() {
                    "list_splat" => tether_model::ArgumentForm::Unpacked,
                    _ => tether_model::ArgumentForm::UnpackedKeywords,
                };
                let unpacked = argument.named_child(0);
                if let Some((unpacked, path)) = unpacked
                    .and_then(|value| Some((value, dotted_path(value, source)?)))
                    .filter(|_| {
                        form == tether_model::ArgumentForm::UnpackedKeywords || position.is_some()
                    })
                {
                    facts.call_arguments.push(tether_model::CallArgument {
                        caller,
                        call_byte: call.start_byte() as u32,
                        position: if form == tether_model::ArgumentForm::Unpacked {
                            position
                        } else {
                            None
                        },
                        keyword: None,
                        path,
                        byte: unpacked.start_byte() as u32,
                        form,
                    });
                }
                if form == tether_model::ArgumentForm::Unpacked {
                    position = None;
                }
                continue;
            }
            "comment" => continue,
            _ => (None, Some(argument)),
        };
        let argument_position = if keyword.is_none() { position } else { None };
        if keyword.is_none() {
            position = position.map(|position| position + 1);
        }
        let Some(value) = value else { continue };
        if keyword.is_none() && argument_position.is_none() {
            continue;
        }
        // `dispatch(EmailWorker())`: an instance of what the path names.
        let (path, form) = match dotted_path(value, source) {
            Some(path) => (path, tether_model::ArgumentForm::Plain),
            None if value.kind() == "call" => {
                match field_child!(value, "function").and_then(|class| dotted_path(class, source)) {
                    Some(path) => (path, tether_model::ArgumentForm::CallResult),
                    None => continue,
                }
            }
            None => continue,
        };
        facts.call_arguments.push(tether_model::CallArgument {
            caller,
            call_byte: call.start_byte() as u32,
            position: argument_position,
            keyword,
            path,
            byte: value.start_byte() as u32,
            form,
        });
    }
}

/// The scope a call belongs to. Default values are evaluated where the function is defined,
/// so a call inside a parameter list belongs to the function's enclosing scope.
/// `class C(metaclass=Meta)`: defining `C` calls `Meta.__new__` and `Meta.__init__`.
fn lower_metaclass(
    argument: Node<'_>,
    scopes: &ScopeStack<'_>,
    source: &str,
    facts: &mut FileFacts,
) {
    let (Some(name), Some(value)) =
        (field_child!(argument, "name"), field_child!(argument, "value"))
    else {
        return;
    };
    let class = scopes.innermost();
    if text_of(name, source) != "metaclass" || class.kind != SymbolKind::Class {
        return;
    }
    let Some(path) = dotted_path(value, source) else { return };
    for method in ["__new__", "__init__"] {
        let mut hook = path.clone();
        hook.push(method.to_string());
        crate::python::implicit_calls::push_class_definition_call(hook, argument, class.id, facts);
    }
}

pub(crate) fn caller_scope(call: Node<'_>, scopes: &ScopeStack<'_>) -> tether_model::SymbolId {
    let named = scopes.innermost_named();
    if named.kind.is_callable()
        && scopes.innermost().id == named.id
        && is_inside_parameters(call, named)
    {
        if let Some(enclosing) = scopes.enclosing_of_innermost_named() {
            return enclosing.id;
        }
    }
    named.id
}

/// Whether `node` lies in the parameter list of `function`, its innermost scope (a default
/// value), read from the function's `parameters` field rather than by walking up the tree.
fn is_inside_parameters(node: Node<'_>, function: &OpenScope<'_>) -> bool {
    let parameters = function
        .node
        .filter(|definition| definition.kind() == "function_definition")
        .and_then(|definition| field_child!(definition, "parameters"));
    parameters.is_some_and(|parameters| parameters.byte_range().contains(&node.start_byte()))
}

/// A literal subscript key as a path segment: `["add"]` for a string, `[0]` for an integer.
pub(crate) fn literal_key(key: Node<'_>, source: &str) -> Option<String> {
    let text = text_of(key, source);
    match key.kind() {
        "string" if !text.starts_with(|c: char| c.is_ascii_alphabetic()) => {
            Some(format!("[{:?}]", text.trim_matches(|c| c == '"' || c == '\'')))
        }
        "integer" => Some(format!("[{text}]")),
        _ => None,
    }
}

/// The structure of a callee expression.
pub(crate) fn callee_expression(node: Node<'_>, source: &str) -> CalleeExpr {
    if let Some(path) = dotted_path(node, source) {
        return CalleeExpr::Path(path);
    }
    if node.kind() == "subscript" {
        if let Some(path) = indexed_path(node, source) {
            return CalleeExpr::Indexed(path);
        }
    }
    if node.kind() == "attribute" {
        if let (Some(object), Some(attribute)) =
            (field_child!(node, "object"), field_child!(node, "attribute"))
        {
            return CalleeExpr::Method {
                receiver: value_receiver(object, source),
                name: text_of(attribute, source).to_string(),
            };
        }
    }
    // `next(handlers())(x)`: a value the builtin makes of its arguments'.
    if let Some(builtin) = field_child!(node, "function")
        .filter(|_| node.kind() == "call")
        .and_then(|function| builtin_call(node, function, source))
    {
        return CalleeExpr::Value(Box::new(builtin));
    }
    // `make_prefixer(">")(line)`: what the inner call returns, a few calls deep.
    if node.kind() == "call" && returned_call_depth(node) <= MAX_RETURNED_CALLS {
        if let Some(function) = field_child!(node, "function") {
            return CalleeExpr::Returned(Box::new(callee_expression(function, source)));
        }
    }
    CalleeExpr::Other
}

/// `ops["add"]`, `steps[0]`, `table[key]`, `nested["basic"][1]`: the container's path, then
/// each literal key as a `[…]` segment. Only the outermost key may be computed (then no key
/// segment); a computed key inside (`d[k][0]`) says nothing.
fn indexed_path(node: Node<'_>, source: &str) -> Option<Vec<String>> {
    let key = field_child!(node, "subscript").and_then(|key| literal_key(key, source));
    let value = field_child!(node, "value")?;
    let mut path = match dotted_path(value, source) {
        Some(path) => path,
        None if value.kind() == "subscript" => {
            let inner = indexed_path(value, source)?;
            if !inner.last().is_some_and(|segment| segment.starts_with('[')) || key.is_none() {
                return None;
            }
            inner
        }
        None => return None,
    };
    path.extend(key);
    Some(path)
}

/// How many calls of calls' results a callee is followed through (`f()()()`).
const MAX_RETURNED_CALLS: usize = 4;

/// How many calls are nested as the function of each other from `node` down.
fn returned_call_depth(node: Node<'_>) -> usize {
    let mut depth = 0;
    let mut current = Some(node);
    while let Some(call) = current.filter(|call| call.kind() == "call") {
        depth += 1;
        if depth > MAX_RETURNED_CALLS {
            break;
        }
        current = field_child!(call, "function");
    }
    depth
}

/// An expression whose value a method is called on or a name is bound to: a chain of names,
/// a call's result, an element read by subscript (`xs[0]`), or a literal of a builtin type.
pub(crate) fn value_receiver(node: Node<'_>, source: &str) -> Receiver {
    if let Some(path) = dotted_path(node, source) {
        return Receiver::Path(path);
    }
    match node.kind() {
        "call" => match field_child!(node, "function") {
            Some(function) => builtin_call(node, function, source)
                .unwrap_or_else(|| Receiver::Call(Box::new(callee_expression(function, source)))),
            None => Receiver::Other,
        },
        "subscript" => match field_child!(node, "value") {
            Some(value) => {
                let base = Box::new(value_receiver(value, source));
                match field_child!(node, "subscript").and_then(|key| literal_slice(key, source)) {
                    Some((from, to)) => Receiver::Slice { base, from, to },
                    None => Receiver::Subscript(base),
                }
            }
            None => Receiver::Other,
        },
        // `b"…".decode()`: a bytes literal.
        "string" if crate::python::bindings::is_bytes_literal(text_of(node, source)) => {
            Receiver::Path(vec!["bytes".to_string()])
        }
        // `", ".join(…)`, `[].append`: a literal's type is a builtin.
        kind => match literal_type(kind) {
            Some(type_name) => Receiver::Path(vec![type_name.to_string()]),
            None => Receiver::Other,
        },
    }
}

/// `1:`, `:-1`, `1:3` (no step): the bounds of a slice written with integer literals.
fn literal_slice(key: Node<'_>, source: &str) -> Option<(Option<i64>, Option<i64>)> {
    if key.kind() != "slice" {
        return None;
    }
    let bound = |text: &str| -> Option<Option<i64>> {
        let text = text.trim();
        if text.is_empty() {
            return Some(None);
        }
        text.parse().ok().map(Some)
    };
    match text_of(key, source).split(':').collect::<Vec<_>>().as_slice() {
        [from, to] => Some((bound(from)?, bound(to)?)),
        [from, to, step] if step.trim().is_empty() => Some((bound(from)?, bound(to)?)),
        _ => None,
    }
}

/// `next(gen())`, `map(f, xs)`: a call of a name the builtin-results table lists, with its
/// positional arguments' values (up to a few calls deep, as receivers nest).
fn builtin_call(call: Node<'_>, function: Node<'_>, source: &str) -> Option<Receiver> {
    let path = dotted_path(function, source)?;
    if !crate::python::name_lists::PythonNameList::BuiltinResults.contains(path.last()?) {
        return None;
    }
    let name = path.join(".");
    let arguments = field_child!(call, "arguments")?;
    let mut cursor = arguments.walk();
    let arguments = arguments
        .named_children(&mut cursor)
        .filter(|argument| !argument.kind().ends_with("comment"))
        .take_while(|argument| {
            !matches!(argument.kind(), "keyword_argument" | "list_splat" | "dictionary_splat")
        })
        .map(|argument| value_receiver(argument, source))
        .collect();
    Some(Receiver::BuiltinCall { name, arguments })
}

/// `a`, `a.b.c` as segments; `None` for anything that is not a chain of names.
pub(crate) fn dotted_path(node: Node<'_>, source: &str) -> Option<Vec<String>> {
    match node.kind() {
        "identifier" => Some(vec![text_of(node, source).to_string()]),
        "attribute" => {
            let mut path = dotted_path(field_child!(node, "object")?, source)?;
            path.push(text_of(field_child!(node, "attribute")?, source).to_string());
            Some(path)
        }
        "dotted_name" => Some(
            node.named_children(&mut node.walk())
                .map(|part| text_of(part, source).to_string())
                .collect(),
        ),
        _ => None,
    }
}

fn lower_import(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let scope = scopes.innermost_named().id;
    let line = line_of(node);
    let visible_from = node.end_byte() as u32;
    let branch = crate::python::bindings::conditional_branch(node);
    let mut cursor = node.walk();
    match node.kind() {
        "import_statement" => {
            for name in node.children_by_field_name("name", &mut cursor) {
                let (path_node, alias) = split_alias(name, source);
                let Some(path) = path_node.and_then(|path_node| dotted_path(path_node, source))
                else {
                    continue;
                };
                // `import a.b` binds `a`.
                let alias = alias.or_else(|| path.first().cloned());
                facts.imports.push(Import {
                    scope,
                    style: ImportStyle::PythonImport,
                    relative_level: 0,
                    path,
                    alias,
                    is_glob: false,
                    is_public: true,
                    line,
                    visible_from,
                    branch,
                });
            }
        }
        "import_from_statement" => {
            let Some(module_node) = field_child!(node, "module_name") else { return };
            let (relative_level, module_path) = if module_node.kind() == "relative_import" {
                let prefix = module_node
                    .named_children(&mut module_node.walk())
                    .find(|child| child.kind() == "import_prefix");
                let level = prefix
                    .map(|prefix| {
                        text_of(prefix, source).chars().filter(|c| *c == '.').count() as u32
                    })
                    .unwrap_or(1);
                let path = module_node
                    .named_children(&mut module_node.walk())
                    .find(|child| child.kind() == "dotted_name")
                    .and_then(|dotted| dotted_path(dotted, source))
                    .unwrap_or_default();
                (level, path)
            } else {
                (0, dotted_path(module_node, source).unwrap_or_default())
            };
            let is_glob = node
                .named_children(&mut node.walk())
                .any(|child| child.kind() == "wildcard_import");
            if is_glob {
                facts.imports.push(Import {
                    scope,
                    style: ImportStyle::PythonFrom,
                    relative_level,
                    path: module_path,
                    alias: None,
                    is_glob: true,
                    is_public: true,
                    line,
                    visible_from,
                    branch,
                });
                return;
            }
            for name in node.children_by_field_name("name", &mut cursor) {
                let (name_node, alias) = split_alias(name, source);
                let Some(imported) = name_node.and_then(|name_node| dotted_path(name_node, source))
                else {
                    continue;
                };
                let mut path = module_path.clone();
                path.extend(imported.iter().cloned());
                let alias = alias.or_else(|| imported.last().cloned());
                facts.imports.push(Import {
                    scope,
                    style: ImportStyle::PythonFrom,
                    relative_level,
                    path,
                    alias,
                    is_glob: false,
                    is_public: true,
                    line,
                    visible_from,
                    branch,
                });
            }
        }
        _ => {}
    }
}

/// `a.b as c` into (`a.b`, Some(`c`)); a plain name into (name, None).
fn split_alias<'tree>(node: Node<'tree>, source: &str) -> (Option<Node<'tree>>, Option<String>) {
    if node.kind() == "aliased_import" {
        let alias = field_child!(node, "alias").map(|alias| text_of(alias, source).to_string());
        (field_child!(node, "name"), alias)
    } else {
        (Some(node), None)
    }
}

/// The builtin type of a literal expression node.
pub(crate) fn literal_type(kind: &str) -> Option<&'static str> {
    match kind {
        "string" | "concatenated_string" => Some("str"),
        "list" | "list_comprehension" => Some("list"),
        "dictionary" | "dictionary_comprehension" => Some("dict"),
        "set" | "set_comprehension" => Some("set"),
        "tuple" => Some("tuple"),
        "integer" => Some("int"),
        "float" => Some("float"),
        "true" | "false" => Some("bool"),
        _ => None,
    }
}

pub(crate) fn shorten(text: &str) -> String {
    // Most callees are short and on one line: copy them as they are.
    if text.len() <= MAX_CALL_TEXT_BYTES
        && !text.contains(['\n', '\r', '\t'])
        && !text.contains("  ")
        && !text.starts_with(' ')
        && !text.ends_with(' ')
    {
        return text.to_string();
    }
    let single_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if single_line.len() <= MAX_CALL_TEXT_BYTES {
        return single_line;
    }
    let mut end = MAX_CALL_TEXT_BYTES;
    while !single_line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &single_line[..end])
}

/// A call's positional arguments (keyword arguments and comments left out).
pub(crate) fn positional_arguments(arguments: Node<'_>) -> Vec<Node<'_>> {
    arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| !matches!(argument.kind(), "keyword_argument" | "comment"))
        .collect()
}

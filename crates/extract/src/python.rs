//! Python lowering: classes, functions, methods and lambdas; calls, imports, bases, bindings.

use tether_model::{Binding, BindingValue, CallSite, CalleeExpr, FileFacts, Import, ImportStyle, Language, Receiver, SupertypeRef, SymbolKind};
use tree_sitter::Node;

use crate::{FIXTURE_BINDING, OVERLOAD_BINDING, PROPERTY_BINDING, RETURN_BINDING, YIELD_BINDING};
use crate::outline::{line_of, text_of, Lowering, NewSymbol, ScopeStack};
use crate::python_annotations::{annotation_value, generator_element_path};
use crate::query::{CaptureRole, DefinitionCapture, Tag};

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

/// `test_*.py`, `*_test.py`, `conftest.py`, or anything under a `test`/`tests` directory.
fn is_python_test_file(path: &str) -> bool {
    let file_name = path.rsplit('/').next().unwrap_or(path);
    file_name.starts_with("test_")
        || file_name.ends_with("_test.py")
        || file_name == "conftest.py"
        || path.split('/').rev().skip(1).any(|directory| directory == "tests" || directory == "test")
}

impl Lowering for PythonLowering {
    const LANGUAGE: Language = Language::Python;
    const SEPARATOR: &'static str = ".";

    fn definition<'tree>(&self, capture: DefinitionCapture, tag: &Tag<'tree>, scopes: &ScopeStack, source: &str) -> Option<NewSymbol<'tree>> {
        let parent = scopes.innermost();
        let span_node = match tag.node.parent() {
            Some(decorated) if decorated.kind() == "decorated_definition" => decorated,
            _ => tag.node,
        };
        let (kind, name) = match capture {
            DefinitionCapture::Class => (SymbolKind::Class, text_of(tag.name?, source).to_string()),
            DefinitionCapture::Function => {
                let kind = if parent.kind == SymbolKind::Class { SymbolKind::Method } else { SymbolKind::Function };
                (kind, text_of(tag.name?, source).to_string())
            }
            DefinitionCapture::Lambda => (SymbolKind::Lambda, "<lambda>".to_string()),
            _ => return None,
        };
        let is_test = self.is_test_file
            && match kind {
                SymbolKind::Class => name.starts_with("Test"),
                SymbolKind::Function => name.starts_with("test") && parent.kind == SymbolKind::Module,
                SymbolKind::Method => name.starts_with("test") && parent.is_test,
                _ => false,
            };
        Some(NewSymbol { kind, name, span_node, child_prefix: None, qualified_name: None, is_test })
    }

    fn after_definition(&self, tag: &Tag<'_>, symbol: &tether_model::Symbol, _scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
        if !symbol.kind.is_callable() {
            return;
        }
        let line = line_of(tag.node);
        // The return annotation, as the binding `return` of the function; a generator's
        // (`-> Iterator[T]`) as what it yields, which is what a pytest fixture gives.
        if let Some(annotation) = field_child!(tag.node, "return_type") {
            if let Some(path) = generator_element_path(annotation, source) {
                facts.bindings.push(Binding::everywhere(symbol.id, YIELD_BINDING.to_string(), BindingValue::named_type(path), line));
            } else if let Some(value) = annotation_value(annotation, source) {
                facts.bindings.push(Binding::everywhere(symbol.id, RETURN_BINDING.to_string(), value, line));
            }
        }
        let decorators = decorator_names(tag.node, source);
        if symbol.kind == SymbolKind::Method && decorators.iter().any(|name| matches!(name.as_str(), "property" | "cached_property" | "abstractproperty" | "getter")) {
            facts.bindings.push(Binding::everywhere(symbol.id, PROPERTY_BINDING.to_string(), BindingValue::Unknown, line));
        }
        if decorators.iter().any(|name| name == "overload") {
            facts.bindings.push(Binding::everywhere(symbol.id, OVERLOAD_BINDING.to_string(), BindingValue::Unknown, line));
        }
        if decorators.iter().any(|name| name == "fixture") {
            facts.bindings.push(Binding::everywhere(symbol.id, FIXTURE_BINDING.to_string(), BindingValue::Unknown, line));
        }
    }

    fn reference(&self, tag: &Tag<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
        match tag.role {
            CaptureRole::Call => {
                let callee_node = if tag.node.kind() == "call" { field_child!(tag.node, "function") } else { Some(tag.node) };
                let Some(callee_node) = callee_node else { return };
                let caller = caller_scope(tag.node, scopes);
                let callee = callee_expression(callee_node, source);
                if tag.node.kind() == "call" {
                    record_function_references(tag.node, &callee, caller, source, facts);
                }
                facts.calls.push(CallSite { caller, callee, line: line_of(tag.node), byte: tag.node.start_byte() as u32, text: shorten(text_of(callee_node, source)) });
            }
            CaptureRole::Import => lower_import(tag.node, scopes, source, facts),
            CaptureRole::Inherits => {
                if tag.node.kind() == "keyword_argument" || tag.node.kind() == "comment" {
                    return;
                }
                // `class FDCapture(FDCaptureBase[str])`: the generic base's class.
                let base = match tag.node.kind() {
                    "subscript" => field_child!(tag.node, "value").filter(|value| !matches!(text_of(*value, source), "Generic" | "Protocol" | "typing.Generic" | "typing.Protocol")),
                    _ => Some(tag.node),
                };
                if let Some(path) = base.and_then(|base| dotted_path(base, source)) {
                    // The class being defined is the innermost scope: its name precedes its bases.
                    let subtype = scopes.innermost();
                    if subtype.kind == SymbolKind::Class {
                        facts.supertypes.push(SupertypeRef { subtype: subtype.id, path, line: line_of(tag.node) });
                    }
                }
            }
            CaptureRole::Binding => lower_binding(tag.node, scopes, source, facts),
            CaptureRole::Name | CaptureRole::Definition(_) | CaptureRole::LocalScope => {}
        }
    }
}

/// The last name of each decorator of a definition: `property` for `@property`, `fixture` for
/// `@pytest.fixture(scope="session")`, `setter` for `@x.setter`.
fn decorator_names(definition: Node<'_>, source: &str) -> Vec<String> {
    let Some(decorated) = definition.parent().filter(|parent| parent.kind() == "decorated_definition") else { return Vec::new() };
    let mut names = Vec::new();
    for decorator in decorated.named_children(&mut decorated.walk()).filter(|child| child.kind() == "decorator") {
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

/// Higher-order functions whose function arguments they call.
const HIGHER_ORDER_FUNCTIONS: &[&str] = &[
    "map", "filter", "sorted", "min", "max", "reduce", "partial", "starmap", "filterfalse", "takewhile", "dropwhile", "groupby",
    "accumulate", "submit", "run_in_executor", "apply",
];

/// Function names passed to a higher-order call: positional arguments and `key=`, `func=`,
/// `function=`, `callback=`, `target=`, `default_factory=`.
fn record_function_references(call: Node<'_>, callee: &CalleeExpr, caller: tether_model::SymbolId, source: &str, facts: &mut FileFacts) {
    let name = match callee {
        CalleeExpr::Path(path) => path.last().map(String::as_str),
        CalleeExpr::Method { name, .. } => Some(name.as_str()),
        _ => None,
    };
    let Some(name) = name else { return };
    let is_higher_order = HIGHER_ORDER_FUNCTIONS.contains(&name);
    let Some(arguments) = field_child!(call, "arguments") else { return };
    for argument in arguments.named_children(&mut arguments.walk()) {
        let value = match argument.kind() {
            "keyword_argument" => {
                let keyword = field_child!(argument, "name").map(|name| text_of(name, source)).unwrap_or("");
                if !matches!(keyword, "key" | "func" | "function" | "callback" | "target" | "default_factory") {
                    continue;
                }
                field_child!(argument, "value")
            }
            _ if is_higher_order => Some(argument),
            _ => None,
        };
        let Some(value) = value else { continue };
        if let Some(path) = dotted_path(value, source) {
            facts.function_references.push(CallSite { caller, callee: CalleeExpr::Path(path), line: line_of(value), byte: value.start_byte() as u32, text: shorten(text_of(value, source)) });
        }
    }
}

/// The scope a call belongs to. Default values are evaluated where the function is defined,
/// so a call inside a parameter list belongs to the function's enclosing scope.
fn caller_scope(call: Node<'_>, scopes: &ScopeStack) -> tether_model::SymbolId {
    let named = scopes.innermost_named();
    if named.kind.is_callable() && is_inside_parameters(call) {
        if let Some(enclosing) = scopes.enclosing_of_innermost_named() {
            return enclosing.id;
        }
    }
    named.id
}

fn is_inside_parameters(node: Node<'_>) -> bool {
    let mut current = node.parent();
    while let Some(ancestor) = current {
        match ancestor.kind() {
            "parameters" => return ancestor.parent().is_some_and(|owner| owner.kind() == "function_definition"),
            "function_definition" | "class_definition" | "lambda" | "block" => return false,
            _ => current = ancestor.parent(),
        }
    }
    false
}

/// The structure of a callee expression.
pub(crate) fn callee_expression(node: Node<'_>, source: &str) -> CalleeExpr {
    if let Some(path) = dotted_path(node, source) {
        return CalleeExpr::Path(path);
    }
    if node.kind() == "subscript" {
        if let Some(path) = field_child!(node, "value").and_then(|value| dotted_path(value, source)) {
            return CalleeExpr::Indexed(path);
        }
    }
    if node.kind() == "attribute" {
        if let (Some(object), Some(attribute)) = (field_child!(node, "object"), field_child!(node, "attribute")) {
            return CalleeExpr::Method { receiver: value_receiver(object, source), name: text_of(attribute, source).to_string() };
        }
    }
    CalleeExpr::Other
}

/// An expression whose value a method is called on or a name is bound to: a chain of names,
/// a call's result, an element read by subscript (`xs[0]`), or a literal of a builtin type.
pub(crate) fn value_receiver(node: Node<'_>, source: &str) -> Receiver {
    if let Some(path) = dotted_path(node, source) {
        return Receiver::Path(path);
    }
    match node.kind() {
        "call" => match field_child!(node, "function") {
            Some(function) => Receiver::Call(Box::new(callee_expression(function, source))),
            None => Receiver::Other,
        },
        "subscript" => match field_child!(node, "value") {
            Some(value) => Receiver::Subscript(Box::new(value_receiver(value, source))),
            None => Receiver::Other,
        },
        // `", ".join(…)`, `[].append`: a literal's type is a builtin.
        kind => match literal_type(kind) {
            Some(type_name) => Receiver::Path(vec![type_name.to_string()]),
            None => Receiver::Other,
        },
    }
}

/// `a`, `a.b.c` as segments; `None` for anything that is not a chain of names.
/// `isinstance(name, Class)` (a plain name and one class): the name and the class's path.
fn isinstance_check(condition: Node<'_>, source: &str) -> Option<(String, Vec<String>)> {
    if condition.kind() != "call" || field_child!(condition, "function").map(|function| text_of(function, source)) != Some("isinstance") {
        return None;
    }
    let arguments = field_child!(condition, "arguments")?;
    let mut cursor = arguments.walk();
    let mut arguments = arguments.named_children(&mut cursor).filter(|argument| !argument.kind().ends_with("comment"));
    let (name, class) = (arguments.next()?, arguments.next()?);
    if name.kind() != "identifier" || arguments.next().is_some() {
        return None;
    }
    Some((text_of(name, source).to_string(), dotted_path(class, source)?))
}

pub(crate) fn dotted_path(node: Node<'_>, source: &str) -> Option<Vec<String>> {
    match node.kind() {
        "identifier" => Some(vec![text_of(node, source).to_string()]),
        "attribute" => {
            let mut path = dotted_path(field_child!(node, "object")?, source)?;
            path.push(text_of(field_child!(node, "attribute")?, source).to_string());
            Some(path)
        }
        "dotted_name" => Some(node.named_children(&mut node.walk()).map(|part| text_of(part, source).to_string()).collect()),
        _ => None,
    }
}

fn lower_import(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let scope = scopes.innermost_named().id;
    let line = line_of(node);
    let mut cursor = node.walk();
    match node.kind() {
        "import_statement" => {
            for name in node.children_by_field_name("name", &mut cursor) {
                let (path_node, alias) = split_alias(name, source);
                let Some(path) = path_node.and_then(|path_node| dotted_path(path_node, source)) else { continue };
                // `import a.b` binds `a`.
                let alias = alias.or_else(|| path.first().cloned());
                facts.imports.push(Import { scope, style: ImportStyle::PythonImport, relative_level: 0, path, alias, is_glob: false, is_public: true, line });
            }
        }
        "import_from_statement" => {
            let Some(module_node) = field_child!(node, "module_name") else { return };
            let (relative_level, module_path) = if module_node.kind() == "relative_import" {
                let prefix = module_node.named_children(&mut module_node.walk()).find(|child| child.kind() == "import_prefix");
                let level = prefix.map(|prefix| text_of(prefix, source).chars().filter(|c| *c == '.').count() as u32).unwrap_or(1);
                let path = module_node
                    .named_children(&mut module_node.walk())
                    .find(|child| child.kind() == "dotted_name")
                    .and_then(|dotted| dotted_path(dotted, source))
                    .unwrap_or_default();
                (level, path)
            } else {
                (0, dotted_path(module_node, source).unwrap_or_default())
            };
            let is_glob = node.named_children(&mut node.walk()).any(|child| child.kind() == "wildcard_import");
            if is_glob {
                facts.imports.push(Import { scope, style: ImportStyle::PythonFrom, relative_level, path: module_path, alias: None, is_glob: true, is_public: true, line });
                return;
            }
            for name in node.children_by_field_name("name", &mut cursor) {
                let (name_node, alias) = split_alias(name, source);
                let Some(imported) = name_node.and_then(|name_node| dotted_path(name_node, source)) else { continue };
                let mut path = module_path.clone();
                path.extend(imported.iter().cloned());
                let alias = alias.or_else(|| imported.last().cloned());
                facts.imports.push(Import { scope, style: ImportStyle::PythonFrom, relative_level, path, alias, is_glob: false, is_public: true, line });
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

/// Lowers one `@local.definition` capture. Parameter lists, loops and `with` items are
/// captured whole, which keeps the query cheap, and their binding children are lowered.
fn lower_binding(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    match node.kind() {
        "parameters" => {
            let mut cursor = node.walk();
            for parameter in node.named_children(&mut cursor) {
                lower_one_binding(parameter, scopes, source, facts);
            }
        }
        "for_statement" | "for_in_clause" => lower_loop_variables(node, scopes, source, facts),
        "with_item" => {
            if let Some(pattern) = field_child!(node, "value").filter(|value| value.kind() == "as_pattern") {
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
            facts.bindings.push(Binding { scope, name, value: BindingValue::named_type(class_path), line: line_of(node), visible_from, visible_to });
        }
        _ => lower_one_binding(node, scopes, source, facts),
    }
}

fn lower_one_binding(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    match node.kind() {
        "assignment" => {
            let Some(left) = field_child!(node, "left") else { return };
            if matches!(left.kind(), "pattern_list" | "tuple_pattern") {
                lower_tuple_assignment(node, left, scopes, source, facts);
                return;
            }
            let Some(name_path) = dotted_path(left, source) else { return };
            if name_path.len() > 2 {
                return;
            }
            let named = scopes.innermost_named();
            let right = field_child!(node, "right");
            let value = if let Some(annotation) = field_child!(node, "type") {
                annotation_value(annotation, source)
            } else if let Some(right) = right {
                match right.kind() {
                    "call" => field_child!(right, "function").map(|function| BindingValue::CallResult(callee_expression(function, source))),
                    // `self.x = x` copies what is known of a parameter or local `x`.
                    "identifier" => {
                        let source_name = text_of(right, source);
                        let copied = facts.bindings.iter().rev().find(|binding| binding.scope == named.id && binding.name == source_name).map(|binding| binding.value.clone());
                        // Otherwise the name as the scope sees it: `local = LocalPath` (an alias).
                        Some(copied.unwrap_or_else(|| BindingValue::Expression(tether_model::Receiver::Path(vec![source_name.to_string()]))))
                    }
                    // `tw = reporter._tw`, `LEGACY_PATH = py.path.local`: the attribute's value.
                    "attribute" => dotted_path(right, source).map(|path| BindingValue::Expression(tether_model::Receiver::Path(path))),
                    // `rep = reports[1]`: an element.
                    "subscript" => Some(BindingValue::Expression(value_receiver(right, source))),
                    // `__all__ = ["a", "b"]`: the names a star import takes.
                    "list" | "tuple" if name_path == ["__all__"] => exported_names(right, source),
                    "list" | "tuple" | "set" | "dictionary" => Some(collection_of_names(right, source).unwrap_or_else(|| {
                        BindingValue::named_type(vec![literal_type(right.kind()).unwrap_or("list").to_string()])
                    })),
                    kind => Some(literal_type(kind).map_or(BindingValue::Unknown, |type_name| BindingValue::named_type(vec![type_name.to_string()]))),
                }
            } else {
                None
            };
            let Some(value) = value else { return };
            // A class-body annotation or assignment (`x: T`) describes an attribute (`self.x`).
            if named.kind == SymbolKind::Class && name_path.len() == 1 {
                facts.bindings.push(Binding::everywhere(named.id, format!("self.{}", name_path[0]), value, line));
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
            // An attribute is everywhere in its class; a local from the end of its assignment.
            let binding = match name_path.len() {
                1 => Binding { scope, name: name_path.join("."), value, line, visible_from: node.end_byte() as u32, visible_to: u32::MAX },
                _ => Binding::everywhere(scope, name_path.join("."), value, line),
            };
            facts.bindings.push(binding);
        }
        // Untyped parameters and loop variables: locals of no visible type.
        "identifier" | "default_parameter" => {
            let name = if node.kind() == "identifier" { Some(node) } else { field_child!(node, "name") };
            let Some(name) = name.filter(|name| name.kind() == "identifier") else { return };
            let is_parameter = node.parent().is_some_and(|parent| parent.kind() == "parameters");
            // Parameters belong to the function being defined (the innermost scope); loop
            // variables to the innermost named scope.
            let scope = if is_parameter { scopes.innermost().id } else { scopes.innermost_named().id };
            let value = if is_parameter { BindingValue::UntypedParameter } else { BindingValue::Unknown };
            facts.bindings.push(Binding { scope, name: text_of(name, source).to_string(), value, line, visible_from: node.start_byte() as u32, visible_to: u32::MAX });
        }
        // `return x` / `yield x` in a function without a return annotation: the binding `return`.
        "return_statement" | "yield" => {
            let function = scopes.innermost();
            if !function.kind.is_callable() || function.kind == SymbolKind::Lambda {
                return;
            }
            // An annotation says it all; and a function's own statements only (not a class's
            // or a nested function's, which are their own innermost scopes).
            let mut ancestor = node.parent();
            while let Some(current) = ancestor.filter(|current| !matches!(current.kind(), "function_definition" | "lambda" | "class_definition")) {
                ancestor = current.parent();
            }
            if ancestor.is_none_or(|definition| definition.kind() != "function_definition" || field_child!(definition, "return_type").is_some()) {
                return;
            }
            let Some(value) = node.named_child(0).filter(|value| !value.kind().ends_with("comment")) else { return };
            let value = match value.kind() {
                "call" => field_child!(value, "function").map(|callee| BindingValue::CallResult(callee_expression(callee, source))),
                "identifier" | "attribute" => dotted_path(value, source).map(|path| BindingValue::Expression(tether_model::Receiver::Path(path))),
                _ => None,
            };
            let Some(value) = value else { return };
            // A generator's yields are not what calling it returns, but they are what a pytest
            // fixture gives the tests that name it.
            let name = if node.kind() == "yield" { YIELD_BINDING } else { RETURN_BINDING };
            facts.bindings.push(Binding { scope: function.id, name: name.to_string(), value, line, visible_from: node.start_byte() as u32, visible_to: u32::MAX });
        }
        "as_pattern" => {
            let Some(alias) = field_child!(node, "alias").and_then(|alias| alias.named_child(0)).filter(|alias| alias.kind() == "identifier") else { return };
            let value = node
                .named_child(0)
                .filter(|value| value.kind() == "call")
                .and_then(|call| field_child!(call, "function"))
                .map_or(BindingValue::Unknown, |function| BindingValue::EnteredContext(callee_expression(function, source)));
            facts.bindings.push(Binding { scope: scopes.innermost_named().id, name: text_of(alias, source).to_string(), value, line, visible_from: node.end_byte() as u32, visible_to: u32::MAX });
        }
        "typed_parameter" | "typed_default_parameter" => {
            let name = match node.kind() {
                "typed_parameter" => node.named_children(&mut node.walk()).find(|child| child.kind() == "identifier"),
                _ => field_child!(node, "name"),
            };
            let (Some(name), Some(annotation)) = (name, field_child!(node, "type")) else { return };
            let Some(value) = annotation_value(annotation, source) else { return };
            // Parameters belong to the function being defined, which is the innermost scope.
            let scope = scopes.innermost().id;
            facts.bindings.push(Binding { scope, name: text_of(name, source).to_string(), value, line, visible_from: node.start_byte() as u32, visible_to: u32::MAX });
        }
        _ => {}
    }
}

/// `for x in xs` (or a comprehension's `for x in xs`): `x` is an element of `xs`; `for a, b in
/// pairs` binds each name to an element of the pair.
fn lower_loop_variables(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let (Some(left), Some(right)) = (field_child!(node, "left"), field_child!(node, "right")) else { return };
    let element = Some(value_receiver(right, source)).filter(|iterated| *iterated != Receiver::Other).map(BindingValue::ElementOf);
    // A loop's names are in force after its iterable; a comprehension's in all of it.
    let (visible_from, visible_to) = match (node.kind(), node.parent()) {
        ("for_in_clause", Some(comprehension)) => (comprehension.start_byte() as u32, comprehension.end_byte() as u32),
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
            (Some(element), Some(position)) => BindingValue::TupleElement { of: Box::new(element.clone()), position },
            (None, _) => BindingValue::Unknown,
        };
        facts.bindings.push(Binding { scope, name: text_of(name, source).to_string(), value, line, visible_from, visible_to });
    }
}

/// `a, b = value`: each name is an element of the value, when the value is a call or a name.
fn lower_tuple_assignment(assignment: Node<'_>, left: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let Some(right) = field_child!(assignment, "right") else { return };
    let value = match right.kind() {
        "call" => field_child!(right, "function").map(|function| BindingValue::CallResult(callee_expression(function, source))),
        "identifier" | "attribute" | "subscript" => Some(BindingValue::Expression(value_receiver(right, source))).filter(|value| *value != BindingValue::Expression(Receiver::Other)),
        _ => None,
    };
    let scope = scopes.innermost_named();
    if scope.kind == SymbolKind::Class {
        return;
    }
    let line = line_of(assignment);
    let visible_from = assignment.end_byte() as u32;
    for (position, element) in left.named_children(&mut left.walk()).filter(|element| !element.kind().ends_with("comment")).enumerate() {
        // After a `*rest`, positions count from the end: nothing more is known.
        if element.kind() == "list_splat_pattern" {
            break;
        }
        if element.kind() != "identifier" {
            continue;
        }
        let value = match &value {
            Some(value) => BindingValue::TupleElement { of: Box::new(value.clone()), position: position as u32 },
            None => BindingValue::Unknown,
        };
        facts.bindings.push(Binding { scope: scope.id, name: text_of(element, source).to_string(), value, line, visible_from, visible_to: u32::MAX });
    }
}

/// The string elements of an `__all__` literal, each as a one-segment path.
fn exported_names(node: Node<'_>, source: &str) -> Option<BindingValue> {
    let names: Vec<Vec<String>> = node
        .named_children(&mut node.walk())
        .filter(|element| element.kind() == "string")
        .map(|element| vec![text_of(element, source).trim_matches(|c| c == '"' || c == '\'').to_string()])
        .filter(|name| !name[0].is_empty())
        .collect();
    Some(BindingValue::Collection(names))
}

/// A literal collection whose elements (or dict values) are all names, as a binding.
fn collection_of_names(node: Node<'_>, source: &str) -> Option<BindingValue> {
    let mut elements = Vec::new();
    for element in node.named_children(&mut node.walk()) {
        let value = if element.kind() == "pair" { field_child!(element, "value")? } else { element };
        if value.kind() == "comment" {
            continue;
        }
        elements.push(dotted_path(value, source)?);
    }
    (!elements.is_empty()).then_some(BindingValue::Collection(elements))
}

/// The builtin type of a literal expression node.
fn literal_type(kind: &str) -> Option<&'static str> {
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
    if text.len() <= MAX_CALL_TEXT_BYTES && !text.contains(['\n', '\r', '\t']) && !text.contains("  ") && !text.starts_with(' ') && !text.ends_with(' ') {
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

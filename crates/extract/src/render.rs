//! A compact, stable text rendering of one file's facts, for snapshot tests and `--debug` dumps.

use std::collections::HashMap;
use std::fmt::Write;

use tether_model::{
    BindingValue, CalleeExpr, FileFacts, ImportStyle, Language, Receiver, SymbolId,
};

/// Renders facts one per line: the symbol tree indented by depth, then calls, imports,
/// supertypes, impls, bindings and diagnostics, each naming scopes by qualified name.
pub fn render_facts(facts: &FileFacts) -> String {
    let separator = if facts.language == Some(Language::Rust) { "::" } else { "." };
    let names: HashMap<SymbolId, &str> =
        facts.symbols.iter().map(|symbol| (symbol.id, symbol.qualified_name.as_str())).collect();
    let name_of = |id: SymbolId| names.get(&id).copied().unwrap_or("?");
    let mut depth: HashMap<SymbolId, usize> = HashMap::new();
    let mut out = String::new();
    for symbol in &facts.symbols {
        let level = symbol
            .parent
            .and_then(|parent| depth.get(&parent).copied())
            .map_or(0, |parent_level| parent_level + 1);
        depth.insert(symbol.id, level);
        let test = if symbol.is_test { " test" } else { "" };
        let _ = writeln!(
            out,
            "{}{} {} {}-{}{}",
            "  ".repeat(level),
            symbol.kind,
            symbol.qualified_name,
            symbol.span.start_line,
            symbol.span.end_line,
            test
        );
    }
    for call in &facts.calls {
        let _ = writeln!(
            out,
            "call {} -> {} @{}",
            name_of(call.caller),
            render_callee(&call.callee, separator),
            call.line
        );
    }
    for reference in &facts.function_references {
        let _ = writeln!(
            out,
            "reference {} -> {} @{}",
            name_of(reference.caller),
            render_callee(&reference.callee, separator),
            reference.line
        );
    }
    for value in &facts.value_references {
        let _ = writeln!(
            out,
            "value {} -> {} @{}",
            name_of(value.caller),
            render_callee(&value.callee, separator),
            value.line
        );
    }
    for read in &facts.dynamic_reads {
        let _ = writeln!(
            out,
            "dynamic read {} -> [{}] @{}",
            name_of(read.caller),
            render_callee(&read.callee, separator),
            read.line
        );
    }
    for request in &facts.fixture_requests {
        let _ = writeln!(
            out,
            "fixture {} -> {} @{}",
            name_of(request.requester),
            request.name,
            request.line
        );
    }
    for named in &facts.fixture_names {
        let _ = writeln!(
            out,
            "fixture name {} = {} @{}",
            name_of(named.fixture),
            named.name,
            named.line
        );
    }
    for import in &facts.imports {
        let style = match import.style {
            ImportStyle::PythonImport => "import",
            ImportStyle::PythonFrom => "from",
            ImportStyle::RustUse => "use",
        };
        let level = if import.relative_level > 0 {
            ".".repeat(import.relative_level as usize)
        } else {
            String::new()
        };
        let glob = if import.is_glob { format!("{separator}*") } else { String::new() };
        let alias = import.alias.as_deref().map(|alias| format!(" as {alias}")).unwrap_or_default();
        let public =
            if import.is_public && import.style == ImportStyle::RustUse { " pub" } else { "" };
        let _ = writeln!(
            out,
            "{style}{public} {} <- {level}{}{glob}{alias} @{}",
            name_of(import.scope),
            import.path.join(separator),
            import.line
        );
    }
    for supertype in &facts.supertypes {
        let _ = writeln!(
            out,
            "supertype {} : {} @{}",
            name_of(supertype.subtype),
            supertype.path.join(separator),
            supertype.line
        );
    }
    for block in &facts.impls {
        let trait_part = block
            .trait_path
            .as_ref()
            .map(|path| format!(" trait={}", path.join("::")))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "impl {} type={}{} @{}",
            name_of(block.impl_symbol),
            block.self_type.join("::"),
            trait_part,
            block.line
        );
    }
    for binding in &facts.bindings {
        let value = render_binding_value(&binding.value, separator);
        let _ = writeln!(
            out,
            "binding {} {}: {} @{}",
            name_of(binding.scope),
            binding.name,
            value,
            binding.line
        );
    }
    for diagnostic in &facts.diagnostics {
        let _ = writeln!(out, "diagnostic {diagnostic}");
    }
    out
}

fn render_binding_value(value: &BindingValue, separator: &str) -> String {
    match value {
        BindingValue::Type { path, is_dyn, arguments } => {
            let arguments = if arguments.is_empty() {
                String::new()
            } else {
                format!(
                    "<{}>",
                    arguments
                        .iter()
                        .map(|argument| render_binding_value(argument, separator))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            format!("{}{}{arguments}", if *is_dyn { "dyn " } else { "" }, path.join(separator))
        }
        BindingValue::CallResult(callee) => format!("call {}", render_callee(callee, separator)),
        BindingValue::EnteredContext(callee) => {
            format!("with {}", render_callee(callee, separator))
        }
        BindingValue::Expression(receiver) => {
            format!("value {}", render_receiver(receiver, separator))
        }
        BindingValue::ElementOf(receiver) => {
            format!("element of {}", render_receiver(receiver, separator))
        }
        BindingValue::ClosureParameter { receiver, method, argument: 0, parameter } => {
            format!(
                "closure parameter {parameter} of {}.{method}",
                render_receiver(receiver, separator)
            )
        }
        BindingValue::ClosureParameter { receiver, method, argument, parameter } => {
            format!(
                "closure parameter {parameter} of argument {argument} of {}.{method}",
                render_receiver(receiver, separator)
            )
        }
        BindingValue::PathCallClosureParameter { function, argument, parameter } => {
            format!(
                "closure parameter {parameter} of argument {argument} of {}",
                function.join(separator)
            )
        }
        BindingValue::BranchValues { values } => {
            format!(
                "one of {}",
                values
                    .iter()
                    .map(|(value, _)| render_receiver(value, separator))
                    .collect::<Vec<_>>()
                    .join(" | ")
            )
        }
        BindingValue::Callable { parameters } => {
            format!(
                "callable({})",
                parameters
                    .iter()
                    .map(|parameter| render_binding_value(parameter, separator))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        BindingValue::VariantField { variant, position } => {
            format!("field {position} of {}", variant.join("::"))
        }
        BindingValue::NamedField { owner, field } => {
            format!("field {field} of {}", owner.join("::"))
        }
        BindingValue::UntypedParameter => "parameter".to_string(),
        BindingValue::TupleElement { of, position } => {
            format!("element {position} of {}", render_binding_value(of, separator))
        }
        BindingValue::Unknown => "?".to_string(),
        BindingValue::GenericParameter { position } => format!("#{position}"),
        BindingValue::SelfTypeArgument { position, bound: None } => format!("Self#{position}"),
        BindingValue::SelfTypeArgument { position, bound: Some(bound) } => {
            format!("Self#{position} or dyn {}", bound.join(separator))
        }
        BindingValue::Closure { returned, .. } => {
            format!("closure returning {}", render_receiver(returned, separator))
        }
        BindingValue::Collection(elements) => format!(
            "[{}]",
            elements.iter().map(|element| element.join(separator)).collect::<Vec<_>>().join(", ")
        ),
        BindingValue::LiteralElement(elements) => format!(
            "one of [{}]",
            elements.iter().map(|element| element.join(separator)).collect::<Vec<_>>().join(", ")
        ),
        BindingValue::Mapping(values) => format!(
            "{{{}}}",
            values.iter().map(|value| value.join(separator)).collect::<Vec<_>>().join(", ")
        ),
    }
}

fn render_callee(callee: &CalleeExpr, separator: &str) -> String {
    match callee {
        CalleeExpr::Path(path) => path.join(separator),
        CalleeExpr::Method { receiver, name } => {
            format!("{}.{name}", render_receiver(receiver, separator))
        }
        CalleeExpr::Macro(path) => format!("{}!", path.join("::")),
        CalleeExpr::Indexed(path) => format!("{}[…]", path.join(separator)),
        CalleeExpr::Returned(inner) => format!("{}()", render_callee(inner, separator)),
        CalleeExpr::FieldValue { receiver, field } => {
            format!("({}.{field})", render_receiver(receiver, separator))
        }
        CalleeExpr::TraitPath { self_type, trait_path, name } => {
            format!("<{} as {}>::{name}", self_type.join("::"), trait_path.join("::"))
        }
        CalleeExpr::TraitMethod { receiver, trait_path, name } => {
            format!("{}::{name}({})", trait_path.join("::"), render_receiver(receiver, separator))
        }
        CalleeExpr::Alternatives(alternatives) => format!(
            "({})",
            alternatives
                .iter()
                .map(|alternative| render_callee(alternative, separator))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
        CalleeExpr::Value(receiver) => format!("({})", render_receiver(receiver, separator)),
        CalleeExpr::Other => "<other>".to_string(),
    }
}

fn render_receiver(receiver: &Receiver, separator: &str) -> String {
    match receiver {
        // Receivers are field chains (`self.h`) in both languages.
        Receiver::Path(path) => path.join("."),
        Receiver::Call(callee) => format!("({}())", render_callee(callee, separator)),
        Receiver::Try(inner) => format!("{}?", render_receiver(inner, separator)),
        Receiver::Await(inner) => format!("{}.await", render_receiver(inner, separator)),
        Receiver::Ready(inner) => format!("ready!({})", render_receiver(inner, separator)),
        Receiver::Deref(inner) => format!("*{}", render_receiver(inner, separator)),
        Receiver::Turbofish { call, arguments } => {
            format!(
                "({}::<{}>())",
                render_callee(call, separator),
                arguments
                    .iter()
                    .map(|argument| render_binding_value(argument, separator))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
        Receiver::Adapted { call, returned, .. } => format!(
            "({}(=> {}))",
            render_callee(call, separator),
            render_receiver(returned, separator)
        ),
        Receiver::Subscript(inner) => format!("{}[…]", render_receiver(inner, separator)),
        Receiver::BuiltinCall { name, arguments } => format!(
            "{name}({})",
            arguments
                .iter()
                .map(|argument| render_receiver(argument, separator))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Receiver::Slice { base, from, to } => format!(
            "{}[{}:{}]",
            render_receiver(base, separator),
            from.map(|from| from.to_string()).unwrap_or_default(),
            to.map(|to| to.to_string()).unwrap_or_default()
        ),
        Receiver::Tuple(elements) => format!(
            "({})",
            elements
                .iter()
                .map(|element| render_receiver(element, separator))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Receiver::Fields { base, fields } => {
            format!("{}.{}", render_receiver(base, separator), fields.join("."))
        }
        Receiver::Other => "<expr>".to_string(),
    }
}

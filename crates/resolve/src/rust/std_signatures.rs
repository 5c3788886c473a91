//! The reader of `queries/rust/std_wrappers.rs`: `impl` blocks of a container's own methods,
//! `trait` blocks (`#[extension]` ones apart) with one-line `impl … for …` of them, and one
//! `fn` signature per line. Every line it does not know is an error naming the line; so is a
//! result or a closure parameter that holds the element in a shape it does not know.

use rustc_hash::FxHashMap as HashMap;

use crate::rust::std_wrappers::{
    Given, Held, HeldPart, RustStdWrappers, StdMethod, PRIMITIVES, RUST_WRAPPERS,
};
use crate::value_types::Wrapper;

/// The type parameter that stands for the element.
const ELEMENT: &str = "T";

/// The bound that follows a result only for project elements.
const PROJECT_ELEMENTS_ONLY: &str = " where T: ProjectType";

/// A block being read.
enum Block {
    /// `impl<T> Option<T> {`: the container's own methods.
    Own { wrapper: Wrapper, generics: Vec<String> },
    /// `trait Name<T> {`.
    Trait { name: String, generics: Vec<String> },
}

/// A trait as declared: whether it is an extension, and its methods.
struct DeclaredTrait {
    extension: bool,
    methods: Vec<(String, StdMethod)>,
}

/// Reads the data file (see the file's own opening comment for what it may hold).
pub(crate) fn parse_rust_std_wrappers(text: &str) -> Result<RustStdWrappers, String> {
    let mut own: HashMap<Wrapper, Vec<(String, StdMethod)>> = HashMap::default();
    let mut traits: HashMap<String, DeclaredTrait> = HashMap::default();
    let mut trait_impls: Vec<(String, Wrapper, usize)> = Vec::new();
    let mut block: Option<Block> = None;
    let mut extension_attribute = false;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let problem = |what: &str| format!("line {number}: {what}: `{}`", line.trim());
        let code = line.trim();
        if code.is_empty() || code.starts_with("//") {
            continue;
        }
        if code == "#[extension]" {
            extension_attribute = true;
            continue;
        }
        if extension_attribute && !code.starts_with("trait ") {
            return Err(problem("`#[extension]` stands before a `trait` line"));
        }
        match (&block, code) {
            (Some(_), "}") => block = None,
            (Some(block), _) if code.starts_with("fn ") => {
                let generics = match block {
                    Block::Own { generics, .. } | Block::Trait { generics, .. } => generics,
                };
                let (name, method) = parse_method(code, generics).map_err(|what| problem(&what))?;
                let methods = match block {
                    Block::Own { wrapper, .. } => own.entry(*wrapper).or_default(),
                    Block::Trait { name, .. } => &mut traits.get_mut(name).unwrap().methods,
                };
                if methods.iter().any(|(listed, _)| *listed == name) {
                    return Err(problem("a method listed twice in one block"));
                }
                methods.push((name, method));
            }
            (Some(_), _) => return Err(problem("only `fn …;` lines and `}` stand in a block")),
            (None, _) => {
                if let Some(rest) = code.strip_prefix("trait ") {
                    let header =
                        rest.strip_suffix(" {").ok_or_else(|| problem("`trait X<T> {`"))?;
                    let (name, generics) = generic_type(header).map_err(|what| problem(&what))?;
                    if generics != [ELEMENT] || traits.contains_key(&name) {
                        return Err(problem("a trait is declared once, over `<T>`"));
                    }
                    let declared =
                        DeclaredTrait { extension: extension_attribute, methods: vec![] };
                    traits.insert(name.clone(), declared);
                    block = Some(Block::Trait { name, generics });
                    extension_attribute = false;
                } else if let Some(rest) = code.strip_prefix("impl<") {
                    let (generics, rest) =
                        rest.split_once("> ").ok_or_else(|| problem("`impl<…>`"))?;
                    let generics = identifiers(generics).map_err(|what| problem(&what))?;
                    if let Some((implemented, rest)) = rest.split_once(" for ") {
                        let for_type = rest
                            .strip_suffix(" {}")
                            .ok_or_else(|| problem("a trait's `impl … for …` ends with ` {}`"))?;
                        let wrapper =
                            container(for_type, &generics).map_err(|what| problem(&what))?;
                        let (name, arguments) =
                            generic_type(implemented).map_err(|what| problem(&what))?;
                        if !traits.contains_key(&name) || arguments != [ELEMENT] {
                            return Err(problem("an `impl` of a trait declared above, over `<T>`"));
                        }
                        trait_impls.push((name, wrapper, number));
                    } else {
                        let for_type =
                            rest.strip_suffix(" {").ok_or_else(|| problem("`impl<T> X<T> {`"))?;
                        let wrapper =
                            container(for_type, &generics).map_err(|what| problem(&what))?;
                        if own.contains_key(&wrapper) {
                            return Err(problem("a container's own methods are one block"));
                        }
                        own.insert(wrapper, Vec::new());
                        block = Some(Block::Own { wrapper, generics });
                    }
                } else {
                    return Err(problem("only `trait`, `impl` and `#[extension]` lines are read"));
                }
            }
        }
    }
    if block.is_some() || extension_attribute {
        return Err("the file ends inside a block".to_string());
    }
    merge(own, &traits, &trait_impls)
}

/// Each container's methods: its own first, then its traits' (two traits of one container may
/// not list one name); extension traits' closures apart.
fn merge(
    own: HashMap<Wrapper, Vec<(String, StdMethod)>>,
    traits: &HashMap<String, DeclaredTrait>,
    trait_impls: &[(String, Wrapper, usize)],
) -> Result<RustStdWrappers, String> {
    let mut table = RustStdWrappers::default();
    for (wrapper, methods) in own {
        table.methods.insert(wrapper, methods.into_iter().collect());
    }
    let mut from_traits: HashMap<(Wrapper, String), String> = HashMap::default();
    for (trait_name, wrapper, number) in trait_impls {
        let declared = &traits[trait_name];
        for (name, method) in &declared.methods {
            if declared.extension {
                let closures = table.extension_closures.entry(*wrapper).or_default();
                closures.insert(name.clone(), method.element_closure_parameters);
                continue;
            }
            let methods = table.methods.entry(*wrapper).or_default();
            if let Some(other) = from_traits.get(&(*wrapper, name.clone())) {
                return Err(format!(
                    "line {number}: `{name}` is listed by both `{other}` and `{trait_name}`"
                ));
            }
            if !methods.contains_key(name) {
                methods.insert(name.clone(), method.clone());
                from_traits.insert((*wrapper, name.clone()), trait_name.clone());
            }
        }
    }
    Ok(table)
}

/// `fn name<…>(params) -> Result where T: ProjectType;` → the name and what it declares.
fn parse_method(code: &str, generics: &[String]) -> Result<(String, StdMethod), String> {
    let signature = code.strip_prefix("fn ").and_then(|rest| rest.strip_suffix(';'));
    let signature = signature.ok_or("a method line is `fn …;`")?;
    let name_end = signature.find(['<', '(']).ok_or("a `fn` without `(`")?;
    let name = &signature[..name_end];
    if !is_identifier(name) {
        return Err("a method name".to_string());
    }
    let mut rest = &signature[name_end..];
    if rest.starts_with('<') {
        rest = &rest[closing(rest, '<', '>').ok_or("unclosed method generics")? + 1..];
    }
    let parameters_end = closing(rest, '(', ')').ok_or("unclosed parameters")?;
    let parameters = &rest[1..parameters_end];
    let mut method = StdMethod::default();
    for parameter in split_top_level(parameters) {
        if ["self", "&self", "&mut self", "mut self"].contains(&parameter) {
            continue;
        }
        let (_, written) = parameter.split_once(": ").ok_or("a parameter is `name: Type`")?;
        method.element_closure_parameters |= closure_element_parameters(written)?;
    }
    let mut tail = &rest[parameters_end + 1..];
    if let Some(bounded) = tail.strip_suffix(PROJECT_ELEMENTS_ONLY) {
        method.only_for_project_elements = true;
        tail = bounded;
    }
    let tail = tail.trim();
    match tail.strip_prefix("-> ") {
        Some(result) => method.given = parse_result(result.trim(), generics)?,
        None if tail.is_empty() => {}
        None => return Err("after the parameters: `-> Type` or nothing".to_string()),
    }
    if method.only_for_project_elements && method.given.is_none() {
        return Err("`where T: ProjectType` bounds a result that holds the element".to_string());
    }
    Ok((name.to_string(), method))
}

/// The element's parameters of a closure parameter (`impl FnMut(&K, &mut T) -> bool` → bit 1).
fn closure_element_parameters(written: &str) -> Result<u64, String> {
    let arguments = ["impl Fn(", "impl FnMut(", "impl FnOnce("]
        .iter()
        .find_map(|prefix| written.strip_prefix(prefix).map(|rest| (prefix.len() - 1, rest)));
    let Some((open, _)) = arguments else {
        return Ok(0);
    };
    let end = open + closing(&written[open..], '(', ')').ok_or("an unclosed closure")?;
    let mut mask = 0u64;
    for (position, argument) in split_top_level(&written[open + 1..end]).into_iter().enumerate() {
        if is_element(argument) {
            mask |= 1u64.checked_shl(position as u32).ok_or("a closure of over 64 parameters")?;
        } else if mentions(argument, ELEMENT) {
            return Err(format!("a closure parameter `{argument}` holds T in an unknown shape"));
        }
    }
    Ok(mask)
}

/// What a written result gives: `None` for a result that does not hold the element.
fn parse_result(result: &str, generics: &[String]) -> Result<Option<Given>, String> {
    if result == "Self" {
        return Ok(Some(Given::SameContainer));
    }
    if !mentions(result, ELEMENT) {
        return Ok(None);
    }
    if is_element(result) {
        return Ok(Some(Given::Element));
    }
    let unknown = || format!("the result `{result}` holds T in a shape the reader does not know");
    if let Some(item) =
        result.strip_prefix("impl Iterator<Item = ").and_then(|r| r.strip_suffix('>'))
    {
        let held = parse_held(item.trim(), generics).ok_or_else(unknown)?;
        return Ok(Some(Given::Container { wrapper: Wrapper::Iterator, held }));
    }
    let (name, arguments) = result.split_once('<').ok_or_else(unknown)?;
    let arguments = arguments.strip_suffix('>').ok_or_else(unknown)?;
    let wrapper = wrapper_named(name).ok_or_else(unknown)?;
    let arguments = split_top_level(arguments);
    let position = wrapper.element_argument();
    for (index, argument) in arguments.iter().enumerate() {
        if index != position && mentions(argument, ELEMENT) {
            return Err(unknown());
        }
    }
    let held = parse_held(arguments.get(position).ok_or_else(unknown)?, generics);
    Ok(Some(Given::Container { wrapper, held: held.ok_or_else(unknown)? }))
}

/// What a result's container holds: the element, or a tuple of the element, primitives and
/// the block's other type parameters (not kept).
fn parse_held(written: &str, generics: &[String]) -> Option<Held> {
    if is_element(written) {
        return Some(Held::Element);
    }
    let parts = written.strip_prefix('(')?.strip_suffix(')')?;
    let parts = split_top_level(parts).into_iter().map(|part| {
        let bare = without_reference(part);
        if bare == ELEMENT {
            Some(HeldPart::Element)
        } else if PRIMITIVES.contains(&bare) {
            Some(HeldPart::Primitive(bare.to_string()))
        } else {
            generics.iter().any(|generic| generic == bare).then_some(HeldPart::Untyped)
        }
    });
    Some(Held::Tuple(parts.collect::<Option<Vec<_>>>()?))
}

/// The container a block's type names (`Vec<T>`, `HashMap<K, T>`), with `T` where its element
/// stands and every argument a parameter of the block.
fn container(written: &str, generics: &[String]) -> Result<Wrapper, String> {
    let (name, arguments) = generic_type(written)?;
    let wrapper = wrapper_named(&name).ok_or_else(|| format!("`{name}` is not a std container"))?;
    if arguments.get(wrapper.element_argument()).map(String::as_str) != Some(ELEMENT)
        || arguments.iter().any(|argument| !generics.contains(argument))
        || !generics.iter().any(|generic| generic == ELEMENT)
    {
        return Err(format!("`{written}` has T where `{name}`'s element stands"));
    }
    Ok(wrapper)
}

fn wrapper_named(name: &str) -> Option<Wrapper> {
    RUST_WRAPPERS.into_iter().find(|wrapper| wrapper.std_name() == name)
}

/// `Name<A, B>` → (`Name`, [`A`, `B`]).
fn generic_type(written: &str) -> Result<(String, Vec<String>), String> {
    let (name, arguments) = written.split_once('<').ok_or("a type `Name<…>`")?;
    let arguments = arguments.strip_suffix('>').ok_or("a type `Name<…>`")?;
    if !is_identifier(name) {
        return Err(format!("`{name}` is not a type name"));
    }
    Ok((name.to_string(), identifiers(arguments)?))
}

fn identifiers(list: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = list.split(',').map(|name| name.trim().to_string()).collect();
    match names.iter().all(|name| is_identifier(name)) {
        true => Ok(names),
        false => Err(format!("`{list}` is not a list of type parameters")),
    }
}

/// The index of the bracket closing the one `text` opens with (`->` is not a bracket).
fn closing(text: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    let mut previous = ' ';
    for (at, character) in text.char_indices() {
        if character == open {
            depth += 1;
        } else if character == close && !(close == '>' && previous == '-') {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(at);
            }
        }
        previous = character;
    }
    None
}

/// `text` split at the commas outside any brackets, each part trimmed; none for an empty text.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start, mut previous) = (0i32, 0, ' ');
    for (at, character) in text.char_indices() {
        match character {
            '<' | '(' | '[' => depth += 1,
            '>' if previous == '-' => {}
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
        previous = character;
    }
    let last = text[start..].trim();
    if !last.is_empty() {
        parts.push(last);
    }
    parts
}

fn without_reference(written: &str) -> &str {
    let written = written.trim();
    written.strip_prefix("&mut ").or_else(|| written.strip_prefix('&')).unwrap_or(written).trim()
}

/// `T`, `&T` or `&mut T`.
fn is_element(written: &str) -> bool {
    without_reference(written) == ELEMENT
}

/// Whether `written` names `identifier` as a whole word.
fn mentions(written: &str, identifier: &str) -> bool {
    written
        .split(|character: char| !(character.is_alphanumeric() || character == '_'))
        .any(|word| word == identifier)
}

fn is_identifier(text: &str) -> bool {
    let mut characters = text.chars();
    characters.next().is_some_and(|first| first.is_alphabetic() || first == '_')
        && characters.all(|character| character.is_alphanumeric() || character == '_')
}

//! Scalars and inline lists of the front-matter format: reading plain, `"double"` and
//! `'single'` quoted values and `[a, "b c"]` lists, and writing values back so that they
//! read the same (plain when unambiguous, double-quoted otherwise).

/// Reads the value text after `key:` (or after `- `). `Ok(None)` for a null value: empty,
/// `~` or `null`. Errors are messages; the caller knows the line.
pub(crate) fn parse_scalar(text: &str) -> Result<Option<String>, String> {
    let text = text.trim();
    if text.starts_with('"') || text.starts_with('\'') {
        let (value, consumed) = parse_quoted(text)?;
        let rest = text[consumed..].trim_start();
        if !rest.is_empty() && !rest.starts_with('#') {
            return Err(format!("unexpected text `{rest}` after a quoted value"));
        }
        return Ok(Some(value));
    }
    let without_comment = strip_trailing_comment(text).trim_end();
    match without_comment.chars().next() {
        None => return Ok(None),
        Some('|' | '>') => {
            return Err(
                "block scalars (`|`, `>`) are not supported; use a quoted string".to_string()
            )
        }
        Some('&' | '*' | '!') => {
            return Err("YAML anchors, aliases and tags are not supported".to_string())
        }
        Some('{' | '}' | ']') => {
            return Err(format!(
                "unexpected `{without_comment}`; only lists `[a, b]` are supported"
            ))
        }
        _ => {}
    }
    if without_comment == "~" || without_comment == "null" {
        return Ok(None);
    }
    Ok(Some(without_comment.to_string()))
}

/// Reads an inline list such as `[a, "b, c", 'd']`. `text` starts with `[`.
pub(crate) fn parse_inline_list(text: &str) -> Result<Vec<String>, String> {
    let text = text.trim();
    let mut items: Vec<String> = Vec::new();
    let mut position = 1; // after `[`
    loop {
        position += whitespace_length(&text[position..]);
        let rest = &text[position..];
        if rest.is_empty() {
            return Err("malformed list: missing the closing `]`".to_string());
        }
        if items.is_empty() && rest.starts_with(']') {
            position += 1;
            break;
        }
        if rest.starts_with('"') || rest.starts_with('\'') {
            let (value, consumed) = parse_quoted(rest)?;
            items.push(value);
            position += consumed;
        } else {
            let item_length = rest.find([',', ']']).unwrap_or(rest.len());
            let item = rest[..item_length].trim();
            if item.is_empty() {
                return Err("malformed list: empty item".to_string());
            }
            if let Some(nested) =
                item.chars().find(|character| matches!(character, '[' | '{' | '}'))
            {
                return Err(format!("malformed list: nested `{nested}` is not supported"));
            }
            items.push(item.to_string());
            position += item_length;
        }
        position += whitespace_length(&text[position..]);
        match text[position..].chars().next() {
            Some(',') => position += 1,
            Some(']') => {
                position += 1;
                break;
            }
            Some(other) => {
                return Err(format!("malformed list: expected `,` or `]`, found `{other}`"))
            }
            None => return Err("malformed list: missing the closing `]`".to_string()),
        }
    }
    let rest = text[position..].trim_start();
    if !rest.is_empty() && !rest.starts_with('#') {
        return Err(format!("malformed list: unexpected text `{rest}` after `]`"));
    }
    Ok(items)
}

/// Writes a value so that [`parse_scalar`] and [`parse_inline_list`] read it back unchanged.
pub(crate) fn render_scalar(value: &str) -> String {
    if is_safe_plain(value) {
        return value.to_string();
    }
    let mut quoted = String::with_capacity(value.len() + 2);
    quoted.push('"');
    for character in value.chars() {
        match character {
            '"' => quoted.push_str("\\\""),
            '\\' => quoted.push_str("\\\\"),
            '\n' => quoted.push_str("\\n"),
            '\t' => quoted.push_str("\\t"),
            '\r' => quoted.push_str("\\r"),
            control if control.is_control() => {
                quoted.push_str(&format!("\\u{:04x}", u32::from(control)))
            }
            other => quoted.push(other),
        }
    }
    quoted.push('"');
    quoted
}

/// Writes `[a, b]` with each item rendered by [`render_scalar`].
pub(crate) fn render_inline_list(values: &[String]) -> String {
    let items: Vec<String> = values.iter().map(|value| render_scalar(value)).collect();
    format!("[{}]", items.join(", "))
}

/// Plain only when nothing in it can mean something else: letters, digits, spaces inside,
/// and `_-./+()@`, plus `:` not followed by a space or the end.
fn is_safe_plain(value: &str) -> bool {
    let Some(first) = value.chars().next() else {
        return false;
    };
    if value == "null"
        || value.ends_with(' ')
        || !(first.is_alphanumeric() || matches!(first, '_' | '.' | '/'))
    {
        return false;
    }
    let characters: Vec<char> = value.chars().collect();
    characters.iter().enumerate().all(|(index, &character)| {
        character.is_alphanumeric()
            || matches!(character, ' ' | '_' | '-' | '.' | '/' | '+' | '(' | ')' | '@')
            || (character == ':' && characters.get(index + 1).is_some_and(|next| *next != ' '))
    })
}

/// Reads a quoted value at the start of `text`; returns it and the bytes consumed.
fn parse_quoted(text: &str) -> Result<(String, usize), String> {
    let mut characters = text.char_indices();
    let Some((_, quote)) = characters.next() else {
        return Err("expected a quoted value".to_string());
    };
    let mut value = String::new();
    while let Some((index, character)) = characters.next() {
        if character == quote {
            if quote == '\'' && text[index + 1..].starts_with('\'') {
                characters.next();
                value.push('\'');
                continue;
            }
            return Ok((value, index + 1));
        }
        if quote == '"' && character == '\\' {
            let escaped = characters.next().map(|(_, escaped)| escaped);
            match escaped {
                Some('"') => value.push('"'),
                Some('\\') => value.push('\\'),
                Some('/') => value.push('/'),
                Some('n') => value.push('\n'),
                Some('t') => value.push('\t'),
                Some('r') => value.push('\r'),
                Some('u') => {
                    let hex: String =
                        (0..4).filter_map(|_| characters.next().map(|(_, digit)| digit)).collect();
                    let decoded = u32::from_str_radix(&hex, 16)
                        .ok()
                        .filter(|_| hex.len() == 4)
                        .and_then(char::from_u32);
                    match decoded {
                        Some(decoded) => value.push(decoded),
                        None => return Err(format!("bad escape `\\u{hex}` in a quoted value")),
                    }
                }
                Some(other) => return Err(format!("unknown escape `\\{other}` in a quoted value")),
                None => break,
            }
            continue;
        }
        value.push(character);
    }
    Err(format!("unterminated quoted value (missing the closing {quote})"))
}

/// Cuts a ` # comment` (a `#` after whitespace) off a plain value.
fn strip_trailing_comment(text: &str) -> &str {
    if text.starts_with('#') {
        return "";
    }
    match text.find(" #").into_iter().chain(text.find("\t#")).min() {
        Some(comment_start) => &text[..comment_start],
        None => text,
    }
}

fn whitespace_length(text: &str) -> usize {
    text.len() - text.trim_start().len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_quoted_and_null_scalars() {
        assert_eq!(
            parse_scalar("  Use LadybugDB  # why not"),
            Ok(Some("Use LadybugDB".to_string()))
        );
        assert_eq!(parse_scalar("issue#12"), Ok(Some("issue#12".to_string())));
        assert_eq!(parse_scalar(r#""a \"b\"\n\u00e9" # c"#), Ok(Some("a \"b\"\né".to_string())));
        assert_eq!(parse_scalar("'it''s'"), Ok(Some("it's".to_string())));
        assert_eq!(parse_scalar(""), Ok(None));
        assert_eq!(parse_scalar("~"), Ok(None));
        assert_eq!(parse_scalar("null"), Ok(None));
        assert_eq!(parse_scalar("\"null\""), Ok(Some("null".to_string())));
        assert!(parse_scalar("\"open").is_err());
        assert!(parse_scalar("\"a\" b").is_err());
        assert!(parse_scalar("| text").is_err());
        assert!(parse_scalar("{a: b}").is_err());
    }

    #[test]
    fn reads_inline_lists() {
        assert_eq!(parse_inline_list("[]"), Ok(vec![]));
        assert_eq!(parse_inline_list("[ ]  # none"), Ok(vec![]));
        assert_eq!(
            parse_inline_list(r#"[a, b c ,"d, e", 'f']"#),
            Ok(vec!["a".to_string(), "b c".to_string(), "d, e".to_string(), "f".to_string()])
        );
        for malformed in ["[a, b", "[a,, b]", "[a, [b]]", "[a] b", "[a b\" c", "[\"a\" b]", "[a,]"]
        {
            assert!(parse_inline_list(malformed).is_err(), "{malformed}");
        }
    }

    #[test]
    fn rendered_values_read_back_unchanged() {
        let values = [
            "plain words",
            "2026-11-30T05:00:00Z",
            "crates/store/src/lib.rs",
            "",
            " padded ",
            "null",
            "~",
            "a: b",
            "ends with:",
            "#hash",
            "x # y",
            "- dash",
            "[bracket]",
            "comma, inside",
            "quote \" and \\ backslash",
            "it's",
            "line\nbreak\ttab\u{1}",
            "ünïcödé ok",
        ];
        for value in values {
            let rendered = render_scalar(value);
            assert_eq!(parse_scalar(&rendered), Ok(Some(value.to_string())), "{rendered}");
        }
        let list: Vec<String> = values.iter().map(|value| value.to_string()).collect();
        assert_eq!(parse_inline_list(&render_inline_list(&list)), Ok(list));
        assert_eq!(render_scalar("Use LadybugDB"), "Use LadybugDB");
        assert_eq!(render_scalar("a: b"), "\"a: b\"");
    }
}

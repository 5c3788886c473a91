//! Each tool's `outputSchema`, compact: `tools/list` is read into an agent's context whole, so
//! the schemas there keep the answers' shape (properties, types, required fields, the items
//! of each list) and drop what the `tether://schema` resource says once for every answer:
//! descriptions and titles, the parts every answer shares (completeness and freshness, typed
//! here as plain objects), which fields of a nested definition are required (the root's
//! are kept), and the shapes nested below the root's items (plain objects). Formats JSON Schema does not define (schemars' `uint`, `uint32`, `int64`,
//! `double`…, which validators warn about on every call) are dropped with the `minimum: 0`
//! they come with.
//!
//! It deliberately does not change what an answer holds: `structuredContent` is the
//! daemon's answer as it is, and the full schemas stay in `tether_protocol::wire`.

use serde_json::{Map, Value};
use tether_protocol::wire::AnswerSchema;

/// Definitions every answer shares, described once by the `tether://schema` resource.
const SHARED_DEFINITIONS: &[&str] = &["Completeness", "Freshness"];

/// The formats JSON Schema (draft 2020-12) defines; any other is dropped.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Definitions reached through more references than this from the root are typed as plain
/// objects: the definitions the root names keep their fields (an answer's items; for an
/// answer of several shapes, like `lookup`'s, the shapes themselves); what they hold in
/// turn (a health section's findings, lookup's items) is said by `tether://schema`, since
/// the tool list is read whole into an agent's context.
const MOST_DEFINITION_DEPTH: usize = 1;

/// Keys that only describe: said once in `tether://schema`, not in every tool.
const DESCRIBING_KEYS: &[&str] = &["description", "title", "$schema", "examples"];

/// The compact form of an answer's full schema.
pub(crate) fn compact_output_schema(full: AnswerSchema) -> AnswerSchema {
    let Value::Object(schema) = without_describing_keys(Value::Object(full)) else {
        unreachable!("an object stays an object")
    };
    let shared: Vec<String> =
        SHARED_DEFINITIONS.iter().map(|name| format!("#/$defs/{name}")).collect();
    let Value::Object(mut schema) = with_shared_parts_as_objects(Value::Object(schema), &shared)
    else {
        unreachable!("an object stays an object")
    };
    prune_unreferenced_definitions(&mut schema);
    objects_below_depth(&mut schema, MOST_DEFINITION_DEPTH);
    prune_unreferenced_definitions(&mut schema);
    if let Some(Value::Object(definitions)) = schema.get_mut("$defs") {
        // A definition's fields are typed; which must be there is said at the root only.
        for definition in definitions.values_mut() {
            if let Value::Object(definition) = definition {
                definition.remove("required");
            }
        }
    }
    schema
}

/// A describing keyword, a format JSON Schema does not define, or the `minimum: 0` that
/// stood for an unsigned format (every count and line is one).
fn is_dropped_keyword(key: &str, value: &Value) -> bool {
    let odd_format =
        key == "format" && value.as_str().is_some_and(|format| !STANDARD_FORMATS.contains(&format));
    let unsigned = key == "minimum" && value.as_u64() == Some(0);
    DESCRIBING_KEYS.contains(&key) || odd_format || unsigned
}

fn without_describing_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(key, value)| !is_dropped_keyword(key, value))
                .map(|(key, value)| {
                    // A property may be named like a describing key (`title` of an entry).
                    let value = match key.as_str() {
                        "properties" | "$defs" => without_describing_keys_in_values(value),
                        _ => without_describing_keys(value),
                    };
                    (key, value)
                })
                .collect(),
        ),
        Value::Array(values) => {
            Value::Array(values.into_iter().map(without_describing_keys).collect())
        }
        other => other,
    }
}

/// A `properties` or `$defs` map: its keys are names, not keywords; each value is a schema.
fn without_describing_keys_in_values(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter().map(|(name, schema)| (name, without_describing_keys(schema))).collect(),
        ),
        other => without_describing_keys(other),
    }
}

/// Each `$ref` to a shared part becomes `{"type": "object"}`.
fn with_shared_parts_as_objects(value: Value, shared: &[String]) -> Value {
    match value {
        Value::Object(map) => {
            let is_shared_reference = map.len() == 1
                && map
                    .get("$ref")
                    .and_then(Value::as_str)
                    .is_some_and(|target| shared.iter().any(|name| name == target));
            if is_shared_reference {
                return serde_json::json!({ "type": "object" });
            }
            Value::Object(
                map.into_iter()
                    .map(|(key, value)| (key, with_shared_parts_as_objects(value, shared)))
                    .collect(),
            )
        }
        Value::Array(values) => Value::Array(
            values.into_iter().map(|value| with_shared_parts_as_objects(value, shared)).collect(),
        ),
        other => other,
    }
}

/// In the definitions `depth` references away from the root, each `$ref` becomes
/// `{"type": "object"}`.
fn objects_below_depth(schema: &mut Map<String, Value>, depth: usize) {
    let Some(Value::Object(definitions)) = schema.get("$defs") else { return };
    let mut level: Vec<String> = Vec::new();
    for (_, value) in schema.iter().filter(|(key, _)| *key != "$defs") {
        collect_references(value, &mut level);
    }
    let mut seen: Vec<String> = level.clone();
    for _ in 1..depth {
        let mut next = Vec::new();
        for name in &level {
            if let Some(definition) = definitions.get(name) {
                collect_references(definition, &mut next);
            }
        }
        next.retain(|name| !seen.contains(name));
        next.dedup();
        seen.extend(next.iter().cloned());
        level = next;
    }
    // Every reference made in the deepest kept definitions becomes a plain object.
    let references: Vec<String> =
        definitions.keys().map(|name| format!("#/$defs/{name}")).collect();
    let Some(Value::Object(definitions)) = schema.get_mut("$defs") else { return };
    for name in &level {
        if let Some(definition) = definitions.get_mut(name) {
            *definition = with_shared_parts_as_objects(std::mem::take(definition), &references);
        }
    }
}

/// Removes the definitions no `$ref` reaches from the root any more.
fn prune_unreferenced_definitions(schema: &mut Map<String, Value>) {
    let Some(Value::Object(definitions)) = schema.get("$defs") else { return };
    let mut reached: Vec<String> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for (_, value) in schema.iter().filter(|(key, _)| *key != "$defs") {
        collect_references(value, &mut pending);
    }
    while let Some(name) = pending.pop() {
        if reached.contains(&name) {
            continue;
        }
        if let Some(definition) = definitions.get(&name) {
            collect_references(definition, &mut pending);
        }
        reached.push(name);
    }
    if let Some(Value::Object(definitions)) = schema.get_mut("$defs") {
        definitions.retain(|name, _| reached.contains(name));
    }
}

fn collect_references(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value.as_str()) {
                    ("$ref", Some(target)) => {
                        if let Some(name) = target.strip_prefix("#/$defs/") {
                            found.push(name.to_string());
                        }
                    }
                    _ => collect_references(value, found),
                }
            }
        }
        Value::Array(values) => values.iter().for_each(|value| collect_references(value, found)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::compact_output_schema;

    #[test]
    fn compact_schemas_keep_shapes_and_drop_descriptions_shared_parts_and_odd_formats() {
        let full = tether_protocol::wire::answer_schema(tether_protocol::Method::Blast).unwrap();
        let compact = compact_output_schema(full.clone());
        let text = serde_json::to_string(&compact).unwrap();
        assert!(!text.contains("\"uint"), "{text}");
        assert!(!text.contains("CompletenessCause"), "{text}");
        assert_eq!(compact["required"], full["required"]);
        assert_eq!(compact["properties"]["completeness"], serde_json::json!({ "type": "object" }));
        assert!(compact["$defs"].get("Completeness").is_none());
        // The items keep their fields and types.
        let fields = |schema: &serde_json::Map<String, serde_json::Value>| {
            let properties = schema["$defs"]["BlastItem"]["properties"].as_object().unwrap();
            properties.keys().cloned().collect::<Vec<_>>()
        };
        assert_eq!(fields(&compact), fields(&full));
        assert_eq!(
            compact["$defs"]["BlastItem"]["properties"]["line"],
            serde_json::json!({ "type": "integer" })
        );
        assert!(text.len() * 2 < serde_json::to_string(&full).unwrap().len());
    }

    #[test]
    fn shapes_below_the_roots_items_are_plain_objects() {
        let full = tether_protocol::wire::answer_schema(tether_protocol::Method::Health).unwrap();
        let compact = compact_output_schema(full.clone());
        // The sections keep their fields; what each section lists is a plain object.
        let section = &compact["$defs"]["HealthSection"]["properties"];
        assert_eq!(section["kind"], serde_json::json!({ "type": "string" }));
        assert_eq!(
            section["god_objects"],
            serde_json::json!({ "type": "array", "items": { "type": "object" } })
        );
        let kept: Vec<&String> = compact["$defs"].as_object().unwrap().keys().collect();
        assert_eq!(kept, ["HealthSection"]);
        assert!(full["$defs"].get("GodObject").is_some());
    }
}

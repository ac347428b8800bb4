//! Cleans server tool schemas into the subset every OpenAI-compatible provider accepts (spec §7).

use serde_json::{Map, Value, json};

/// Longest description kept, in characters; longer ones are cut and end in "...".
pub const MAX_DESCRIPTION: usize = 1000;

/// `schema` with `$schema`/`$id`/`$ref` removed everywhere, `anyOf`/`oneOf` replaced by a description listing the
/// options, descriptions cut to [`MAX_DESCRIPTION`], and a top-level `type: object` + `properties` added when
/// missing. A union at the top becomes `type: object` (spec §7); a union inside a property loses its `type`
/// instead of becoming an object, because the argument check would then refuse the string or number the server
/// expects.
pub fn sanitize_schema(schema: &Value) -> Value {
    let mut top = match clean(schema, true) {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    if top.get("type").and_then(Value::as_str) != Some("object") {
        top.insert("type".into(), json!("object"));
    }
    if !top.get("properties").is_some_and(Value::is_object) {
        top.insert("properties".into(), json!({}));
    }
    Value::Object(top)
}

/// Cuts `text` to [`MAX_DESCRIPTION`] characters plus "..." when longer.
pub fn cut_description(text: &str) -> String {
    match text.char_indices().nth(MAX_DESCRIPTION) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}

fn clean(value: &Value, top: bool) -> Value {
    match value {
        Value::Object(map) => Value::Object(clean_object(map, top)),
        Value::Array(items) => Value::Array(items.iter().map(|v| clean(v, false)).collect()),
        other => other.clone(),
    }
}

fn clean_object(map: &Map<String, Value>, top: bool) -> Map<String, Value> {
    let mut out = Map::new();
    let mut options = Vec::new();
    for (key, value) in map {
        match key.as_str() {
            "$schema" | "$id" | "$ref" => {}
            "anyOf" | "oneOf" => options.extend(
                value
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|v| clean(v, false)),
            ),
            "description" => {
                let text = value
                    .as_str()
                    .map_or_else(|| value.to_string(), cut_description);
                out.insert(key.clone(), Value::String(text));
            }
            _ => {
                out.insert(key.clone(), clean(value, false));
            }
        }
    }
    if !options.is_empty() {
        merge_options(&mut out, &options, top);
    }
    out
}

/// Providers reject `anyOf`/`oneOf`; a plain object with the options spelled out keeps the intent readable.
fn merge_options(out: &mut Map<String, Value>, options: &[Value], top: bool) {
    let listed: Vec<String> = options.iter().map(Value::to_string).collect();
    let note = format!("One of: {}", listed.join(" | "));
    let description = match out.get("description").and_then(Value::as_str) {
        Some(existing) if !existing.is_empty() => format!("{existing} ({note})"),
        _ => note,
    };
    out.insert(
        "description".into(),
        Value::String(cut_description(&description)),
    );
    if top {
        out.insert("type".into(), json!("object"));
    } else {
        out.remove("type");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn strips_schema_id_and_ref_recursively() {
        let raw = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "$id": "x",
            "type": "object",
            "properties": {"a": {"$ref": "#/defs/a", "type": "string", "items": [{"$id": "y", "type": "number"}]}},
        });
        assert_eq!(
            sanitize_schema(&raw),
            json!({"type": "object", "properties": {"a": {"type": "string", "items": [{"type": "number"}]}}})
        );
    }

    #[test]
    fn any_of_and_one_of_are_replaced_by_described_options() {
        let raw = json!({
            "type": "object",
            "properties": {"v": {"description": "value", "anyOf": [{"type": "string"}, {"type": "null"}]}},
        });
        assert_eq!(
            sanitize_schema(&raw)["properties"]["v"],
            json!({"description": "value (One of: {\"type\":\"string\"} | {\"type\":\"null\"})"})
        );
        let top = sanitize_schema(&json!({"oneOf": [{"type": "integer"}]}));
        assert_eq!(
            top,
            json!({"type": "object", "properties": {}, "description": "One of: {\"type\":\"integer\"}"})
        );
    }

    #[test]
    fn long_descriptions_are_cut_to_1000_chars() {
        let long = "é".repeat(MAX_DESCRIPTION + 10);
        let out =
            sanitize_schema(&json!({"type": "object", "properties": {"p": {"description": long}}}));
        let text = out["properties"]["p"]["description"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert_eq!(text.chars().count(), MAX_DESCRIPTION + 3);
        assert!(text.ends_with("..."));
        assert_eq!(cut_description("short"), "short");
    }

    #[test]
    fn adds_missing_top_level_type_and_properties() {
        assert_eq!(
            sanitize_schema(&json!({})),
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            sanitize_schema(&Value::Null),
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            sanitize_schema(&json!({"properties": {"x": {"type": "string"}}, "required": ["x"]})),
            json!({"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]})
        );
    }
}

//! Checks a call's raw argument string against the tool's JSON schema and returns the argument object.
//!
//! Only the flat shape our tools use is checked in depth (`{type: object, properties, required}`, each property
//! with `type` and optional `enum`); nested object/array properties are checked for their own `type` only.
//! Leniency where models commonly slip and the intent is unambiguous:
//! - an empty (or blank) argument string means `{}`;
//! - `"10"` for an integer or number and `"true"`/`"false"` for a boolean are coerced, and the coerced value is
//!   what the tool receives; `3.0` for an integer becomes `3`;
//! - `null` for an optional property means "not given" and the property is removed.
//!
//! Properties the schema does not name are kept unchanged: tools ignore what they do not read, and MCP servers
//! (whose schemas may allow extra keys) must receive what the model sent.

use serde_json::{Map, Number, Value};

/// Why a call's arguments were rejected; the message is written for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgsError {
    #[error("arguments are not valid JSON ({detail}); received: {prefix}")]
    InvalidJson { detail: String, prefix: String },
    #[error("arguments must be a JSON object, got {got}")]
    NotAnObject { got: &'static str },
    #[error("missing required parameter `{name}`")]
    MissingRequired { name: String },
    #[error("parameter `{name}` must be of type {expected}, got {got}")]
    WrongType {
        name: String,
        expected: String,
        got: &'static str,
    },
    #[error("parameter `{name}` must be one of {allowed}, got {got}")]
    NotAllowed {
        name: String,
        allowed: String,
        got: String,
    },
}

/// How much of a malformed argument string is echoed back.
const PREFIX_CHARS: usize = 120;

/// Parses `raw`, checks it against `schema` and returns the (possibly coerced) argument object.
pub fn validate(schema: &Value, raw: &str) -> Result<Map<String, Value>, ArgsError> {
    let value = if raw.trim().is_empty() {
        Value::Object(Map::new())
    } else {
        serde_json::from_str(raw).map_err(|e| ArgsError::InvalidJson {
            detail: e.to_string(),
            prefix: prefix(raw),
        })?
    };
    let Value::Object(mut args) = value else {
        return Err(ArgsError::NotAnObject {
            got: type_name(&value),
        });
    };
    let empty = Map::new();
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();

    // Optional nulls mean "not given"; a required null is as good as missing.
    args.retain(|key, value| !value.is_null() || required.contains(&key.as_str()));
    for name in &required {
        if args.get(*name).is_none_or(Value::is_null) {
            return Err(ArgsError::MissingRequired {
                name: (*name).to_string(),
            });
        }
    }
    for (name, prop) in properties {
        if let Some(value) = args.get_mut(name) {
            check_property(name, prop, value)?;
        }
    }
    Ok(args)
}

/// Checks (and coerces in place) one top-level property.
fn check_property(name: &str, prop: &Value, value: &mut Value) -> Result<(), ArgsError> {
    let types = declared_types(prop);
    if !types.is_empty() && !types.iter().any(|t| matches_type(t, value)) {
        let coerced = types.iter().find_map(|t| coerce(t, value));
        match coerced {
            Some(v) => *value = v,
            None => {
                return Err(ArgsError::WrongType {
                    name: name.to_string(),
                    expected: types.join(" or "),
                    got: type_name(value),
                });
            }
        }
    }
    if let Some(allowed) = prop.get("enum").and_then(Value::as_array)
        && !allowed.contains(value)
    {
        return Err(ArgsError::NotAllowed {
            name: name.to_string(),
            allowed: allowed
                .iter()
                .map(Value::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            got: value.to_string(),
        });
    }
    Ok(())
}

/// The `type` of a property schema: a string or an array of strings; none means "anything".
fn declared_types(prop: &Value) -> Vec<&str> {
    match prop.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

fn matches_type(expected: &str, value: &Value) -> bool {
    match expected {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "null" => value.is_null(),
        // A type we do not know is not ours to reject.
        _ => true,
    }
}

/// The unambiguous repairs: numeric strings, boolean strings, integral floats.
fn coerce(expected: &str, value: &Value) -> Option<Value> {
    match (expected, value) {
        ("integer", Value::String(s)) => s.trim().parse::<i64>().ok().map(Value::from),
        ("integer", Value::Number(n)) => n
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            .map(|f| Value::from(f as i64)),
        ("number", Value::String(s)) => s
            .trim()
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(|n| match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
                _ => Value::Number(n),
            }),
        ("boolean", Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => None,
        },
        _ => None,
    }
}

/// The JSON type name of a value, as the model would write it in a schema.
fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The first characters of a malformed argument string, for the error message.
fn prefix(raw: &str) -> String {
    let mut chars = raw.chars();
    let head: String = chars.by_ref().take(PREFIX_CHARS).collect();
    if chars.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use pretty_assertions::assert_eq;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "file"},
                "offset": {"type": "integer"},
                "ratio": {"type": "number"},
                "regex": {"type": "boolean"},
                "mode": {"type": "string", "enum": ["fast", "slow"]},
                "opts": {"type": "object"},
            },
            "required": ["path"],
        })
    }

    fn ok(raw: &str) -> Value {
        Value::Object(validate(&schema(), raw).unwrap())
    }

    fn err(raw: &str) -> ArgsError {
        validate(&schema(), raw).unwrap_err()
    }

    #[test]
    fn accepts_well_typed_arguments() {
        let raw =
            r#"{"path":"a.rs","offset":3,"ratio":0.5,"regex":true,"mode":"fast","opts":{"x":1}}"#;
        assert_eq!(ok(raw), serde_json::from_str::<Value>(raw).unwrap());
    }

    #[test]
    fn rejects_bad_json_with_a_short_prefix() {
        let e = err(r#"{"path": "a.rs""#);
        assert!(
            matches!(&e, ArgsError::InvalidJson { prefix, .. } if prefix == r#"{"path": "a.rs""#)
        );
        assert!(e.to_string().starts_with("arguments are not valid JSON"));

        let long = format!("{{\"path\": \"{}", "x".repeat(500));
        let ArgsError::InvalidJson { prefix, .. } = err(&long) else {
            panic!("expected InvalidJson");
        };
        assert_eq!(prefix.chars().count(), PREFIX_CHARS + 1);
        assert!(prefix.ends_with('…'));
    }

    #[test]
    fn rejects_non_objects() {
        assert_eq!(err("[1,2]"), ArgsError::NotAnObject { got: "array" });
        assert_eq!(err("\"a.rs\""), ArgsError::NotAnObject { got: "string" });
    }

    #[test]
    fn empty_string_means_no_arguments() {
        let no_required = json!({"type": "object", "properties": {}});
        assert_eq!(validate(&no_required, "").unwrap(), Map::new());
        assert_eq!(validate(&no_required, "  ").unwrap(), Map::new());
        assert_eq!(
            err(""),
            ArgsError::MissingRequired {
                name: "path".into()
            }
        );
    }

    #[test]
    fn names_a_missing_required_parameter() {
        let e = err(r#"{"offset": 1}"#);
        assert_eq!(
            e,
            ArgsError::MissingRequired {
                name: "path".into()
            }
        );
        assert_eq!(e.to_string(), "missing required parameter `path`");
        assert_eq!(
            err(r#"{"path": null}"#),
            ArgsError::MissingRequired {
                name: "path".into()
            }
        );
    }

    #[test]
    fn names_an_ill_typed_parameter_with_both_types() {
        let e = err(r#"{"path": "a", "offset": "ten"}"#);
        assert_eq!(
            e,
            ArgsError::WrongType {
                name: "offset".into(),
                expected: "integer".into(),
                got: "string",
            }
        );
        assert_eq!(
            e.to_string(),
            "parameter `offset` must be of type integer, got string"
        );
        assert_eq!(
            err(r#"{"path": 5}"#),
            ArgsError::WrongType {
                name: "path".into(),
                expected: "string".into(),
                got: "integer",
            }
        );
        assert_eq!(
            err(r#"{"path": "a", "offset": 1.5}"#),
            ArgsError::WrongType {
                name: "offset".into(),
                expected: "integer".into(),
                got: "number",
            }
        );
        assert_eq!(
            err(r#"{"path": "a", "opts": [1]}"#),
            ArgsError::WrongType {
                name: "opts".into(),
                expected: "object".into(),
                got: "array",
            }
        );
    }

    #[test]
    fn coerces_common_slips() {
        assert_eq!(
            ok(r#"{"path": "a", "offset": " 10 ", "ratio": "2.5", "regex": "False"}"#),
            json!({"path": "a", "offset": 10, "ratio": 2.5, "regex": false})
        );
        assert_eq!(
            ok(r#"{"path": "a", "offset": 3.0}"#),
            json!({"path": "a", "offset": 3})
        );
        assert_eq!(
            ok(r#"{"path": "a", "ratio": "4"}"#),
            json!({"path": "a", "ratio": 4})
        );
        assert!(matches!(
            err(r#"{"path": "a", "regex": "yes"}"#),
            ArgsError::WrongType { .. }
        ));
    }

    #[test]
    fn enforces_enums() {
        let e = err(r#"{"path": "a", "mode": "medium"}"#);
        assert_eq!(
            e.to_string(),
            "parameter `mode` must be one of \"fast\", \"slow\", got \"medium\""
        );
    }

    #[test]
    fn drops_optional_nulls_and_keeps_unknown_properties() {
        assert_eq!(
            ok(r#"{"path": "a", "offset": null, "extra": [1]}"#),
            json!({"path": "a", "extra": [1]})
        );
    }

    #[test]
    fn accepts_type_unions_and_untyped_properties() {
        let s = json!({"type": "object", "properties": {
            "v": {"type": ["string", "integer"]},
            "any": {"description": "no type"},
        }});
        assert_eq!(validate(&s, r#"{"v": 3, "any": [true]}"#).unwrap().len(), 2);
        assert_eq!(validate(&s, r#"{"v": "x"}"#).unwrap().len(), 1);
        assert!(validate(&s, r#"{"v": false}"#).is_err());
    }
}

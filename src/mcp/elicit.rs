//! Elicitation: a server asks the person for a few values mid-call (`elicitation/create`, form mode). The
//! front-end answers through an [`Elicitor`]: the REPL shows a form, `-p` uses [`DefaultsElicitor`], which
//! accepts with the schema's defaults when every required field has one and declines otherwise.

use std::sync::{Arc, PoisonError, RwLock};

use async_trait::async_trait;
use serde_json::{Map, Value};

/// One form request from a server, as plain JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitRequest {
    /// The server that asks.
    pub server: String,
    /// What the server says it needs.
    pub message: String,
    /// The `requestedSchema`: an object schema with primitive properties.
    pub schema: Value,
}

/// How the person (or the policy) answered.
#[derive(Debug, Clone, PartialEq)]
pub enum ElicitAnswer {
    /// The values, one per field filled in.
    Accept(Map<String, Value>),
    /// The person said no; the server's operation goes on without the values.
    Decline,
    /// The person stopped the whole operation (ESC in the form, Ctrl-C).
    Cancel,
}

impl ElicitAnswer {
    /// The MCP action name: `accept`, `decline` or `cancel`.
    pub fn action(&self) -> &'static str {
        match self {
            ElicitAnswer::Accept(_) => "accept",
            ElicitAnswer::Decline => "decline",
            ElicitAnswer::Cancel => "cancel",
        }
    }
}

/// Answers elicitation requests. Implementations must not hold a lock across the await.
#[async_trait]
pub trait Elicitor: Send + Sync {
    /// Asks for `request`'s values; who answered is the implementation's business (and its audit's).
    async fn elicit(&self, request: &ElicitRequest) -> ElicitAnswer;
}

/// The `-p` policy: nobody can be asked, so accept with the defaults only when they answer every required field.
pub struct DefaultsElicitor;

#[async_trait]
impl Elicitor for DefaultsElicitor {
    async fn elicit(&self, request: &ElicitRequest) -> ElicitAnswer {
        answer_with_defaults(&request.schema)
    }
}

/// The elicitor every server of a session asks; the front-end may swap it (the REPL puts its form in).
#[derive(Clone)]
pub struct ElicitorSlot(Arc<RwLock<Arc<dyn Elicitor>>>);

impl Default for ElicitorSlot {
    fn default() -> Self {
        ElicitorSlot(Arc::new(RwLock::new(Arc::new(DefaultsElicitor))))
    }
}

impl ElicitorSlot {
    /// Makes `elicitor` answer from now on.
    pub fn set(&self, elicitor: Arc<dyn Elicitor>) {
        *self.0.write().unwrap_or_else(PoisonError::into_inner) = elicitor;
    }

    /// The elicitor answering now.
    pub fn get(&self) -> Arc<dyn Elicitor> {
        Arc::clone(&self.0.read().unwrap_or_else(PoisonError::into_inner))
    }
}

/// One field of a form schema, in the schema's order.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    /// `string`, `number`, `integer` or `boolean` (anything else is treated as `string`).
    pub kind: String,
    pub title: Option<String>,
    pub description: Option<String>,
    pub default: Option<Value>,
    /// Allowed values of an enum field (`enum`, or the `const`s of `oneOf`).
    pub choices: Vec<String>,
    pub required: bool,
}

/// The fields of `schema` (`properties`, with `required` marked).
pub fn fields(schema: &Value) -> Vec<Field> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    properties
        .iter()
        .map(|(name, prop)| Field {
            name: name.clone(),
            kind: prop
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("string")
                .to_string(),
            title: text(prop, "title"),
            description: text(prop, "description"),
            default: prop.get("default").cloned(),
            choices: choices(prop),
            required: required.contains(&name.as_str()),
        })
        .collect()
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string)
}

fn choices(prop: &Value) -> Vec<String> {
    if let Some(values) = prop.get("enum").and_then(Value::as_array) {
        return values
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
    }
    let options = prop
        .get("oneOf")
        .or_else(|| prop.get("anyOf"))
        .and_then(Value::as_array);
    options
        .map(|o| {
            o.iter()
                .filter_map(|c| c.get("const").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Accept with every default the schema gives, when they cover the required fields; else decline.
pub fn answer_with_defaults(schema: &Value) -> ElicitAnswer {
    let fields = fields(schema);
    if fields.iter().any(|f| f.required && f.default.is_none()) {
        return ElicitAnswer::Decline;
    }
    ElicitAnswer::Accept(
        fields
            .into_iter()
            .filter_map(|f| Some((f.name, f.default?)))
            .collect(),
    )
}

/// Why a typed value does not fit its field; the front-end words it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueError {
    /// Not one of the enum's values.
    Choice(Vec<String>),
    YesNo,
    Integer,
    Number,
    /// A required field left empty.
    Missing,
}

/// Reads what the person typed for `field` as the JSON value its type asks for.
pub fn parse_value(field: &Field, typed: &str) -> Result<Value, ValueError> {
    let typed = typed.trim();
    if typed.is_empty() {
        return Err(ValueError::Missing);
    }
    if !field.choices.is_empty() && !field.choices.iter().any(|c| c == typed) {
        return Err(ValueError::Choice(field.choices.clone()));
    }
    match field.kind.as_str() {
        "boolean" => match typed.to_ascii_lowercase().as_str() {
            "y" | "yes" | "true" => Ok(Value::Bool(true)),
            "n" | "no" | "false" => Ok(Value::Bool(false)),
            _ => Err(ValueError::YesNo),
        },
        "integer" => typed
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| ValueError::Integer),
        "number" => typed
            .parse::<f64>()
            .ok()
            .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
            .ok_or(ValueError::Number),
        _ => Ok(Value::String(typed.to_string())),
    }
}

/// A default as the form shows it for editing (strings without quotes).
pub fn shown_default(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn defaults_schema() -> Value {
        json!({"type": "object", "properties": {
            "name": {"type": "string", "default": "John Doe"},
            "age": {"type": "integer", "default": 30},
            "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
            "verified": {"type": "boolean", "default": true}
        }, "required": []})
    }

    #[test]
    fn defaults_answer_every_field_when_nothing_required_lacks_one() {
        let ElicitAnswer::Accept(values) = answer_with_defaults(&defaults_schema()) else {
            panic!("declined a schema whose defaults cover everything");
        };
        assert_eq!(
            Value::Object(values),
            json!({"name": "John Doe", "age": 30, "status": "active", "verified": true})
        );
    }

    #[test]
    fn a_required_field_without_default_declines() {
        let schema = json!({"type": "object", "properties": {
            "email": {"type": "string"}, "name": {"type": "string", "default": "x"}
        }, "required": ["email"]});
        assert_eq!(answer_with_defaults(&schema), ElicitAnswer::Decline);
        let optional = json!({"type": "object", "properties": {"email": {"type": "string"}}});
        assert_eq!(
            answer_with_defaults(&optional),
            ElicitAnswer::Accept(Map::new())
        );
    }

    #[test]
    fn typed_values_follow_the_field_type() {
        let f = |kind: &str, choices: &[&str]| Field {
            name: "f".into(),
            kind: kind.into(),
            title: None,
            description: None,
            default: None,
            choices: choices.iter().map(|c| c.to_string()).collect(),
            required: false,
        };
        assert_eq!(parse_value(&f("integer", &[]), " 42 "), Ok(json!(42)));
        assert_eq!(
            parse_value(&f("integer", &[]), "4.2"),
            Err(ValueError::Integer)
        );
        assert_eq!(
            parse_value(&f("string", &[]), " "),
            Err(ValueError::Missing)
        );
        assert_eq!(parse_value(&f("number", &[]), "4.5"), Ok(json!(4.5)));
        assert_eq!(parse_value(&f("boolean", &[]), "Yes"), Ok(json!(true)));
        assert!(parse_value(&f("boolean", &[]), "maybe").is_err());
        assert_eq!(parse_value(&f("string", &["a", "b"]), "b"), Ok(json!("b")));
        assert!(parse_value(&f("string", &["a", "b"]), "c").is_err());
    }
}

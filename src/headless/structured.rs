//! `--json-schema` (and `--output-schema`): the final answer must be JSON valid against the client's schema. The
//! model is told the schema with the task; an answer that does not parse or validate is sent back with the
//! validator's errors, up to [`MAX_RETRIES`] times.

use serde_json::Value;

/// Answers sent back for another try before the run ends with `error_max_structured_output_retries`.
pub const MAX_RETRIES: u32 = 2;

/// Why a schema was refused.
#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    #[error("--json-schema is neither JSON nor a readable file: {0}")]
    Unreadable(std::io::Error),
    #[error("--json-schema is not JSON: {0}")]
    NotJson(serde_json::Error),
    #[error("--json-schema is not a valid JSON Schema: {0}")]
    Invalid(String),
}

/// A compiled schema.
pub struct Schema {
    raw: Value,
    validator: jsonschema::Validator,
}

impl Schema {
    /// The schema given on the command line: inline JSON, or the path of a file holding it.
    pub fn from_flag(text: &str) -> Result<Schema, SchemaError> {
        let trimmed = text.trim_start();
        let json = if trimmed.starts_with('{') || trimmed.starts_with("true") {
            text.to_string()
        } else {
            std::fs::read_to_string(text).map_err(SchemaError::Unreadable)?
        };
        let raw = serde_json::from_str(&json).map_err(SchemaError::NotJson)?;
        Schema::new(raw)
    }

    /// A schema sent as JSON (`initialize`'s `jsonSchema`).
    pub fn new(raw: Value) -> Result<Schema, SchemaError> {
        let validator =
            jsonschema::validator_for(&raw).map_err(|e| SchemaError::Invalid(e.to_string()))?;
        Ok(Schema { raw, validator })
    }

    /// What the model is told with the task.
    pub fn instructions(&self) -> String {
        format!(
            "Your final answer must be only a JSON value valid against this JSON Schema, with no other text \
             and no code fence:\n{}",
            self.raw
        )
    }

    /// The answer as a validated JSON value, or what is wrong with it.
    pub fn check(&self, answer: &str) -> Result<Value, Vec<String>> {
        let value: Value = serde_json::from_str(unfenced(answer))
            .map_err(|e| vec![format!("the answer is not JSON: {e}")])?;
        let errors: Vec<String> = self
            .validator
            .iter_errors(&value)
            .map(|e| {
                let at = e.instance_path().to_string();
                if at.is_empty() {
                    e.to_string()
                } else {
                    format!("{at}: {e}")
                }
            })
            .collect();
        if errors.is_empty() {
            Ok(value)
        } else {
            Err(errors)
        }
    }
}

/// What the model is sent after an answer that failed the check.
pub fn retry_prompt(errors: &[String]) -> String {
    format!(
        "Your answer does not match the required JSON Schema:\n- {}\nAnswer again with only the corrected JSON \
         value.",
        errors.join("\n- ")
    )
}

/// The answer without a Markdown code fence around it (models add one despite being told not to).
fn unfenced(answer: &str) -> &str {
    let trimmed = answer.trim();
    let Some(rest) = trimmed.strip_prefix("```") else {
        return trimmed;
    };
    let body = rest.split_once('\n').map_or("", |(_, body)| body);
    body.strip_suffix("```").unwrap_or(body).trim()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    fn schema() -> Schema {
        Schema::from_flag(
            r#"{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}"#,
        )
        .unwrap()
    }

    #[test]
    fn a_valid_answer_is_the_value_even_in_a_fence() {
        assert_eq!(schema().check(r#"{"n": 3}"#), Ok(json!({"n": 3})));
        assert_eq!(
            schema().check("```json\n{\"n\": 3}\n```"),
            Ok(json!({"n": 3}))
        );
    }

    #[test]
    fn an_invalid_answer_says_where_and_why() {
        let errors = schema().check(r#"{"n": "three"}"#).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("/n: "), "{errors:?}");
        assert!(schema().check("three").unwrap_err()[0].starts_with("the answer is not JSON"));
        assert!(schema().check("{}").unwrap_err()[0].contains("\"n\""));
    }

    #[test]
    fn a_bad_schema_is_refused() {
        assert!(matches!(
            Schema::from_flag(r#"{"type": 7}"#),
            Err(SchemaError::Invalid(_))
        ));
        assert!(matches!(
            Schema::from_flag("{not json"),
            Err(SchemaError::NotJson(_))
        ));
    }
}

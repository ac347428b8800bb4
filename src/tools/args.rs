//! Typed access to a tool call's (already validated) arguments.

use serde_json::{Map, Value};

use super::ToolOutcome;

/// A view over a call's argument object.
#[derive(Clone, Copy)]
pub struct Args<'a>(pub &'a Map<String, Value>);

impl<'a> Args<'a> {
    /// A string argument, if present and a string.
    pub fn str(&self, key: &str) -> Option<&'a str> {
        self.0.get(key).and_then(Value::as_str)
    }

    /// A required string argument, or a failure naming it.
    pub fn required_str(&self, key: &str) -> Result<&'a str, ToolOutcome> {
        self.str(key).ok_or_else(|| {
            ToolOutcome::failed(format!("missing required string parameter `{key}`"))
        })
    }

    /// An integer argument; numeric strings are accepted because models often quote numbers.
    pub fn int(&self, key: &str) -> Option<i64> {
        match self.0.get(key)? {
            Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// A boolean argument; "true"/"false" strings are accepted.
    pub fn bool(&self, key: &str) -> Option<bool> {
        match self.0.get(key)? {
            Value::Bool(b) => Some(*b),
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }
}

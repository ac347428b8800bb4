//! Definitions a caller gives as JSON, in Claude Code's shape (`--agents` and the Agent SDK's `agents` option):
//! `{"name": {"description": "…", "prompt": "…", "tools": ["Read", "Grep"], "model": "sonnet"}}`. They are the
//! [`Layer::Caller`]'s, checked as a definition file is.

use serde_json::Value;

use super::parse::{finish, model_spec};
use super::{AgentDef, Layer, ModelChoice, ToolChoice};

/// The definitions of `agents` (an object of definitions, or `null` for none); the first broken one is the
/// error, naming it.
pub fn from_json(agents: &Value) -> Result<Vec<AgentDef>, String> {
    let map = match agents {
        Value::Null => return Ok(Vec::new()),
        Value::Object(map) => map,
        _ => return Err("agents must be an object of definitions by name".to_string()),
    };
    map.iter()
        .map(|(name, def)| one(name, def).map_err(|e| format!("agent `{name}`: {e}")))
        .collect()
}

fn one(name: &str, def: &Value) -> Result<AgentDef, String> {
    let text = |key: &str| -> Result<Option<String>, String> {
        match def.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("`{key}` is not a string")),
        }
    };
    if !def.is_object() {
        return Err("its definition is not an object".to_string());
    }
    let tools = match def.get("tools") {
        None | Some(Value::Null) => ToolChoice::All,
        Some(Value::Array(items)) => {
            let names = items
                .iter()
                .map(|item| item.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or("`tools` lists something that is not a name")?;
            if names.is_empty() || names.iter().any(|n| n == "*") {
                ToolChoice::All
            } else {
                ToolChoice::Named(names)
            }
        }
        Some(_) => return Err("`tools` is not a list of names".to_string()),
    };
    let model = text("model")?.map_or(ModelChoice::Inherit, |m| model_spec(&m));
    let prompt = text("prompt")?.unwrap_or_default();
    finish(
        name.to_string(),
        text("description")?,
        tools,
        model,
        &prompt,
        Layer::Caller,
    )
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use serde_json::json;

    #[test]
    fn claude_s_shape_reads_with_tools_and_model_aliases() {
        let defs = from_json(&json!({
            "scout": {"description": "Finds files.", "prompt": "You are scout.", "tools": ["Read", "Glob"],
                      "model": "haiku"},
            "fixer": {"description": "Fixes.", "prompt": "Fix.", "model": "inherit"},
        }))
        .unwrap();
        let scout = defs.iter().find(|d| d.name == "scout").unwrap();
        assert_eq!(
            scout.tools,
            ToolChoice::Named(vec!["Read".into(), "Glob".into()])
        );
        assert_eq!(scout.model, ModelChoice::ClaudeAlias("haiku".into()));
        assert_eq!(scout.layer, Layer::Caller);
        let fixer = defs.iter().find(|d| d.name == "fixer").unwrap();
        assert_eq!(
            (&fixer.tools, &fixer.model),
            (&ToolChoice::All, &ModelChoice::Inherit)
        );
        assert_eq!(from_json(&Value::Null).unwrap(), vec![]);
    }

    #[test]
    fn a_broken_definition_is_refused_by_name() {
        let error = from_json(&json!({"empty": {"description": "No prompt."}})).unwrap_err();
        assert!(error.starts_with("agent `empty`:"), "{error}");
        assert!(from_json(&json!({"x": {"description": 1, "prompt": "p"}})).is_err());
        assert!(from_json(&json!(["not", "a", "map"])).is_err());
    }
}

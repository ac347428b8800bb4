//! One definition file to an [`AgentDef`], or what is wrong with it.

use serde::Deserialize;
use serde_norway::Value;

use super::{AgentDef, Layer, ModelChoice, ToolChoice};
use crate::skills::frontmatter;

/// Longest name accepted.
const MAX_NAME_CHARS: usize = 64;
/// Longest description accepted (it joins the `agent` tool's description).
const MAX_DESCRIPTION_CHARS: usize = 300;
/// Claude Code's model aliases: without an Anthropic provider they mean the lead's model.
const CLAUDE_ALIASES: &[&str] = &["sonnet", "opus", "haiku", "opusplan"];

/// A Markdown definition (`name`, `description`, `tools`, `model`, `provider` in its frontmatter; the body is
/// the prompt). `stem` is the file name without `.md`, used when `name` is missing.
pub fn markdown(text: &str, stem: &str, layer: Layer) -> Result<AgentDef, String> {
    let (front, body) = frontmatter::parse(text).map_err(|e| e.to_string())?;
    let name = front.name.unwrap_or_else(|| stem.to_string());
    let string = |key: &str| -> Result<Option<String>, String> {
        match front.other.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.trim().to_string())),
            Some(_) => Err(format!("`{key}` is not a string")),
        }
    };
    let tools = tool_choice(front.other.get("tools"))?;
    let model = model_choice(string("model")?, string("provider")?);
    finish(name, front.description, tools, model, body, layer)
}

/// Codex's TOML definition: `name`, `description`, `developer_instructions`, optional `model`, and
/// `sandbox_mode = "read-only"` for an agent that only looks.
pub fn codex_toml(text: &str, stem: &str, layer: Layer) -> Result<AgentDef, String> {
    #[derive(Deserialize)]
    struct Codex {
        name: Option<String>,
        description: Option<String>,
        developer_instructions: Option<String>,
        model: Option<String>,
        provider: Option<String>,
        sandbox_mode: Option<String>,
    }
    let parsed: Codex = toml::from_str(text).map_err(|e| format!("not valid TOML: {e}"))?;
    let prompt = parsed
        .developer_instructions
        .ok_or("it has no `developer_instructions`")?;
    let tools = match parsed.sandbox_mode.as_deref() {
        Some("read-only") => ToolChoice::ReadOnly,
        _ => ToolChoice::All,
    };
    let model = model_choice(parsed.model, parsed.provider);
    let name = parsed.name.unwrap_or_else(|| stem.to_string());
    finish(name, parsed.description, tools, model, &prompt, layer)
}

pub(super) fn finish(
    name: String,
    description: Option<String>,
    tools: ToolChoice,
    model: ModelChoice,
    prompt: &str,
    layer: Layer,
) -> Result<AgentDef, String> {
    check_name(&name)?;
    let description = description
        .map(|d| d.trim().to_string())
        .unwrap_or_default();
    let chars = description.chars().count();
    if chars == 0 {
        return Err("it has no `description`".to_string());
    }
    if chars > MAX_DESCRIPTION_CHARS {
        return Err(format!(
            "the description has {chars} characters; at most {MAX_DESCRIPTION_CHARS} are allowed"
        ));
    }
    let prompt = prompt.trim().to_string();
    if prompt.is_empty() {
        return Err("its prompt (the text after the frontmatter) is empty".to_string());
    }
    Ok(AgentDef {
        name,
        description,
        tools,
        model,
        prompt,
        layer,
        path: None,
    })
}

/// `tools: Read, Grep` (Claude Code's string), a YAML list, `read-only`, or nothing / `*` for every tool.
fn tool_choice(value: Option<&Value>) -> Result<ToolChoice, String> {
    let names: Vec<String> = match value {
        None | Some(Value::Null) => return Ok(ToolChoice::All),
        Some(Value::String(s)) => s
            .split(',')
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect(),
        Some(Value::Sequence(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => Ok(s.trim().to_string()),
                _ => Err("`tools` lists something that is not a name".to_string()),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("`tools` is neither a list nor a comma-separated string".to_string()),
    };
    Ok(match names.as_slice() {
        [] => ToolChoice::All,
        [one] if one == "*" => ToolChoice::All,
        [one] if one == "read-only" => ToolChoice::ReadOnly,
        _ => ToolChoice::Named(names),
    })
}

/// A model named in a setting (`[plan] planner_model`): `<provider>/<model>`, a model of the lead's provider,
/// `inherit` or a Claude alias, as in a definition.
pub fn model_spec(text: &str) -> ModelChoice {
    model_choice(Some(text.trim().to_string()), None)
}

/// `model: inherit`, a Claude alias, `<provider>/<model>`, or a model of `provider` (the lead's when none).
fn model_choice(model: Option<String>, provider: Option<String>) -> ModelChoice {
    let model = model.filter(|m| !m.is_empty());
    match (model, provider.filter(|p| !p.is_empty())) {
        (None, None) => ModelChoice::Inherit,
        (Some(m), None) if m == "inherit" => ModelChoice::Inherit,
        (Some(m), None) if CLAUDE_ALIASES.contains(&m.as_str()) => ModelChoice::ClaudeAlias(m),
        (Some(m), None) => match m.split_once('/') {
            Some((p, rest)) if !p.is_empty() && !rest.is_empty() => ModelChoice::Named {
                provider: Some(p.to_string()),
                model: rest.to_string(),
            },
            _ => ModelChoice::Named {
                provider: None,
                model: m,
            },
        },
        (model, Some(p)) => ModelChoice::Named {
            provider: Some(p),
            model: model.filter(|m| m != "inherit").unwrap_or_default(),
        },
    }
}

/// 1–64 ASCII lowercase letters, digits, `-` and `_`.
fn check_name(name: &str) -> Result<(), String> {
    let valid = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if valid {
        Ok(())
    } else {
        Err(format!(
            "`name: {name}` is not 1-64 lowercase letters, digits, `-` and `_`"
        ))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn claude_markdown_with_tools_string_and_provider_model() {
        let text = "---\nname: rev\ndescription: Reviews.\ntools: Read, Grep\nmodel: deepseek/deepseek-chat\n---\nBe strict.\n";
        let def = markdown(text, "x", Layer::ProjectClaude).unwrap();
        assert_eq!(def.name, "rev");
        assert_eq!(
            def.tools,
            ToolChoice::Named(vec!["Read".into(), "Grep".into()])
        );
        assert_eq!(
            def.model,
            ModelChoice::Named {
                provider: Some("deepseek".into()),
                model: "deepseek-chat".into()
            }
        );
        assert_eq!(def.prompt, "Be strict.");
    }

    #[test]
    fn models_inherit_alias_and_separate_provider() {
        assert_eq!(
            model_choice(Some("inherit".into()), None),
            ModelChoice::Inherit
        );
        assert_eq!(model_choice(None, None), ModelChoice::Inherit);
        assert_eq!(
            model_choice(Some("sonnet".into()), None),
            ModelChoice::ClaudeAlias("sonnet".into())
        );
        assert_eq!(
            model_choice(Some("kimi-k2".into()), Some("kimi".into())),
            ModelChoice::Named {
                provider: Some("kimi".into()),
                model: "kimi-k2".into()
            }
        );
    }

    #[test]
    fn broken_definitions_say_why() {
        let cases = [
            ("---\nname: a\n---\nx", "no `description`"),
            ("---\nname: A B\ndescription: d\n---\nx", "not 1-64"),
            ("---\nname: a\ndescription: d\n---\n", "prompt"),
            ("---\nname: a\ndescription: d\ntools: 3\n---\nx", "`tools`"),
            ("no frontmatter", "---"),
        ];
        for (text, problem) in cases {
            let err = markdown(text, "a", Layer::UserPaicli).unwrap_err();
            assert!(err.contains(problem), "{err}");
        }
    }

    #[test]
    fn codex_toml_reads_instructions_and_read_only_sandbox() {
        let text = "name = \"scout\"\ndescription = \"Looks.\"\ndeveloper_instructions = \"Look only.\"\nsandbox_mode = \"read-only\"\n";
        let def = codex_toml(text, "scout", Layer::ProjectCodex).unwrap();
        assert_eq!(
            (def.tools, def.prompt.as_str()),
            (ToolChoice::ReadOnly, "Look only.")
        );
        assert!(codex_toml("name = 1", "x", Layer::ProjectCodex).is_err());
    }
}

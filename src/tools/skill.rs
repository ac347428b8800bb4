//! `load_skill` and the session's skill library: the skills found at start-up (or on `/skill reload`), which of
//! them are on, and the folders the read-only tools may read because of them.

mod library;
mod message;

pub use library::SkillLibrary;
pub use message::{MAX_BODY_BYTES, skill_message};

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::{Args, SpillRule, SpillStore, Tool, ToolContext, ToolOutcome, ToolOutput, ToolTraits};

/// Loads a skill's instructions into the conversation.
pub struct LoadSkill {
    library: Arc<SkillLibrary>,
}

impl LoadSkill {
    /// The tool serving the skills of `library`.
    pub fn new(library: Arc<SkillLibrary>) -> Self {
        LoadSkill { library }
    }
}

#[async_trait]
impl Tool for LoadSkill {
    fn name(&self) -> &str {
        "load_skill"
    }

    fn description(&self) -> &str {
        "Load a skill listed under # Skills, once per task; its instructions arrive in the next message with \
         the paths of its files."
    }

    fn parameters(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"}
            },
            "required": ["name"]
        })
    }

    fn traits(&self) -> ToolTraits {
        ToolTraits::READ_ONLY
    }

    fn summary(&self, args: &Map<String, Value>) -> Option<String> {
        super::call_view::str_arg(args, "name")
    }

    fn spill_rule(&self, _args: &Map<String, Value>, _spill: &SpillStore) -> SpillRule {
        SpillRule::Keep
    }

    async fn execute(&self, args: &Map<String, Value>, _ctx: &ToolContext) -> ToolOutcome {
        let name = match Args(args).required_str("name") {
            Ok(name) => name.trim(),
            Err(outcome) => return outcome,
        };
        let found = self.library.snapshot();
        let Some(skill) = found.get(name) else {
            let names: Vec<&str> = found.enabled().map(|s| s.name.as_str()).collect();
            return ToolOutcome::failed(format!(
                "no skill named `{name}`; the skills available are: {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
        };
        if !skill.enabled {
            return ToolOutcome::failed(format!(
                "the skill `{name}` is switched off by the user (/skill on {name} enables it); continue without it"
            ));
        }
        let skill = skill.clone();
        let message = tokio::task::spawn_blocking(move || skill_message(&skill))
            .await
            .unwrap_or_else(|_| String::new());
        if message.is_empty() {
            return ToolOutcome::failed(format!("the skill `{name}` could not be read"));
        }
        ToolOutcome::Ok(ToolOutput {
            text: format!(
                "Skill `{name}` loaded: its instructions follow in the next message. Follow them for this task."
            ),
            follow_up: Some(message),
            ..ToolOutput::default()
        })
    }
}

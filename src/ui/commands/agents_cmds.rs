//! `/agents`: the agents the model can call with the `agent` tool, the layer each came from and its model, and
//! the definition files skipped with the reason.

use super::{Flow, say_wrapped};
use crate::agents::{AgentCatalog, ModelChoice};
use crate::text::{Lang, Msg, tr, trf};
use crate::ui::repl::Session;

pub(super) fn agents(session: &mut Session, _args: &str) -> Flow {
    let lang = session.lang;
    let text = match session.agent_mut().agent_catalog() {
        Some(catalog) => list_text(catalog, lang),
        None => tr(lang, Msg::AgentsOff).to_string(),
    };
    say_wrapped(session, &text);
    Flow::Continue
}

/// Each agent with its layer, model and description, then each skipped file and why.
pub fn list_text(catalog: &AgentCatalog, lang: Lang) -> String {
    let mut lines = vec![tr(lang, Msg::AgentsHeader).to_string()];
    for def in &catalog.agents {
        let model = match &def.model {
            ModelChoice::Inherit => "inherit".to_string(),
            ModelChoice::ClaudeAlias(alias) => alias.clone(),
            ModelChoice::Named {
                provider: Some(p),
                model,
            } => format!("{p}/{model}"),
            ModelChoice::Named {
                provider: None,
                model,
            } => model.clone(),
        };
        lines.push(format!(
            "  {}  ({}, {model})  {}",
            def.name,
            def.layer.label(),
            def.description
        ));
    }
    for skipped in &catalog.skipped {
        let path = skipped.path.display().to_string();
        lines.push(trf(
            lang,
            Msg::AgentsSkipped,
            &[("path", &path), ("problem", &skipped.problem)],
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_built_ins_and_the_skipped_files_with_their_reason() {
        let mut catalog = AgentCatalog::built_in();
        catalog.skipped.push(crate::agents::Skipped {
            path: ".claude/agents/x.md".into(),
            problem: "it has no `description`".into(),
        });
        let text = list_text(&catalog, Lang::En);
        assert!(text.contains("  explore  (built-in, inherit)"), "{text}");
        assert!(
            text.contains("skipped .claude/agents/x.md: it has no `description`"),
            "{text}"
        );
    }
}

//! The agents shipped inside the binary (`assets/agents/<name>.md`); any layer on disk may replace them.

use super::{AgentCatalog, Layer, Skipped, parse};
use std::path::PathBuf;

/// Name and Markdown text of each built-in agent.
pub const ALL: &[(&str, &str)] = &[
    ("explore", include_str!("../../assets/agents/explore.md")),
    ("general", include_str!("../../assets/agents/general.md")),
    ("reviewer", include_str!("../../assets/agents/reviewer.md")),
];

/// Adds the built-in agents to `catalog` (a broken one is skipped like a file).
pub fn add_to(catalog: &mut AgentCatalog) {
    for (name, text) in ALL {
        let path = PathBuf::from(format!("built-in/{name}.md"));
        match parse::markdown(text, name, Layer::BuiltIn) {
            Ok(def) => catalog.agents.push(def),
            Err(problem) => catalog.skipped.push(Skipped { path, problem }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_agent_is_valid_and_the_lookers_only_look() {
        let catalog = AgentCatalog::built_in();
        assert!(catalog.skipped.is_empty(), "{:?}", catalog.skipped);
        let names: Vec<&str> = catalog.agents.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["explore", "general", "reviewer"]);
        for looker in ["explore", "reviewer"] {
            let def = catalog.get(looker);
            assert_eq!(
                def.map(|d| &d.tools),
                Some(&super::super::ToolChoice::ReadOnly)
            );
        }
    }
}

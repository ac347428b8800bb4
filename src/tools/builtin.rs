//! The one catalogue of built-in tools. A session's tools, the tests' lists of them and the descriptions the model
//! reads all come from here, made from the session's settings, so a description states the limits in force.
//! (The browser's three tools join later as their own registry group, once the browser is set up; MCP servers'
//! tools join as they start.)

use std::sync::Arc;

use super::skill::SkillLibrary;
use super::{
    SpillStore, Tool, ToolLimits, edit, fs, memory, project, search, shell, skill, snapshot, web,
};
use crate::config::WebSettings;
use crate::index::CodeIndex;
use crate::memory::MemoryStore;
use crate::protocol::MemoryTaint;
use crate::snapshot::SnapshotHook;

/// What the built-in tools are made from: the settings their descriptions state and the services some stand on.
pub struct Builtins<'a> {
    /// The limits every call gets (the same value the session's `ToolContext` holds).
    pub limits: &'a ToolLimits,
    /// Where large outputs go (whether they are saved to files at all).
    pub spill: &'a SpillStore,
    pub web: &'a WebSettings,
    pub memory: &'a Arc<MemoryStore>,
    /// What the session read that it did not write: `save_memory` stores it with each fact.
    pub memory_taint: &'a Arc<MemoryTaint>,
    pub skills: &'a Arc<SkillLibrary>,
    /// `revert_turn` is offered only when the hook has a store.
    pub snapshots: &'a SnapshotHook,
    /// `search_code` is offered only with an index.
    pub index: Option<&'a Arc<CodeIndex>>,
}

/// Every built-in tool the session offers, with descriptions built from `parts`.
pub fn builtin_tools(parts: &Builtins<'_>) -> Vec<Arc<dyn Tool>> {
    let mut tools = core_tools(parts.limits, parts.spill);
    tools.push(Arc::new(memory::SaveMemory::with_provenance(
        Arc::clone(parts.memory),
        Arc::clone(parts.memory_taint),
    )));
    tools.extend(web::web_tools(parts.web));
    tools.push(Arc::new(skill::LoadSkill::new(Arc::clone(parts.skills))));
    tools.push(Arc::new(project::CreateProject));
    if parts.snapshots.store().is_some() {
        tools.push(Arc::new(snapshot::RevertTurn::new(parts.snapshots.clone())));
    }
    if let Some(index) = parts.index {
        tools.push(Arc::new(search::SearchCode::new(Arc::clone(index))));
    }
    tools
}

/// The core tools (file system, edit, search, shell), the part of [`builtin_tools`] that needs no service;
/// `execute_command` describes `limits` and `spill`.
pub fn core_tools(limits: &ToolLimits, spill: &SpillStore) -> Vec<Arc<dyn Tool>> {
    vec![
        Arc::new(fs::ReadFile),
        Arc::new(fs::WriteFile),
        Arc::new(edit::EditFile),
        Arc::new(fs::ListDir),
        Arc::new(search::GlobFiles),
        Arc::new(search::GrepCode),
        Arc::new(shell::ExecuteCommand::new(limits, spill)),
    ]
}

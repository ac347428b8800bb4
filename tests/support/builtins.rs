//! The built-in tools a session in a project would offer, from the one catalogue (`tools::builtin_tools`), so a
//! test that expects a list of tools derives it instead of keeping its own.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::sync::Arc;

use paicli::app;
use paicli::config::{Config, Overrides};
use paicli::guard::path_guard::PathGuard;
use paicli::memory::MemoryStore;
use paicli::tools::skill::SkillLibrary;
use paicli::tools::{Builtins, SpillStore, Tool, builtin_tools};

/// The built-in tools of a session in `project` with the environment `env` (as the binary would get it), wired
/// as `paicli::app` wires them.
pub fn session_builtins(project: &Path, env: &[(&str, &str)]) -> Vec<Arc<dyn Tool>> {
    let env = env
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let config = Config::load_with_env(project, env, &Overrides::default()).unwrap();
    let root = &config.project_root;
    let guard = PathGuard::new(root).unwrap();
    let skills = Arc::new(SkillLibrary::load(
        app::skill_roots(&config),
        &config.skills_disabled,
        guard.read_roots().clone(),
    ));
    let spill = SpillStore::new(
        root,
        config.tools.offload_enabled,
        config.tools.offload_threshold_chars,
    );
    let snapshots = app::build_snapshots(&config, &guard, "test");
    let index = app::build_index(&config);
    builtin_tools(&Builtins {
        limits: &app::tool_limits(&config),
        spill: &spill,
        web: &config.web,
        memory: &Arc::new(MemoryStore::new(&config.home, root)),
        memory_taint: &Arc::new(paicli::protocol::MemoryTaint::new(root)),
        skills: &skills,
        snapshots: &snapshots,
        index: index.as_ref(),
    })
}

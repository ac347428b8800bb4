//! The declared list of control paths: every file or folder in the project, in `$PAICLI_HOME` and in a git
//! directory that runs code later or steers a later session. The approval gate, the command guard, the sandbox
//! and `/policy` all read this one list.

use super::ControlKind::{self, Instructions, RunsCode, Settings};

/// Where an entry's path is anchored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// The project root.
    Project,
    /// `$PAICLI_HOME`.
    Home,
    /// A git directory: the project's `.git` folder, or the directories its `.git` file links to.
    GitDir,
}

/// One control path: relative to its base, a folder (`/` at the end: everything beneath it) or one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub base: Base,
    pub path: &'static str,
    pub kind: ControlKind,
}

impl Entry {
    /// True for a folder entry (matched by prefix).
    pub fn is_folder(&self) -> bool {
        self.path.ends_with('/')
    }

    /// The path without the folder mark.
    pub fn relative(&self) -> &'static str {
        self.path.trim_end_matches('/')
    }
}

const fn project(path: &'static str, kind: ControlKind) -> Entry {
    Entry {
        base: Base::Project,
        path,
        kind,
    }
}

const fn home(path: &'static str, kind: ControlKind) -> Entry {
    Entry {
        base: Base::Home,
        path,
        kind,
    }
}

const fn git(path: &'static str) -> Entry {
    Entry {
        base: Base::GitDir,
        path,
        kind: RunsCode,
    }
}

/// The table. `.gitattributes` is left out on purpose: the filters and drivers it names run only when a git
/// config defines them, and the config is on the list.
pub const ENTRIES: &[Entry] = &[
    // paicli's own settings, servers, trust and approvals.
    home("config.toml", Settings),
    home("mcp.json", Settings),
    home("mcp-trust.json", Settings),
    home("project-trust.json", Settings),
    home("approvals.json", Settings),
    home(".env", Settings),
    project(".paicli/config.toml", Settings),
    project(".paicli/mcp.json", Settings),
    project(".mcp.json", Settings),
    project(".env", Settings),
    // Git: config (`core.fsmonitor`, `core.pager`, aliases, filters), hooks, info (attributes, sparse rules).
    git("config"),
    git("config.worktree"),
    git("hooks/"),
    git("info/"),
    project(".gitmodules", RunsCode),
    // Hooks that paicli or another agent runs on its own.
    home("hooks.json", RunsCode),
    project(".paicli/hooks.json", RunsCode),
    project(".claude/settings.json", RunsCode),
    project(".claude/settings.local.json", RunsCode),
    // Editors, shells, containers and CI that run what the files say.
    project(".vscode/tasks.json", RunsCode),
    project(".vscode/launch.json", RunsCode),
    project(".vscode/settings.json", RunsCode),
    project(".idea/runConfigurations/", RunsCode),
    project(".idea/workspace.xml", RunsCode),
    project(".envrc", RunsCode),
    project(".devcontainer/", RunsCode),
    project(".devcontainer.json", RunsCode),
    project(".github/workflows/", RunsCode),
    project(".gitlab-ci.yml", RunsCode),
    project(".husky/", RunsCode),
    project(".pre-commit-config.yaml", RunsCode),
    // What paicli (or another agent) reads into a later session as instructions.
    project("AGENTS.md", Instructions),
    project("CLAUDE.md", Instructions),
    project("PAI.md", Instructions),
    project(".paicli/PAI.md", Instructions),
    project("PAI.local.md", Instructions),
    project("CLAUDE.local.md", Instructions),
    project(".paicli/PAI.local.md", Instructions),
    project(".paicli/skills/", Instructions),
    project(".claude/skills/", Instructions),
    project(".agents/skills/", Instructions),
    project(".paicli/commands/", Instructions),
    project(".claude/commands/", Instructions),
    project(".paicli/agents/", Instructions),
    project(".claude/agents/", Instructions),
    project(".codex/agents/", Instructions),
    home("PAI.md", Instructions),
    home("skills/", Instructions),
    home("commands/", Instructions),
    home("agents/", Instructions),
];

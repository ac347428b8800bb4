//! Agent definitions the model can delegate to with the `agent` tool: found in layers (built-in, the user's, the
//! project's), later layers replacing earlier ones by name. Plain data and file reading, like `skills`.
//!
//! Formats: Claude Code's Markdown (`.claude/agents/*.md`: YAML frontmatter `name`, `description`, `tools`,
//! `model`, the body is the system prompt), the same with `provider` in paicli's folders (`.paicli/agents/`), and
//! Codex's TOML (`.codex/agents/*.toml`: `name`, `description`, `developer_instructions`, `model`, `sandbox_mode`).

pub mod builtin;
pub mod caller;
pub mod discover;
pub mod parse;

use std::path::PathBuf;

pub use discover::{AgentRoots, discover};

/// Where a definition was found, lowest precedence first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// Embedded in the binary (`general`, `explore`, `reviewer`).
    BuiltIn,
    /// `~/.claude/agents/`.
    UserClaude,
    /// `$PAICLI_HOME/agents/` (`~/.paicli/agents/`).
    UserPaicli,
    /// `<project>/.codex/agents/`.
    ProjectCodex,
    /// `<project>/.claude/agents/`.
    ProjectClaude,
    /// `<project>/.paicli/agents/`.
    ProjectPaicli,
    /// Given by the program driving paicli (the headless protocol's `--agents` and `initialize`), trusted like
    /// the command line.
    Caller,
}

impl Layer {
    /// Every layer on disk, lowest precedence first.
    pub const ON_DISK: [Layer; 5] = [
        Layer::UserClaude,
        Layer::UserPaicli,
        Layer::ProjectCodex,
        Layer::ProjectClaude,
        Layer::ProjectPaicli,
    ];

    /// A short name for listings.
    pub fn label(self) -> &'static str {
        match self {
            Layer::BuiltIn => "built-in",
            Layer::UserClaude => "~/.claude/agents",
            Layer::UserPaicli => "~/.paicli/agents",
            Layer::ProjectCodex => ".codex/agents",
            Layer::ProjectClaude => ".claude/agents",
            Layer::ProjectPaicli => ".paicli/agents",
            Layer::Caller => "caller",
        }
    }

    /// Whether the project's own files supplied it: such a definition may not widen anything (its model must be
    /// one the user configured).
    pub fn is_project(self) -> bool {
        matches!(
            self,
            Layer::ProjectCodex | Layer::ProjectClaude | Layer::ProjectPaicli
        )
    }
}

/// Which model a definition runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelChoice {
    /// The lead's model (`inherit`, or no `model`).
    Inherit,
    /// A Claude alias (`sonnet`, `opus`, `haiku`): the lead's model unless an Anthropic provider is configured.
    ClaudeAlias(String),
    /// A model of a provider; `provider: None` means the lead's provider.
    Named {
        provider: Option<String>,
        model: String,
    },
}

/// The tools a definition may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToolChoice {
    /// Every tool the session offers (except `agent`, which needs naming).
    All,
    /// Tools that only look (no edits, no commands, no memory writes).
    ReadOnly,
    /// These tools (paicli or Claude Code names), where the session offers them.
    Named(Vec<String>),
}

/// One agent the model can call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentDef {
    /// The name the model calls it by.
    pub name: String,
    /// When to use it: the line the `agent` tool's description lists.
    pub description: String,
    pub tools: ToolChoice,
    pub model: ModelChoice,
    /// Its system prompt.
    pub prompt: String,
    pub layer: Layer,
    /// The file it came from; `None` for a built-in one.
    pub path: Option<PathBuf>,
}

impl AgentDef {
    /// Whether it may call `agent` itself (only when its tools name it).
    pub fn may_delegate(&self) -> bool {
        matches!(&self.tools, ToolChoice::Named(names) if names.iter().any(|n| n == "agent" || n == "Task"))
    }
}

/// A definition file that was not used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub path: PathBuf,
    /// What is wrong with it, in English (also logged).
    pub problem: String,
}

/// What a discovery found: the winning definition of each name, sorted by name, and the files skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AgentCatalog {
    pub agents: Vec<AgentDef>,
    pub skipped: Vec<Skipped>,
    /// Files the safe reader refused (links out, not regular, too large, not UTF-8).
    pub file_notices: Vec<crate::config::safe_read::FileNotice>,
}

impl AgentCatalog {
    /// The definition called `name`.
    pub fn get(&self, name: &str) -> Option<&AgentDef> {
        self.agents.iter().find(|a| a.name == name)
    }

    /// Adds `defs`, each replacing a definition of the same name; the list stays sorted by name.
    pub fn add(&mut self, defs: impl IntoIterator<Item = AgentDef>) {
        for def in defs {
            self.agents.retain(|a| a.name != def.name);
            self.agents.push(def);
        }
        self.agents.sort_by(|a, b| a.name.cmp(&b.name));
    }

    /// Only the built-in definitions (for sessions that read no folders, and tests).
    pub fn built_in() -> Self {
        let mut catalog = AgentCatalog::default();
        builtin::add_to(&mut catalog);
        catalog
    }
}

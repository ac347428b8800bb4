//! Agent Skills: `SKILL.md` folders found in layers (built-in, the user's, the project's), the catalog the system
//! prompt lists, and the bodies `load_skill` hands out. Plain data and file reading; no tools, no guard.
//!
//! The format is the open one Claude Code, Codex and others share: a folder named after the skill holding
//! `SKILL.md` (YAML frontmatter `name`, `description`, then Markdown), optionally `scripts/`, `references/`,
//! `assets/`. Progressive disclosure: the catalog at session start, the body when loaded, the files on demand.

pub mod builtin;
pub mod catalog;
pub mod discover;
pub mod frontmatter;

use std::path::PathBuf;

pub use catalog::Catalog;
pub use discover::{SkillRoots, discover};

/// Where a skill was found, lowest precedence first: a later layer's skill replaces an earlier one's of the same
/// name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Layer {
    /// Embedded in the binary.
    BuiltIn,
    /// `$PAICLI_HOME/skills/` (`~/.paicli/skills/`).
    UserPaicli,
    /// `~/.agents/skills/`.
    UserAgents,
    /// `~/.claude/skills/`.
    UserClaude,
    /// `<project>/.agents/skills/`.
    ProjectAgents,
    /// `<project>/.claude/skills/`.
    ProjectClaude,
    /// `<project>/.paicli/skills/`.
    ProjectPaicli,
}

impl Layer {
    /// Every layer, lowest precedence first.
    pub const ALL: [Layer; 7] = [
        Layer::BuiltIn,
        Layer::UserPaicli,
        Layer::UserAgents,
        Layer::UserClaude,
        Layer::ProjectAgents,
        Layer::ProjectClaude,
        Layer::ProjectPaicli,
    ];

    /// A short name for listings (`built-in`, `~/.claude/skills`, `.paicli/skills`).
    pub fn label(self) -> &'static str {
        match self {
            Layer::BuiltIn => "built-in",
            Layer::UserPaicli => "~/.paicli/skills",
            Layer::UserAgents => "~/.agents/skills",
            Layer::UserClaude => "~/.claude/skills",
            Layer::ProjectAgents => ".agents/skills",
            Layer::ProjectClaude => ".claude/skills",
            Layer::ProjectPaicli => ".paicli/skills",
        }
    }
}

/// One usable skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// Its name (lowercase letters, digits, single hyphens; the folder's name).
    pub name: String,
    /// What it is for and when to use it: the catalog line the model chooses by.
    pub description: String,
    pub layer: Layer,
    /// The skill's folder (canonical); `None` for a built-in skill, which has no files besides its body.
    pub dir: Option<PathBuf>,
    /// The Markdown after the frontmatter.
    pub body: String,
    /// False when the user switched it off (`/skill off`, `[skills] disabled`).
    pub enabled: bool,
}

impl Skill {
    /// Where it came from, for listings: the SKILL.md path, or `built-in`.
    pub fn source(&self) -> String {
        match &self.dir {
            Some(dir) => dir.join("SKILL.md").display().to_string(),
            None => Layer::BuiltIn.label().to_string(),
        }
    }
}

/// A SKILL.md that was not used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file (or folder) in question.
    pub path: PathBuf,
    /// What is wrong with it, in English (the text is also logged).
    pub problem: String,
}

/// What a discovery found: the winning skill of each name, sorted by name, and the ones skipped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Discovery {
    pub skills: Vec<Skill>,
    pub skipped: Vec<Skipped>,
    /// SKILL.md files the safe reader refused (a link out of the project or of the skill's folder, not a regular
    /// file, too large, not UTF-8); the front-ends say each once.
    pub file_notices: Vec<crate::config::safe_read::FileNotice>,
}

impl Discovery {
    /// The skill called `name`, enabled or not.
    pub fn get(&self, name: &str) -> Option<&Skill> {
        self.skills.iter().find(|s| s.name == name)
    }

    /// The enabled skills, by name.
    pub fn enabled(&self) -> impl Iterator<Item = &Skill> {
        self.skills.iter().filter(|s| s.enabled)
    }

    /// The folders of the enabled skills: the read-only tools may read inside them.
    pub fn enabled_dirs(&self) -> Vec<PathBuf> {
        self.enabled().filter_map(|s| s.dir.clone()).collect()
    }

    /// Marks every skill enabled unless `disabled` names it.
    pub fn apply_disabled(&mut self, disabled: &[String]) {
        for skill in &mut self.skills {
            skill.enabled = !disabled.contains(&skill.name);
        }
    }
}

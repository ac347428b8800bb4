//! What the caller says about Claude Code's own settings for one run: which of Claude's settings files are read
//! (`--setting-sources`) and the hooks of `--settings`. Both come from the command line only, never from a file of
//! the project; paicli's own files (`$PAICLI_HOME/config.toml`, `.paicli/`) are never affected.

use serde_json::Value;

/// Which of Claude Code's settings sources paicli reads: `~/.claude` (user), the project's `.claude/settings.json`
/// and `.claude/agents` (project), `.claude/settings.local.json` (local). All of them unless `--setting-sources`
/// narrows the list; it can never add one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaudeSources {
    pub user: bool,
    pub project: bool,
    pub local: bool,
}

impl Default for ClaudeSources {
    fn default() -> Self {
        ClaudeSources::ALL
    }
}

impl ClaudeSources {
    /// Every source (the flag absent).
    pub const ALL: ClaudeSources = ClaudeSources {
        user: true,
        project: true,
        local: true,
    };

    /// The sources of a comma list (`user,project`; empty for none); the first unknown name is the error.
    pub fn parse(list: &str) -> Result<ClaudeSources, String> {
        let mut sources = ClaudeSources {
            user: false,
            project: false,
            local: false,
        };
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "user" => sources.user = true,
                "project" => sources.project = true,
                "local" => sources.local = true,
                other => return Err(other.to_string()),
            }
        }
        Ok(sources)
    }
}

/// The caller's Claude settings for this run (`--settings`), as far as the hooks need them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClaudeCaller {
    /// Which of Claude's settings files are read.
    pub sources: ClaudeSources,
    /// The `hooks` object of `--settings`, in Claude's shape; trusted like the command line.
    pub hooks: Option<Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_parse_and_only_narrow() {
        let none = ClaudeSources::parse("").unwrap_or(ClaudeSources::ALL);
        assert_eq!(
            none,
            ClaudeSources {
                user: false,
                project: false,
                local: false
            }
        );
        assert_eq!(
            ClaudeSources::parse("user, local"),
            Ok(ClaudeSources {
                user: true,
                project: false,
                local: true
            })
        );
        assert_eq!(
            ClaudeSources::parse("user,policy"),
            Err("policy".to_string())
        );
        assert_eq!(ClaudeSources::default(), ClaudeSources::ALL);
    }
}

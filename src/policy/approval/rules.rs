//! Approval rules: `[approvals] allow/deny` from the config and the rules a person saves with `a`.
//!
//! Syntax of a rule string:
//! - `tool:NAME` matches every call of tool NAME; a trailing `*` matches a prefix (`tool:mcp__github__*`).
//! - Anything else is a command prefix for command lines (of tools that declare `runs_commands`), matched word by word: `cargo test` matches
//!   `cargo test --all` but not `cargo testify` or `cargo build`.
//!
//! A command line with several commands (`&&`, `;`, pipes, `$(...)`) is allowed by allow rules only when every
//! command in it (substitutions included) matches one, and denied by a deny rule when any command matches.
//!
//! The prefix `a` remembers for a command (see [`command_prefix_rule`]): the program plus its first argument when
//! that argument looks like a subcommand (`cargo test`, `git status`, `npm install`), else the program alone
//! (`ls`). Lines with several commands, and programs that run arbitrary code from their arguments (shells,
//! interpreters, `env`, `xargs`, ...), are remembered as the exact line only.

use crate::guard::command_guard::parse;
use crate::protocol::RuleLabel;

/// Programs whose arguments are code: approving the program would approve anything.
const CODE_RUNNERS: [&str; 24] = [
    "sh", "bash", "zsh", "dash", "ksh", "fish", "eval", "exec", "env", "xargs", "sudo", "nohup",
    "timeout", "nice", "command", "python", "python3", "node", "deno", "perl", "ruby", "php",
    "find", "awk",
];

/// One rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApprovalRule {
    /// Every call of a tool (`prefix*` matches a name prefix).
    Tool(String),
    /// `execute_command` lines whose commands start with these words.
    CommandPrefix(Vec<String>),
    /// One exact `execute_command` line.
    ExactCommand(String),
}

impl ApprovalRule {
    /// Parses a config rule string (see the module docs).
    pub fn parse(text: &str) -> Option<ApprovalRule> {
        let text = text.trim();
        if let Some(tool) = text.strip_prefix("tool:") {
            let tool = tool.trim();
            return (!tool.is_empty()).then(|| ApprovalRule::Tool(tool.to_string()));
        }
        let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        (!words.is_empty()).then_some(ApprovalRule::CommandPrefix(words))
    }

    /// How the rule reads in messages.
    pub fn describe(&self) -> String {
        self.label().to_string()
    }

    /// The rule in parts, for a person in any language.
    pub fn label(&self) -> RuleLabel {
        match self {
            ApprovalRule::Tool(t) => RuleLabel::Tool(t.clone()),
            ApprovalRule::CommandPrefix(w) => RuleLabel::CommandPrefix(w.join(" ")),
            ApprovalRule::ExactCommand(c) => RuleLabel::ExactCommand(c.clone()),
        }
    }

    /// The rule as `[approvals]` writes it (`cargo test`, `tool:edit_file`); `None` for one exact command line,
    /// which the config syntax cannot say without widening it to a prefix.
    pub fn config_text(&self) -> Option<String> {
        match self {
            ApprovalRule::Tool(t) => Some(format!("tool:{t}")),
            ApprovalRule::CommandPrefix(w) => Some(w.join(" ")),
            ApprovalRule::ExactCommand(_) => None,
        }
    }

    fn matches_tool(&self, tool: &str) -> bool {
        match self {
            ApprovalRule::Tool(t) => match t.strip_suffix('*') {
                Some(prefix) => tool.starts_with(prefix),
                None => t == tool,
            },
            _ => false,
        }
    }

    fn matches_words(&self, words: &[String]) -> bool {
        match self {
            ApprovalRule::CommandPrefix(prefix) => words.starts_with(prefix),
            _ => false,
        }
    }
}

/// A list of rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSet {
    rules: Vec<ApprovalRule>,
}

impl RuleSet {
    /// Rules from config strings; empty or malformed strings are skipped.
    pub fn from_strings<S: AsRef<str>>(texts: &[S]) -> Self {
        RuleSet {
            rules: texts
                .iter()
                .filter_map(|t| ApprovalRule::parse(t.as_ref()))
                .collect(),
        }
    }

    /// Adds a rule (ignoring duplicates).
    pub fn add(&mut self, rule: ApprovalRule) {
        if !self.rules.contains(&rule) {
            self.rules.push(rule);
        }
    }

    /// The rules in the order they were added (for `/policy`).
    pub fn rules(&self) -> &[ApprovalRule] {
        &self.rules
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rule that allows the whole call of `tool`, if any; `command` is its command line when the tool runs
    /// commands.
    pub fn allowing(&self, tool: &str, command: Option<&str>) -> Option<&ApprovalRule> {
        if let Some(rule) = self.rules.iter().find(|r| r.matches_tool(tool)) {
            return Some(rule);
        }
        let line = command?;
        if let Some(rule) = self
            .rules
            .iter()
            .find(|r| matches!(r, ApprovalRule::ExactCommand(c) if c == line.trim()))
        {
            return Some(rule);
        }
        let commands = all_commands(line);
        let mut first = None;
        for words in &commands {
            let rule = self.rules.iter().find(|r| r.matches_words(words))?;
            first.get_or_insert(rule);
        }
        first
    }

    /// The rule that denies some part of the call, if any (`command` as for [`RuleSet::allowing`]).
    pub fn denying(&self, tool: &str, command: Option<&str>) -> Option<&ApprovalRule> {
        if let Some(rule) = self.rules.iter().find(|r| r.matches_tool(tool)) {
            return Some(rule);
        }
        let line = command?;
        all_commands(line)
            .iter()
            .find_map(|words| self.rules.iter().find(|r| r.matches_words(words)))
    }
}

/// The words of every command in `line`, substitutions included.
fn all_commands(line: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut pending = vec![line.to_string()];
    while let Some(text) = pending.pop() {
        let script = parse::parse(&text);
        pending.extend(script.substitutions.iter().cloned());
        out.extend(
            script
                .commands()
                .map(parse::SimpleCommand::texts)
                .filter(|w| !w.is_empty()),
        );
    }
    out
}

/// What approving `line` for the session remembers (see the module docs).
pub fn command_prefix_rule(line: &str) -> ApprovalRule {
    let exact = || ApprovalRule::ExactCommand(line.trim().to_string());
    let script = parse::parse(line);
    if !script.is_single_command() {
        return exact();
    }
    let Some(command) = script.commands().next() else {
        return exact();
    };
    if !command.redirects.is_empty() {
        return exact();
    }
    let words: Vec<&str> = command.words.iter().map(|w| w.text.as_str()).collect();
    let Some(program) = words.first() else {
        return exact();
    };
    let name = program.rsplit('/').next().unwrap_or(program);
    if CODE_RUNNERS.contains(&name) || program.contains('=') {
        return exact();
    }
    let mut prefix = vec![program.to_string()];
    if let Some(sub) = words.get(1).filter(|w| is_subcommand(w)) {
        prefix.push(sub.to_string());
    }
    ApprovalRule::CommandPrefix(prefix)
}

/// `test`, `status`, `run-script`: lower-case, no path, no option.
fn is_subcommand(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
}

/// The rule `a` remembers for a call of `tool` (`command` as for [`RuleSet::allowing`]).
pub fn session_rule(tool: &str, command: Option<&str>) -> ApprovalRule {
    if let Some(line) = command {
        return command_prefix_rule(line);
    }
    // One MCP server's tools are approved together: the bridge's naming scheme, as `tool:` rules spell it.
    if let Some(rest) = tool.strip_prefix("mcp__")
        && let Some((server, _)) = rest.split_once("__")
    {
        return ApprovalRule::Tool(format!("mcp__{server}__*"));
    }
    ApprovalRule::Tool(tool.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXECUTE_COMMAND: &str = "execute_command";

    fn cmd(line: &str) -> Option<&str> {
        Some(line)
    }

    fn prefix(words: &[&str]) -> ApprovalRule {
        ApprovalRule::CommandPrefix(words.iter().map(|w| w.to_string()).collect())
    }

    #[test]
    fn prefix_rule_is_program_and_subcommand() {
        assert_eq!(
            command_prefix_rule("cargo test --all"),
            prefix(&["cargo", "test"])
        );
        assert_eq!(
            command_prefix_rule("git status -s"),
            prefix(&["git", "status"])
        );
        assert_eq!(command_prefix_rule("ls -la src"), prefix(&["ls"]));
        assert_eq!(command_prefix_rule("cat Cargo.toml"), prefix(&["cat"]));
    }

    #[test]
    fn compound_lines_and_code_runners_are_remembered_exactly() {
        for line in [
            "cargo test && rm -rf x",
            "python script.py",
            "bash -c 'ls'",
            "echo $(id)",
            "ls > out",
            "FOO=1 make",
        ] {
            assert_eq!(
                command_prefix_rule(line),
                ApprovalRule::ExactCommand(line.to_string()),
                "{line}"
            );
        }
    }

    #[test]
    fn allow_rules_match_word_prefixes_of_every_command() {
        let rules = RuleSet::from_strings(&[
            "cargo test",
            "git diff",
            "tool:write_file",
            "tool:mcp__gh__*",
        ]);
        assert!(
            rules
                .allowing(EXECUTE_COMMAND, cmd("cargo test --all"))
                .is_some()
        );
        assert!(
            rules
                .allowing(EXECUTE_COMMAND, cmd("cargo test && git diff HEAD"))
                .is_some()
        );
        assert!(
            rules
                .allowing(EXECUTE_COMMAND, cmd("cargo testify"))
                .is_none()
        );
        assert!(
            rules
                .allowing(EXECUTE_COMMAND, cmd("cargo test && rm -rf x"))
                .is_none()
        );
        assert!(
            rules
                .allowing(EXECUTE_COMMAND, cmd("cargo test $(rm -rf x)"))
                .is_none()
        );
        assert!(rules.allowing("write_file", None).is_some());
        assert!(rules.allowing("mcp__gh__create_issue", None).is_some());
        assert!(rules.allowing("edit_file", None).is_none());
    }

    #[test]
    fn deny_rules_match_any_command() {
        let rules = RuleSet::from_strings(&["git push", "tool:revert_turn"]);
        assert!(
            rules
                .denying(EXECUTE_COMMAND, cmd("cargo test && git push --force"))
                .is_some()
        );
        assert!(
            rules
                .denying(EXECUTE_COMMAND, cmd("echo `git push`"))
                .is_some()
        );
        assert!(rules.denying(EXECUTE_COMMAND, cmd("git pull")).is_none());
        assert!(rules.denying("revert_turn", None).is_some());
    }

    #[test]
    fn session_rules_per_tool_and_per_mcp_server() {
        assert_eq!(
            session_rule("write_file", None),
            ApprovalRule::Tool("write_file".into())
        );
        assert_eq!(
            session_rule("mcp__gh__list", None),
            ApprovalRule::Tool("mcp__gh__*".into())
        );
        assert_eq!(
            session_rule(EXECUTE_COMMAND, cmd("cargo test x")),
            prefix(&["cargo", "test"])
        );
    }
}

//! The command line of Claude Code's headless contract: the flags the Agent SDKs and `claude -p` scripts pass,
//! declared once (clap parses both `--flag=value` and `--flag value`), the permission modes mapped onto paicli's
//! approval modes, and the tolerance for flags this version does not know (the SDKs add new ones often).

use std::ffi::OsString;
use std::path::PathBuf;

use crate::config::caller_mcp::CallerMcp;
use crate::config::{ApprovalMode, Config, Overrides};
use crate::tools::claude_names::from_claude_name;

/// `base` (paicli's own prompt) with the caller's: replaced by a non-empty `replace`, then `append` after a
/// blank line.
pub fn prompt_over(base: &str, replace: Option<&str>, append: Option<&str>) -> String {
    let mut prompt = match replace {
        Some(replace) if !replace.is_empty() => replace.to_string(),
        _ => base.to_string(),
    };
    if let Some(append) = append.filter(|a| !a.is_empty()) {
        prompt = format!("{prompt}\n\n{append}");
    }
    prompt
}

/// The text of a prompt file of at most [`PROMPT_FILE_CAP`] bytes; the error is `(file, why)`.
fn read_prompt_file(file: &std::path::Path) -> Result<String, (String, String)> {
    let shown = || file.display().to_string();
    match std::fs::metadata(file) {
        Ok(meta) if meta.len() > PROMPT_FILE_CAP => {
            Err((shown(), format!("larger than {PROMPT_FILE_CAP} bytes")))
        }
        _ => std::fs::read_to_string(file).map_err(|e| (shown(), e.to_string())),
    }
}

/// The most of a prompt file that is read.
const PROMPT_FILE_CAP: u64 = 1024 * 1024;

/// The help heading of these flags (also how the flag test tells them from settings' flags).
pub const HEADING: &str = "Claude Code compatibility (see docs/headless.md)";

/// What stdin carries in headless mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// The task as text (`-p`).
    #[default]
    Text,
    /// NDJSON messages: user turns and control requests (the Agent SDKs).
    StreamJson,
}

/// Claude Code's permission modes, as its flag and `set_permission_mode` name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PermissionMode {
    /// Asks before edits and commands (paicli's `ask`).
    #[value(name = "default")]
    Default,
    /// File edits run; every command is asked about (paicli's `auto` without its command classifier).
    #[value(name = "acceptEdits")]
    AcceptEdits,
    /// Plan mode.
    #[value(name = "plan")]
    Plan,
    /// Everything runs; the guards still apply (paicli's `full`).
    #[value(name = "bypassPermissions")]
    BypassPermissions,
    /// Never asks: what no rule allows is refused (paicli's `ask` with no one asked, even with the prompt tool).
    #[value(name = "dontAsk")]
    DontAsk,
    /// A classifier judges each command (paicli's `auto` with its command classifier).
    #[value(name = "auto")]
    Auto,
}

impl PermissionMode {
    /// The approval mode it maps onto.
    pub fn approval(self) -> ApprovalMode {
        match self {
            PermissionMode::Default | PermissionMode::DontAsk => ApprovalMode::Ask,
            PermissionMode::AcceptEdits | PermissionMode::Auto => ApprovalMode::Auto,
            PermissionMode::Plan => ApprovalMode::Plan,
            PermissionMode::BypassPermissions => ApprovalMode::Full,
        }
    }

    /// Claude's name of the approval mode `mode` (reported in `system/init`).
    pub fn of(mode: ApprovalMode) -> PermissionMode {
        match mode {
            ApprovalMode::Ask => PermissionMode::Default,
            ApprovalMode::Auto => PermissionMode::AcceptEdits,
            ApprovalMode::Plan => PermissionMode::Plan,
            ApprovalMode::Full => PermissionMode::BypassPermissions,
        }
    }

    /// The name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            PermissionMode::Default => "default",
            PermissionMode::AcceptEdits => "acceptEdits",
            PermissionMode::Plan => "plan",
            PermissionMode::BypassPermissions => "bypassPermissions",
            PermissionMode::DontAsk => "dontAsk",
            PermissionMode::Auto => "auto",
        }
    }

    /// The mode named `name` on the wire (`set_permission_mode`); `None` for a name paicli has no mode for.
    pub fn parse(name: &str) -> Option<PermissionMode> {
        <PermissionMode as clap::ValueEnum>::from_str(name, false).ok()
    }
}

/// The headless flags besides the ones paicli has anyway (`--model`, `--output-format`, `--continue`,
/// `--resume`, `--fork-session`, `--include-hook-events`).
#[derive(Clone, Debug, Default, clap::Args)]
#[command(next_help_heading = HEADING)]
pub struct HeadlessFlags {
    /// `stream-json`: read NDJSON user messages and control requests on stdin (no `-p` needed).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<InputFormat>,
    /// Accepted for compatibility: stream-json output is always complete.
    #[arg(long)]
    pub verbose: bool,
    /// Replaces paicli's system prompt; `""` keeps paicli's own.
    #[arg(long, value_name = "TEXT")]
    pub system_prompt: Option<String>,
    /// Added after the system prompt.
    #[arg(long, value_name = "TEXT")]
    pub append_system_prompt: Option<String>,
    /// Replaces paicli's system prompt with this file's text (the Python SDK's `{"type": "file"}` prompt).
    #[arg(long, value_name = "FILE")]
    pub system_prompt_file: Option<PathBuf>,
    /// Adds this file's text after the system prompt.
    #[arg(long, value_name = "FILE")]
    pub append_system_prompt_file: Option<PathBuf>,
    /// Only these tools are offered and may run (Claude's or paicli's names; `""` for none, `default` for all).
    #[arg(long, value_name = "TOOLS")]
    pub tools: Option<String>,
    /// Calls matching these rules run without asking (`Bash(git log:*)`, `Read`, `mcp__server__*`).
    #[arg(long = "allowedTools", alias = "allowed-tools", value_name = "RULES")]
    pub allowed_tools: Vec<String>,
    /// Calls matching these rules never run.
    #[arg(
        long = "disallowedTools",
        alias = "disallowed-tools",
        value_name = "RULES"
    )]
    pub disallowed_tools: Vec<String>,
    /// Most model requests per turn (stops with `error_max_turns`).
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u32>,
    /// Stop when the process has spent this much (list prices), with `error_max_budget_usd`.
    #[arg(long, value_name = "USD")]
    pub max_budget_usd: Option<f64>,
    /// When the model fails with an overload or server error (after the retries), the turn goes on once on this
    /// model.
    #[arg(long, value_name = "MODEL")]
    pub fallback_model: Option<String>,
    /// The final answer must be JSON valid against this JSON Schema (inline JSON or a file).
    #[arg(long, alias = "output-schema", value_name = "SCHEMA")]
    pub json_schema: Option<String>,
    /// default | acceptEdits | plan | bypassPermissions.
    #[arg(long, value_enum, value_name = "MODE")]
    pub permission_mode: Option<PermissionMode>,
    /// `stdio`: ask the client (a `can_use_tool` control request) instead of denying what needs a person.
    #[arg(long, value_name = "TOOL")]
    pub permission_prompt_tool: Option<String>,
    /// The new session's id (a UUID; `--resume` takes it afterwards).
    #[arg(long, value_name = "UUID")]
    pub session_id: Option<String>,
    /// MCP servers for this run, added to mcp.json's (inline JSON or a file, `{"mcpServers": {...}}`; repeatable).
    #[arg(long, value_name = "JSON|FILE")]
    pub mcp_config: Vec<String>,
    /// Agents the model may delegate to, in Claude's shape (`{"name": {"description", "prompt", "tools",
    /// "model"}}`), above every other layer.
    #[arg(long, value_name = "JSON")]
    pub agents: Option<String>,
    /// Only the servers of `--mcp-config`: none from the user's or the project's mcp.json.
    #[arg(long)]
    pub strict_mcp_config: bool,
    /// Claude settings for this run (inline JSON or a file): `hooks`, `permissions` (`allow`, `deny`,
    /// `defaultMode`, `additionalDirectories`) and `model`; the flags win.
    #[arg(long, value_name = "JSON|FILE")]
    pub settings: Option<String>,
    /// Which of Claude's settings files and agent folders are read: `user`, `project`, `local` (comma list; empty
    /// for none). paicli's own files are always read.
    #[arg(long, value_name = "SOURCES")]
    pub setting_sources: Option<String>,
    /// A folder outside the project the file tools may read and write, and commands may write (repeatable).
    #[arg(long, value_name = "DIR")]
    pub add_dir: Vec<String>,
    /// Also emit `stream_event` partial messages while the model streams.
    #[arg(long)]
    pub include_partial_messages: bool,
    /// Accepted: `--permission-mode bypassPermissions` is what allows it.
    #[arg(long)]
    pub allow_dangerously_skip_permissions: bool,
    /// The same as `--permission-mode bypassPermissions`.
    #[arg(long)]
    pub dangerously_skip_permissions: bool,
}

impl HeadlessFlags {
    /// The approval mode the flags ask for, if any.
    pub fn approval(&self) -> Option<ApprovalMode> {
        if self.dangerously_skip_permissions {
            return Some(ApprovalMode::Full);
        }
        self.permission_mode
            .or_else(|| self.client_default_mode())
            .map(PermissionMode::approval)
    }

    /// The mode an SDK client that answers permission questions gets without `--permission-mode`: Claude's
    /// `default`, so its `can_use_tool` callback hears about every edit, command and MCP call, as with Claude.
    /// Without the prompt tool, the configured mode applies as in `-p`.
    pub fn client_default_mode(&self) -> Option<PermissionMode> {
        let sdk = self.input_format == Some(InputFormat::StreamJson) && self.asks_client();
        (sdk && self.permission_mode.is_none()).then_some(PermissionMode::Default)
    }

    /// Whether questions go to the client as `can_use_tool` requests.
    pub fn asks_client(&self) -> bool {
        self.permission_prompt_tool.as_deref() == Some("stdio")
    }

    /// What the flags set before the configuration is loaded (a flag given in paicli's own name wins).
    pub fn apply_overrides(&self, overrides: &mut Overrides) {
        if overrides.approval.is_none() {
            overrides.approval = self.approval();
        }
        if overrides.max_iterations.is_none() {
            overrides.max_iterations = self.max_turns;
        }
    }

    /// The MCP servers of `--mcp-config` (a later argument wins by name) and `--strict-mcp-config`.
    pub fn caller_mcp(&self) -> Result<CallerMcp, String> {
        let mut servers = Vec::new();
        for arg in &self.mcp_config {
            servers.extend(crate::mcp::config::parse_caller(arg)?);
        }
        Ok(CallerMcp {
            servers,
            strict: self.strict_mcp_config,
        })
    }

    /// The definitions of `--agents`.
    pub fn caller_agents(&self) -> Result<Vec<crate::agents::AgentDef>, String> {
        let Some(text) = self.agents.as_deref() else {
            return Ok(Vec::new());
        };
        let value = serde_json::from_str(text).map_err(|e| format!("is not JSON: {e}"))?;
        crate::agents::caller::from_json(&value)
    }

    /// Reads `--system-prompt-file` and `--append-system-prompt-file` into `--system-prompt` and
    /// `--append-system-prompt` where those are not given (the text flag wins), once, at start. A file that
    /// cannot be read as text is the error `(file, why)`.
    pub fn read_prompt_files(&mut self) -> Result<(), (String, String)> {
        for (text, file) in [
            (&mut self.system_prompt, &self.system_prompt_file),
            (
                &mut self.append_system_prompt,
                &self.append_system_prompt_file,
            ),
        ] {
            if let (None, Some(file)) = (&text, file) {
                *text = Some(read_prompt_file(file)?);
            }
        }
        Ok(())
    }

    /// The folders of `--add-dir`, canonical; the first that is not an existing folder is the error
    /// `(dir, why)`.
    pub fn added_dirs(&self) -> Result<Vec<PathBuf>, (String, String)> {
        self.add_dir
            .iter()
            .map(|dir| match std::fs::canonicalize(dir) {
                Ok(path) if path.is_dir() => Ok(path),
                Ok(_) => Err((dir.clone(), "not a folder".to_string())),
                Err(e) => Err((dir.clone(), e.to_string())),
            })
            .collect()
    }

    /// The tool rules of `--allowedTools` and `--disallowedTools` added to the loaded configuration's approval
    /// rules (the person's own command line, so they may widen what runs, as `[approvals] allow` in their own
    /// config does).
    pub fn apply_rules(&self, config: &mut Config) {
        for rule in self.allowed_tools.iter().flat_map(|r| split_rules(r)) {
            config.approvals.allow.push(approval_rule(&rule));
        }
        for rule in self.disallowed_tools.iter().flat_map(|r| split_rules(r)) {
            config.approvals.deny.push(approval_rule(&rule));
        }
    }
}

/// `text` as a session id when it is a UUID (`8-4-4-4-12` hex digits), lower-cased: only hex digits and
/// dashes, so it is safe in the ledger's file name.
pub fn uuid_session_id(text: &str) -> Option<String> {
    let groups: Vec<&str> = text.split('-').collect();
    let lengths = [8, 4, 4, 4, 12];
    let valid = groups.len() == lengths.len()
        && groups
            .iter()
            .zip(lengths)
            .all(|(g, n)| g.len() == n && g.chars().all(|c| c.is_ascii_hexdigit()));
    valid.then(|| text.to_ascii_lowercase())
}

/// A Claude permission rule as paicli's approval rule: `Bash(git log:*)` → `git log`, `Bash` →
/// `tool:execute_command`, `Read` → `tool:read_file`, `mcp__s__*` as it is.
pub fn approval_rule(rule: &str) -> String {
    let rule = rule.trim();
    if let Some((tool, inner)) = rule.split_once('(') {
        let inner = inner.strip_suffix(')').unwrap_or(inner).trim();
        let name = from_claude_name(tool.trim());
        if name == "execute_command" {
            // `git log:*` and `git log *` both mean "commands starting with `git log`".
            let prefix = inner.trim_end_matches('*').trim_end_matches(':').trim();
            if !prefix.is_empty() {
                return prefix.to_string();
            }
        }
        return format!("tool:{name}");
    }
    format!("tool:{}", from_claude_name(rule))
}

/// A rules argument split at commas and spaces outside parentheses (`Bash(git log:*),Read Edit`).
pub(super) fn split_rules(text: &str) -> Vec<String> {
    let mut rules = Vec::new();
    let mut current = String::new();
    let mut depth = 0u32;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' | ' ' if depth == 0 => {
                if !current.trim().is_empty() {
                    rules.push(current.trim().to_string());
                }
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        rules.push(current.trim().to_string());
    }
    rules
}

/// Whether the command line is in headless mode, where flags paicli does not know are accepted:
/// `--input-format …` or `--output-format json|stream-json`, in either form.
pub fn is_headless(args: &[OsString]) -> bool {
    args.iter().enumerate().any(|(i, arg)| {
        let arg = arg.to_string_lossy();
        let next = || args.get(i + 1).map(|a| a.to_string_lossy().into_owned());
        arg == "--input-format"
            || arg.starts_with("--input-format=")
            || matches!(
                arg.as_ref(),
                "--output-format=json" | "--output-format=stream-json"
            )
            || (arg == "--output-format"
                && matches!(next().as_deref(), Some("json" | "stream-json")))
    })
}

/// `args` without the long flags `known` does not declare (each with its value: after `=`, or the next argument
/// when that is not a flag), and the flags taken out. Only in headless mode; elsewhere `args` as they are.
pub fn drop_unknown(args: Vec<OsString>, known: &clap::Command) -> (Vec<OsString>, Vec<String>) {
    if !is_headless(&args) {
        return (args, Vec::new());
    }
    let knows = |name: &str| {
        known.get_arguments().any(|a| {
            a.get_long() == Some(name)
                || a.get_all_aliases()
                    .is_some_and(|aliases| aliases.contains(&name))
        }) || matches!(name, "help" | "version")
    };
    let mut kept = Vec::with_capacity(args.len());
    let mut dropped = Vec::new();
    let mut iter = args.into_iter().peekable();
    if let Some(program) = iter.next() {
        kept.push(program);
    }
    while let Some(arg) = iter.next() {
        let text = arg.to_string_lossy().into_owned();
        if text == "--" {
            kept.push(arg);
            kept.extend(iter);
            break;
        }
        let Some(long) = text.strip_prefix("--") else {
            kept.push(arg);
            continue;
        };
        let (name, inline_value) = match long.split_once('=') {
            Some((name, _)) => (name, true),
            None => (long, false),
        };
        if knows(name) {
            kept.push(arg);
            continue;
        }
        let takes_next = !inline_value
            && iter
                .peek()
                .is_some_and(|next| !next.to_string_lossy().starts_with('-'));
        if takes_next {
            iter.next();
        }
        let flag = format!("--{name}");
        if !dropped.contains(&flag) {
            dropped.push(flag);
        }
    }
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[derive(Debug, clap::Parser)]
    struct Probe {
        #[arg(long)]
        output_format: Option<String>,
        #[command(flatten)]
        flags: HeadlessFlags,
    }

    #[test]
    fn unknown_flags_are_dropped_with_their_values_in_headless_mode_only() {
        use clap::CommandFactory;
        let command = Probe::command();
        let (kept, dropped) = drop_unknown(
            args(&[
                "paicli",
                "--output-format=stream-json",
                "--thinking",
                "adaptive",
                "--effort=high",
                "--verbose",
                "--debug-file=/x",
                "--allowedTools",
                "Read",
            ]),
            &command,
        );
        assert_eq!(
            kept,
            args(&[
                "paicli",
                "--output-format=stream-json",
                "--verbose",
                "--allowedTools",
                "Read"
            ])
        );
        assert_eq!(dropped, ["--thinking", "--effort", "--debug-file"]);
        let text_mode = args(&["paicli", "--thinking", "-p", "x"]);
        assert_eq!(drop_unknown(text_mode.clone(), &command).0, text_mode);
    }

    #[test]
    fn only_uuids_are_session_ids() {
        assert_eq!(
            uuid_session_id("123E4567-e89b-12d3-a456-426614174000").as_deref(),
            Some("123e4567-e89b-12d3-a456-426614174000")
        );
        for bad in [
            "",
            "abc",
            "123e4567e89b12d3a456426614174000",
            "123e4567-e89b-12d3-a456-42661417400g",
            "../../../../etc/passwd-e89b-12d3-a456",
            "123e4567-e89b-12d3-a456-426614174000-",
        ] {
            assert_eq!(uuid_session_id(bad), None, "{bad}");
        }
    }

    #[test]
    fn claude_rules_become_approval_rules() {
        assert_eq!(approval_rule("Bash(git log:*)"), "git log");
        assert_eq!(approval_rule("Bash(npm test *)"), "npm test");
        assert_eq!(approval_rule("Bash"), "tool:execute_command");
        assert_eq!(approval_rule("Edit"), "tool:edit_file");
        assert_eq!(approval_rule("Read(src/**)"), "tool:read_file");
        assert_eq!(approval_rule("mcp__github__*"), "tool:mcp__github__*");
        assert_eq!(
            split_rules("Bash(git log:*),Read Edit"),
            ["Bash(git log:*)", "Read", "Edit"]
        );
    }

    #[test]
    fn both_flag_forms_parse_and_modes_map() {
        use clap::Parser;
        let probe = Probe::try_parse_from([
            "paicli",
            "--permission-mode=acceptEdits",
            "--max-turns",
            "3",
            "--system-prompt",
            "",
            "--permission-prompt-tool=stdio",
        ])
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(probe.flags.approval(), Some(ApprovalMode::Auto));
        assert_eq!(probe.flags.max_turns, Some(3));
        assert_eq!(probe.flags.system_prompt.as_deref(), Some(""));
        assert!(probe.flags.asks_client());
        for mode in ApprovalMode::ALL {
            assert_eq!(PermissionMode::of(mode).approval(), mode);
            assert_eq!(
                PermissionMode::parse(PermissionMode::of(mode).name()),
                Some(PermissionMode::of(mode))
            );
        }
        // Every mode the SDKs can send parses, and keeps its name.
        for name in [
            "default",
            "acceptEdits",
            "plan",
            "bypassPermissions",
            "dontAsk",
            "auto",
        ] {
            assert_eq!(
                PermissionMode::parse(name).map(PermissionMode::name),
                Some(name)
            );
        }
        assert_eq!(PermissionMode::DontAsk.approval(), ApprovalMode::Ask);
        // An SDK client answering questions, without a mode: Claude's `default`; without the prompt tool, none.
        let sdk = |args: &[&str]| {
            let mut argv = vec!["paicli", "--input-format", "stream-json"];
            argv.extend_from_slice(args);
            Probe::try_parse_from(argv)
                .unwrap_or_else(|e| panic!("{e}"))
                .flags
        };
        assert_eq!(
            sdk(&["--permission-prompt-tool", "stdio"]).approval(),
            Some(ApprovalMode::Ask)
        );
        assert_eq!(sdk(&[]).approval(), None);
        assert_eq!(
            sdk(&[
                "--permission-prompt-tool=stdio",
                "--permission-mode=bypassPermissions"
            ])
            .approval(),
            Some(ApprovalMode::Full)
        );
        assert_eq!(PermissionMode::Auto.approval(), ApprovalMode::Auto);
    }
}

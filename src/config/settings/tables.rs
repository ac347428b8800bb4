//! The tables of `config.toml` in the order `/config` and the example file list them, with the notes the example
//! file prints above each table's settings.

/// One table of `config.toml`.
#[derive(Debug)]
pub struct Table {
    /// Dotted name (`tools.offload`).
    pub name: &'static str,
    /// What applies to the whole table, as the example file prints it above the table's settings.
    pub notes: &'static str,
}

const fn table(name: &'static str, notes: &'static str) -> Table {
    Table { name, notes }
}

/// Every table that holds settings, in order.
pub const TABLES: &[Table] = &[
    table("llm", ""),
    table("llm.retry", ""),
    table("agent", ""),
    table("tools", ""),
    table(
        "tools.offload",
        "\
Tool results longer than threshold_chars are saved to .paicli/tool-outputs/ and replaced by a preview.",
    ),
    table("approval", ""),
    table(
        "approvals",
        "\
Saved rules, applied in every mode. \"cargo test\" is a command prefix for execute_command, matched word by
word (\"cargo test --all\" yes, \"cargo testify\" no); a line with several commands (&&, ;, |, $(...)) is allowed
only when every command matches. \"tool:NAME\" matches a whole tool (\"tool:write_file\", \"tool:mcp__github__*\").",
    ),
    table("shell", ""),
    table("web", ""),
    table(
        "mcp",
        "\
MCP servers are configured in $PAICLI_HOME/mcp.json, <project>/.mcp.json and <project>/.paicli/mcp.json
(Claude Code's format: {\"mcpServers\": {\"name\": {\"command\", \"args\", \"env\", \"cwd\"} | {\"url\", \"headers\"},
\"disabled\"}}); project entries override user entries by name. ${PROJECT_DIR}, ${HOME} and ${VAR} (environment
or .env) are expanded; a missing variable fails only that server.",
    ),
    table("ui", ""),
    table(
        "lsp",
        "\
After write_file / edit_file, the changed files are checked and new problems are shown to the model before its
next request, as one \"[LSP diagnostics]\" message. A language server is used when it is installed (on PATH) or
configured below: pyright-langserver, typescript-language-server, rust-analyzer, clangd, gopls, jdtls. It is
started once per project on first use and kept running. Without one (or when it is slow or crashes) a
tree-sitter syntax check stands in for Rust, Python, Java, JavaScript, TypeScript, Go and C/C++.",
    ),
    table(
        "sessions",
        "\
Every session is recorded in $PAICLI_HOME/sessions/YYYY/MM/DD/<time>-<id>.jsonl (folders 0700, files 0600,
configured keys masked) so `paicli -c`, `paicli -r <id>` and /resume can continue it.",
    ),
    table(
        "snapshots",
        "\
Before the first call of a turn that can change files (write, edit, command, MCP call, revert) the project is
snapshotted into a side git repository under $PAICLI_HOME/snapshots/ (never inside the project; its own .git
is not touched), and again after the turn. revert_turn, /restore and /rewind put files back from there.
.gitignore / .ignore are honoured. Needs the `git` program. A project's own files may not set this table.",
    ),
    table(
        "skills",
        "\
Skills are SKILL.md folders in (lowest to highest precedence) the built-in set, ~/.paicli/skills,
~/.agents/skills, ~/.claude/skills, then the project's .agents/skills, .claude/skills and .paicli/skills.",
    ),
    table(
        "sandbox",
        "\
Every execute_command runs confined by the kernel: Landlock on Linux (5.13+; network rules need 6.7+),
Seatbelt (sandbox-exec) on macOS. Reading stays allowed everywhere; writing only in the project, the temp dir,
$PAICLI_HOME's caches, the usual tool caches (~/.cargo ~/.rustup ~/.npm ~/.cache ~/.m2 ~/.gradle ~/go) and
writable_roots. A project's own files may only tighten this table (to mode \"required\", network false,
protect_git true); anything else from them is ignored with a notice.",
    ),
    table(
        "index",
        "\
search_code, /index, /search and /graph: a local index of the project's code under $PAICLI_HOME/index/ (SQLite
with FTS5; tree-sitter chunks per function, class and impl; keyword ranking), refreshed by a stat walk before
each search. .gitignore is honoured; binary and generated files are skipped.",
    ),
    table(
        "index.embeddings",
        "\
An OpenAI-compatible /embeddings endpoint adds vector ranking, fused with the keywords by reciprocal rank.
The project's code is sent there.",
    ),
    table(
        "browser",
        "\
The built-in chrome-devtools MCP server (browser_status, browser_connect, browser_disconnect and its page tools).
It starts on the first browser call, never at start-up; a `chrome-devtools` entry in mcp.json replaces it (or,
with \"disabled\": true, removes it). Its usage statistics, update check and CrUX lookups are switched off.",
    ),
    table("plan", ""),
    table(
        "channels",
        "\
Chat channels (`paicli channel telegram|wechat start`, see docs/channels.md): only allowed senders are heard;
read-only tools run, edits follow `edits`, every other call is asked in the chat (y / n) and refused after
approval_timeout_secs. Only the user's own config and the environment set this table and the two below.",
    ),
    table("channels.telegram", ""),
    table("channels.wechat", ""),
    table("agents", ""),
];

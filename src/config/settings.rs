//! Every setting is declared once, on the field that holds it (see [`declare_settings!`]): its file key and old
//! spellings, environment names, flag, default, documentation, and whether a project's own files may set it. The
//! loader, the project filter, `/config`, the flags' help and `.paicli.example.toml` all read these declarations,
//! so adding a setting is one declaration.

mod declare;
mod example;
mod extra;
mod kinds;
mod scalar;
mod tables;

use std::sync::LazyLock;

pub(crate) use declare::declare_settings;
pub use example::example_file;
pub use kinds::{
    AddUp, Clamped, Dir, Ids, Kind, List, Maybe, Millis, NonEmpty, Paths, Plain, Present, Secret,
    Secs, Text, Unlimited,
};
pub use scalar::{Choice, Scalar};
pub use tables::{TABLES, Table};

use super::Config;

/// Whether `<project>/.paicli/config.toml` or `<project>/.env` may set a setting. A cloned repository is someone
/// else's: it may tighten, never loosen or redirect.
#[derive(Clone, Copy, Debug)]
pub enum Project {
    /// Any project file may set it.
    May,
    /// Only the user's own files, the environment and flags.
    Never,
    /// Only once the user trusts the project (`--trust-project`, `/trust`).
    Trusted,
    /// An endpoint that receives a key: only together with a key from the same project file, or when trusted.
    WithOwnKeyOrTrusted,
    /// Only values the function accepts as tightening (e.g. `false` for a switch that loosens a guard).
    TightenOnly(fn(&toml::Value) -> bool),
}

/// What a declaration says about a setting, whatever its type.
#[derive(Debug)]
pub struct Info {
    /// Dotted file key (`llm.base_url`); `<name>` stands for any table name. Also the name `/config` shows.
    pub key: &'static str,
    /// Old spellings of the file key, still read (`mcp.startup_wait_seconds`).
    pub aliases: &'static [&'static str],
    /// Whether `config.toml` accepts the key (some settings are environment-only).
    pub in_file: bool,
    /// Environment variables, highest precedence first; `<PREFIX>` is a provider's prefix (`DEEPSEEK`), `<KEY>`
    /// any provider's key variable (both read by the provider resolution, not the loader).
    pub env: &'static [&'static str],
    /// The command-line flag, when there is one.
    pub flag: Option<&'static str>,
    /// The documentation, one source line per line (from the field's doc comment).
    pub doc: &'static str,
    /// A value the example file shows commented out, for a setting unset by default or better left so.
    pub example: Option<&'static str>,
    pub project: Project,
}

impl Info {
    const fn new(key: &'static str) -> Info {
        Info {
            key,
            aliases: &[],
            in_file: true,
            env: &[],
            flag: None,
            doc: "",
            example: None,
            project: Project::May,
        }
    }

    /// The documentation as one paragraph.
    pub fn doc_text(&self) -> String {
        self.doc.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The documentation's first sentence (flag help).
    pub fn summary(&self) -> String {
        // The words up to the first that ends a sentence (a `. ` of the collapsed text), without collapsing the
        // rest: every flag's help is built at each start.
        let mut words = self.doc.split_whitespace().peekable();
        let mut summary = String::new();
        while let Some(word) = words.next() {
            if !summary.is_empty() {
                summary.push(' ');
            }
            summary.push_str(word);
            if word.ends_with('.') && words.peek().is_some() {
                break;
            }
        }
        summary
    }

    /// The table the key sits in: `tools.offload` for `tools.offload.enabled`, `lsp` for `lsp.servers.<name>`.
    pub fn table(&self) -> &'static str {
        let key = self.key.split(".<name>").next().unwrap_or(self.key);
        key.rsplit_once('.').map_or("", |(table, _)| table)
    }

    /// Whether the file key `path` (its parts) names this setting, under its key or an old spelling.
    pub fn names_key(&self, path: &[&str]) -> bool {
        self.in_file
            && std::iter::once(self.key)
                .chain(self.aliases.iter().copied())
                .any(|pattern| pattern_matches(pattern, path))
    }

    /// The parts of `path` that stand for `<name>` in the key.
    pub fn names_in(&self, path: &[&str]) -> Vec<String> {
        self.key
            .split('.')
            .zip(path)
            .filter(|(part, _)| *part == "<name>")
            .map(|(_, name)| name.to_string())
            .collect()
    }
}

/// One declaration: what it says, and the kind of value it holds.
pub struct Decl<K: Kind> {
    pub info: Info,
    pub kind: K,
    /// Where a file's value goes when not to the field itself (`llm.model` → `llm.file_model`).
    file_into: Option<fn(&mut Config) -> &mut K::Value>,
}

/// Declares the setting `key` (dotted file key) holding values of `kind`; the builder methods add the rest.
pub const fn setting<K: Kind>(key: &'static str, kind: K) -> Decl<K> {
    Decl {
        info: Info::new(key),
        kind,
        file_into: None,
    }
}

impl<K: Kind> Decl<K> {
    /// Environment variables, highest precedence first.
    pub const fn env(mut self, names: &'static [&'static str]) -> Self {
        self.info.env = names;
        self
    }

    /// Set only through the environment (no file key).
    pub const fn env_only(mut self, names: &'static [&'static str]) -> Self {
        self.info.env = names;
        self.info.in_file = false;
        self
    }

    /// The command-line flag (declared in `main.rs`, which takes its help from here).
    pub const fn flag(mut self, flag: &'static str) -> Self {
        self.info.flag = Some(flag);
        self
    }

    /// Old spellings of the file key.
    pub const fn aliases(mut self, keys: &'static [&'static str]) -> Self {
        self.info.aliases = keys;
        self
    }

    /// What a project's own files may do with it (default: set it).
    pub const fn project(mut self, rule: Project) -> Self {
        self.info.project = rule;
        self
    }

    /// The value the example file shows commented out.
    pub const fn example(mut self, toml: &'static str) -> Self {
        self.info.example = Some(toml);
        self
    }

    /// Files set another field than the environment and flags do.
    pub const fn file_into(mut self, slot: fn(&mut Config) -> &mut K::Value) -> Self {
        self.file_into = Some(slot);
        self
    }

    /// The documentation (the macro passes the field's doc comment).
    pub const fn doc(mut self, doc: &'static str) -> Self {
        self.info.doc = doc;
        self
    }
}

/// A declared setting, its type erased: what the loader, `/config` and the example file use.
pub trait Row: Sync {
    fn info(&self) -> &Info;
    /// Checks a file value without using it.
    fn check(&self, value: &toml::Value) -> Result<(), String>;
    /// Uses a file value; `names` are the key's `<name>` parts.
    fn apply_file(
        &self,
        config: &mut Config,
        names: &[String],
        value: &toml::Value,
    ) -> Result<(), String>;
    /// Uses an environment variable's (or a flag's) text.
    fn apply_text(&self, config: &mut Config, text: &str) -> Result<(), String>;
    /// The effective value as `/config` shows it (secrets masked).
    fn show(&self, config: &Config) -> String;
    /// The default as TOML; `None` when unset by default.
    fn default_toml(&self) -> Option<String> {
        None
    }
    /// The words a closed set of values accepts (empty for open ones).
    fn choices(&self) -> Vec<&'static str> {
        Vec::new()
    }
}

/// A declared field of a settings struct (built by [`declare_settings!`]).
pub struct Slot<K: Kind> {
    pub decl: Decl<K>,
    pub get: fn(&Config) -> &K::Value,
    pub get_mut: fn(&mut Config) -> &mut K::Value,
}

impl<K: Kind> Row for Slot<K> {
    fn info(&self) -> &Info {
        &self.decl.info
    }

    fn check(&self, value: &toml::Value) -> Result<(), String> {
        self.decl.kind.read_toml(value).map(drop)
    }

    fn apply_file(
        &self,
        config: &mut Config,
        _names: &[String],
        value: &toml::Value,
    ) -> Result<(), String> {
        let new = self.decl.kind.read_toml(value)?;
        let slot = match self.decl.file_into {
            Some(slot) => slot(config),
            None => (self.get_mut)(config),
        };
        self.decl.kind.lay(slot, new);
        Ok(())
    }

    fn apply_text(&self, config: &mut Config, text: &str) -> Result<(), String> {
        let new = self.decl.kind.read_text(text)?;
        self.decl.kind.lay((self.get_mut)(config), new);
        Ok(())
    }

    fn show(&self, config: &Config) -> String {
        self.decl.kind.show((self.get)(config))
    }

    fn default_toml(&self) -> Option<String> {
        self.decl.kind.default_toml()
    }

    fn choices(&self) -> Vec<&'static str> {
        self.decl.kind.choices()
    }
}

/// Every declared setting, grouped by table in [`TABLES`] order, each table in declaration order.
pub fn all() -> &'static [&'static dyn Row] {
    static ALL: LazyLock<Vec<&'static dyn Row>> = LazyLock::new(|| {
        use super::*;
        let mut rows: Vec<&'static dyn Row> = [
            Config::SETTINGS,
            LlmSettings::SETTINGS,
            RetrySettings::SETTINGS,
            AgentSettings::SETTINGS,
            ToolSettings::SETTINGS,
            ApprovalRules::SETTINGS,
            ShellSettings::SETTINGS,
            WebSettings::SETTINGS,
            McpSettings::SETTINGS,
            LspSettings::SETTINGS,
            SnapshotSettings::SETTINGS,
            SandboxSettings::SETTINGS,
            IndexSettings::SETTINGS,
            BrowserSettings::SETTINGS,
            PlanLimits::SETTINGS,
            ChannelSettings::SETTINGS,
            TelegramSettings::SETTINGS,
            WechatSettings::SETTINGS,
            AgentsSettings::SETTINGS,
            extra::ROWS,
        ]
        .concat();
        let place = |row: &&dyn Row| {
            TABLES
                .iter()
                .position(|t| t.name == row.info().table())
                .unwrap_or(TABLES.len())
        };
        // Each key is a walk over the tables: computed once per row, not once per comparison.
        rows.sort_by_cached_key(place);
        rows
    });
    &ALL
}

/// The row a file key names (its parts, e.g. `["lsp", "servers", "pyright"]`), under its key or an old spelling.
pub fn for_file_path(path: &[&str]) -> Option<&'static dyn Row> {
    all().iter().copied().find(|row| row.info().names_key(path))
}

/// The row of a dotted file key; `lsp.servers.pyright` finds `lsp.servers.<name>`.
pub fn for_file_key(key: &str) -> Option<&'static dyn Row> {
    for_file_path(&key.split('.').collect::<Vec<_>>())
}

/// Whether `path` is a table that holds settings (`tools`, `lsp.servers`), not a setting itself.
pub fn is_table(path: &[&str]) -> bool {
    all().iter().any(|row| {
        let info = row.info();
        info.in_file
            && std::iter::once(info.key)
                .chain(info.aliases.iter().copied())
                .any(|pattern| {
                    let parts: Vec<&str> = pattern.split('.').collect();
                    parts.len() > path.len() && parts_match(&parts[..path.len()], path)
                })
    })
}

/// The keys a table holds, for an error about a key it does not.
pub fn keys_in(path: &[&str]) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Vec::new();
    for row in all().iter().filter(|row| row.info().in_file) {
        let mut parts = row.info().key.split('.');
        let table: Vec<&str> = parts.by_ref().take(path.len()).collect();
        if let Some(key) = parts.next().filter(|_| parts_match(&table, path))
            && !keys.contains(&key)
        {
            keys.push(key);
        }
    }
    keys
}

/// The row an environment variable belongs to, if any.
pub fn for_env(name: &str) -> Option<&'static dyn Row> {
    all()
        .iter()
        .copied()
        .find(|row| row.info().env.iter().any(|p| env_matches(p, name)))
}

/// The row of a `/config` key.
pub fn find(key: &str) -> Option<&'static dyn Row> {
    all().iter().copied().find(|row| row.info().key == key)
}

/// The row of a command-line flag (`--model`).
pub fn for_flag(flag: &str) -> Option<&'static dyn Row> {
    all()
        .iter()
        .copied()
        .find(|row| row.info().flag == Some(flag))
}

/// A flag's help: the setting's first sentence, and its default unless that is off, none or zero.
pub fn flag_help(flag: &str) -> String {
    let Some(row) = for_flag(flag) else {
        return String::new();
    };
    let summary = row.info().summary();
    let summary = summary.trim_end_matches('.');
    match row
        .default_toml()
        .filter(|d| !matches!(d.as_str(), "[]" | "false" | "0"))
    {
        Some(default) => format!("{summary} [default: {}]", default.trim_matches('"')),
        None => summary.to_string(),
    }
}

fn pattern_matches(pattern: &str, path: &[&str]) -> bool {
    parts_match(&pattern.split('.').collect::<Vec<_>>(), path)
}

/// Whether a key's parts match `path`, `<name>` matching any one part.
fn parts_match(pattern: &[&str], path: &[&str]) -> bool {
    pattern.len() == path.len()
        && pattern
            .iter()
            .zip(path)
            .all(|(p, actual)| *p == "<name>" || p == actual)
}

fn env_matches(pattern: &str, name: &str) -> bool {
    use super::providers::PROVIDERS;
    if pattern == "<KEY>" {
        return PROVIDERS.iter().any(|p| p.key_envs.contains(&name));
    }
    match pattern.strip_prefix("<PREFIX>") {
        Some(suffix) => PROVIDERS
            .iter()
            .filter(|p| !p.env_prefix.is_empty())
            .any(|p| name.strip_prefix(p.env_prefix) == Some(suffix)),
        None => pattern == name,
    }
}

#[cfg(test)]
mod tests;

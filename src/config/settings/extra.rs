//! Settings that are not one field of a settings struct: variables read where they are used, the home directory
//! (read before any file), and the `<name>` tables (a project's saved rules, a language server).

use super::scalar::deserialize;
use super::{Info, Project, Row};
use crate::config::{Config, LspServerSection};

/// The rows declared here, in table order.
pub(super) static ROWS: &[&dyn Row] = &[
    &ProjectRules(Info {
        key: "approvals.projects.<name>",
        doc: "Allow rules for one project each, keyed by its root; `p` at the approval prompt adds them here.",
        example: Some(
            "[approvals.projects]\n\"/home/me/src/app\" = [\"cargo test\", \"tool:edit_file\"]",
        ),
        project: Project::Never,
        ..Info::new("")
    }),
    &LspServers(Info {
        key: "lsp.servers.<name>",
        doc: "Adds a language server, or replaces the built-in one of the same name (pyright, typescript,\n\
              rust-analyzer, clangd, gopls, jdtls): `command`, `args`, and `extensions` (without dots; may be left\n\
              out for a built-in name). A configured server wins over the built-ins for its extensions; a command\n\
              paicli runs.",
        example: Some(
            "[lsp.servers.pyright]\n\
             command = \"pyright-langserver\"\n\
             args = [\"--stdio\"]\n\
             extensions = [\"py\", \"pyi\"]",
        ),
        project: Project::Trusted,
        ..Info::new("")
    }),
    &ReadWhereUsed(Info {
        key: "llm.xfyun_lora_id",
        in_file: false,
        env: &["XFYUN_LORA_ID"],
        doc: "Sent as the lora_id header to the xfyun provider.",
        ..Info::new("")
    }),
    &ReadWhereUsed(Info {
        key: "mcp.browser",
        in_file: false,
        env: &["PAICLI_BROWSER", "BROWSER"],
        doc: "The command that opens an MCP login's authorization URL (the URL is its last argument).",
        project: Project::Never,
        ..Info::new("")
    }),
    &Home(Info {
        key: "home",
        in_file: false,
        env: &["PAICLI_HOME"],
        doc: "Where user state lives (config.toml, .env, logs/, ...); default ~/.paicli.",
        project: Project::Never,
        ..Info::new("")
    }),
];

/// `approvals.projects.<root>`: rules saved for one project; only the entry for this project's root is used.
struct ProjectRules(Info);

impl Row for ProjectRules {
    fn info(&self) -> &Info {
        &self.0
    }
    fn check(&self, value: &toml::Value) -> Result<(), String> {
        deserialize::<Vec<String>>(value).map(drop)
    }
    fn apply_file(
        &self,
        c: &mut Config,
        names: &[String],
        value: &toml::Value,
    ) -> Result<(), String> {
        let rules = deserialize::<Vec<String>>(value)?;
        if names.first() == Some(&c.project_root.display().to_string()) {
            c.approvals.project_allow = rules;
        }
        Ok(())
    }
    fn apply_text(&self, _c: &mut Config, _text: &str) -> Result<(), String> {
        Ok(())
    }
    fn show(&self, c: &Config) -> String {
        c.approvals.project_allow.join(", ")
    }
}

/// `lsp.servers.<name>`: a layer's entry replaces the same name's entry below it, whole.
struct LspServers(Info);

impl Row for LspServers {
    fn info(&self) -> &Info {
        &self.0
    }
    fn check(&self, value: &toml::Value) -> Result<(), String> {
        deserialize::<LspServerSection>(value).map(drop)
    }
    fn apply_file(
        &self,
        c: &mut Config,
        names: &[String],
        value: &toml::Value,
    ) -> Result<(), String> {
        let server = deserialize::<LspServerSection>(value)?;
        if let Some(name) = names.first() {
            c.lsp.servers.insert(name.clone(), server);
        }
        Ok(())
    }
    fn apply_text(&self, _c: &mut Config, _text: &str) -> Result<(), String> {
        Ok(())
    }
    fn show(&self, c: &Config) -> String {
        let names: Vec<&str> = c.lsp.servers.keys().map(String::as_str).collect();
        names.join(", ")
    }
}

/// A variable the code that needs it reads from `Config::env` when it needs it.
struct ReadWhereUsed(Info);

impl Row for ReadWhereUsed {
    fn info(&self) -> &Info {
        &self.0
    }
    fn check(&self, _value: &toml::Value) -> Result<(), String> {
        Err("set it in the environment".to_string())
    }
    fn apply_file(&self, _c: &mut Config, _n: &[String], _v: &toml::Value) -> Result<(), String> {
        Err("set it in the environment".to_string())
    }
    fn apply_text(&self, _c: &mut Config, _text: &str) -> Result<(), String> {
        Ok(())
    }
    fn show(&self, c: &Config) -> String {
        let set = self.0.env.iter().find_map(|name| c.env.get(name));
        set.unwrap_or_default().to_string()
    }
}

/// `$PAICLI_HOME`: read from the process environment before any file (the files live in it).
struct Home(Info);

impl Row for Home {
    fn info(&self) -> &Info {
        &self.0
    }
    fn check(&self, _value: &toml::Value) -> Result<(), String> {
        Err("set it in the environment".to_string())
    }
    fn apply_file(&self, _c: &mut Config, _n: &[String], _v: &toml::Value) -> Result<(), String> {
        Err("set it in the environment".to_string())
    }
    fn apply_text(&self, _c: &mut Config, _text: &str) -> Result<(), String> {
        Ok(())
    }
    fn show(&self, c: &Config) -> String {
        c.home.display().to_string()
    }
}

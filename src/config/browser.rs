//! `[browser]` settings: how the built-in `chrome-devtools` MCP server is started (see `docs/browser.md`).

use super::{ConfigError, EnvVars};

/// Resolved browser settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrowserSettings {
    /// The command line that starts chrome-devtools-mcp; `None` = `chrome-devtools-mcp` on `PATH`, else `npx`.
    pub mcp_command: Option<String>,
    /// The Chrome or Chromium binary the isolated browser runs; `None` = the server's own search.
    pub executable: Option<String>,
    /// The isolated browser runs without a window.
    pub headless: bool,
    /// The browser may open loopback pages (`localhost`, 127/8, `::1`) the user did not name. User-only.
    pub allow_local: bool,
}

impl Default for BrowserSettings {
    fn default() -> Self {
        BrowserSettings {
            mcp_command: None,
            executable: None,
            headless: true,
            allow_local: false,
        }
    }
}

/// `[browser]` in `config.toml`.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BrowserSection {
    pub mcp_command: Option<String>,
    pub executable: Option<String>,
    pub headless: Option<bool>,
    pub allow_local: Option<bool>,
}

impl BrowserSection {
    /// Lays `top` over `self`.
    pub fn merge(&mut self, top: BrowserSection) {
        fn over<T>(slot: &mut Option<T>, v: Option<T>) {
            if v.is_some() {
                *slot = v;
            }
        }
        over(&mut self.mcp_command, top.mcp_command);
        over(&mut self.executable, top.executable);
        over(&mut self.headless, top.headless);
        over(&mut self.allow_local, top.allow_local);
    }
}

impl BrowserSettings {
    /// Applies the file section.
    pub fn apply_file(&mut self, s: &BrowserSection) {
        if s.mcp_command.is_some() {
            self.mcp_command.clone_from(&s.mcp_command);
        }
        if s.executable.is_some() {
            self.executable.clone_from(&s.executable);
        }
        if let Some(headless) = s.headless {
            self.headless = headless;
        }
        if let Some(allow_local) = s.allow_local {
            self.allow_local = allow_local;
        }
    }

    /// Applies `PAICLI_BROWSER_MCP_COMMAND`, `PAICLI_BROWSER_EXECUTABLE` / `CHROME_PATH` and
    /// `PAICLI_BROWSER_HEADLESS` and `PAICLI_BROWSER_ALLOW_LOCAL`.
    pub fn apply_env(&mut self, env: &EnvVars) -> Result<(), ConfigError> {
        if let Some(v) = env.get("PAICLI_BROWSER_MCP_COMMAND") {
            self.mcp_command = Some(v.to_string());
        }
        if let Some(v) = env.get("CHROME_PATH") {
            self.executable = Some(v.to_string());
        }
        if let Some(v) = env.get("PAICLI_BROWSER_EXECUTABLE") {
            self.executable = Some(v.to_string());
        }
        if let Some(v) = env.flag("PAICLI_BROWSER_HEADLESS")? {
            self.headless = v;
        }
        if let Some(v) = env.flag("PAICLI_BROWSER_ALLOW_LOCAL")? {
            self.allow_local = v;
        }
        Ok(())
    }
}

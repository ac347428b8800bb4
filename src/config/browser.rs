//! `[browser]` settings: how the built-in `chrome-devtools` MCP server is started (see `docs/browser.md`).

use super::settings::{Maybe, Plain, Project, declare_settings, setting};

declare_settings! {
    /// Resolved browser settings.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct BrowserSettings in config.browser {
        /// The command line that starts chrome-devtools-mcp; unset = chrome-devtools-mcp on PATH, else npx.
        pub mcp_command: Option<String> = setting("browser.mcp_command", Maybe::UNSET)
            .env(&["PAICLI_BROWSER_MCP_COMMAND"])
            .project(Project::Never)
            .example("\"chrome-devtools-mcp\""),
        /// The Chrome or Chromium binary the isolated browser runs; unset = the server's own search.
        pub executable: Option<String> = setting("browser.executable", Maybe::UNSET)
            .env(&["PAICLI_BROWSER_EXECUTABLE", "CHROME_PATH"])
            .project(Project::Never)
            .example("\"/usr/bin/chromium\""),
        /// The isolated browser runs without a window.
        pub headless: bool = setting("browser.headless", Plain(true)).env(&["PAICLI_BROWSER_HEADLESS"]),
        /// The browser opens only http(s) pages on public addresses. A loopback page (localhost, 127.0.0.1, ::1)
        /// opens when your message names its host and port (`localhost:3000` or a full URL), or always with
        /// allow_local = true; a private or link-local one only when your message names it.
        pub allow_local: bool = setting("browser.allow_local", Plain(false))
            .env(&["PAICLI_BROWSER_ALLOW_LOCAL"])
            .project(Project::Never),
    }
}

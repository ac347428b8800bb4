//! `paicli mcp login|logout <server>` and `/mcp login|logout <server>`: finds the server's URL in the
//! `mcp.json` files and runs the OAuth browser step, or removes the stored tokens.

use std::path::PathBuf;

use crate::config::Config;
use crate::mcp::oauth::{self, BrowserStep, LoginError, OAuthSettings, TokenStore};
use crate::mcp::{self, Launch};

/// Why `login` / `logout` could not run.
#[derive(Debug, thiserror::Error)]
pub enum McpLoginError {
    #[error("no MCP server named `{0}`")]
    NoSuchServer(String),
    #[error("`{0}` is not a remote MCP server (it has no url)")]
    NotRemote(String),
    #[error(transparent)]
    Login(#[from] LoginError),
    #[error("cannot remove the tokens: {0}")]
    Remove(std::io::Error),
}

/// The URL of the remote server `name`.
pub fn server_url(config: &Config, name: &str) -> Result<String, McpLoginError> {
    remote_server(config, name).map(|(url, _)| url)
}

/// The URL and `oauth` settings of the remote server `name`.
fn remote_server(config: &Config, name: &str) -> Result<(String, OAuthSettings), McpLoginError> {
    let lookup = |var: &str| config.env.get(var).map(str::to_string);
    let servers = mcp::config::load(&config.home, &config.project_root, &lookup);
    let server = servers
        .servers
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| McpLoginError::NoSuchServer(name.to_string()))?;
    match server.launch {
        Ok(Launch::Http { url, oauth, .. }) => Ok((url, oauth)),
        _ => Err(McpLoginError::NotRemote(name.to_string())),
    }
}

/// Logs in to `name`: `show` prints the authorization URL, which is also opened with `PAICLI_BROWSER` or
/// `BROWSER` when set. Returns where the tokens were saved.
pub async fn login(
    config: &Config,
    name: &str,
    show: &(dyn Fn(&str) + Send + Sync),
) -> Result<PathBuf, McpLoginError> {
    let (url, settings) = remote_server(config, name)?;
    let store = TokenStore::new(&config.home, name);
    let browser = config
        .env
        .get("PAICLI_BROWSER")
        .or_else(|| config.env.get("BROWSER"))
        .map(str::to_string);
    let open = move |auth_url: &str| {
        if let Some(command) = &browser {
            oauth::open_browser(command, auth_url);
        }
    };
    oauth::login(&url, &settings, &store, BrowserStep { show, open: &open }).await?;
    Ok(store.path().to_path_buf())
}

/// Removes the tokens of `name`; true when there were some.
pub fn logout(config: &Config, name: &str) -> Result<bool, McpLoginError> {
    TokenStore::new(&config.home, name)
        .remove()
        .map_err(McpLoginError::Remove)
}

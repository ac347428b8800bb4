//! The words around an MCP OAuth login or logout, for `paicli mcp login|logout <server>` and `/mcp login|logout`.

use tokio_util::sync::CancellationToken;

use crate::app::mcp_login::{self, McpLoginError};
use crate::config::Config;
use crate::text::{Lang, Msg, labelled, trf};

/// `login` or `logout`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Login,
    Logout,
}

/// Runs `action` on `server`, writing lines with `say`; `cancel` stops a login waiting for the browser. True on
/// success.
pub async fn run(
    config: &Config,
    lang: Lang,
    action: Action,
    server: &str,
    cancel: &CancellationToken,
    say: &(dyn Fn(&str) + Send + Sync),
) -> bool {
    match action {
        Action::Logout => match mcp_login::logout(config, server) {
            Ok(true) => say(&trf(lang, Msg::McpLogoutDone, &[("server", &server)])),
            Ok(false) => say(&trf(lang, Msg::McpLogoutNone, &[("server", &server)])),
            Err(e) => {
                say(&failure(lang, server, &e));
                return false;
            }
        },
        Action::Login => {
            let show = |url: &str| {
                say(&trf(lang, Msg::McpLoginOpen, &[("server", &server)]));
                say(&format!("  {url}"));
                say(&trf(lang, Msg::McpLoginWaiting, &[]));
            };
            let result = tokio::select! {
                result = mcp_login::login(config, server, &show) => result,
                () = cancel.cancelled() => {
                    say(&trf(lang, Msg::ElicitCancelled, &[]));
                    return false;
                }
            };
            match result {
                Ok(path) => say(&trf(
                    lang,
                    Msg::McpLoginDone,
                    &[("server", &server), ("path", &path.display().to_string())],
                )),
                Err(e) => {
                    say(&failure(lang, server, &e));
                    return false;
                }
            }
        }
    }
    true
}

fn failure(lang: Lang, server: &str, error: &McpLoginError) -> String {
    let text = match error {
        McpLoginError::NoSuchServer(_) => trf(lang, Msg::McpNoSuchServer, &[("server", &server)]),
        McpLoginError::NotRemote(_) => trf(lang, Msg::McpNotRemote, &[("server", &server)]),
        // The OAuth library's own words, inside a translated frame.
        other => trf(
            lang,
            Msg::McpLoginFailed,
            &[("server", &server), ("error", &other.to_string())],
        ),
    };
    labelled(lang, Msg::ErrorPrefix, &text)
}

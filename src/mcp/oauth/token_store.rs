//! OAuth tokens of one server on disk: `$PAICLI_HOME/mcp-tokens/<server>.json`, mode 0600 in a 0700 directory,
//! written atomically. Holds what rmcp's authorization manager stores (client id, token response, scopes) plus
//! the client secret and redirect URI a dynamic registration handed out, so a refresh works in a later run.
//! Nothing here is ever logged: `Debug` of the stored credentials is redacted by rmcp.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use async_trait::async_trait;
use oauth2::TokenResponse;
use rmcp::transport::auth::{AuthError, CredentialStore, StoredCredentials};
use serde::{Deserialize, Serialize};

/// How long before its expiry a token counts as expired. Larger than rmcp's own refresh margin (30 s), so a
/// machine grant is renewed before rmcp would try a refresh it has no refresh token for.
pub const RENEW_MARGIN_SECS: u64 = 60;

/// The file's contents.
#[derive(Default, Serialize, Deserialize)]
pub struct TokenFile {
    /// The server URL the tokens were issued for; they are sent to that URL only, so a project file that
    /// points a server name at another host never receives them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The client's secret, when the authorization server gave one (confidential client).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// The loopback redirect URI the client was registered with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_uri: Option<String>,
    /// What rmcp stores: client id, tokens, granted scopes, when they were received.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credentials: Option<StoredCredentials>,
}

/// The token file of one server.
#[derive(Debug, Clone)]
pub struct TokenStore {
    path: PathBuf,
}

impl TokenStore {
    /// The store of `server` under `home` (`$PAICLI_HOME`).
    pub fn new(home: &Path, server: &str) -> Self {
        TokenStore {
            path: home
                .join("mcp-tokens")
                .join(format!("{}.json", file_stem(server))),
        }
    }

    /// Where the tokens live.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True when a login left tokens behind.
    pub fn has_tokens(&self) -> bool {
        self.read()
            .ok()
            .flatten()
            .and_then(|f| f.credentials)
            .is_some_and(|c| c.token_response.is_some())
    }

    /// True when the stored access token has expired or expires within [`RENEW_MARGIN_SECS`] (at most half its
    /// lifetime): a machine grant runs again then. False without tokens, or for a token that names no expiry.
    pub fn token_expiring(&self) -> bool {
        let Some(credentials) = self.read().ok().flatten().and_then(|f| f.credentials) else {
            return false;
        };
        let (Some(tokens), Some(received)) = (
            credentials.token_response.as_ref(),
            credentials.token_received_at,
        ) else {
            return false;
        };
        let Some(lifetime) = tokens.expires_in().map(|d| d.as_secs()) else {
            return false;
        };
        let age = now_secs().saturating_sub(received);
        let margin = RENEW_MARGIN_SECS.min(lifetime / 2).max(1);
        lifetime.saturating_sub(age) < margin
    }

    /// The file, or `None` when there is none.
    pub fn read(&self) -> io::Result<Option<TokenFile>> {
        match fs::read(&self.path) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map(Some)
                .map_err(io::Error::other),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Replaces the file (temp file with mode 0600, then rename).
    pub fn write(&self, file: &TokenFile) -> io::Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)?;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
        let bytes = serde_json::to_vec_pretty(file).map_err(io::Error::other)?;
        let tmp = self
            .path
            .with_extension(format!("json.{}.tmp", std::process::id()));
        let mut out = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)?;
        out.write_all(&bytes)?;
        out.sync_all()?;
        drop(out);
        fs::rename(&tmp, &self.path)
    }

    /// Removes the file; true when there was one.
    pub fn remove(&self) -> io::Result<bool> {
        match fs::remove_file(&self.path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    fn update(&self, change: impl FnOnce(&mut TokenFile)) -> Result<(), AuthError> {
        let mut file = self.read().map_err(store_error)?.unwrap_or_default();
        change(&mut file);
        self.write(&file).map_err(store_error)
    }
}

/// Seconds since the Unix epoch, as rmcp stamps `token_received_at`.
pub(super) fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn store_error(e: io::Error) -> AuthError {
    AuthError::CredentialStoreError(e.to_string())
}

/// A file name for a server name: letters, digits and `-` kept, any other byte as `_XX` hex (so no two names
/// share a file).
fn file_stem(server: &str) -> String {
    server
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'-' {
                (b as char).to_string()
            } else {
                format!("_{b:02x}")
            }
        })
        .collect()
}

#[async_trait]
impl CredentialStore for TokenStore {
    async fn load(&self) -> Result<Option<StoredCredentials>, AuthError> {
        Ok(self
            .read()
            .map_err(store_error)?
            .and_then(|f| f.credentials))
    }

    async fn save(&self, credentials: StoredCredentials) -> Result<(), AuthError> {
        self.update(|f| f.credentials = Some(credentials))
    }

    async fn clear(&self) -> Result<(), AuthError> {
        self.update(|f| f.credentials = None)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[tokio::test]
    async fn tokens_are_private_and_logout_removes_them() {
        let home = tempfile::tempdir().unwrap();
        let store = TokenStore::new(home.path(), "remote/../x");
        assert!(store.path().starts_with(home.path().join("mcp-tokens")));
        assert!(!store.has_tokens());
        let credentials = StoredCredentials::new("client-1".into(), None, vec!["mcp".into()], None);
        store.save(credentials).await.unwrap();
        let mode = fs::metadata(store.path()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let dir_mode = fs::metadata(store.path().parent().unwrap())
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(dir_mode, 0o700);
        let loaded = store.load().await.unwrap().unwrap();
        assert_eq!(loaded.client_id, "client-1");
        assert_eq!(loaded.granted_scopes, ["mcp"]);
        assert!(store.remove().unwrap());
        assert!(store.load().await.unwrap().is_none());
        assert!(!store.remove().unwrap());
    }

    #[test]
    fn server_names_cannot_leave_the_token_directory() {
        assert_eq!(file_stem("my-server_1"), "my-server_5f1");
        assert_eq!(file_stem("../a"), "_2e_2e_2fa");
    }
}

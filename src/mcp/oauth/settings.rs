//! The `oauth` object of a remote server's `mcp.json` entry: how paicli identifies itself to the server's
//! authorization server. Without it paicli registers dynamically and runs the browser step; with it, a
//! pre-registered client, a Client ID Metadata Document URL, or a machine-to-machine grant (client credentials,
//! or the enterprise-managed cross-app exchange) is used instead. `Debug` never shows a secret.

use serde::Deserialize;

/// How tokens are obtained.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grant {
    /// The browser step (authorization code with PKCE).
    #[default]
    AuthorizationCode,
    /// `client_credentials` with `clientSecret` (secret_basic/post) or `privateKeyFile` (private_key_jwt).
    ClientCredentials,
    /// Enterprise-managed authorization (SEP-990): the identity provider's ID token is exchanged for an ID-JAG,
    /// which the server's authorization server redeems with the `jwt-bearer` grant.
    CrossApp,
}

/// The identity provider of a cross-app grant.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IdpSettings {
    pub issuer: String,
    pub token_endpoint: String,
    pub client_id: String,
    /// A file holding the ID token from the person's single sign-on.
    pub id_token_file: String,
}

/// The `oauth` object, every `${…}` expanded.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OAuthSettings {
    #[serde(default)]
    pub grant: Grant,
    /// A client id issued out of band (pre-registration); dynamic registration is skipped.
    pub client_id: Option<String>,
    pub client_secret: Option<String>,
    /// The HTTPS URL of this client's metadata document, offered when the server supports them.
    pub client_metadata_url: Option<String>,
    /// A PEM private key for `private_key_jwt`.
    pub private_key_file: Option<String>,
    /// `ES256` (default), `ES384`, `RS256`, `RS384` or `RS512`.
    pub signing_algorithm: Option<String>,
    #[serde(default)]
    pub scopes: Vec<String>,
    pub idp: Option<IdpSettings>,
}

impl OAuthSettings {
    /// True for grants that need no person (and so may run while connecting, even under `-p`).
    pub fn is_machine(&self) -> bool {
        self.grant != Grant::AuthorizationCode
    }

    /// Every string field, for `${…}` expansion.
    pub fn strings_mut(&mut self) -> Vec<&mut String> {
        let mut out: Vec<&mut String> = [
            &mut self.client_id,
            &mut self.client_secret,
            &mut self.client_metadata_url,
            &mut self.private_key_file,
            &mut self.signing_algorithm,
        ]
        .into_iter()
        .flatten()
        .collect();
        out.extend(self.scopes.iter_mut());
        if let Some(idp) = &mut self.idp {
            out.extend([
                &mut idp.issuer,
                &mut idp.token_endpoint,
                &mut idp.client_id,
                &mut idp.id_token_file,
            ]);
        }
        out
    }
}

fn shown(value: &Option<String>) -> Option<&str> {
    value.as_deref()
}

fn hidden(value: &Option<String>) -> Option<&'static str> {
    value.as_ref().map(|_| "[redacted]")
}

impl std::fmt::Debug for OAuthSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthSettings")
            .field("grant", &self.grant)
            .field("client_id", &shown(&self.client_id))
            .field("client_secret", &hidden(&self.client_secret))
            .field("client_metadata_url", &shown(&self.client_metadata_url))
            .field("private_key_file", &shown(&self.private_key_file))
            .field("signing_algorithm", &shown(&self.signing_algorithm))
            .field("scopes", &self.scopes)
            .field("idp", &self.idp)
            .finish()
    }
}

impl std::fmt::Debug for IdpSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IdpSettings")
            .field("issuer", &self.issuer)
            .field("token_endpoint", &self.token_endpoint)
            .field("client_id", &self.client_id)
            .field("id_token_file", &self.id_token_file)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn debug_hides_the_secret() {
        let s: OAuthSettings = serde_json::from_str(
            r#"{"grant": "client_credentials", "clientId": "cid", "clientSecret": "s3cr3t-value"}"#,
        )
        .unwrap();
        let shown = format!("{s:?}");
        assert!(shown.contains("cid") && shown.contains("ClientCredentials"));
        assert!(!shown.contains("s3cr3t-value"), "{shown}");
        assert!(s.is_machine());
    }

    #[test]
    fn unknown_keys_are_refused() {
        assert!(serde_json::from_str::<OAuthSettings>(r#"{"clientSecrte": "x"}"#).is_err());
        let default: OAuthSettings = serde_json::from_str("{}").unwrap();
        assert!(!default.is_machine());
    }
}

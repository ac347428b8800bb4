//! Grants that need no person: `client_credentials` (client secret or `private_key_jwt`, SEP-1046) and the
//! enterprise-managed cross-app exchange (SEP-990: the identity provider's ID token becomes an ID-JAG, which the
//! server's authorization server redeems with the `jwt-bearer` grant). Both go through rmcp and leave their
//! token in the server's [`TokenStore`], like a browser login.

use oauth2::ClientSecret;
use rmcp::transport::auth::enterprise::{
    EmaAuthorizationServer, EmaClientAuthentication, EmaExchangeRequest,
};
use rmcp::transport::auth::{
    AuthorizationManager, AuthorizationMetadata, OAuthTokenResponse, default_oauth_http_client,
};
use rmcp::transport::{
    ClientCredentialsConfig, CredentialStore, JwtSigningAlgorithm, StoredCredentials,
};

use super::settings::OAuthSettings;
use super::token_store::now_secs;
use super::{LoginError, TokenStore};

/// Runs the `client_credentials` grant against the authorization server in `manager`'s metadata.
pub async fn client_credentials(
    mut manager: AuthorizationManager,
    url: &str,
    settings: &OAuthSettings,
) -> Result<(), LoginError> {
    let client_id = required(&settings.client_id, "clientId")?;
    let scopes = settings.scopes.clone();
    let resource = Some(url.to_string());
    let config = if let Some(file) = &settings.private_key_file {
        let signing_key = std::fs::read(file)
            .map_err(|e| LoginError::Config(format!("cannot read `oauth.privateKeyFile`: {e}")))?;
        ClientCredentialsConfig::PrivateKeyJwt {
            client_id,
            signing_key,
            signing_algorithm: algorithm(settings.signing_algorithm.as_deref())?,
            token_endpoint_audience: None,
            scopes,
            resource,
        }
    } else {
        ClientCredentialsConfig::ClientSecret {
            client_id,
            client_secret: required(&settings.client_secret, "clientSecret")?,
            scopes,
            resource,
        }
    };
    // rmcp saves the token in the manager's credential store (our token file). Its private_key_jwt future
    // is not `Send` (it holds a form serializer across an await), so it runs on a blocking thread of its own.
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        handle.block_on(async move {
            manager.configure_client_credentials(&config)?;
            manager
                .exchange_client_credentials(&config)
                .await
                .map(|_| ())
        })
    })
    .await
    .map_err(|e| LoginError::Auth(e.to_string()))??;
    Ok(())
}

/// Runs the cross-app exchange for the server at `url` whose authorization server is described by `metadata`.
pub async fn cross_app(
    metadata: &AuthorizationMetadata,
    url: &str,
    settings: &OAuthSettings,
    store: &TokenStore,
) -> Result<(), LoginError> {
    let idp = settings
        .idp
        .as_ref()
        .ok_or_else(|| LoginError::Config("the cross_app grant needs `oauth.idp`".into()))?;
    let client_id = required(&settings.client_id, "clientId")?;
    let secret = required(&settings.client_secret, "clientSecret")?;
    let issuer = metadata.issuer.clone().ok_or_else(|| {
        LoginError::Auth("the authorization server's metadata names no issuer".into())
    })?;
    let id_token = std::fs::read_to_string(&idp.id_token_file)
        .map_err(|e| LoginError::Config(format!("cannot read `oauth.idp.idTokenFile`: {e}")))?;
    let idp_server = EmaAuthorizationServer::new(&idp.issuer, &idp.token_endpoint, &idp.client_id);
    let resource_server =
        EmaAuthorizationServer::new(issuer.clone(), &metadata.token_endpoint, &client_id)
            .with_client_authentication(EmaClientAuthentication::ClientSecretBasic(
                ClientSecret::new(secret),
            ));
    let http = default_oauth_http_client()?;
    let token =
        EmaExchangeRequest::new_with_id_token(idp_server, resource_server, url, id_token.trim())
            .with_scopes(settings.scopes.clone())
            .exchange(&http, &http)
            .await
            .map_err(|e| LoginError::Auth(e.to_string()))?;
    let mut granted: Vec<String> = token.scopes.iter().cloned().collect();
    granted.sort();
    let response: OAuthTokenResponse = serde_json::from_value(serde_json::json!({
        "access_token": token.access_token.secret(),
        "token_type": "bearer",
        "expires_in": token.expires_in.map(|d| d.as_secs()),
    }))
    .map_err(|e| LoginError::Auth(format!("unusable token response: {e}")))?;
    let mut stored = StoredCredentials::new(client_id, Some(response), granted, Some(now_secs()));
    stored.issuer = Some(issuer);
    store.save(stored).await?;
    Ok(())
}

fn required(value: &Option<String>, key: &str) -> Result<String, LoginError> {
    value
        .clone()
        .filter(|v| !v.is_empty())
        .ok_or_else(|| LoginError::Config(format!("this grant needs `oauth.{key}`")))
}

/// The `signingAlgorithm` setting (default ES256).
pub fn algorithm(name: Option<&str>) -> Result<JwtSigningAlgorithm, LoginError> {
    Ok(match name.unwrap_or("ES256") {
        "ES256" => JwtSigningAlgorithm::ES256,
        "ES384" => JwtSigningAlgorithm::ES384,
        "RS256" => JwtSigningAlgorithm::RS256,
        "RS384" => JwtSigningAlgorithm::RS384,
        "RS512" => JwtSigningAlgorithm::RS512,
        other => {
            return Err(LoginError::Config(format!(
                "unknown `oauth.signingAlgorithm` `{other}` (ES256, ES384, RS256, RS384, RS512)"
            )));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signing_algorithm_defaults_to_es256_and_refuses_unknown_names() {
        assert!(matches!(algorithm(None), Ok(JwtSigningAlgorithm::ES256)));
        assert!(matches!(
            algorithm(Some("RS256")),
            Ok(JwtSigningAlgorithm::RS256)
        ));
        let Err(LoginError::Config(message)) = algorithm(Some("HS256")) else {
            panic!("HS256 (a shared secret) is not a private-key algorithm")
        };
        assert!(message.contains("HS256"), "{message}");
    }

    #[test]
    fn a_missing_setting_is_named() {
        let Err(LoginError::Config(message)) = required(&None, "clientId") else {
            panic!("missing clientId accepted")
        };
        assert!(message.contains("oauth.clientId"), "{message}");
        assert!(required(&Some(String::new()), "clientSecret").is_err());
    }
}

//! TLS for every HTTP client paicli builds: one platform verifier shared by all of them, whose system root store
//! is read on the first TLS handshake (or warmed up in the background for an `https` provider), so a plain-`http`
//! run never reads a certificate.

use std::sync::{Arc, OnceLock};

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, verify_tls12_signature, verify_tls13_signature};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use rustls_platform_verifier::Verifier;

/// The system roots, loaded at most once per process. Reading them costs milliseconds and megabytes, and they
/// do not change within a session; a cell written once is not mutable state.
static PLATFORM: OnceLock<Result<Arc<Verifier>, rustls::Error>> = OnceLock::new();

/// A reqwest builder whose TLS uses the shared, lazily loaded system roots; `http1_only` also limits ALPN.
pub fn client_builder(http1_only: bool) -> reqwest::ClientBuilder {
    let builder = reqwest::Client::builder();
    let builder = if http1_only {
        builder.http1_only()
    } else {
        builder
    };
    match client_config(http1_only) {
        Ok(config) => builder.tls_backend_preconfigured(config),
        // Only an impossible protocol-version mismatch gets here; reqwest's own TLS setup still verifies.
        Err(_) => builder,
    }
}

/// Starts loading the system roots on a background thread, so an `https` provider's first request finds them.
pub fn warm_up() {
    if PLATFORM.get().is_some() {
        return;
    }
    let provider = crypto_provider();
    // A failed spawn only means the first handshake loads the roots itself.
    let _ = std::thread::Builder::new()
        .name("tls-roots".into())
        .spawn(move || {
            let _ = platform(&provider);
        });
}

fn client_config(http1_only: bool) -> Result<rustls::ClientConfig, rustls::Error> {
    let provider = crypto_provider();
    let mut config = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(LazyPlatformVerifier { provider }))
        .with_no_client_auth();
    // What reqwest offers by default; a preconfigured config must say it itself.
    config.alpn_protocols = if http1_only {
        vec![b"http/1.1".to_vec()]
    } else {
        vec![b"h2".to_vec(), b"http/1.1".to_vec()]
    };
    Ok(config)
}

fn crypto_provider() -> Arc<CryptoProvider> {
    CryptoProvider::get_default()
        .cloned()
        .unwrap_or_else(|| Arc::new(rustls::crypto::aws_lc_rs::default_provider()))
}

fn platform(provider: &Arc<CryptoProvider>) -> Result<Arc<Verifier>, rustls::Error> {
    PLATFORM
        .get_or_init(|| Verifier::new(Arc::clone(provider)).map(Arc::new))
        .clone()
}

/// The platform verifier, built on the first certificate it is asked to check. Signature checks need no roots,
/// so they use the crypto provider directly, as the platform verifier itself does.
#[derive(Debug)]
struct LazyPlatformVerifier {
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for LazyPlatformVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        platform(&self.provider)?.verify_server_cert(
            end_entity,
            intermediates,
            server_name,
            ocsp_response,
            now,
        )
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// Every HTTP client goes through [`client_builder`]: one built by reqwest's defaults (or rmcp's) would read
    /// the whole system root store when it is built, also for a plain-`http` run.
    #[test]
    fn no_client_is_built_around_the_shared_tls() {
        let forbidden = [
            "reqwest::Client::builder()",
            "reqwest::Client::new()",
            "reqwest::Client::default()",
            "StreamableHttpClientTransport::from_config",
            "StreamableHttpClientTransport::from_uri",
        ];
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut offenders = Vec::new();
        let mut dirs = vec![src];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !path.ends_with("client/tls.rs")
                {
                    let text = std::fs::read_to_string(&path).unwrap();
                    for needle in forbidden.iter().filter(|n| text.contains(*n)) {
                        offenders.push(format!("{}: {needle}", path.display()));
                    }
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "build these clients with tls::client_builder: {offenders:#?}"
        );
    }

    #[test]
    fn alpn_follows_the_http_version() {
        assert_eq!(
            client_config(true).unwrap().alpn_protocols,
            vec![b"http/1.1".to_vec()]
        );
        assert_eq!(
            client_config(false).unwrap().alpn_protocols,
            vec![b"h2".to_vec(), b"http/1.1".to_vec()]
        );
    }
}

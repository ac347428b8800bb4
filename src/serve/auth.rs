//! The bearer key every request must carry, compared in constant time.

use sha2::{Digest, Sha256};

/// The key of `$PAICLI_RUNTIME_API_KEY`, kept as its SHA-256 so every comparison has the same length.
#[derive(Clone)]
pub struct ApiKey {
    digest: [u8; 32],
}

impl ApiKey {
    /// The key requests must present; `None` for an empty or blank key.
    pub fn new(key: &str) -> Option<ApiKey> {
        (!key.trim().is_empty()).then(|| ApiKey {
            digest: Sha256::digest(key.as_bytes()).into(),
        })
    }

    /// Whether an `Authorization` header value is `Bearer <this key>`. Takes the same time for every wrong key
    /// of any length: both sides are hashed, and the digests are compared without an early exit.
    pub fn accepts(&self, header: Option<&str>) -> bool {
        let presented = header
            .and_then(|h| h.strip_prefix("Bearer "))
            .unwrap_or_default();
        let digest: [u8; 32] = Sha256::digest(presented.trim().as_bytes()).into();
        let diff = digest
            .iter()
            .zip(self.digest.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        std::hint::black_box(diff) == 0 && header.is_some()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_the_exact_bearer_key_is_accepted() {
        let key = ApiKey::new("s3cret").unwrap();
        assert!(key.accepts(Some("Bearer s3cret")));
        assert!(!key.accepts(Some("Bearer s3cre")));
        assert!(!key.accepts(Some("Bearer s3cret2")));
        assert!(!key.accepts(Some("s3cret")));
        assert!(!key.accepts(Some("Basic s3cret")));
        assert!(!key.accepts(None));
        assert!(ApiKey::new("  ").is_none());
    }
}

//! Machine grants (client credentials, the cross-app exchange) come without a refresh token, so when their
//! access token expires, or the server refuses it, the grant itself runs again: before a request when the stored
//! token is about to expire, and once after a 401. Callers that race share one renewal.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rmcp::transport::auth::AuthorizationManager;
use tokio::sync::Mutex;

use super::{BrowserStep, LoginError, OAuthSettings, TokenStore, login};

/// Runs the machine grant of one server again when its token runs out.
pub struct MachineRenewal {
    url: String,
    settings: OAuthSettings,
    store: TokenStore,
    /// The session transport's manager, reloaded from the store after each renewal.
    manager: Arc<Mutex<AuthorizationManager>>,
    /// Moves with each renewal.
    generation: AtomicU64,
    running: Mutex<()>,
}

impl MachineRenewal {
    /// Renewal for the server at `url`, whose session sends the tokens of `store` through `manager`.
    pub fn new(
        url: &str,
        settings: &OAuthSettings,
        store: &TokenStore,
        manager: Arc<Mutex<AuthorizationManager>>,
    ) -> Self {
        MachineRenewal {
            url: url.to_string(),
            settings: settings.clone(),
            store: store.clone(),
            manager,
            generation: AtomicU64::new(0),
            running: Mutex::new(()),
        }
    }

    /// Which token is current. Read before a request, it tells [`MachineRenewal::renew`] whether the token that
    /// request was refused with has been replaced since.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    /// Runs the grant again, unless another caller renewed the token since `seen`.
    pub async fn renew(&self, seen: u64) -> Result<(), LoginError> {
        let _one = self.running.lock().await;
        if self.generation() != seen {
            return Ok(());
        }
        run_grant(&self.url, &self.settings, &self.store).await?;
        self.manager.lock().await.initialize_from_store().await?;
        self.generation.fetch_add(1, Ordering::SeqCst);
        Ok(())
    }

    /// Renews before a request when the stored token is about to expire.
    pub async fn renew_if_expiring(&self) -> Result<(), LoginError> {
        let seen = self.generation();
        if self.store.token_expiring() {
            self.renew(seen).await
        } else {
            Ok(())
        }
    }
}

/// Runs the machine grant of `settings` for `url` and stores its token; nobody is asked anything.
pub async fn run_grant(
    url: &str,
    settings: &OAuthSettings,
    store: &TokenStore,
) -> Result<(), LoginError> {
    let quiet = |_: &str| {};
    let browser = BrowserStep {
        show: &quiet,
        open: &quiet,
    };
    login(url, settings, store, browser).await
}

//! The client's runtime options, built from the plain `[llm]` settings.

use crate::config::{LlmSettings, RetrySettings};

use super::client::ClientOptions;
use super::retry::RetryPolicy;

impl From<&RetrySettings> for RetryPolicy {
    fn from(s: &RetrySettings) -> Self {
        RetryPolicy {
            max_attempts: s.max_attempts,
            base_delay: s.base_delay,
            max_delay: s.max_delay,
        }
    }
}

impl ClientOptions {
    /// Transport options for the `[llm]` settings.
    pub fn from_settings(llm: &LlmSettings) -> Self {
        ClientOptions {
            connect_timeout: llm.connect_timeout,
            idle_timeout: llm.idle_timeout,
            retry: RetryPolicy::from(&llm.retry),
        }
    }
}
